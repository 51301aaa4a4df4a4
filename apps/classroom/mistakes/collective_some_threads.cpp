// Mistake: a collective called by some threads only. Only thread 0 needs the
// total, so only thread 0 calls the reduction; but upc_all_reduceL, as every
// upc_all_* function, must be called by every thread. The fix: call it on
// every thread (the result still lands on thread 0 only).
//
// upcemu reports a deadlock, with or without --check: thread 0 waits in the
// collective, the others at the barrier that follows, and the two never pair.
#include <cstdio>

#include "upc.h"
#include "upc_collective.h"

upc::shared_array<long> hits(upc::per_thread(1));
upc::shared<long> total;

int upc_main(int, char**) {
  hits[MYTHREAD] = 100 + MYTHREAD;
  upc_barrier;
  if (MYTHREAD == 0)  // MISTAKE: every thread must make the call
    upc_all_reduceL(&total, hits, UPC_ADD, THREADS, 1, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  upc_barrier;
  if (MYTHREAD == 0) std::printf("total = %ld\n", total.get());
  return 0;
}
