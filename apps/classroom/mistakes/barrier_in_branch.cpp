// Mistake: a barrier inside a branch that not every thread takes. Threads that
// own some of the work compute, then wait for each other; threads with nothing
// to do skip the branch, barrier included, and go on to the reduction. A
// upc_barrier must be reached by every thread. The fix: move the barrier after
// the if.
//
// upcemu reports a deadlock, with or without --check: some threads wait at the
// barrier, the others in the collective, and the two never pair.
#include <cstdio>

#include "upc.h"
#include "upc_collective.h"

upc::shared_array<long> partial(upc::per_thread(1));
upc::shared<long> total;

int upc_main(int, char**) {
  const int items = 2;  // fewer items than threads: some threads get none
  partial[MYTHREAD] = 0;
  if (MYTHREAD < items) {
    partial[MYTHREAD] = 10 * (MYTHREAD + 1);
    upc_barrier;  // MISTAKE: only the threads with an item get here
  }
  upc_all_reduceL(&total, partial, UPC_ADD, THREADS, 1, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  if (MYTHREAD == 0) std::printf("total = %ld\n", total.get());
  return 0;
}
