/* UPC 1.2's upc_local_alloc(nblocks, nbytes) (removed in UPC 1.3, still used by
 * old codes): non-null, with affinity to the calling thread, nblocks * nbytes
 * usable bytes, freed by upc_free; several at once per thread. */
#include <upc.h>
#include <stdio.h>

#define N 4

int main(void) {
  shared char *p[N];
  shared [] int *q;
  int i, k, fails = 0;
  for (i = 0; i < N; ++i) {
    p[i] = upc_local_alloc(3, 1000);
    if (!p[i] || upc_threadof(p[i]) != (size_t)MYTHREAD) fails++;
  }
  q = (shared [] int *)upc_local_alloc(10, sizeof(int));
  if (!q) fails++;
  for (k = 0; k < 10; ++k) q[k] = MYTHREAD * 10 + k;
  for (i = 0; i < N; ++i) {
    char *l = (char *)p[i];
    for (k = 0; k < 3000; ++k) l[k] = (char)(i + k);
  }
  for (i = 0; i < N; ++i) {
    char *l = (char *)p[i];
    for (k = 0; k < 3000; ++k) if (l[k] != (char)(i + k)) { fails++; break; }
    upc_free(p[i]);
  }
  for (k = 0; k < 10; ++k) if (q[k] != MYTHREAD * 10 + k) fails++;
  upc_barrier;
  upc_free(q);
  if (fails) { fprintf(stderr, "%d: local_alloc: %d failures\n", MYTHREAD, fails); return 1; }
  if (MYTHREAD == 0) printf("local_alloc: passed\n");
  return 0;
}
