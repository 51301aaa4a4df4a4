/* <xupc_collective.h> (seed 001's xupc library) through upcc, checked against
 * sequential computations: broadcast and exchange with each algorithm flag,
 * broadcast in place, the allreduce, the MPI-style reduce and allreduce, and
 * the suffix reduction. */
#include <upc.h>
#include <xupc_collective.h>
#include <stdio.h>

#define K 5
#define SYNC (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC)

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

shared [] int src0[K];
shared [K] int A[K * THREADS];
shared [K] int B[K * THREADS];
shared int all[THREADS];
shared [K] long M[K * THREADS];
shared [K] long MR[K * THREADS];
shared [K] int SU[K * THREADS];
static int val(int i) { return (i * 13 + 5) % 11 - 4; }

int main(void) {
  const int T = THREADS, me = MYTHREAD;
  const int algs[3] = {UPC_PULL, UPC_PUSH, 0};
  upc_coll_init(); /* the library's one-time initialisation, as its programs call it */
  for (int a = 0; a < 3; a++) {
    if (me == 0)
      for (int i = 0; i < K; i++) src0[i] = 10 * a + i;
    upc_barrier;
    xupc_all_broadcast(A, src0, K * sizeof(int), SYNC | algs[a]);
    for (int i = 0; i < K; i++) CHECK(A[me * K + i] == 10 * a + i, "broadcast alg %d [%d]", a, i);
    upc_barrier;
  }
  /* broadcast in place from thread 0's block (the buffer's thread) */
  for (int i = 0; i < K; i++) A[me * K + i] = 100 * me + i + 7;
  xupc_all_broadcast_in_place(A, K * sizeof(int), SYNC);
  for (int i = 0; i < K; i++) CHECK(A[me * K + i] == i + 7, "broadcast_in_place [%d]", i);
  upc_barrier;
  /* exchange of one int per pair: dst shared [T] int, src the same */
  shared void *xs = upc_all_alloc(T, T * sizeof(int));
  shared void *xd = upc_all_alloc(T, T * sizeof(int));
  int *ls = (int *)((shared char *)xs + me), *ld = (int *)((shared char *)xd + me);
  for (int j = 0; j < T; j++) ls[j] = 1000 * me + j;
  xupc_all_exchange(xd, xs, sizeof(int), SYNC | UPC_PUSH);
  for (int i = 0; i < T; i++) CHECK(ld[i] == 1000 * i + me, "exchange [%d] = %d", i, ld[i]);
  upc_barrier;
  if (me == 0) upc_free(xs), upc_free(xd);

  /* allreduce: the sum at all[t] for every t */
  for (int i = 0; i < K; i++) B[me * K + i] = val(me * K + i);
  xupc_all_reduceI_all(all, B, UPC_ADD, K * T, K, NULL, SYNC);
  int e = 0;
  for (int i = 0; i < K * T; i++) e += val(i);
  for (int t = 0; t < T; t++) CHECK(all[t] == e, "reduceI_all [%d] = %d, expected %d", t, all[t], e);
  /* MPI-style: element-wise over the threads' blocks */
  for (int i = 0; i < K; i++) M[me * K + i] = (long)val(me + 3 * i) * 1000;
  xupc_all_reduceL_mpi(&MR[0], M, UPC_MAX, K * T, K, NULL, SYNC);
  if (me == 0)
    for (int i = 0; i < K; i++) {
      long m = (long)val(3 * i) * 1000;
      for (int t = 1; t < T; t++) m = (long)val(t + 3 * i) * 1000 > m ? (long)val(t + 3 * i) * 1000 : m;
      CHECK(MR[i] == m, "reduceL_mpi [%d] = %ld, expected %ld", i, MR[i], m);
    }
  upc_barrier;
  xupc_all_reduceL_mpi_all(MR, M, UPC_ADD, K * T, K, NULL, SYNC);
  for (int i = 0; i < K; i++) {
    long s = 0;
    for (int t = 0; t < T; t++) s += (long)val(t + 3 * i) * 1000;
    CHECK(MR[me * K + i] == s, "reduceL_mpi_all [%d] = %ld, expected %ld", i, MR[me * K + i], s);
  }
  /* suffix reduction: SU[i] = B[i] + ... + B[n-1] */
  xupc_all_suffix_reduceI(SU, B, UPC_ADD, K * T, K, NULL, SYNC);
  for (int i = 0; i < K; i++) {
    int j = me * K + i, s = 0;
    for (int k = j; k < K * T; k++) s += val(k);
    CHECK(SU[j] == s, "suffix_reduceI [%d] = %d, expected %d", j, SU[j], s);
  }

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_xupc: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
