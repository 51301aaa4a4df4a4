// Mistake: privatising an element another thread owns. Listing 2.1 of seed 003
// takes a pointer to local memory to the start of the calling thread's block,
// `(int *) &x[MYTHREAD * N/THREADS]`; a student writes `&x[MYTHREAD]`, which is
// in thread 0's block. Casting a pointer-to-shared to a local pointer is only
// allowed for data with affinity to the calling thread.
//
// upcemu stops the run at the cast (always checked), naming the owner and the
// calling thread, and what to use instead.
#include <cstdio>

#include "upc.h"

constexpr int per_thread = 100;
upc::shared_array<int, per_thread> x{upc::per_thread(per_thread)};  // shared [100] int x[100*THREADS];

int upc_main(int, char**) {
  upc_forall (int i = 0; i < per_thread * THREADS; i++, &x[i]) x[i] = 1;
  upc_barrier;
  int* mine = (&x[MYTHREAD]).local();  // MISTAKE: &x[MYTHREAD * per_thread]
  long sum = 0;
  for (int i = 0; i < per_thread; ++i) sum += mine[i];
  upc_barrier;
  if (MYTHREAD == 0) std::printf("thread 0's block sums to %ld\n", sum);
  return 0;
}
