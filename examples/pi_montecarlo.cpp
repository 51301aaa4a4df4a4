// Pi by Monte Carlo, the classroom code of seed 003 (§2.2): every thread throws its
// share of random points into the unit square and counts the hits inside the
// quarter circle; 4 * hits / trials approximates pi.
//
//   upcrun -n 4 ./pi_montecarlo [trials]        (default 10000000, as in the thesis)
//
// The per-thread counts are combined twice, as students are taught to: each thread
// writes its count into a shared array (hits[MYTHREAD]), and adds it to a shared
// accumulator under a lock. Thread 0 checks that both agree and, for the default
// number of trials, that pi is within 0.01 of 3.14159; the exit status is 1 if not.
//
// Each thread seeds its own generator from MYTHREAD, and mt19937_64 plus the
// conversion below are fully specified, so a given THREADS prints the same digits
// on every machine and on both backends.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "upc.h"

upc::shared_array<long long> hits(upc::per_thread(1));  // shared long long hits[THREADS];
upc::shared<long long> total_hits;                      // shared long long total_hits;

namespace {
constexpr long long default_trials = 10'000'000;

// A double uniformly distributed in [0, 1), from the top 53 bits of one draw.
double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// The trial count from argv[1]; 0 if it is not a positive integer.
long long parse_trials(int argc, char** argv) {
  if (argc < 2) return default_trials;
  errno = 0;
  char* end = nullptr;
  long long n = std::strtoll(argv[1], &end, 10);
  if (errno != 0 || end == argv[1] || *end != '\0' || n <= 0) return 0;
  return n;
}
}  // namespace

int upc_main(int argc, char** argv) {
  const long long trials = parse_trials(argc, argv);
  if (trials == 0) {
    if (MYTHREAD == 0) std::fprintf(stderr, "usage: pi_montecarlo [trials > 0], got '%s'\n", argv[1]);
    return 2;
  }
  upc_lock_t* lock = upc_all_lock_alloc();  // collective: every thread gets the same lock

  // This thread's share: trials / THREADS, plus one for the first (trials % THREADS).
  const long long mine = trials / THREADS + (MYTHREAD < trials % THREADS ? 1 : 0);
  std::mt19937_64 rng(20090212u + 7919u * static_cast<unsigned>(MYTHREAD));
  long long count = 0;
  for (long long i = 0; i < mine; ++i) {
    const double x = uniform01(rng), y = uniform01(rng);
    if (x * x + y * y < 1.0) ++count;
  }

  hits[MYTHREAD] = count;  // a plain write to this thread's own element
  upc_lock(lock);          // read-modify-write of a shared scalar: needs the lock
  total_hits += count;
  upc_unlock(lock);
  upc_barrier;             // every count is in place after this

  int status = 0;
  if (MYTHREAD == 0) {
    long long sum = 0;
    for (int t = 0; t < THREADS; ++t) sum += hits[t];
    const double pi = 4.0 * static_cast<double>(sum) / static_cast<double>(trials);
    const double error = std::fabs(pi - 3.14159);
    std::printf("pi ~= %.6f from %lld trials on %d threads (|pi - 3.14159| = %.6f)\n", pi, trials, THREADS, error);
    if (sum != total_hits.get()) {
      std::printf("FAILED: the shared array sums to %lld hits but the locked accumulator holds %lld\n", sum,
                  total_hits.get());
      status = 1;
    }
    if (trials == default_trials && !(error < 0.01)) {
      std::printf("FAILED: pi is off by more than 0.01\n");
      status = 1;
    }
  }
  upc_all_lock_free(lock);  // collective, like the allocation
  return status;
}
