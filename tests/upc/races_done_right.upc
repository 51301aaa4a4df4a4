/* The race check's kinds done right: every one runs clean under --check=races.
 * A barrier between producer and consumer, a lock around an update, a strict
 * flag for a handshake, split phase with only local work in the window,
 * upc_memput ordered by a barrier. */
#include <upc.h>
#include <stdio.h>
shared long hits[THREADS];
shared long own[THREADS];
shared long sum;
strict shared int flag;
shared int data;
shared [4] int blocks[4 * THREADS];
int main(void) {
  upc_lock_t *lock = upc_all_lock_alloc();
  long total = 0;
  int t, i, s = 0, mine[4] = {1, 2, 3, 4};
  hits[MYTHREAD] = MYTHREAD + 1;
  upc_barrier;
  if (MYTHREAD == 0)
    for (t = 0; t < THREADS; t++) total += hits[t];
  for (i = 0; i < 10; i++) {
    upc_lock(lock);
    sum += 1;
    upc_unlock(lock);
  }
  upc_notify;
  own[MYTHREAD] += 1; /* its own element, which nobody touches in this phase */
  upc_wait;
  if (MYTHREAD == 0) {
    data = 42;
    flag = 1;
  } else if (MYTHREAD == 1) {
    while (flag == 0) upc_poll();
    if (data != 42) return 1;
  }
  upc_memput(&blocks[4 * ((MYTHREAD + 1) % THREADS)], mine, sizeof mine);
  upc_barrier;
  for (i = 0; i < 4; i++) s += blocks[4 * MYTHREAD + i];
  if (MYTHREAD == 0 && (total != (long)THREADS * (THREADS + 1) / 2 || sum != 10L * THREADS || s != 10)) {
    printf("wrong: total %ld sum %ld s %d\n", total, (long)sum, s);
    return 1;
  }
  upc_barrier;
  if (MYTHREAD == 0) upc_lock_free(lock);
  return 0;
}
