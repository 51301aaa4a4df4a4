/* <, >, <=, >= between pointers-to-shared compare the places pointed to (C99
   6.5.8; UPC 1.3 6.4.2p6 says the same of == and !=): a pointer whose phase was
   reset (a cast through shared [], upc_resetphase) is equal to, not before,
   the pointer to the same element, and orders by address against its
   neighbours on the same thread. Consistent pointers across threads and rows
   keep their element order. */
#include <upc.h>
#include <stdio.h>

#define B 8
shared [B] int A[B * THREADS];
shared [3] long L3[9 * THREADS];

static int errors;
static void check(int ok, const char *what, int i) {
  if (!ok) {
    printf("thread %d: FAIL %s (%d)\n", MYTHREAD, what, i);
    errors++;
  }
}

int main(void) {
  for (int i = 1; i < B - 1; i++) {
    shared [] int *flat = (shared [] int *)&A[i];   /* phase 0 (UPC 1.3 6.4.3) */
    shared [B] int *q = (shared [B] int *)flat;     /* still phase 0, same address */
    shared [B] int *r = upc_resetphase(&A[i]);
    check(upc_phaseof(q) == 0 && upc_phaseof(&A[i]) == (size_t)i, "phases", i);
    check(q == &A[i] && r == &A[i], "==", i);
    check(q <= &A[i] && q >= &A[i] && &A[i] <= q && &A[i] >= q, "<= and >= at the same address", i);
    check(!(q < &A[i]) && !(q > &A[i]) && !(&A[i] < q) && !(&A[i] > q), "< and > at the same address", i);
    check(r <= &A[i] && r >= &A[i] && !(r < &A[i]) && !(r > &A[i]), "upc_resetphase", i);
    check(q < &A[i + 1] && q > &A[i - 1] && &A[i + 1] > q && &A[i - 1] < q, "neighbours", i);
    check(q <= &A[i + 1] && !(q >= &A[i + 1]) && q >= &A[i - 1] && !(q <= &A[i - 1]), "neighbours <=", i);
  }
  /* consistent pointers: the element order, across threads and rows */
  for (int i = 0; i + 1 < 9 * THREADS; i++) {
    shared [3] long *p = &L3[i], *n = &L3[i + 1], *far = &L3[9 * THREADS - 1];
    check(p < n && n > p && p <= n && !(p >= n), "L3[i] < L3[i+1]", i);
    check(p <= far && (i + 1 == 9 * THREADS - 1 ? n == far : n < far), "L3[i] <= last", i);
    check(!(p < p) && p <= p && p >= p, "p against itself", i);
  }
  for (int t = 1; t < THREADS; t++)
    check(&A[t * B] > &A[t * B - 1] && &A[(t - 1) * B] < &A[t * B], "across threads", t);
  upc_barrier;
  if (errors == 0 && MYTHREAD == 0) printf("rel_phase: ok at %d threads\n", THREADS);
  return errors != 0;
}
