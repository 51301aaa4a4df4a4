/* <upccoll.h> (seed 000's team collectives) through upcc, checked against
 * sequential computations: broadcast, scatter, alltoall, allreduce (predefined
 * and user operations, in place, non-blocking with a handle), a team split by
 * parity with its rank/size and a reduction inside it; waitall / testall, a
 * split by node and a thesis team made into a <upccoll.h> team. */
#include <upc.h>
#include <upccoll.h>
#include <teamutil.h>
#include <bupc_extensions.h>
#include <stdio.h>

#define K 6
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
#define OK(call) CHECK((call) == UPCCOLL_SUCCESS, "%s failed", #call)

shared [K] int S[K * THREADS];
shared [K] int R[K * THREADS];
shared [K] double DS[K * THREADS];
shared [K] double DR[K * THREADS];

/* a user operation: element-wise max of ints */
static void max_fn(void *in, void *inout, size_t len, upccoll_dtype_t dt) {
  (void)dt;
  int *a = (int *)in, *b = (int *)inout;
  for (size_t i = 0; i < len; i++)
    if (a[i] > b[i]) b[i] = a[i];
}
static int val(int t, int i) { return (t * 31 + i * 7) % 19 - 9; }

int main(int argc, char **argv) {
  const int T = THREADS, me = MYTHREAD;
  OK(upccoll_initialize(&argc, &argv));
  size_t isz = 0;
  OK(upccoll_type_size(UPC_INT, &isz));
  CHECK(isz == sizeof(int), "type_size(UPC_INT) = %zu", isz);

  /* broadcast from the last thread */
  for (int i = 0; i < K; i++) S[me * K + i] = me * 100 + i, R[me * K + i] = -1;
  OK(upccoll_bcast(&S[me * K], K, UPC_INT, &R[me * K], K, UPC_INT, T - 1, UPC_TEAM_ALL, SYNC, NULL));
  for (int i = 0; i < K; i++) CHECK(R[me * K + i] == (T - 1) * 100 + i, "bcast [%d] = %d", i, R[me * K + i]);

  /* allreduce: sum and a user max */
  for (int i = 0; i < K; i++) S[me * K + i] = val(me, i);
  OK(upccoll_allreduce(&S[me * K], &R[me * K], K, UPC_INT, UPC_ADD, UPC_TEAM_ALL, SYNC, NULL));
  for (int i = 0; i < K; i++) {
    int e = 0;
    for (int t = 0; t < T; t++) e += val(t, i);
    CHECK(R[me * K + i] == e, "allreduce ADD [%d] = %d, expected %d", i, R[me * K + i], e);
  }
  upccoll_op_t umax;
  OK(upccoll_op_create(max_fn, 1, &umax));
  int commute = -1;
  OK(upccoll_op_commutative(umax, &commute));
  CHECK(commute == 1, "op_commutative %d", commute);
  OK(upccoll_allreduce(&S[me * K], &R[me * K], K, UPC_INT, umax, UPC_TEAM_ALL, SYNC, NULL));
  for (int i = 0; i < K; i++) {
    int e = val(0, i);
    for (int t = 1; t < T; t++) e = val(t, i) > e ? val(t, i) : e;
    CHECK(R[me * K + i] == e, "allreduce user max [%d] = %d, expected %d", i, R[me * K + i], e);
  }

  /* in place, non-blocking: doubles, product of small values */
  for (int i = 0; i < K; i++) DR[me * K + i] = (me + i) % 3 == 0 ? 2.0 : 1.0;
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  OK(upccoll_allreduce(UPCCOLL_IN_PLACE, &DR[me * K], K, UPC_DOUBLE, UPC_MULT, UPC_TEAM_ALL, SYNC, &h));
  upccoll_wait(h);
  for (int i = 0; i < K; i++) {
    double e = 1;
    for (int t = 0; t < T; t++) e *= (t + i) % 3 == 0 ? 2.0 : 1.0;
    CHECK(DR[me * K + i] == e, "allreduce in place MULT [%d] = %g, expected %g", i, DR[me * K + i], e);
  }

  /* scatter and alltoall: each thread's area of T*2 ints in its own block */
  shared void *big_s = upc_all_alloc(T, 2 * T * sizeof(int));
  shared void *big_r = upc_all_alloc(T, 2 * T * sizeof(int));
  shared void *my_s = (shared void *)((shared char *)big_s + me);
  shared void *my_r = (shared void *)((shared char *)big_r + me);
  int *ls = (int *)my_s, *lr = (int *)my_r;
  for (int i = 0; i < 2 * T; i++) ls[i] = 1000 * me + i, lr[i] = -1;
  OK(upccoll_scatter(my_s, 2, UPC_INT, my_r, 2, UPC_INT, 0, UPC_TEAM_ALL, SYNC, NULL));
  CHECK(lr[0] == 2 * me && lr[1] == 2 * me + 1, "scatter: %d %d", lr[0], lr[1]);
  OK(upccoll_alltoall(my_s, 2, UPC_INT, my_r, 2, UPC_INT, UPC_TEAM_ALL, SYNC, NULL));
  for (int t = 0; t < T; t++)
    CHECK(lr[2 * t] == 1000 * t + 2 * me && lr[2 * t + 1] == 1000 * t + 2 * me + 1, "alltoall from %d: %d %d", t,
          lr[2 * t], lr[2 * t + 1]);
  upc_barrier;
  if (me == 0) upc_free(big_s), upc_free(big_r);

  /* a team of the threads of my parity, ranked by thread number */
  upccoll_team_t half = UPCCOLL_TEAM_NULL;
  OK(upccoll_team_split(UPC_TEAM_ALL, me % 2, me, &half));
  int rank = -1, size = -1;
  OK(upccoll_team_rank(half, &rank));
  OK(upccoll_team_size(half, &size));
  CHECK(rank == me / 2, "team rank %d", rank);
  CHECK(size == (me % 2 ? T / 2 : (T + 1) / 2), "team size %d", size);
  for (int i = 0; i < K; i++) DS[me * K + i] = me + 0.25 * i;
  OK(upccoll_allreduce(&DS[me * K], &DR[me * K], K, UPC_DOUBLE, UPC_ADD, half, SYNC, NULL));
  for (int i = 0; i < K; i++) {
    double e = 0;
    for (int t = me % 2; t < T; t += 2) e += t + 0.25 * i;
    CHECK(DR[me * K + i] == e, "team allreduce [%d] = %g, expected %g", i, DR[me * K + i], e);
  }
  OK(upccoll_barrier(half, SYNC, NULL));

  /* an array of handles: upccoll_waitall, upccoll_testall (issue 27.15) */
  upccoll_handle_t hs[3] = {UPCCOLL_INVALID_HANDLE, UPCCOLL_INVALID_HANDLE, UPCCOLL_INVALID_HANDLE};
  upccoll_return_t st[3] = {UPCCOLL_ERROR, UPCCOLL_ERROR, UPCCOLL_ERROR};
  for (int i = 0; i < K; i++) S[me * K + i] = me + i;
  OK(upccoll_allreduce(&S[me * K], &R[me * K], K, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, &hs[0]));
  OK(upccoll_barrier(half, 0, &hs[2]));
  OK(upccoll_waitall(3, hs, st));
  CHECK(hs[0] == UPCCOLL_INVALID_HANDLE && hs[2] == UPCCOLL_INVALID_HANDLE, "waitall left a handle live");
  CHECK(st[0] == UPCCOLL_SUCCESS && st[1] == UPCCOLL_SUCCESS && st[2] == UPCCOLL_SUCCESS, "waitall statuses %d %d %d",
        (int)st[0], (int)st[1], (int)st[2]);
  for (int i = 0; i < K; i++)
    CHECK(R[me * K + i] == T * (T - 1) / 2 + T * i, "waitall's allreduce [%d] = %d", i, R[me * K + i]);
  OK(upccoll_barrier(UPC_TEAM_ALL, 0, &hs[1]));
  int got;
  while ((got = upccoll_testall(3, hs, NULL)) == 0) upc_poll();
  CHECK(got == 1 && hs[1] == UPCCOLL_INVALID_HANDLE, "testall gave %d", got);

  /* a team per emulated node (issue 27.16): one node unless upcrun --nodes */
  upccoll_team_t node_team = UPCCOLL_TEAM_NULL;
  OK(upccoll_team_split_type(UPC_TEAM_ALL, UPCCOLL_TEAM_TYPE_SHARED, me, &node_team));
  int node_size = -1, on_my_node = 0;
  OK(upccoll_team_size(node_team, &node_size));
  for (int t = 0; t < T; t++) on_my_node += bupc_thread_distance(me, t) <= BUPC_THREADS_VERYNEAR;
  CHECK(node_size == on_my_node, "split_type: a team of %d, %d threads on this node", node_size, on_my_node);
  upccoll_team_free(node_team);

  /* a thesis team of the odd threads as a <upccoll.h> team (issue 27.16) */
  team odd;
  init(&odd);
  if (me % 2) insert(me, odd);
  upc_barrier;
  if (me % 2) {
    upccoll_team_t u = UPCCOLL_TEAM_NULL;
    int r = -1;
    OK(upccoll_team_from_teamutil(odd, &u));
    OK(upccoll_team_rank(u, &r));
    CHECK(r == getTeamID(me, odd), "from_teamutil: rank %d, team id %d", r, getTeamID(me, odd));
    upccoll_team_free(u);
  }
  upc_barrier;
  upccoll_team_free(half);
  OK(upccoll_op_free(umax));
  CHECK(upccoll_error_name(UPCCOLL_ERROR_ROOT) != NULL, "error_name");
  OK(upccoll_finalize());

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_upccoll: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
