// NPB IS's full verification, after the timed iterations: every thread puts the
// keys it ranked in the last iteration at their ranks (minus the keys of the
// threads before it) and checks that they come out sorted, and that its first
// key is not less than the last key of the threads before it.
#pragma once
#include <cstdio>
#include <vector>

#include "ranking.hpp"
#include "upc.h"

namespace is {

// Adds 1 to d.passed when this thread's keys are in order.
inline void full_verify(rank_data& d) {
  upc::shared_array<int> lastkeys{upc::per_thread(1)};  // each thread's greatest key, -1 for none
  const std::int64_t n = d.local_keys;
  std::vector<int> sorted(static_cast<std::size_t>(n));
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const int key = d.key_buff2[static_cast<std::size_t>(i)];
    const std::int64_t slot = key - d.min_key_val;
    if (slot < 0 || slot >= static_cast<std::int64_t>(d.key_counts.size())) {
      ++wrong;  // a key outside my buckets: the exchange delivered the wrong keys
      continue;
    }
    const std::int64_t at = --d.key_counts[static_cast<std::size_t>(slot)] - d.lesser_keys;
    if (at < 0 || at >= n) {
      ++wrong;
      continue;
    }
    sorted[static_cast<std::size_t>(at)] = key;
  }
  lastkeys[static_cast<std::size_t>(MYTHREAD)] = n > 0 ? sorted[static_cast<std::size_t>(n - 1)] : -1;
  upc_barrier;
  int before = -1;
  for (int t = 0; t < MYTHREAD; ++t) before = std::max(before, static_cast<int>(lastkeys[static_cast<std::size_t>(t)]));
  if (n > 0 && before > sorted[0]) ++wrong;
  for (std::int64_t i = 1; i < n; ++i)
    if (sorted[static_cast<std::size_t>(i - 1)] > sorted[static_cast<std::size_t>(i)]) ++wrong;
  if (wrong != 0)
    std::printf("Thread %d: full verification: %lld keys out of sort\n", MYTHREAD, static_cast<long long>(wrong));
  else
    ++d.passed;
  upc_barrier;  // lastkeys is freed when this scope ends
}

}  // namespace is
