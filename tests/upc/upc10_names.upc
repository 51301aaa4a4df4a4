/* UPC 1.0's names (<upc_compat.h>): built twice (tests/meson.build). With
 * -DUPCEMU_UPC10_NAMES, `forall`, `barrier`, `barrier_notify`,
 * `barrier_wait` and `fence` are the UPC statements, as in old code; without
 * it they are ordinary identifiers, as UPC 1.1 and later have them. */
#include <upc.h>
#include <stdio.h>

#define N 10
shared int x[N * THREADS];
shared int total;

int main(void) {
  int i, failures = 0;
#ifdef UPCEMU_UPC10_NAMES
  forall (i = 0; i < N * THREADS; i++; &x[i]) x[i] = i + 1;
  barrier;
  if (MYTHREAD == 0) {
    int sum = 0;
    for (i = 0; i < N * THREADS; i++) sum += x[i];
    total = sum;
    fence;
  }
  barrier_notify 3;
  barrier_wait 3;
  if (total != N * THREADS * (N * THREADS + 1) / 2) {
    printf("thread %d: total %d\n", MYTHREAD, total);
    failures++;
  }
  barrier;
#else
  int barrier = 3, fence = 4, forall = 5; /* ordinary names */
  upc_forall (i = 0; i < N * THREADS; i++; &x[i]) x[i] = barrier + fence + forall;
  upc_barrier;
  for (i = 0; i < N * THREADS; i++)
    if (x[i] != 12) failures++;
#endif
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("upc10_names: OK\n");
  return failures != 0;
}
