/* <upc_collective_ext.h> (seed 003's extended collectives, Appendix A) and
 * <teamutil.h> through upcc, checked against sequential computations: in-place
 * and rooted broadcast, in-place exchange, the vector variants scatter_v and
 * gather_v, in-place reduce and prefix reduce, the private (_priv) broadcast,
 * gather_all and allreduce, and a team's broadcast and allreduce with the team
 * interface. Runs at any THREADS. */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>
#include <string.h>

#define NE 8    /* elements per block */
#define BIG 64  /* a block that holds every chunk */

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

shared [NE] int A[NE * THREADS];
shared [NE] int B[NE * THREADS];
shared [BIG] int S[BIG * THREADS];
shared [BIG] int G[BIG * THREADS];
shared int ddisp[THREADS];
shared size_t counts[THREADS];
shared [NE] double R[NE * THREADS];
shared [NE] int P[NE * THREADS];
shared [NE] long TD[NE * THREADS];
shared [NE] long TS[NE * THREADS];

static int count_of(int t) { return t % 3 + 1; }
static int start_of(int t) { /* where chunk t starts in S: the chunks one after the other */
  int s = 0;
  for (int u = 0; u < t; u++) s += count_of(u);
  return s;
}

int main(void) {
  const int T = THREADS, me = MYTHREAD;

  /* ---- in place: broadcast thread 0's block, then the last thread's ---- */
  for (int i = 0; i < NE; i++) A[me * NE + i] = me * 100 + i;
  upc_all_broadcast_in_place(A, NE * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int i = 0; i < NE; i++) CHECK(A[me * NE + i] == i, "broadcast_in_place [%d] = %d", i, A[me * NE + i]);
  upc_barrier;
  for (int i = 0; i < NE; i++) A[me * NE + i] = me * 100 + i;
  upc_all_broadcast_rooted_in_place(A, NE * sizeof(int), T - 1, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int i = 0; i < NE; i++)
    CHECK(A[me * NE + i] == (T - 1) * 100 + i, "broadcast_rooted_in_place [%d] = %d", i, A[me * NE + i]);
  upc_barrier;

  /* ---- in place exchange: piece j of thread i <-> piece i of thread j (one int each) ---- */
  shared void *X = upc_all_alloc(T, T * sizeof(int));
  int *x = (int *)((shared char *)X + me);
  for (int j = 0; j < T; j++) x[j] = 1000 * me + j;
  upc_all_exchange_in_place(X, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int i = 0; i < T; i++) CHECK(x[i] == 1000 * i + me, "exchange_in_place [%d] = %d", i, x[i]);
  upc_barrier;
  if (me == 0) upc_free(X);

  /* ---- scatter_v: consecutive chunks of thread 0's block of S to phase me % 4 of
   *      each thread's block of B (count_of(t) elements each) ---- */
  if (me == 0)
    for (int i = 0; i < BIG; i++) S[i] = 7 * i + 3;
  for (int i = 0; i < NE; i++) B[me * NE + i] = -1;
  ddisp[me] = me * NE + me % 4;
  counts[me] = count_of(me);
  upc_barrier;
  upc_all_scatter_v(B, S, ddisp, counts, NE, BIG, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int i = 0; i < NE; i++) {
    int k = i - me % 4;
    int expect = k >= 0 && k < count_of(me) ? 7 * (start_of(me) + k) + 3 : -1;
    CHECK(B[me * NE + i] == expect, "scatter_v B[%d] = %d, expected %d", me * NE + i, B[me * NE + i], expect);
  }
  /* ---- gather_v: the same chunks back, one after the other, into G ---- */
  if (me == 0)
    for (int i = 0; i < BIG; i++) G[i] = -2;
  upc_barrier;
  upc_all_gather_v(G, B, ddisp, counts, BIG, NE, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  if (me == 0) {
    for (int i = 0; i < start_of(T); i++) CHECK(G[i] == 7 * i + 3, "gather_v G[%d] = %d", i, G[i]);
    CHECK(G[start_of(T)] == -2, "gather_v wrote past the chunks");
  }
  upc_barrier;

  /* ---- reduce in place (element 0 gets the sum), prefix reduce in place ---- */
  for (int i = 0; i < NE; i++) R[me * NE + i] = (me * NE + i) * 0.5;
  upc_all_reduceD_in_place(R, UPC_ADD, NE * T, NE, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  {
    const int n = NE * T;
    CHECK(R[0] == (n - 1) * n / 2 * 0.5, "reduceD_in_place: %g", R[0]);
  }
  for (int i = 0; i < NE; i++) P[me * NE + i] = (me * NE + i) % 5 - 2;
  upc_all_prefix_reduceI_in_place(P, UPC_ADD, NE * T, NE, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int i = 0; i < NE; i++) {
    int j = me * NE + i, e = 0;
    for (int k = 0; k <= j; k++) e += k % 5 - 2;
    CHECK(P[j] == e, "prefix_reduceI_in_place [%d] = %d, expected %d", j, P[j], e);
  }
  upc_barrier;

  /* ---- private buffers: broadcast, gather_all, allreduce ---- */
  {
    int src[NE], dst[NE];
    for (int i = 0; i < NE; i++) src[i] = me == 0 ? 500 + i : -7, dst[i] = 0;
    upc_all_broadcast_priv(dst, src, sizeof src, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int i = 0; i < NE; i++) CHECK(dst[i] == 500 + i, "broadcast_priv [%d] = %d", i, dst[i]);
    int mine[2] = {me, -me}, all[2 * 64];
    upc_all_gather_all_priv(all, mine, sizeof mine, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int t = 0; t < T && t < 64; t++)
      CHECK(all[2 * t] == t && all[2 * t + 1] == -t, "gather_all_priv [%d] = %d %d", t, all[2 * t], all[2 * t + 1]);
    long part[NE], total = -1, e = 0;
    for (int i = 0; i < NE; i++) part[i] = (long)(me * NE + i) * (me * NE + i);
    for (int j = 0; j < NE * T; j++) e += (long)j * j;
    upc_all_reduceL_all_priv(&total, part, UPC_ADD, NE * T, NE, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    CHECK(total == e, "reduceL_all_priv: %ld, expected %ld", total, e);
  }
  upc_barrier;

  /* ---- a team of the even threads: broadcast and allreduce among them ---- */
  team t;
  init(&t);
  if (me == 0)
    for (int u = 0; u < T; u += 2) insert(u, t);
  upc_barrier;
  const int members = (T + 1) / 2;
  CHECK(numThreads(t) == members && getNumThreads(t) == members, "numThreads %d", numThreads(t));
  CHECK(isThreadInTeam(me, t) == (me % 2 == 0), "isThreadInTeam");
  CHECK(getTeamID(me, t) == (me % 2 == 0 ? me / 2 : -1), "getTeamID %d", getTeamID(me, t));
  CHECK(getThreadID(members - 1, t) == 2 * (members - 1), "getThreadID");
  for (int i = 0; i < NE; i++) TD[me * NE + i] = -1, TS[me * NE + i] = 10L * me + i;
  upc_barrier;
  if (isThreadInTeam(me, t)) {
    upc_all_broadcast_team(TD, &TS[0], NE * sizeof(long), t, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int i = 0; i < NE; i++) CHECK(TD[me * NE + i] == i, "broadcast_team [%d] = %ld", i, TD[me * NE + i]);
    teamBarrier(t);
    shared void *area = allocate(members, 4 * sizeof(int), t);
    CHECK(area != NULL, "team allocate");
    teamBarrier(t);
    deallocate(area, t);
  } else {
    for (int i = 0; i < NE; i++) CHECK(TD[me * NE + i] == -1, "broadcast_team wrote a non-member [%d]", i);
  }
  upc_barrier;

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_collective_ext: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
