/* <upc_collective.h> through upcc: the UPC 1.3 collectives on shared arrays,
 * checked against a sequential computation. Broadcast, scatter, gather,
 * gather_all, exchange and permute as in the UPC 1.3 spec's examples (§7.4);
 * reduce and prefix reduce with several ops and types, user functions, sync
 * flags; upc_all_reduceT_all; upc_all_sort. Runs at any THREADS. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>
#include <string.h>

#define NELEMS 10
#define N 7 /* reduction elements per thread */

static int failures;
#define CHECK(cond, ...)                                           \
  do {                                                             \
    if (!(cond)) {                                                 \
      printf("thread %d: line %d: ", MYTHREAD, __LINE__);          \
      printf(__VA_ARGS__);                                         \
      printf("\n");                                                \
      failures++;                                                  \
    }                                                              \
  } while (0)

/* ---- data movement (the spec's examples) ---- */
shared [] int bsrc[NELEMS];                 /* all on thread 0 */
shared [NELEMS] int bdst[NELEMS * THREADS]; /* one block per thread */
shared [] int ssrc[NELEMS * THREADS];       /* all on thread 0 */
shared [NELEMS] int sdst[NELEMS * THREADS];
shared [NELEMS] int gsrc[NELEMS * THREADS];
shared [] int gdst[NELEMS * THREADS];
shared [NELEMS] int psrc[NELEMS * THREADS];
shared [NELEMS] int pdst[NELEMS * THREADS];
shared int perm[THREADS];

/* Thread t's block of an upc_all_alloc(THREADS, bytes) area, as a private pointer
 * (every block starts at the same offset in each thread's partition). */
static int *block_of(shared void *area, int t) { return (int *)((shared char *)area + t); }

static void movement(void) {
  /* upc_all_broadcast: thread 0's NELEMS ints to every thread's block. */
  if (MYTHREAD == 0)
    for (int i = 0; i < NELEMS; i++) bsrc[i] = 100 + i;
  upc_all_broadcast(bdst, bsrc, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int i = 0; i < NELEMS; i++) CHECK(bdst[MYTHREAD * NELEMS + i] == 100 + i, "broadcast [%d]", i);

  /* upc_all_scatter: block t of thread 0's array to thread t. */
  if (MYTHREAD == 0)
    for (int i = 0; i < NELEMS * THREADS; i++) ssrc[i] = 7 * i + 1;
  upc_all_scatter(sdst, ssrc, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int i = 0; i < NELEMS; i++)
    CHECK(sdst[MYTHREAD * NELEMS + i] == 7 * (MYTHREAD * NELEMS + i) + 1, "scatter [%d]", i);

  /* upc_all_gather: thread t's block to block t of thread 0's array. */
  for (int i = 0; i < NELEMS; i++) gsrc[MYTHREAD * NELEMS + i] = 1000 * MYTHREAD + i;
  upc_all_gather(gdst, gsrc, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  if (MYTHREAD == 0)
    for (int t = 0; t < THREADS; t++)
      for (int i = 0; i < NELEMS; i++) CHECK(gdst[t * NELEMS + i] == 1000 * t + i, "gather [%d][%d]", t, i);

  /* upc_all_gather_all: every thread gets every block (dst: shared
   * [NELEMS*THREADS] int, one row per thread). */
  shared void *all = upc_all_alloc(THREADS, NELEMS * THREADS * sizeof(int));
  upc_all_gather_all(all, gsrc, sizeof(int) * NELEMS, 0 /* = IN_ALLSYNC | OUT_ALLSYNC */);
  int *mine = block_of(all, MYTHREAD);
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < NELEMS; i++) CHECK(mine[t * NELEMS + i] == 1000 * t + i, "gather_all [%d][%d]", t, i);

  /* upc_all_exchange: block j of thread i goes to block i of thread j. */
  shared void *xsrc = upc_all_alloc(THREADS, NELEMS * THREADS * sizeof(int));
  shared void *xdst = upc_all_alloc(THREADS, NELEMS * THREADS * sizeof(int));
  int *xs = block_of(xsrc, MYTHREAD);
  for (int j = 0; j < THREADS; j++)
    for (int i = 0; i < NELEMS; i++) xs[j * NELEMS + i] = 10000 * MYTHREAD + 100 * j + i;
  upc_all_exchange(xdst, xsrc, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  int *xd = block_of(xdst, MYTHREAD);
  for (int i = 0; i < THREADS; i++)
    for (int k = 0; k < NELEMS; k++)
      CHECK(xd[i * NELEMS + k] == 10000 * i + 100 * MYTHREAD + k, "exchange [%d][%d]", i, k);

  /* upc_all_permute: thread t's block to thread perm[t]. */
  perm[MYTHREAD] = (MYTHREAD + 1) % THREADS;
  for (int i = 0; i < NELEMS; i++) psrc[MYTHREAD * NELEMS + i] = 50 * MYTHREAD + i;
  upc_all_permute(pdst, psrc, perm, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  int from = (MYTHREAD + THREADS - 1) % THREADS;
  for (int i = 0; i < NELEMS; i++) CHECK(pdst[MYTHREAD * NELEMS + i] == 50 * from + i, "permute [%d]", i);

  /* the MYSYNC and NOSYNC flags, with the program's own barriers. */
  upc_barrier;
  if (MYTHREAD == 0)
    for (int i = 0; i < NELEMS; i++) bsrc[i] = -i;
  upc_barrier;
  upc_all_broadcast(bdst, bsrc, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < NELEMS; i++) CHECK(bdst[t * NELEMS + i] == -i, "broadcast NOSYNC [%d][%d]", t, i);
  upc_barrier;
  upc_all_scatter(sdst, ssrc, sizeof(int) * NELEMS, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
  upc_barrier;
  for (int i = 0; i < NELEMS * THREADS; i++) CHECK(sdst[i] == 7 * i + 1, "scatter MYSYNC [%d]", i);
  upc_barrier;
  if (MYTHREAD == 0) {
    upc_free(all);
    upc_free(xsrc);
    upc_free(xdst);
  }
}

/* ---- reductions: every op the type allows, checked sequentially ---- */
static int first_i(int a, int b) { (void)b; return a; } /* associative, not commutative */
static int max_i(int a, int b) { return a > b ? a : b; }
static double first_d(double a, double b) { (void)b; return a; }
static double sum_d(double a, double b) { return a + b; }

shared [N] int ri[N * THREADS];
shared [N] int pi_[N * THREADS];
shared int r_int;
shared int rall_i[THREADS];
shared [N] double rd[N * THREADS];
shared [N] double pd[N * THREADS];
shared double rdbl;
shared [N] signed char rc[N * THREADS];
shared [N] signed char pc[N * THREADS];
shared signed char rchar;
shared [N] unsigned long rul[N * THREADS];
shared [N] unsigned long pul[N * THREADS];
shared unsigned long rulong;
shared [N] float rf[N * THREADS];
shared float rflt;
shared [N] long double rld[N * THREADS];
shared long double rldbl;
shared [N] unsigned short rus[N * THREADS];
shared unsigned short rushort;
shared int cyc[5 * THREADS]; /* default layout, block 1 */
shared int rcyc;

static int value(int i) { return (i * 37 + 11) % 23 - 6; } /* -6 .. 16, mixed signs */
static int small(int i) { return i % 4 == 1 ? 2 : 1; }        /* products stay small */

static long long seq_int(unsigned long op, int n, int (*v)(int)) {
  long long r = v(0);
  for (int i = 1; i < n; i++) {
    long long x = v(i);
    switch (op) {
      case UPC_ADD: r += x; break;
      case UPC_MULT: r *= x; break;
      case UPC_AND: r &= x; break;
      case UPC_OR: r |= x; break;
      case UPC_XOR: r ^= x; break;
      case UPC_LOGAND: r = r && x; break;
      case UPC_LOGOR: r = r || x; break;
      case UPC_MIN: r = x < r ? x : r; break;
      case UPC_MAX: r = x > r ? x : r; break;
    }
  }
  return r;
}

static const char *opname(unsigned long op) {
  switch (op) {
    case UPC_ADD: return "ADD";
    case UPC_MULT: return "MULT";
    case UPC_AND: return "AND";
    case UPC_OR: return "OR";
    case UPC_XOR: return "XOR";
    case UPC_LOGAND: return "LOGAND";
    case UPC_LOGOR: return "LOGOR";
    case UPC_MIN: return "MIN";
    case UPC_MAX: return "MAX";
  }
  return "?";
}

static void reductions(void) {
  const int n = N * THREADS;
  const unsigned long int_ops[] = {UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR, UPC_LOGAND, UPC_LOGOR,
                                   UPC_MIN, UPC_MAX};
  /* int: every integer op, values with mixed signs (MULT on small values). */
  for (unsigned k = 0; k < sizeof int_ops / sizeof int_ops[0]; k++) {
    unsigned long op = int_ops[k];
    int (*v)(int) = op == UPC_MULT ? small : value;
    for (int i = 0; i < N; i++) ri[MYTHREAD * N + i] = v(MYTHREAD * N + i);
    upc_all_reduceI(&r_int, ri, op, n, N, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    CHECK(r_int == (int)seq_int(op, n, v), "reduceI %s: %d, expected %lld", opname(op), r_int, seq_int(op, n, v));
    upc_barrier;
  }
  /* prefix reduce, int: ADD, MAX, MULT */
  for (unsigned k = 0; k < 3; k++) {
    unsigned long op = k == 0 ? UPC_ADD : k == 1 ? UPC_MAX : UPC_MULT;
    int (*v)(int) = op == UPC_MULT ? small : value;
    for (int i = 0; i < N; i++) ri[MYTHREAD * N + i] = v(MYTHREAD * N + i);
    upc_all_prefix_reduceI(pi_, ri, op, n, N, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int i = 0; i < N; i++) {
      int j = MYTHREAD * N + i;
      CHECK(pi_[j] == (int)seq_int(op, j + 1, v), "prefix_reduceI %s [%d]: %d, expected %lld", opname(op), j, pi_[j],
            seq_int(op, j + 1, v));
    }
    upc_barrier;
  }
  /* user functions: UPC_FUNC (commutative) and UPC_NONCOMM_FUNC (order kept) */
  for (int i = 0; i < N; i++) ri[MYTHREAD * N + i] = value(MYTHREAD * N + i);
  upc_all_reduceI(&r_int, ri, UPC_FUNC, n, N, max_i, 0);
  CHECK(r_int == (int)seq_int(UPC_MAX, n, value), "reduceI FUNC max: %d", r_int);
  upc_barrier;
  upc_all_reduceI(&r_int, ri, UPC_NONCOMM_FUNC, n, N, first_i, 0);
  CHECK(r_int == value(0), "reduceI NONCOMM_FUNC first: %d", r_int);
  upc_all_prefix_reduceI(pi_, ri, UPC_NONCOMM_FUNC, n, N, first_i, 0);
  for (int i = 0; i < N; i++) CHECK(pi_[MYTHREAD * N + i] == value(0), "prefix NONCOMM_FUNC [%d]", i);
  /* the allreduce: the result at rall_i[t] for every thread t */
  upc_all_reduceI_all(rall_i, ri, UPC_ADD, n, N, NULL, 0);
  for (int t = 0; t < THREADS; t++)
    CHECK(rall_i[t] == (int)seq_int(UPC_ADD, n, value), "reduceI_all [%d]: %d", t, rall_i[t]);
  /* part of an array, starting mid-block (nelems not a multiple of the block) */
  if (n > 3) {
    upc_all_reduceI(&r_int, &ri[2], UPC_ADD, n - 3, N, NULL, 0);
    long long e = 0;
    for (int i = 2; i < n - 1; i++) e += value(i);
    CHECK(r_int == e, "reduceI of [2, n-1): %d, expected %lld", r_int, e);
  }
  /* block size 1 (the default layout) */
  for (int i = MYTHREAD; i < 5 * THREADS; i += THREADS) cyc[i] = value(i);
  upc_all_reduceI(&rcyc, cyc, UPC_MIN, 5 * THREADS, 1, NULL, 0);
  CHECK(rcyc == (int)seq_int(UPC_MIN, 5 * THREADS, value), "reduceI block 1 MIN: %d", rcyc);
  upc_barrier;

  /* double: ADD, MULT, MIN, MAX, FUNC, NONCOMM_FUNC; prefix ADD, NONCOMM_FUNC */
  for (int i = 0; i < N; i++) rd[MYTHREAD * N + i] = value(MYTHREAD * N + i) * 0.5;
  upc_all_reduceD(&rdbl, rd, UPC_ADD, n, N, NULL, 0);
  CHECK(rdbl == seq_int(UPC_ADD, n, value) * 0.5, "reduceD ADD: %g", rdbl);
  upc_all_reduceD(&rdbl, rd, UPC_MIN, n, N, NULL, 0);
  CHECK(rdbl == seq_int(UPC_MIN, n, value) * 0.5, "reduceD MIN: %g", rdbl);
  upc_all_reduceD(&rdbl, rd, UPC_MAX, n, N, NULL, 0);
  CHECK(rdbl == seq_int(UPC_MAX, n, value) * 0.5, "reduceD MAX: %g", rdbl);
  upc_all_reduceD(&rdbl, rd, UPC_FUNC, n, N, sum_d, 0);
  CHECK(rdbl == seq_int(UPC_ADD, n, value) * 0.5, "reduceD FUNC sum: %g", rdbl);
  upc_all_reduceD(&rdbl, rd, UPC_NONCOMM_FUNC, n, N, first_d, 0);
  CHECK(rdbl == value(0) * 0.5, "reduceD NONCOMM_FUNC: %g", rdbl);
  upc_all_prefix_reduceD(pd, rd, UPC_ADD, n, N, NULL, 0);
  for (int i = 0; i < N; i++) {
    int j = MYTHREAD * N + i;
    CHECK(pd[j] == seq_int(UPC_ADD, j + 1, value) * 0.5, "prefix_reduceD ADD [%d]: %g", j, pd[j]);
  }
  upc_barrier;
  for (int i = 0; i < N; i++) rd[MYTHREAD * N + i] = small(MYTHREAD * N + i);
  upc_all_reduceD(&rdbl, rd, UPC_MULT, n, N, NULL, 0);
  CHECK(rdbl == seq_int(UPC_MULT, n, small), "reduceD MULT: %g", rdbl);
  upc_barrier;

  /* signed char: ADD wraps like C's conversion of the sum; MIN, MAX, XOR; prefix ADD */
  for (int i = 0; i < N; i++) rc[MYTHREAD * N + i] = (signed char)value(MYTHREAD * N + i);
  upc_all_reduceC(&rchar, rc, UPC_MAX, n, N, NULL, 0);
  CHECK(rchar == seq_int(UPC_MAX, n, value), "reduceC MAX: %d", rchar);
  upc_all_reduceC(&rchar, rc, UPC_MIN, n, N, NULL, 0);
  CHECK(rchar == seq_int(UPC_MIN, n, value), "reduceC MIN: %d", rchar);
  upc_all_reduceC(&rchar, rc, UPC_XOR, n, N, NULL, 0);
  CHECK(rchar == (signed char)seq_int(UPC_XOR, n, value), "reduceC XOR: %d", rchar);
  upc_all_prefix_reduceC(pc, rc, UPC_ADD, n, N, NULL, 0);
  for (int i = 0; i < N; i++) {
    int j = MYTHREAD * N + i;
    CHECK(pc[j] == (signed char)seq_int(UPC_ADD, j + 1, value), "prefix_reduceC ADD [%d]: %d", j, pc[j]);
  }
  upc_barrier;

  /* unsigned long: ADD, AND, OR, LOGAND, MAX; prefix MIN */
  for (int i = 0; i < N; i++) rul[MYTHREAD * N + i] = (unsigned long)(value(MYTHREAD * N + i) + 6) << 40;
  upc_all_reduceUL(&rulong, rul, UPC_ADD, n, N, NULL, 0);
  CHECK(rulong == (unsigned long)(seq_int(UPC_ADD, n, value) + 6 * n) << 40, "reduceUL ADD: %lu", rulong);
  upc_all_reduceUL(&rulong, rul, UPC_OR, n, N, NULL, 0);
  {
    unsigned long e = 0, a = ~0UL;
    for (int i = 0; i < n; i++) e |= (unsigned long)(value(i) + 6) << 40, a &= (unsigned long)(value(i) + 6) << 40;
    CHECK(rulong == e, "reduceUL OR: %lx, expected %lx", rulong, e);
    upc_all_reduceUL(&rulong, rul, UPC_AND, n, N, NULL, 0);
    CHECK(rulong == a, "reduceUL AND: %lx, expected %lx", rulong, a);
  }
  upc_all_reduceUL(&rulong, rul, UPC_LOGAND, n, N, NULL, 0);
  {
    int all = 1;
    for (int i = 0; i < n; i++) all = all && value(i) + 6;
    CHECK(rulong == (unsigned long)all, "reduceUL LOGAND: %lu", rulong);
  }
  upc_all_prefix_reduceUL(pul, rul, UPC_MIN, n, N, NULL, 0);
  for (int i = 0; i < N; i++) {
    int j = MYTHREAD * N + i;
    CHECK(pul[j] == (unsigned long)(seq_int(UPC_MIN, j + 1, value) + 6) << 40, "prefix_reduceUL MIN [%d]", j);
  }
  upc_barrier;

  /* float, long double, unsigned short: ADD and MAX */
  for (int i = 0; i < N; i++) {
    int j = MYTHREAD * N + i;
    rf[j] = value(j) * 0.25f;
    rld[j] = value(j) * 0.125L;
    rus[j] = (unsigned short)(value(j) + 6);
  }
  upc_all_reduceF(&rflt, rf, UPC_ADD, n, N, NULL, 0);
  CHECK(rflt == seq_int(UPC_ADD, n, value) * 0.25f, "reduceF ADD: %g", rflt);
  upc_all_reduceLD(&rldbl, rld, UPC_MAX, n, N, NULL, 0);
  CHECK(rldbl == seq_int(UPC_MAX, n, value) * 0.125L, "reduceLD MAX: %Lg", rldbl);
  upc_all_reduceLD(&rldbl, rld, UPC_ADD, n, N, NULL, 0);
  CHECK(rldbl == seq_int(UPC_ADD, n, value) * 0.125L, "reduceLD ADD: %Lg", rldbl);
  upc_all_reduceUS(&rushort, rus, UPC_ADD, n, N, NULL, 0);
  CHECK(rushort == seq_int(UPC_ADD, n, value) + 6 * n, "reduceUS ADD: %u", rushort);
  upc_barrier;
}

/* ---- upc_all_sort (Collectives v1.0) ---- */
shared [3] int keys[3 * THREADS + 2];
static int by_value(shared void *a, shared void *b) {
  int x = *(shared int *)a, y = *(shared int *)b;
  return (x > y) - (x < y);
}

static void sort(void) {
  const int n = 3 * THREADS + 2;
  if (MYTHREAD == 0)
    for (int i = 0; i < n; i++) keys[i] = value(i * 5 + 3);
  upc_all_sort(keys, sizeof(int), n, 3, by_value, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  int counts[32] = {0}, sorted = 1;
  for (int i = 0; i < n; i++) counts[value(i * 5 + 3) + 6]++;
  for (int i = 0; i < n; i++) {
    counts[keys[i] + 6]--;
    if (i && keys[i - 1] > keys[i]) sorted = 0;
  }
  CHECK(sorted, "upc_all_sort: not sorted");
  for (int v = 0; v < 32; v++) CHECK(counts[v] == 0, "upc_all_sort: value %d count differs", v - 6);
  upc_barrier;
}

int main(void) {
  movement();
  reductions();
  sort();
  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_collective: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
