/* Pointers-to-shared: &a[i], p++, *p, p[i], p + i, p - q, comparisons, casts to
 * a private pointer with local affinity, upc_all_alloc. */
#include <upc.h>
#include <stdio.h>

#define N 6
shared int a[N * THREADS];
shared [3] double d[6 * THREADS];

int main(void) {
  int bad = 0;
  upc_forall (int i = 0; i < N * THREADS; i++; &a[i]) a[i] = i;
  upc_forall (int i = 0; i < 6 * THREADS; i++; &d[i]) d[i] = i * 0.25;
  upc_barrier;
  shared int *p = &a[0];
  for (int i = 0; i < N * THREADS; i++) {
    if (*p != i) { printf("*p = %d at %d\n", *p, i); bad = 1; }
    if (upc_threadof(p) != (size_t)(i % THREADS)) bad = 1;
    p++;
  }
  shared int *q = a;
  if (p - q != N * THREADS) { printf("p - q = %ld\n", (long)(p - q)); bad = 1; }
  if (!(q < p) || q == p) bad = 1;
  for (int i = 0; i < N * THREADS; i++) if (q[i] != i || *(q + i) != i) bad = 1;
  shared [3] double *r = &d[1];
  r += 3;
  if (*r != 1.0 || upc_threadof(r) != (size_t)(1 % THREADS)) { printf("*r = %g\n", *r); bad = 1; }
  int *mine = (int *)&a[MYTHREAD];
  if (*mine != MYTHREAD) bad = 1;
  shared int *dyn = (shared int *)upc_all_alloc(THREADS, 4 * sizeof(int));
  dyn[MYTHREAD] = MYTHREAD + 10;
  upc_barrier;
  for (int i = 0; i < THREADS; i++) if (dyn[i] != i + 10) bad = 1;
  upc_barrier;
  if (MYTHREAD == 0) upc_free(dyn);
  shared int *null = NULL;
  if (null != NULL || p == NULL) bad = 1;
  return bad;
}
