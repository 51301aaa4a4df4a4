/* The collectives' sync flags used right (docs/races.md): every program here
 * must run clean under --check=races on both backends. The data a collective
 * reads is written before a barrier (or the call has UPC_IN_ALLSYNC / MYSYNC on
 * the writer's own data); what it writes is read after a barrier, by its owner
 * after UPC_OUT_MYSYNC, or by anyone after UPC_OUT_ALLSYNC; a non-blocking
 * <upccoll.h> collective's buffers are touched after upccoll_wait only. */
#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>
#include <upccoll.h>
#include <stdio.h>

#define N 4
shared [] int src[N];
shared [N] int dst[N * THREADS];
shared [N] int rows[N * THREADS];
shared [N] int row_dst[N * THREADS];
shared long part[THREADS];
shared long sums[THREADS];
shared long scan[THREADS];
shared int perm[THREADS];
shared [N] int S[N * THREADS];
shared [N] int R[N * THREADS];

static int failures;
#define CHECK(c)                                                         \
  do {                                                                   \
    if (!(c)) {                                                          \
      printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c);        \
      failures++;                                                        \
    }                                                                    \
  } while (0)

int main(int argc, char **argv) {
  const int me = MYTHREAD, T = THREADS;
  int i, round;
  upccoll_handle_t h;

  /* IN_ALLSYNC orders the root's writes before the call; OUT_ALLSYNC the reads after it */
  if (me == 0) for (i = 0; i < N; i++) src[i] = 10 + i;
  upc_all_broadcast(dst, src, N * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (i = 0; i < N; i++) CHECK(dst[N * ((me + 1) % T) + i] == 10 + i);
  upc_barrier;

  /* NOSYNC both ways between barriers: the idiom of a loop of collectives */
  for (round = 0; round < 3; round++) {
    if (me == 0) for (i = 0; i < N; i++) src[i] = round * 100 + i;
    upc_barrier;
    upc_all_broadcast(dst, src, N * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier;
    for (i = 0; i < N; i++) CHECK(dst[N * ((me + T - 1) % T) + i] == round * 100 + i);
    upc_barrier;
  }

  /* IN_MYSYNC: each thread writes its own row right before the call; OUT_MYSYNC:
     each reads its own block of the result right after it */
  for (i = 0; i < N; i++) rows[N * me + i] = me * N + i;
  upc_all_gather_all(row_dst, rows, sizeof(int), UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
  (void)row_dst[N * me];
  upc_barrier;
  for (i = 0; i < N && i < T; i++) CHECK(row_dst[N * ((me + 1) % T) + i] == i * N);
  upc_barrier;

  /* reductions: the source written by its owners, the result read after OUT_ALLSYNC */
  part[me] = me + 1;
  upc_all_reduceL(&sums[0], part, UPC_ADD, T, 1, NULL, UPC_IN_MYSYNC | UPC_OUT_ALLSYNC);
  CHECK(sums[0] == (long)T * (T + 1) / 2);
  upc_all_prefix_reduceL(scan, part, UPC_ADD, T, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC);
  CHECK(scan[me] == (long)(me + 1) * (me + 2) / 2);
  upc_barrier;

  /* permute: perm and the source written before a barrier, NOSYNC both ways */
  perm[me] = (me + 1) % T;
  for (i = 0; i < N; i++) S[N * me + i] = me;
  upc_barrier;
  upc_all_permute(R, S, perm, N * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  CHECK(R[N * me] == (me + T - 1) % T);
  upc_barrier;

  /* the extended collectives: a broadcast in place from thread 0's block */
  if (me == 0) for (i = 0; i < N; i++) S[i] = 7 + i;
  upc_all_broadcast_in_place(S, N * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  CHECK(S[N * ((me + 1) % T) + 2] == 9);
  upc_barrier;

  /* <upccoll.h>: the buffers touched before the start and after the wait only */
  upccoll_initialize(&argc, &argv);
  for (i = 0; i < N; i++) S[N * me + i] = 100 * me + i;
  upccoll_bcast(&S[N * me], N, UPC_INT, &R[N * me], N, UPC_INT, T - 1, UPC_TEAM_ALL, 0, &h);
  upccoll_wait(h);
  for (i = 0; i < N; i++) CHECK(R[N * me + i] == 100 * (T - 1) + i);
  upccoll_allreduce(&S[N * me], &R[N * me], N, UPC_INT, UPC_ADD, UPC_TEAM_ALL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, &h);
  upccoll_wait(h);
  CHECK(R[N * ((me + 1) % T)] == 100 * T * (T - 1) / 2);
  upccoll_finalize();
  S[N * me] = -1;  /* after the library's end: its barrier orders everything before */
  upc_barrier;
  return failures != 0;
}
