// Which keys each thread holds, and NPB's key generator. Key g (0 <= g <
// TOTAL_KEYS) is MAX_KEY/4 times the sum of the random numbers 4g+1 .. 4g+4 of
// NPB's sequence (seed 314159265, multiplier 5^13), so the key set does not
// depend on THREADS: thread t holds the keys [t*B, (t+1)*B) with
// B = ceil(TOTAL_KEYS / THREADS), as NPB 3.x does, and starts its stream 4*t*B
// numbers in (NPB's find_my_seed, here an exact jump a^(4tB) mod 2^46).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "is_class.hpp"
#include "npb_random.hpp"

namespace is {

struct key_distribution {
  std::int64_t total = 0;  // TOTAL_KEYS
  std::int64_t block = 0;  // B: the most keys a thread holds
  int threads = 1;

  key_distribution(std::int64_t total_keys, int nthreads)
      : total(total_keys), block((total_keys + nthreads - 1) / nthreads), threads(nthreads) {}

  std::int64_t first(int t) const { return std::min(static_cast<std::int64_t>(t) * block, total); }
  std::int64_t end(int t) const { return std::min(static_cast<std::int64_t>(t + 1) * block, total); }
  std::int64_t count(int t) const { return end(t) - first(t); }
  int owner(std::int64_t g) const { return static_cast<int>(g / block); }
};

// Thread t's keys, in global order.
inline std::vector<int> generate_keys(const problem_class& c, const key_distribution& d, int t) {
  const double a = npb::default_multiplier;
  double x = npb::default_seed;
  const double jump = npb::power_mod(a, 4 * static_cast<std::uint64_t>(d.first(t)));
  npb::randlc(x, jump);  // x = seed * a^(4 first) mod 2^46
  const int k = c.max_key() / 4;
  std::vector<int> keys(static_cast<std::size_t>(d.count(t)));
  for (int& key : keys) {
    double sum = npb::randlc(x, a);
    sum += npb::randlc(x, a);
    sum += npb::randlc(x, a);
    sum += npb::randlc(x, a);
    key = static_cast<int>(k * sum);
  }
  return keys;
}

}  // namespace is
