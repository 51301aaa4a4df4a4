// Mistake: a upc_forall whose affinity gives every iteration to every thread.
// The study's most common Stencil error (seed 003 §2.2.2: "this work
// distribution causes all threads to perform all the operations over the whole
// array instead of splitting the array processing among the different
// threads"): here the affinity is left empty, `upc_forall (i = 1; i < N-1;
// i++; )`, which UPC reads as "every thread runs every iteration" (upcemu
// spells it UPC_CONTINUE). The answer is right; the program is no faster on
// any number of threads. The fix: `&v[i]` as the affinity.
//
// upcemu says nothing (the program is legal); the program counts the updates
// each thread made and reports the work that was not shared.
#include <cstdio>

#include "upc.h"

constexpr int per_thread = 1000;
upc::shared_array<double, per_thread> u{upc::per_thread(per_thread)}, v{upc::per_thread(per_thread)};
upc::shared_array<long> updates(upc::per_thread(1));

int upc_main(int, char**) {
  const int n = per_thread * THREADS, iterations = 10;
  upc_forall (int i = 0; i < n; i++, &u[i]) u[i] = v[i] = (i * 37 % 101) / 101.0;
  upc_barrier;

  long mine = 0;
  for (int it = 0; it < iterations; ++it) {
    const auto& src = it % 2 == 0 ? u : v;
    const auto& dst = it % 2 == 0 ? v : u;
    upc_forall (int i = 1; i < n - 1; i++, UPC_CONTINUE) {  // MISTAKE: no affinity (the fix: &dst[i])
      dst[i] = (src[i - 1] + src[i] + src[i + 1]) / 3.0;
      ++mine;
    }
    upc_barrier;
  }
  updates[MYTHREAD] = mine;
  upc_barrier;

  if (MYTHREAD != 0) return 0;
  const long all = static_cast<long>(n - 2) * iterations;
  long most = 0;
  for (int t = 0; t < THREADS; ++t) most = updates[t] > most ? static_cast<long>(updates[t]) : most;
  std::printf("%ld updates to make; the busiest thread made %ld of them\n", all, most);
  if (THREADS > 1 && most == all) {
    std::printf("NOT SHARED: every thread made all %ld updates (each should make about %ld): the upc_forall's affinity "
                "gives every iteration to every thread\n", all, all / THREADS);
    return 1;
  }
  return 0;
}
