// Mistake: reading the other threads' results without a barrier. The most
// common error of the study's Buffon-Laplace codes (seed 003 §2.2.2: "these
// participants forgot to synchronize the threads after the computation of the
// Pi estimation in each thread ... there is no guarantee that the partial
// results are updated when the root thread tries to retrieve them").
//
// Thread 0 adds up hits[] as soon as its own count is in. The fix is the
// upc_barrier that comes one statement too late.
//
// Without --check=races upcemu says nothing; with it, the race is reported at
// the two lines, on every run (docs/races.md). The program's
// own check finds the wrong answer. So that the race shows on every run, the
// other threads start late, as threads on a busier core would; without the
// delay the mistake is the same but the answer is wrong only some of the time.
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "upc.h"

upc::shared_array<long> hits(upc::per_thread(1));  // shared long hits[THREADS];

int upc_main(int, char**) {
  std::mt19937_64 rng(1000 + MYTHREAD);
  hits[MYTHREAD] = 0;
  upc_barrier;
  if (MYTHREAD != 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a slower thread

  long mine = 0;
  for (int i = 0; i < 100000; ++i) {
    const double x = (rng() >> 11) * 0x1.0p-53, y = (rng() >> 11) * 0x1.0p-53;
    if (x * x + y * y < 1.0) ++mine;
  }
  hits[MYTHREAD] = mine;

  long total = 0;
  if (MYTHREAD == 0)  // MISTAKE: no upc_barrier before reading the other threads' counts
    for (int t = 0; t < THREADS; ++t) total += hits[t];
  upc_barrier;  // the fix: this barrier belongs before the sum

  if (MYTHREAD != 0) return 0;
  long after = 0;
  for (int t = 0; t < THREADS; ++t) after += hits[t];
  std::printf("pi ~= %.5f from %ld hits of %d darts\n", 4.0 * total / (100000.0 * THREADS), total, 100000 * THREADS);
  if (total != after) {
    std::printf("WRONG: thread 0 added the counts before every thread had written its own: %ld hits, but after the "
                "barrier hits[] holds %ld\n", total, after);
    return 1;
  }
  return 0;
}
