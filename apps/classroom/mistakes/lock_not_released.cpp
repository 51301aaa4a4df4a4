// Mistake: a lock that is never released. The sum is protected by a lock, as
// it should be, but the upc_unlock was forgotten: the first thread to take the
// lock keeps it, and every other thread waits for it for ever.
//
// upcemu reports a deadlock, with or without --check, naming the lock's holder
// and where each thread waits.
#include <cstdio>

#include "upc.h"

upc::shared<long> total;

int upc_main(int, char**) {
  upc_lock_t* lock = upc_all_lock_alloc();
  if (MYTHREAD == 0) total = 0;
  upc_barrier;
  upc_lock(lock);
  total += MYTHREAD + 1;  // MISTAKE: upc_unlock(lock) is missing after this line
  upc_barrier;
  if (MYTHREAD == 0) std::printf("total = %ld\n", total.get());
  return 0;
}
