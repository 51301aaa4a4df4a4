/* The examples of seed 003 (Teijeiro's thesis), Appendix A.3 "Team-based
 * Collectives", in UPC with <teamutil.h>'s team interface (Listing 3.9), the
 * _allthr scatter of Figure 3.6, and the two teams of Listing 3.11; each
 * checks what the appendix says the example does.
 *
 * "team t; // The team has to be initialized": t is the team of Figure 3.6,
 * threads 0, 1 and 3 (team ids 0, 1, 2); thread 2 is not a member, calls no
 * team collective, and its blocks of B must stay as they were. Written for 4
 * threads: build with upcc -T 4, run with -n 4.
 *
 * The same examples in upcemu's C++ spelling: tests/unit/test_ext_examples.cpp,
 * whose resolutions this file follows (docs/extended-collectives.md,
 * "Semantics where Appendix A is silent"):
 *   - nbytes of the team scatter, gather, gather_all and exchange is the total,
 *     split over the members (Listing 3.10); the examples' "two integers per
 *     thread" is therefore nbytes = 2*members*sizeof(int), and A.3.2's scatter
 *     of a block (NELEMS = 10 integers, which 3 members cannot split) moves 12
 *     integers, 4 per member;
 *   - A and B have blocks of NELEMS*THREADS (40) integers rather than the
 *     examples' NELEMS: the 12 integers scattered from thread 1's block must lie
 *     in it, and A.3.7 runs on the same arrays (the appendix's A.3.7 declares
 *     `shared [THREADS] int A[NELEMS*THREADS]` with NELEMS 1000 and passes
 *     nelems = blk_size = NELEMS, which is not that array's block size; here
 *     nelems is the whole array and blk_size its block). Its second call sums
 *     the members' elements of B into c, as the appendix writes it (the C++
 *     version sums those of A);
 *   - Listing 3.11 passes nth (the members) as nelems; a team reduction folds
 *     the elements with affinity to the members, so nelems is THREADS (the
 *     whole local_hits array) and the other team's elements take no part. */
#include <upc.h>
#include <upc_collective_ext.h>
#include <teamutil.h>
#include <stdio.h>

#if THREADS != 4
#error "the Appendix A team-based examples are written for THREADS=4: build with upcc -T 4"
#endif

static int failures;
/* CHECK_AT(what, array, index, expected): array[index] must be expected */
#define CHECK_AT(what, arr, index, expected)                                                   \
  do {                                                                                         \
    long long i_ = (index), g_ = (arr)[i_], e_ = (expected);                                   \
    if (g_ != e_) {                                                                            \
      if (failures < 20)                                                                       \
        printf("appendix_a_team_based: thread %d: %s: %s[%lld] is %lld, the appendix says %lld\n", \
               MYTHREAD, what, #arr, i_, g_, e_);                                              \
      failures++;                                                                              \
    }                                                                                          \
  } while (0)
#define CHECK_EQ(what, got, expected)                                                          \
  do {                                                                                         \
    long long g_ = (got), e_ = (expected);                                                     \
    if (g_ != e_) {                                                                            \
      printf("appendix_a_team_based: thread %d: %s: %s is %lld, the appendix says %lld\n",    \
             MYTHREAD, what, #got, g_, e_);                                                    \
      failures++;                                                                              \
    }                                                                                          \
  } while (0)

#define NELEMS 10
#define ROW (NELEMS*THREADS) /* one thread's block of A and B */
shared [NELEMS*THREADS] int A[NELEMS*THREADS*THREADS];
shared [NELEMS*THREADS] int B[NELEMS*THREADS*THREADS];
shared int perm[THREADS];
shared int c;

static void fresh(void) {
  // Initialize A (and B, so that what the collective leaves alone can be seen)
  for (int i=MYTHREAD*ROW; i<(MYTHREAD+1)*ROW; i++) {
    A[i]=i;
    B[i]=-1;
  }
  upc_barrier;
}

/* the blocks of B of the non-member thread 2 are left alone */
static void non_member_untouched(const char *what) {
  for (int k = 0; k < ROW; k++) CHECK_AT(what, B, 2 * ROW + k, -1);
}

static void team_examples(void) {
  team t; // The team has to be initialized
  init(&t);
  if (MYTHREAD == 0) {
    insert(0, t);
    insert(1, t);
    insert(3, t);
  }
  upc_barrier;
  const int in = isThreadInTeam(MYTHREAD, t);
  const int P = numThreads(t);
  CHECK_EQ("the team of Figure 3.6", P, 3);
  CHECK_EQ("the team of Figure 3.6", getThreadID(2, t), 3);
  CHECK_EQ("the team of Figure 3.6", getTeamID(2, t), -1);

  /* A.3.1: the whole block of thread 1 in A to the blocks of B of every member */
  fresh();
  if (in)
    upc_all_broadcast_team(B, &A[ROW], NELEMS*sizeof(int), t,
        UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_barrier;
  for (int m = 0; m < P; m++)
    for (int k = 0; k < NELEMS; k++)
      CHECK_AT("A.3.1 upc_all_broadcast_team", B, getThreadID(m, t) * ROW + k, ROW + k);
  non_member_untouched("A.3.1 upc_all_broadcast_team (thread 2 is not a member)");
  upc_barrier;

  /* A.3.2: thread 1's block scattered to the members: piece m (4 integers of
   * the 12) to team id m */
  fresh();
  if (in)
    upc_all_scatter_team(B, &A[ROW], 12*sizeof(int), t,
        UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_barrier;
  for (int m = 0; m < P; m++)
    for (int k = 0; k < 4; k++)
      CHECK_AT("A.3.2 upc_all_scatter_team", B, getThreadID(m, t) * ROW + k, ROW + m * 4 + k);
  non_member_untouched("A.3.2 upc_all_scatter_team (thread 2 is not a member)");
  upc_barrier;

  /* Figure 3.6, _allthr: the 12 integers split over THREADS (3 each), piece
   * number = thread number */
  fresh();
  if (in)
    upc_all_scatter_team_allthr(B, &A[ROW], 12*sizeof(int), t,
        UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_barrier;
  for (int m = 0; m < P; m++) {
    const int th = getThreadID(m, t);
    for (int k = 0; k < 3; k++)
      CHECK_AT("Figure 3.6 upc_all_scatter_team_allthr", B, th * ROW + k, ROW + th * 3 + k);
  }
  non_member_untouched("Figure 3.6 upc_all_scatter_team_allthr (thread 2 is not a member)");
  upc_barrier;

  /* A.3.3: two integers per member gathered into thread 1's block of B */
  fresh();
  if (in)
    upc_all_gather_team(&B[ROW], A, 2*P*sizeof(int), t,
        UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_barrier;
  for (int m = 0; m < P; m++)
    for (int k = 0; k < 2; k++)
      CHECK_AT("A.3.3 upc_all_gather_team", B, ROW + m * 2 + k, getThreadID(m, t) * ROW + k);
  non_member_untouched("A.3.3 upc_all_gather_team (thread 2 is not a member)");
  upc_barrier;

  /* A.3.4: two integers per member gathered from A to B by every member */
  fresh();
  if (in)
    upc_all_gather_all_team(B, A, 2*P*sizeof(int), t, UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_barrier;
  for (int u = 0; u < P; u++)
    for (int m = 0; m < P; m++)
      for (int k = 0; k < 2; k++)
        CHECK_AT("A.3.4 upc_all_gather_all_team", B, getThreadID(u, t) * ROW + m * 2 + k,
                 getThreadID(m, t) * ROW + k);
  non_member_untouched("A.3.4 upc_all_gather_all_team (thread 2 is not a member)");
  upc_barrier;

  /* A.3.5: two integers per member exchanged from A to B: piece u of member
   * m's block to piece m of member u's block */
  fresh();
  if (in)
    upc_all_exchange_team(B, A, 2*P*sizeof(int), t, UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_barrier;
  for (int u = 0; u < P; u++)
    for (int m = 0; m < P; m++)
      for (int k = 0; k < 2; k++)
        CHECK_AT("A.3.5 upc_all_exchange_team", B, getThreadID(u, t) * ROW + m * 2 + k,
                 getThreadID(m, t) * ROW + u * 2 + k);
  non_member_untouched("A.3.5 upc_all_exchange_team (thread 2 is not a member)");
  upc_barrier;

  /* A.3.6: the members' blocks of A permuted into B: perm[m] (team ids)
   * 0 -> 1 -> 2 -> 0 */
  fresh();
  perm[MYTHREAD] = (MYTHREAD + 1) % P; // perm has to be initialized
  upc_barrier;
  if (in)
    upc_all_permute_team(B, A, perm, ROW*sizeof(int), t,
        UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_barrier;
  for (int m = 0; m < P; m++)
    for (int k = 0; k < ROW; k++)
      CHECK_AT("A.3.6 upc_all_permute_team", B, getThreadID((m + 1) % P, t) * ROW + k,
               getThreadID(m, t) * ROW + k);
  non_member_untouched("A.3.6 upc_all_permute_team (thread 2 is not a member)");
  upc_barrier;

  /* A.3.7: the prefix sums of the elements of A with affinity to the members,
   * in B; then the sum of those elements of B, in c */
  fresh();
  if (in) {
    upc_all_prefix_reduceI_team(B, A, UPC_ADD, ROW*THREADS, ROW, NULL, t,
        UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
    upc_all_reduceI_team(&c, B, UPC_ADD, ROW*THREADS, ROW, NULL, t,
        UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  }
  upc_barrier;
  long long run_sum = 0, sum_of_sums = 0;
  for (int i = 0; i < ROW * THREADS; i++) {
    if (i / ROW == 2) { /* thread 2's elements take no part and stay */
      CHECK_AT("A.3.7 upc_all_prefix_reduceI_team (thread 2 is not a member)", B, i, -1);
      continue;
    }
    run_sum += i;
    sum_of_sums += run_sum;
    CHECK_AT("A.3.7 upc_all_prefix_reduceI_team", B, i, run_sum);
  }
  CHECK_EQ("A.3.7 upc_all_reduceI_team", c, sum_of_sums);
  upc_barrier;
}

/* Listing 3.11: two disjoint teams (the even and the odd threads) each estimate
 * pi by Monte Carlo in parallel, summing their members' hits with
 * upc_all_reduceI_all_team; thread 0 combines the two estimations. */
#define TRIALS 20000
shared int local_hits[THREADS];
shared int hits1[THREADS], hits2[THREADS]; /* global_hits of each team */
shared double est1, est2;

static unsigned next_random(unsigned *state) { /* the same sequence everywhere */
  *state = *state * 1103515245u + 12345u;
  return (*state >> 8) & 0xffffff;
}

static int hits_of(int thread, int trials) {
  unsigned state = 1234u + 977u * (unsigned)thread;
  int hits = 0;
  for (int i = 0; i < trials; i++) {
    const double x = next_random(&state) / 16777216.0, y = next_random(&state) / 16777216.0;
    if (x * x + y * y <= 1.0) hits++;
  }
  return hits;
}

static void computePiMontecarlo(int trials, team t, shared int *global_hits,
                                shared double *estimation) {
  double piEstimation;
  // Filter all threads that are not included in the team
  if (!isThreadInTeam(MYTHREAD, t)) return;
  // Auxiliary function
  int nth = getNumThreads(t);
  // Compute local hits, put result in local_hits[MYTHREAD]
  local_hits[MYTHREAD] = hits_of(MYTHREAD, trials);
  upc_all_reduceI_all_team(global_hits, local_hits, UPC_ADD,
      THREADS, 1, NULL, t, UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  // Compute pi estimation
  piEstimation = 4.0 * global_hits[getTeamID(MYTHREAD, t)] / ((double)trials * nth);
  *estimation = piEstimation;
  return;
}

static void listing_3_11_two_teams(void) {
  team t1, t2;
  const int trials1 = TRIALS, trials2 = TRIALS;
  // Initialize variables and create teams (disjoint sets)
  init(&t1);
  init(&t2);
  if (MYTHREAD == 0)
    for (int i = 0; i < THREADS; i++) insert(i, i % 2 ? t2 : t1);
  upc_barrier;
  // Execute tasks
  computePiMontecarlo(trials1, t1, hits1, &est1);
  computePiMontecarlo(trials2, t2, hits2, &est2);
  upc_barrier;

  CHECK_EQ("Listing 3.11 getNumThreads", getNumThreads(MYTHREAD % 2 ? t2 : t1), 2);
  const int even = hits_of(0, TRIALS) + hits_of(2, TRIALS), odd = hits_of(1, TRIALS) + hits_of(3, TRIALS);
  for (int m = 0; m < 2; m++) {
    CHECK_AT("Listing 3.11 upc_all_reduceI_all_team (team of threads 0, 2)", hits1, m, even);
    CHECK_AT("Listing 3.11 upc_all_reduceI_all_team (team of threads 1, 3)", hits2, m, odd);
  }
  if (MYTHREAD == 0) {
    const double estimation = (est1 * trials1 + est2 * trials2) / (trials1 + trials2);
    if (!(estimation > 3.0 && estimation < 3.3)) {
      printf("appendix_a_team_based: Listing 3.11: the estimation of pi is %f\n", estimation);
      failures++;
    }
  }
  upc_barrier;
}

int main(void) {
  team_examples();
  listing_3_11_two_teams();

  if (failures) printf("appendix_a_team_based: thread %d: %d mismatches\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures)
    printf("appendix_a_team_based: A.3.1-A.3.7, Figure 3.6 and Listing 3.11 as the appendix says at THREADS %d\n",
           THREADS);
  return failures != 0;
}
