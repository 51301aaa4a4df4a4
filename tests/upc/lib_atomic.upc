/* <upc_atomic.h> through upcc: atomic domains on shared objects, checked
 * against the sequential result: fetch-and-add counters (every fetched value
 * seen once), CSWAP elections, MIN/MAX/XOR/SUB/MULT/INC/DEC on several types,
 * strict and relaxed, UPC_PTS on a shared pointer-to-shared, upc_atomic_isfast. */
#include <upc.h>
#include <upc_atomic.h>
#include <stdio.h>

#define K 50 /* operations per thread */

shared int counter;
shared int seen[K * THREADS];
shared int winner;
shared long lmin, lmax;
shared unsigned long bits;
shared double dsum;
shared long long_prod;
shared int incdec;
shared int arr[THREADS];
shared int *shared sp;

static int failures;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("thread %d: line %d: ", MYTHREAD, __LINE__); \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      failures++;                                         \
    }                                                     \
  } while (0)

static long val(int t) { return (long)((t * 7919) % 101) - 50; }

int main(void) {
  const int T = THREADS;
  upc_atomicdomain_t *di = upc_all_atomicdomain_alloc(
      UPC_INT, UPC_ADD | UPC_GET | UPC_SET | UPC_CSWAP | UPC_INC | UPC_DEC | UPC_SUB, 0);
  upc_atomicdomain_t *dl = upc_all_atomicdomain_alloc(UPC_LONG, UPC_MIN | UPC_MAX | UPC_MULT | UPC_SET, 0);
  upc_atomicdomain_t *du = upc_all_atomicdomain_alloc(UPC_ULONG, UPC_XOR | UPC_OR | UPC_AND | UPC_SET,
                                                      UPC_ATOMIC_HINT_THROUGHPUT);
  upc_atomicdomain_t *dd = upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_ADD | UPC_SET, UPC_ATOMIC_HINT_LATENCY);
  upc_atomicdomain_t *dp = upc_all_atomicdomain_alloc(UPC_PTS, UPC_GET | UPC_SET | UPC_CSWAP, 0);
  CHECK(di && dl && du && dd && dp, "a domain is NULL");

  /* fetch-and-add: every value 0 .. K*THREADS-1 fetched exactly once */
  const int one = 1;
  for (int k = 0; k < K; k++) {
    int old = -1;
    if (k % 2)
      upc_atomic_relaxed(di, &old, UPC_ADD, &counter, &one, NULL);
    else
      upc_atomic_strict(di, &old, UPC_ADD, &counter, &one, NULL);
    if (old < 0 || old >= K * T) CHECK(0, "fetched %d", old);
    else seen[old] += 1; /* each index written by one thread only */
  }
  /* CSWAP election: exactly one thread replaces 0 */
  int zero = 0, me = MYTHREAD + 1, was = -1;
  upc_atomic_strict(di, &was, UPC_CSWAP, &winner, &zero, &me);
  /* MIN / MAX / XOR / MULT / double ADD from every thread */
  long v = val(MYTHREAD);
  upc_atomic_relaxed(dl, NULL, UPC_MIN, &lmin, &v, NULL);
  upc_atomic_relaxed(dl, NULL, UPC_MAX, &lmax, &v, NULL);
  unsigned long bit = 1UL << (MYTHREAD % 64) | 1UL << 63;
  upc_atomic_relaxed(du, NULL, UPC_XOR, &bits, &bit, NULL);
  double half = MYTHREAD + 0.5;
  upc_atomic_strict(dd, NULL, UPC_ADD, &dsum, &half, NULL);
  long two = MYTHREAD < 20 ? 2 : 1;
  upc_atomic_relaxed(dl, NULL, UPC_MULT, &long_prod, &two, NULL);
  /* INC twice, DEC once, SUB MYTHREAD */
  upc_atomic_relaxed(di, NULL, UPC_INC, &incdec, NULL, NULL);
  upc_atomic_relaxed(di, NULL, UPC_INC, &incdec, NULL, NULL);
  upc_atomic_relaxed(di, NULL, UPC_DEC, &incdec, NULL, NULL);
  int sub = MYTHREAD;
  upc_atomic_relaxed(di, NULL, UPC_SUB, &incdec, &sub, NULL);
  /* UPC_PTS: CSWAP a shared pointer-to-shared from NULL to &arr[MYTHREAD] */
  shared int *mine = &arr[MYTHREAD];
  shared int *expect = NULL;
  shared int *got = NULL;
  upc_atomic_strict(dp, &got, UPC_CSWAP, &sp, &expect, &mine);
  arr[MYTHREAD] = got == NULL; /* 1 on the thread whose swap succeeded */
  upc_barrier;

  CHECK(counter == K * T, "counter %d, expected %d", counter, K * T);
  if (MYTHREAD == 0)
    for (int i = 0; i < K * T; i++) CHECK(seen[i] == 1, "value %d fetched %d times", i, seen[i]);
  CHECK(winner >= 1 && winner <= T, "winner %d", winner);
  CHECK((was == 0) == (winner == MYTHREAD + 1), "CSWAP fetched %d, winner %d", was, winner);
  long emin = 0, emax = 0, eprod = 0; /* lmin/lmax/long_prod start at 0 */
  unsigned long ebits = 0;
  double esum = 0;
  for (int t = 0; t < T; t++) {
    emin = val(t) < emin ? val(t) : emin;
    emax = val(t) > emax ? val(t) : emax;
    ebits ^= 1UL << (t % 64) | 1UL << 63;
    esum += t + 0.5;
  }
  CHECK(lmin == emin && lmax == emax, "MIN %ld MAX %ld, expected %ld %ld", lmin, lmax, emin, emax);
  CHECK(bits == ebits, "XOR %lx, expected %lx", bits, ebits);
  CHECK(dsum == esum, "double ADD %g, expected %g", dsum, esum);
  CHECK(long_prod == eprod, "MULT of 0 is %ld", long_prod);
  CHECK(incdec == T - T * (T - 1) / 2, "INC/DEC/SUB %d, expected %d", incdec, T - T * (T - 1) / 2);
  int winners = 0, wt = -1;
  for (int t = 0; t < T; t++)
    if (arr[t]) winners++, wt = t;
  CHECK(winners == 1, "%d PTS CSWAP winners", winners);
  CHECK(sp == &arr[wt], "sp does not point to the winner's element");
  upc_barrier;

  /* SET and GET; MULT from 1 */
  if (MYTHREAD == 0) {
    long l1 = 1;
    upc_atomic_strict(dl, NULL, UPC_SET, &long_prod, &l1, NULL);
    shared int *z = NULL;
    upc_atomic_strict(dp, NULL, UPC_SET, &sp, &z, NULL);
  }
  upc_barrier;
  upc_atomic_relaxed(dl, NULL, UPC_MULT, &long_prod, &two, NULL);
  upc_barrier;
  long ep = 1;
  for (int t = 0; t < T; t++) ep *= t < 20 ? 2 : 1;
  CHECK(long_prod == ep, "MULT %ld, expected %ld", long_prod, ep);
  int now = -1;
  upc_atomic_relaxed(di, &now, UPC_GET, &counter, NULL, NULL);
  CHECK(now == K * T, "GET %d", now);
  shared int *q = &arr[0];
  upc_atomic_relaxed(dp, &q, UPC_GET, &sp, NULL, NULL);
  CHECK(q == NULL, "PTS GET after SET NULL");

  CHECK(upc_atomic_isfast(UPC_INT, UPC_ADD | UPC_CSWAP, NULL) == 1, "isfast INT");
  CHECK(upc_atomic_isfast(UPC_DOUBLE, UPC_ADD, &dsum) == 1, "isfast DOUBLE at &dsum");
  CHECK(upc_atomic_isfast(UPC_PTS, UPC_GET, NULL) == 0, "isfast PTS");
  upc_barrier;
  upc_all_atomicdomain_free(di);
  upc_all_atomicdomain_free(dl);
  upc_all_atomicdomain_free(du);
  upc_all_atomicdomain_free(dd);
  upc_all_atomicdomain_free(dp);
  upc_all_atomicdomain_free(NULL);

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_atomic: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
