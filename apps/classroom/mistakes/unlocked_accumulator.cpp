// Mistake: adding to a shared accumulator without a lock. The second error of
// the study's Buffon-Laplace codes (seed 003 §2.2.2: "6 out of these 10
// erroneous codes also used a scalar shared variable to retrieve without
// synchronization the partial results for every thread ... thus causing a race
// condition").
//
// `total += mine` on a shared scalar is a read followed by a write: two threads
// that read before either writes both add to the same old value, and one count
// is lost. The fix: upc_lock around it, or hits[MYTHREAD] = mine and a
// reduction.
//
// Without --check=races upcemu says nothing; with it, the race is reported at
// the two lines, on every run (docs/races.md). The program's
// own check finds the wrong answer. The read and the write are written out
// below with a pause between them, so that every thread reads before any
// writes on every run; without it the window is a few nanoseconds wide and the
// answer is wrong only some of the time.
#include <chrono>
#include <cstdio>
#include <thread>

#include "upc.h"

upc::shared_array<long> hits(upc::per_thread(1));  // each thread's count, to check the total
upc::shared<long> total;                           // shared long total;

int upc_main(int, char**) {
  const long mine = 1000 + MYTHREAD;  // this thread's count
  hits[MYTHREAD] = mine;
  if (MYTHREAD == 0) total = 0;
  upc_barrier;

  // MISTAKE: total += mine, without upc_lock / upc_unlock around it
  const long seen = total;                                      // total += mine reads ...
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // (another thread reads here too)
  total = seen + mine;                                          // ... then writes
  upc_barrier;

  if (MYTHREAD != 0) return 0;
  long expected = 0;
  for (int t = 0; t < THREADS; ++t) expected += hits[t];
  std::printf("total = %ld\n", total.get());
  if (total.get() != expected) {
    std::printf("WRONG: the shared total holds %ld but the counts add up to %ld: updates were lost\n", total.get(),
                expected);
    return 1;
  }
  return 0;
}
