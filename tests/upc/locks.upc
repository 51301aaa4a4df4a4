/* upc_lock_t with upc_all_lock_alloc and upc_global_lock_alloc: a counter
 * incremented under a lock by every thread. */
#include <upc.h>
#include <stdio.h>

shared int counter;
shared long total;
upc_lock_t *lock;

int main(void) {
  lock = upc_all_lock_alloc();
  for (int k = 0; k < 1000; k++) {
    upc_lock(lock);
    counter = counter + 1;
    total += MYTHREAD;
    upc_unlock(lock);
  }
  upc_barrier;
  int bad = counter != 1000 * THREADS || total != 1000L * THREADS * (THREADS - 1) / 2;
  if (bad) printf("counter %d total %ld\n", counter, total);
  upc_barrier;
  if (MYTHREAD == 0) upc_lock_free(lock);
  return bad;
}
