/* upc_forall with integer, pointer (&a[i]) and empty affinity, and continue. */
#include <upc.h>
#include <stdio.h>

#define N 7
shared int a[N * THREADS];
shared [2] int b[N * THREADS];
shared int hits[N * THREADS];

int main(void) {
  int bad = 0, mine = 0;
  upc_forall (int i = 0; i < N * THREADS; i++; i) {
    if (i % THREADS != MYTHREAD) bad = 1;
    a[i] = MYTHREAD;
  }
  upc_forall (int i = 0; i < N * THREADS; i++; &b[i]) b[i] = MYTHREAD + 1;
  upc_forall (int i = 0; i < N * THREADS; i++; &a[i]) {
    if (i % 2) continue;
    hits[i] += 1;
  }
  upc_forall (int i = 0; i < 3; i++; ) mine++;
  upc_barrier;
  for (int i = 0; i < N * THREADS; i++) {
    if (a[i] != i % THREADS) { printf("a[%d] = %d\n", i, a[i]); bad = 1; }
    if (b[i] != (int)upc_threadof(&b[i]) + 1) { printf("b[%d] = %d\n", i, b[i]); bad = 1; }
    if (hits[i] != (i % 2 ? 0 : 1)) { printf("hits[%d] = %d\n", i, hits[i]); bad = 1; }
  }
  if (mine != 3) bad = 1;
  return bad;
}
