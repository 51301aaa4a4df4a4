/* The examples of seed 003 (Teijeiro's thesis), Appendix A.1 "In-place
 * Collectives", in UPC as the appendix writes them, and the in-place time
 * measurement of Listing 3.3; each checks what the appendix says it does.
 * The same examples in upcemu's C++ spelling: tests/unit/test_ext_examples.cpp,
 * whose resolutions this file follows where the appendix's code contradicts its
 * text (docs/extended-collectives.md, "Semantics where Appendix A is silent").
 *
 * Written for 4 threads (A.1.6's permutation names threads 0-3), and A.1.2 -
 * A.1.5 have THREADS in a block size: build with upcc -T 4, run with -n 4.
 *
 * Where the appendix makes two calls in a row on the same array (broadcast,
 * then the rooted broadcast), A is initialised again before the second call, so
 * that each call's result can be told apart. */
#include <upc.h>
#include <upc_collective_ext.h>
#include <teamutil.h>
#include <stdio.h>

#if THREADS != 4
#error "the Appendix A in-place examples are written for THREADS=4: build with upcc -T 4"
#endif

static int failures;
/* CHECK_AT(what, array, index, expected): array[index] must be expected */
#define CHECK_AT(what, arr, index, expected)                                                   \
  do {                                                                                         \
    long long i_ = (index), g_ = (arr)[i_], e_ = (expected);                                   \
    if (g_ != e_) {                                                                            \
      if (failures < 20)                                                                       \
        printf("appendix_a_in_place: thread %d: %s: %s[%lld] is %lld, the appendix says %lld\n", \
               MYTHREAD, what, #arr, i_, g_, e_);                                              \
      failures++;                                                                              \
    }                                                                                          \
  } while (0)

#define NELEMS 10

/* A.1.1: the block of thread 0 copied to every block of A, then thread 1's. */
static void a_1_1_broadcast_in_place(void) {
  static shared [NELEMS] int A[NELEMS*THREADS];

  // Initialize A
  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A[i]=i;
  }

  upc_all_broadcast_in_place(A, NELEMS*sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int i = 0; i < NELEMS * THREADS; i++)
    CHECK_AT("A.1.1 upc_all_broadcast_in_place", A, i, i % NELEMS);
  upc_barrier;

  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A[i]=i;
  }
  upc_all_broadcast_rooted_in_place(A, NELEMS*sizeof(int), 1,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int i = 0; i < NELEMS * THREADS; i++)
    CHECK_AT("A.1.1 upc_all_broadcast_rooted_in_place (root 1)", A, i, NELEMS + i % NELEMS);
  upc_barrier;
}

/* A.1.2 - A.1.5: shared [NELEMS*THREADS] int A[NELEMS*THREADS*THREADS]; thread
 * t's block is row t (NELEMS*THREADS elements), piece k of a row is its k-th
 * run of NELEMS elements. */
static shared [NELEMS*THREADS] int A[NELEMS*THREADS*THREADS];
#define ROW (NELEMS * THREADS)

static void fresh(void) {
  // Initialize A
  for (int i=MYTHREAD*NELEMS*THREADS; i<(MYTHREAD+1)*NELEMS*THREADS; i++) {
    A[i]=i;
  }
  upc_barrier;
}

static void a_1_2_scatter_in_place(void) {
  /* piece t of thread 0's block goes to piece t of thread t's block */
  fresh();
  upc_all_scatter_in_place(A, NELEMS*sizeof(int), UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < NELEMS; k++)
      CHECK_AT("A.1.2 upc_all_scatter_in_place", A, t * ROW + t * NELEMS + k, t * NELEMS + k);
  upc_barrier;

  /* the same from thread 1's block */
  fresh();
  upc_all_scatter_rooted_in_place(A, NELEMS*sizeof(int), 1,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < NELEMS; k++)
      CHECK_AT("A.1.2 upc_all_scatter_rooted_in_place (root 1)", A, t * ROW + t * NELEMS + k,
               ROW + t * NELEMS + k);
  upc_barrier;
}

static void a_1_3_gather_in_place(void) {
  /* piece t of thread t's block goes to piece t of thread 0's block */
  fresh();
  upc_all_gather_in_place(A, NELEMS*sizeof(int), UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < NELEMS; k++)
      CHECK_AT("A.1.3 upc_all_gather_in_place", A, t * NELEMS + k, t * ROW + t * NELEMS + k);
  upc_barrier;

  /* and to thread 1's block */
  fresh();
  upc_all_gather_rooted_in_place(A, NELEMS*sizeof(int), 1,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < NELEMS; k++)
      CHECK_AT("A.1.3 upc_all_gather_rooted_in_place (root 1)", A, ROW + t * NELEMS + k,
               t * ROW + t * NELEMS + k);
  upc_barrier;
}

static void a_1_4_gather_all_in_place(void) {
  /* piece t of thread t's block goes to piece t of every block */
  fresh();
  upc_all_gather_all_in_place(A, NELEMS*sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int u = 0; u < THREADS; u++)
    for (int t = 0; t < THREADS; t++)
      for (int k = 0; k < NELEMS; k++)
        CHECK_AT("A.1.4 upc_all_gather_all_in_place", A, u * ROW + t * NELEMS + k,
                 t * ROW + t * NELEMS + k);
  upc_barrier;
}

static void a_1_5_exchange_in_place(void) {
  /* piece j of thread i's block goes to piece i of thread j's block */
  fresh();
  upc_all_exchange_in_place(A, NELEMS*sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int j = 0; j < THREADS; j++)
    for (int i = 0; i < THREADS; i++)
      for (int k = 0; k < NELEMS; k++)
        CHECK_AT("A.1.5 upc_all_exchange_in_place", A, j * ROW + i * NELEMS + k,
                 i * ROW + j * NELEMS + k);
  upc_barrier;
}

/* A.1.6: the blocks of A permuted in place: thread i's block to thread perm[i]'s. */
static void a_1_6_permute_in_place(void) {
  static shared [NELEMS] int A[NELEMS*THREADS];
  static shared int perm[THREADS];

  // Initialize A
  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A[i]=i;
  }

  // Define the desired permutation
  perm[0]=3;
  perm[1]=2;
  perm[2]=0;
  perm[3]=1;

  upc_all_permute_in_place(A, perm, NELEMS*sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  const int p[4] = {3, 2, 0, 1};
  for (int i = 0; i < THREADS; i++)
    for (int k = 0; k < NELEMS; k++)
      CHECK_AT("A.1.6 upc_all_permute_in_place", A, p[i] * NELEMS + k, i * NELEMS + k);
  upc_barrier;
}

#undef NELEMS
#define NELEMS 1000

/* A.1.7: the sum of all of A into its element 0 (thread 0's); the sum of
 * A[1000..1999] into thread 1's first element; the sum of the first 1000
 * elements to every thread; the prefix sums of A, in A. The appendix passes
 * blk_size THREADS (and nelems NELEMS to the rooted call), which describes
 * another array than its A; the calls here pass A's block size NELEMS, and
 * nelems 2*NELEMS to the rooted one, so that thread 1's first element A[NELEMS]
 * is the root's and the sum is that of [1000...1999] as the text says. A is
 * initialised again before each call (each call overwrites its input). */
static shared [NELEMS] int A7[NELEMS*THREADS];

static void fresh7(void) {
  // Initialize A
  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A7[i]=i;
  }
  upc_barrier;
}

static void a_1_7_computational_in_place(void) {
  fresh7();
  upc_all_reduceI_in_place(A7, UPC_ADD, NELEMS*THREADS, NELEMS, NULL,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  CHECK_AT("A.1.7 upc_all_reduceI_in_place", A7, 0, (NELEMS * THREADS - 1) * NELEMS * THREADS / 2);
  upc_barrier;

  fresh7();
  upc_all_reduceI_rooted_in_place(A7, UPC_ADD, 2*NELEMS, NELEMS, 1, NULL,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  CHECK_AT("A.1.7 upc_all_reduceI_rooted_in_place (root 1)", A7, NELEMS, (2 * NELEMS - 1) * 2 * NELEMS / 2);
  upc_barrier;

  fresh7();
  upc_all_reduceI_all_in_place(A7, UPC_ADD, NELEMS, NELEMS, NULL,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  /* element i*blk_size for each thread i inside the nelems elements reduced */
  for (int t = 0; t < THREADS && t * NELEMS < NELEMS; t++)
    CHECK_AT("A.1.7 upc_all_reduceI_all_in_place", A7, t * NELEMS, (NELEMS - 1) * NELEMS / 2);
  upc_barrier;

  fresh7();
  upc_all_prefix_reduceI_in_place(A7, UPC_ADD, NELEMS*THREADS, NELEMS, NULL,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int i = 0; i < NELEMS * THREADS; i++)
    CHECK_AT("A.1.7 upc_all_prefix_reduceI_in_place", A7, i, i * (i + 1) / 2);
  upc_barrier;
}

/* Listing 3.3: the time of the slowest thread, in place in times[]. */
static void listing_3_3_times(void) {
  static shared double times[THREADS];
  times[MYTHREAD] = 0;
  times[MYTHREAD] -= 1.0;            /* getCurrentTime() at the start */
  times[MYTHREAD] += 1.0 + 1.5 * MYTHREAD; /* ... and at the end */
  upc_all_reduceD_all_in_place(times, UPC_MAX, THREADS, 1, NULL,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  for (int t = 0; t < THREADS; t++)
    if (times[t] != 1.5 * (THREADS - 1)) {
      printf("appendix_a_in_place: thread %d: Listing 3.3 upc_all_reduceD_all_in_place (UPC_MAX): "
             "times[%d] is %g, expected %g\n", MYTHREAD, t, times[t], 1.5 * (THREADS - 1));
      failures++;
    }
  upc_barrier;
}

int main(void) {
  a_1_1_broadcast_in_place();
  a_1_2_scatter_in_place();
  a_1_3_gather_in_place();
  a_1_4_gather_all_in_place();
  a_1_5_exchange_in_place();
  a_1_6_permute_in_place();
  a_1_7_computational_in_place();
  listing_3_3_times();

  if (failures) printf("appendix_a_in_place: thread %d: %d mismatches\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures)
    printf("appendix_a_in_place: A.1.1-A.1.7 and Listing 3.3 as the appendix says at THREADS %d\n", THREADS);
  return failures != 0;
}
