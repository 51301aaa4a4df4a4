/* Seed 003 (Teijeiro's thesis), Appendix A.4 "Get-put-priv Variants of
 * Standard Collectives" has no example program of its own; the thesis's
 * examples of the group are Listing 3.13 (image filtering with the private
 * scatter, in-place broadcast and gather) and the allgather of Listing 3.12
 * (its get, put and priv forms). Both here in UPC, each checking what the
 * thesis says it does. The same Listing 3.13 in upcemu's C++ spelling:
 * tests/unit/test_ext_examples.cpp.
 *
 * Runs at any THREADS that divides N (12: THREADS 1, 2, 3, 4, 6, 12). */
#include <upc.h>
#include <upc_collective_ext.h>
#include <teamutil.h>
#include <stdio.h>
#include <string.h>

#define N 12
#define MAXT 64
#define SYNC (UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC)

static int failures;
#define FAIL(...)                                        \
  do {                                                   \
    if (failures < 20) {                                 \
      printf("appendix_a_get_put_priv: thread %d: ", MYTHREAD); \
      printf(__VA_ARGS__);                               \
      printf("\n");                                      \
    }                                                    \
    failures++;                                          \
  } while (0)

/* The 3x3 filter on the rows this thread holds (rows outside them count as 0:
 * with Listing 3.13's filter below only the centre weighs). */
static void filterMatrix(double *m, const double *filter, int rows, int cols, int frows, int fcols) {
  static double out[N * N];
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      double s = 0;
      for (int a = 0; a < frows; a++)
        for (int b = 0; b < fcols; b++) {
          const int r = i + a - frows / 2, c = j + b - fcols / 2;
          if (r >= 0 && r < rows && c >= 0 && c < cols) s += filter[a * fcols + b] * m[r * cols + c];
        }
      out[i * cols + j] = s;
    }
  memcpy(m, out, sizeof(double) * rows * cols);
}

/* Listing 3.13: thread 0's private N*N image scattered by rows to every
 * thread's private aux, the 3x3 filter broadcast in place from thread 0's
 * private copy, each thread's rows filtered, and the filtered rows gathered
 * into thread 0's private filteredImg. */
static void listing_3_13_image_filtering(void) {
  static double img[N * N], aux[N * N], filteredImg[N * N], filter[3 * 3];
  // Initialize 'img' as the source N*N image, 'aux' as an
  // auxiliary array of (N/THREADS)*N elements on each thread
  // and 'filter' as a 3x3 matrix.
  // All private variables are initialized on thread 0
  for (int i = 0; i < N * N; i++) img[i] = MYTHREAD == 0 ? i : -1, aux[i] = -1, filteredImg[i] = -1;
  for (int i = 0; i < 9; i++) filter[i] = MYTHREAD == 0 ? (i == 4 ? 2.0 : 0.0) : -1;

  upc_all_scatter_priv(aux, img, (N/THREADS)*N*sizeof(double),
      SYNC);
  upc_all_broadcast_in_place_priv(filter, 3*3*sizeof(double),
      SYNC);

  for (int i = 0; i < 9; i++)
    if (filter[i] != (i == 4 ? 2.0 : 0.0)) FAIL("Listing 3.13 upc_all_broadcast_in_place_priv: filter[%d] is %g", i, filter[i]);
  for (int i = 0; i < (N / THREADS) * N; i++)
    if (aux[i] != MYTHREAD * (N / THREADS) * N + i)
      FAIL("Listing 3.13 upc_all_scatter_priv: aux[%d] is %g, expected %d", i, aux[i], MYTHREAD * (N / THREADS) * N + i);

  filterMatrix(aux, filter, N/THREADS, N, 3, 3);

  upc_all_gather_priv(filteredImg, aux, (N/THREADS)*N*sizeof(double),
      SYNC);

  if (MYTHREAD == 0)
    for (int i = 0; i < N * N; i++)
      if (filteredImg[i] != 2.0 * i)
        FAIL("Listing 3.13 upc_all_gather_priv: filteredImg[%d] is %g, expected %g", i, filteredImg[i], 2.0 * i);
  upc_barrier;
}

/* Listing 3.12: the allgather with a private destination (get), a private
 * source (put) and both (priv): two integers from every thread to every thread. */
shared [2] int src[2 * THREADS];

/* thread u's block of an area of upc_all_alloc(THREADS, nbytes) */
static shared [] int *block_of(shared void *area, int u) {
  return (shared [] int *)((shared char *)area + u);
}

static void listing_3_12_gather_all(void) {
  int mine[2] = {100 * MYTHREAD, 100 * MYTHREAD + 1}, all[2 * MAXT];
  src[2 * MYTHREAD] = mine[0];
  src[2 * MYTHREAD + 1] = mine[1];
  /* shared [2*THREADS] int dst[2*THREADS*THREADS], allocated (a block size
   * with THREADS needs a static THREADS) */
  shared void *dst = upc_all_alloc(THREADS, 2 * THREADS * sizeof(int));
  for (int i = 0; i < 2 * THREADS; i++) block_of(dst, MYTHREAD)[i] = -1;

  for (int i = 0; i < 2 * MAXT; i++) all[i] = -1;
  upc_all_gather_all_get(all, src, 2 * sizeof(int), SYNC);
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < 2; k++)
      if (all[2 * t + k] != 100 * t + k)
        FAIL("Listing 3.12 upc_all_gather_all_get: dst[%d] is %d, expected %d", 2 * t + k, all[2 * t + k], 100 * t + k);

  upc_all_gather_all_put(dst, mine, 2 * sizeof(int), SYNC);
  for (int u = 0; u < THREADS; u++)
    for (int t = 0; t < THREADS; t++)
      for (int k = 0; k < 2; k++) {
        const int at = 2 * t + k, got = block_of(dst, u)[at];
        if (got != 100 * t + k)
          FAIL("Listing 3.12 upc_all_gather_all_put: thread %d's block of dst, [%d], is %d, expected %d", u, at, got,
               100 * t + k);
      }

  for (int i = 0; i < 2 * MAXT; i++) all[i] = -1;
  upc_all_gather_all_priv(all, mine, 2 * sizeof(int), SYNC);
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < 2; k++)
      if (all[2 * t + k] != 100 * t + k)
        FAIL("Listing 3.12 upc_all_gather_all_priv: dst[%d] is %d, expected %d", 2 * t + k, all[2 * t + k], 100 * t + k);
  upc_barrier;
  if (MYTHREAD == 0) upc_free(dst);
}

int main(void) {
  if (N % THREADS != 0 || THREADS > MAXT) {
    if (MYTHREAD == 0)
      printf("appendix_a_get_put_priv: needs a THREADS that divides %d (the image's rows), not %d\n", N, THREADS);
    return 1;
  }
  listing_3_13_image_filtering();
  listing_3_12_gather_all();

  if (failures) printf("appendix_a_get_put_priv: thread %d: %d mismatches\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures)
    printf("appendix_a_get_put_priv: Listings 3.13 and 3.12 as the thesis says at THREADS %d\n", THREADS);
  return failures != 0;
}
