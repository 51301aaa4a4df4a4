/* The examples of seed 003 (Teijeiro's thesis), Appendix A.2 "Vector-variant
 * Collectives", in UPC as the appendix writes them (A.2.5, exchange_v, which is
 * written for THREADS = NELEMS/2 = 5, is appendix_a_exchange_v.upc), and the
 * cyclic chunk order of Listing 3.5; each checks what the appendix says it does.
 * The same examples in upcemu's C++ spelling: tests/unit/test_ext_examples.cpp,
 * whose resolutions this file follows where the appendix's code contradicts its
 * synopsis or text (docs/extended-collectives.md, "Semantics where Appendix A
 * is silent"):
 *   - the count arrays are `shared size_t nelems[...]` (the synopsis's
 *     `shared size_t *nelems`; the examples declare `shared int`);
 *   - upc_all_gather_v, upc_all_gather_all_v and upc_all_permute_v take their
 *     arguments in the synopsis's order (the examples list them in another);
 *   - chunks that the examples place where they would run past the block they
 *     describe start at the block instead (noted at each call).
 * A.2.6's permutation and A.2.7's four chunks name threads 0-3, and A.2.8 has
 * THREADS in a block size: build with upcc -T 4, run with -n 4. */
#include <upc.h>
#include <upc_collective_ext.h>
#include <teamutil.h>
#include <stdio.h>

#if THREADS != 4
#error "the Appendix A vector-variant examples are written for THREADS=4: build with upcc -T 4"
#endif

static int failures;
/* CHECK_AT(what, array, index, expected): array[index] must be expected */
#define CHECK_AT(what, arr, index, expected)                                                     \
  do {                                                                                           \
    long long i_ = (index), g_ = (arr)[i_], e_ = (expected);                                     \
    if (g_ != e_) {                                                                              \
      if (failures < 20)                                                                         \
        printf("appendix_a_vector_variant: thread %d: %s: %s[%lld] is %lld, the appendix says %lld\n", \
               MYTHREAD, what, #arr, i_, g_, e_);                                                \
      failures++;                                                                                \
    }                                                                                            \
  } while (0)
#define CHECK_EQ(what, got, expected)                                                            \
  do {                                                                                           \
    long long g_ = (got), e_ = (expected);                                                       \
    if (g_ != e_) {                                                                              \
      printf("appendix_a_vector_variant: thread %d: %s: %s is %lld, the appendix says %lld\n",   \
             MYTHREAD, what, #got, g_, e_);                                                      \
      failures++;                                                                                \
    }                                                                                            \
  } while (0)

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS];
shared [NELEMS] int B[NELEMS*THREADS];
shared int ddisp[THREADS];
shared int sdisp[THREADS];
shared size_t nelems[THREADS];

static void fresh(void) {
  // Initialize A (and B, so that what the collective leaves alone can be seen)
  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A[i]=i;
    B[i]=-1;
  }
  upc_barrier;
}

/* A.2.1: a chunk of three elements of thread 1's block of A to the selected
 * positions of B: ddisp[t] = t*NELEMS + t % (NELEMS/2). */
static void a_2_1_broadcast_v(void) {
  fresh();
  ddisp[MYTHREAD] = MYTHREAD*NELEMS + (MYTHREAD % (NELEMS/2));

  upc_all_broadcast_v(B, &A[NELEMS+1], ddisp, 3, NELEMS, sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  for (int t = 0; t < THREADS; t++) {
    for (int k = 0; k < 3; k++)
      CHECK_AT("A.2.1 upc_all_broadcast_v", B, t * NELEMS + t % 5 + k, NELEMS + 1 + k);
    CHECK_AT("A.2.1 upc_all_broadcast_v (past the chunk)", B, t * NELEMS + t % 5 + 3, -1);
  }
  upc_barrier;
}

/* A.2.2: thread 1's block of A scattered to the positions of B: thread t gets
 * nelems[t] = t % (NELEMS/2) + 1 consecutive elements at ddisp[t] (A.2.1's).
 * The appendix starts at &A[NELEMS+1]; with 4 threads the chunks (1+2+3+4 = 10
 * elements) would then run past thread 1's block, so they start at &A[NELEMS]. */
static void a_2_2_scatter_v(void) {
  fresh();
  ddisp[MYTHREAD] = MYTHREAD*NELEMS + (MYTHREAD % (NELEMS/2));
  nelems[MYTHREAD] = MYTHREAD % (NELEMS/2) + 1;

  upc_all_scatter_v(B, &A[NELEMS], ddisp, nelems, NELEMS, NELEMS, sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  int at = NELEMS;
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < t % 5 + 1; k++)
      CHECK_AT("A.2.2 upc_all_scatter_v", B, t * NELEMS + t % 5 + k, at++);
  upc_barrier;
}

/* A.2.3: the selected elements of A (nelems[t] at sdisp[t]) gathered, one chunk
 * after the other, into thread 1's block of B. The appendix passes nelems after
 * the block sizes (the synopsis has it before them) and starts at &B[NELEMS+1],
 * where the 10 elements would overrun the block: the call starts at &B[NELEMS]. */
static void a_2_3_gather_v(void) {
  fresh();
  sdisp[MYTHREAD] = MYTHREAD*NELEMS + (MYTHREAD % (NELEMS/2));
  nelems[MYTHREAD] = MYTHREAD % (NELEMS/2) + 1;

  upc_all_gather_v(&B[NELEMS], A, sdisp, nelems, NELEMS, NELEMS, sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  int at = NELEMS;
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < t % 5 + 1; k++)
      CHECK_AT("A.2.3 upc_all_gather_v", B, at++, t * NELEMS + t % 5 + k);
  upc_barrier;
}

/* A.2.4: the same elements gathered into every block of B. The appendix's
 * ddisp[t] = t*NELEMS + 1 ("the second position of their array block") makes
 * the 10 elements overrun the block of 10: here ddisp[t] = t*NELEMS. Arguments
 * in the synopsis's order (nelems before the block sizes). */
static void a_2_4_gather_all_v(void) {
  fresh();
  sdisp[MYTHREAD] = MYTHREAD*NELEMS + (MYTHREAD % (NELEMS/2));
  // All threads gather the results in the first position of their array block
  ddisp[MYTHREAD] = MYTHREAD*NELEMS;
  nelems[MYTHREAD] = MYTHREAD % (NELEMS/2) + 1;

  upc_all_gather_all_v(B, A, ddisp, sdisp, nelems, NELEMS, NELEMS, sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  for (int j = 0; j < THREADS; j++) {
    int pos = j * NELEMS;
    for (int t = 0; t < THREADS; t++)
      for (int k = 0; k < t % 5 + 1; k++)
        CHECK_AT("A.2.4 upc_all_gather_all_v", B, pos++, t * NELEMS + t % 5 + k);
  }
  upc_barrier;
}

/* A.2.6: four 2-element chunks of A permuted into B by perm = {3, 2, 0, 1}: the
 * chunk at disp[i] goes to the same phase of thread perm[i]'s block. The
 * appendix's disp[i] = i*2 points into thread 0's block for every i; disp[i] is
 * an index in thread i's block here (i*NELEMS + i*2). Arguments in the
 * synopsis's order: perm before disp and nelems. */
static void a_2_6_permute_v(void) {
  static shared int perm[THREADS];
  static shared int disp[THREADS];
  fresh();
  if (MYTHREAD == 0) {
    // Define the desired permutation
    perm[0]=3;  perm[1]=2;
    perm[2]=0;  perm[3]=1;
    // Four 2-element chunks are defined
    for (int i=0; i<THREADS; i++) {
      disp[i]=i*NELEMS+i*2;
      nelems[i]=2;
    }
  }

  upc_all_permute_v(B, A, perm, disp, nelems, NELEMS, NELEMS, sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  const int p[4] = {3, 2, 0, 1};
  for (int i = 0; i < THREADS; i++)
    for (int k = 0; k < 2; k++)
      CHECK_AT("A.2.6 upc_all_permute_v", B, p[i] * NELEMS + i * 2 + k, i * NELEMS + i * 2 + k);
  upc_barrier;
}

#undef NELEMS
#define NELEMS 1000
#define NCHUNKS 4

/* A.2.7: four chunks of 110 elements of A, at sdisp[i] = i*100+15, copied to B
 * at ddisp[i] = i*200. (The appendix initialises A from MYTHREAD*NELEMS*THREADS,
 * past the array; here each thread initialises its own block.) */
static void a_2_7_vector_copy(void) {
  static shared [NELEMS] int A[NELEMS*THREADS];
  static shared [NELEMS] int B[NELEMS*THREADS];
  static shared int sdisp[NCHUNKS];
  static shared int ddisp[NCHUNKS];
  static shared size_t nelems[NCHUNKS];

  // Initialize A
  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A[i]=i;
    B[i]=-1;
  }

  if (MYTHREAD == 0) {
    // Four 110-element chunks are defined
    for (int i=0; i<NCHUNKS; i++) {
      sdisp[i]=i*100+15;
      ddisp[i]=i*200;
      nelems[i]=110;
    }
  }

  upc_all_vector_copy(B, A, ddisp, sdisp, nelems, NCHUNKS, NELEMS, NELEMS,
      sizeof(int), UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  for (int i = 0; i < NCHUNKS; i++)
    for (int k = 0; k < 110; k++)
      CHECK_AT("A.2.7 upc_all_vector_copy", B, i * 200 + k, i * 100 + 15 + k);
  CHECK_AT("A.2.7 upc_all_vector_copy (between the chunks)", B, 110, -1);
  upc_barrier;
}

/* Listing 3.5 (Figure 3.4 plus a chunk for thread 2): chunks {3, 6, 9, 12} of
 * {1, 2, 1, 1} elements of a blocks-of-4 array, chunk i on thread i, so that
 * nchunks * UPC_EXTCOLLS_VV_CHUNKS asks for the cyclic-order algorithm. */
static void listing_3_5_reduce_v_chunks(void) {
  static shared [4] int src[4*THREADS];
  static shared int dst[THREADS];
  static shared int sdisp[4];
  static shared size_t nelems[4];
  for (int i = MYTHREAD * 4; i < (MYTHREAD + 1) * 4; i++) src[i] = i;
  if (MYTHREAD == 0) {
    const int d[4] = {3, 6, 9, 12};
    const size_t n[4] = {1, 2, 1, 1};
    for (int i = 0; i < 4; i++) {
      sdisp[i] = d[i];
      nelems[i] = n[i];
    }
  }
  upc_all_reduceI_v(&dst[2], src, UPC_ADD, sdisp, nelems, 4*UPC_EXTCOLLS_VV_CHUNKS, 4, NULL,
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  CHECK_EQ("Listing 3.5 upc_all_reduceI_v (UPC_EXTCOLLS_VV_CHUNKS)", dst[2], 3 + 6 + 7 + 9 + 12);
  upc_barrier;
}

/* A.2.8: the sum of the four chunks (110 elements from i*100+15) of a
 * blocks-of-THREADS array into res; the sum of the first three into every
 * thread's element of result; the prefix reduction of the first two into B at
 * ddisp. The appendix's ddisp[i] = i*100+15 makes the 110-element chunks
 * overlap in B; here ddisp[i] = i*200+15. */
static shared [THREADS] int A8[NELEMS*THREADS];
static shared [THREADS] int B8[NELEMS*THREADS];
static shared int sdisp8[NCHUNKS], ddisp8[NCHUNKS];
static shared size_t nelems8[NCHUNKS];
static shared int res, result[THREADS];

static int chunk_sum(int i) { return 110 * (i * 100 + 15) + 110 * 109 / 2; }

static void a_2_8_computational_v(void) {
  // Initialize A
  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A8[i]=i;
  }

  if (MYTHREAD == 0) {
    // Four 110-element chunks are defined
    for (int i=0; i<NCHUNKS; i++) {
      sdisp8[i]=i*100+15;  ddisp8[i]=i*200+15;  nelems8[i]=110;
    }
  }

  upc_all_reduceI_v(&res, A8, UPC_ADD, sdisp8, nelems8, NCHUNKS,
      THREADS, NULL, UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_all_reduceI_all_v(result, A8, UPC_ADD, sdisp8, nelems8, NCHUNKS-1,
      THREADS, NULL, UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);
  upc_all_prefix_reduceI_v(B8, A8, UPC_ADD, ddisp8, sdisp8, nelems8, NCHUNKS-2,
      THREADS, THREADS, NULL, UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  CHECK_EQ("A.2.8 upc_all_reduceI_v", res, chunk_sum(0) + chunk_sum(1) + chunk_sum(2) + chunk_sum(3));
  for (int t = 0; t < THREADS; t++)
    CHECK_AT("A.2.8 upc_all_reduceI_all_v", result, t, chunk_sum(0) + chunk_sum(1) + chunk_sum(2));
  int run_sum = 0;
  for (int j = 0; j < 2; j++)
    for (int k = 0; k < 110; k++) {
      run_sum += j * 100 + 15 + k;
      CHECK_AT("A.2.8 upc_all_prefix_reduceI_v", B8, j * 200 + 15 + k, run_sum);
    }
  upc_barrier;
}

int main(void) {
  a_2_1_broadcast_v();
  a_2_2_scatter_v();
  a_2_3_gather_v();
  a_2_4_gather_all_v();
  a_2_6_permute_v();
  a_2_7_vector_copy();
  listing_3_5_reduce_v_chunks();
  a_2_8_computational_v();

  if (failures) printf("appendix_a_vector_variant: thread %d: %d mismatches\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures)
    printf("appendix_a_vector_variant: A.2.1-A.2.4, A.2.6-A.2.8 and Listing 3.5 as the appendix says at THREADS %d\n",
           THREADS);
  return failures != 0;
}
