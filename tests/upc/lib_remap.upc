/* <upc_remap.h> through upcc: the remap operator of seed 004 on UPC shared
 * arrays, each result checked against a sequential computation:
 *   - a gather by a permutation between arrays of different block sizes;
 *   - a transpose, D = S#[Index2, Index1], of a 2-D array (two maps);
 *   - a scatter with +=, D#[M] += S (a histogram of S's values);
 *   - a 2-D scatter with assignment and a MAX scatter on integers.
 * With an argument, a map value outside its dimension, which must stop the
 * run naming the map and the dimension (tests/meson.build). */
#include <upc.h>
#include <upc_remap.h>
#include <stdio.h>

#define N 7   /* the 2-D arrays are N x N */
#define K 5   /* histogram bins */
#define PER 9 /* elements per thread of the 1-D arrays */

shared [3] double a[PER * THREADS];
shared [4] double d[PER * THREADS];
shared [4] long idx[PER * THREADS]; /* d's layout: the maps of a gather walk the destination */
shared [5] double s2[N * N];        /* s2[i][j] is element i*N + j */
shared [2] double t2[N * N];
shared [2] long rows[N * N], cols[N * N];
shared [3] long values[PER * THREADS];
shared [3] long bin_of[PER * THREADS];
shared [1] long hist[K];
shared [2] long big[K];

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

static long target(int i, int n) { return (long)((i * 5 + 2) % n); } /* a permutation when gcd(5, n) = 1 */

int main(int argc, char **argv) {
  const int n = PER * THREADS;
  int i, j;
  size_t dims2[2] = {N, N};
  size_t dims1[1];
  dims1[0] = (size_t)n;

  if (argc > 1) { /* map 2 of a transpose gives N: outside dimension 2 */
    upc_forall (i = 0; i < N * N; i++; &t2[i]) {
      rows[i] = i % N;
      cols[i] = i == N * N - 1 ? N : i / N;
    }
    shared long *bad[2];
    bad[0] = (shared long *)rows;
    bad[1] = (shared long *)cols;
    upc_all_remap_gather(t2, 2, N * N, s2, 5, 2, dims2, bad, sizeof(double));
    return 0;
  }

  /* 1. d[i] = a[idx[i]], idx a permutation (n = 9 * THREADS: 5 is coprime to it unless THREADS is a multiple of 5). */
  upc_forall (i = 0; i < n; i++; &a[i]) a[i] = 10.0 * i;
  upc_forall (i = 0; i < n; i++; &idx[i]) idx[i] = n % 5 ? target(i, n) : (long)(n - 1 - i);
  shared long *m1[1];
  m1[0] = (shared long *)idx;
  upc_all_remap_gather(d, 4, n, a, 3, 1, dims1, m1, sizeof(double));
  upc_forall (i = 0; i < n; i++; &d[i]) CHECK(d[i] == 10.0 * idx[i], "gather d[%d] = %g, a[%ld] = %g", i, d[i], idx[i], 10.0 * idx[i]);

  /* 2. The transpose: t2[i][j] = s2[j][i], maps (Index2, Index1) on t2's layout. */
  upc_forall (i = 0; i < N * N; i++; &s2[i]) s2[i] = 100.0 * (i / N) + (i % N);
  upc_forall (i = 0; i < N * N; i++; &rows[i]) {
    rows[i] = i % N; /* the source row: my column */
    cols[i] = i / N; /* the source column: my row */
  }
  shared long *tr[2];
  tr[0] = (shared long *)rows;
  tr[1] = (shared long *)cols;
  upc_all_remap_gather(t2, 2, N * N, s2, 5, 2, dims2, tr, sizeof(double));
  upc_forall (i = 0; i < N * N; i++; &t2[i]) {
    const int r = i / N, c = i % N;
    CHECK(t2[i] == 100.0 * c + r, "transpose t2[%d][%d] = %g", r, c, t2[i]);
  }

  /* 3. A histogram: hist#[bin_of] += ones. */
  upc_forall (i = 0; i < n; i++; &values[i]) {
    values[i] = 1;
    bin_of[i] = (i * i + 3) % K;
  }
  upc_forall (i = 0; i < K; i++; &hist[i]) hist[i] = 1000; /* += keeps what was there */
  shared long *hb[1];
  hb[0] = (shared long *)bin_of;
  size_t kdims[1] = {K};
  upc_all_remap_scatter(hist, 1, 1, kdims, values, 3, n, hb, sizeof(long), UPC_ADD, UPC_LONG);
  upc_forall (j = 0; j < K; j++; &hist[j]) {
    long want = 1000;
    for (i = 0; i < n; i++) want += (i * i + 3) % K == j;
    CHECK(hist[j] == want, "histogram bin %d: %ld, sequentially %ld", j, hist[j], want);
  }
  /* ... and the largest index that falls in each bin (MAX), into a fresh array. */
  upc_forall (i = 0; i < n; i++; &values[i]) values[i] = i;
  upc_forall (i = 0; i < K; i++; &big[i]) big[i] = -1;
  upc_all_remap_scatter(big, 2, 1, kdims, values, 3, n, hb, sizeof(long), UPC_MAX, UPC_LONG);
  upc_forall (j = 0; j < K; j++; &big[j]) {
    long want = -1;
    for (i = 0; i < n; i++)
      if ((i * i + 3) % K == j && i > want) want = i;
    CHECK(big[j] == want, "max bin %d: %ld, sequentially %ld", j, big[j], want);
  }

  /* 4. A 2-D scatter with assignment, the transpose undone: t2's element (r, c)
   * goes to s2[c][r]; on t2's layout rows[i] = i % N = c and cols[i] = i / N = r. */
  upc_forall (i = 0; i < N * N; i++; &s2[i]) s2[i] = -1;
  shared long *back[2];
  back[0] = (shared long *)rows;
  back[1] = (shared long *)cols;
  upc_all_remap_scatter(s2, 5, 2, dims2, t2, 2, N * N, back, sizeof(double), UPC_REMAP_ASSIGN, 0);
  upc_forall (i = 0; i < N * N; i++; &s2[i]) CHECK(s2[i] == 100.0 * (i / N) + (i % N), "scatter back s2[%d] = %g", i, s2[i]);

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_remap: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
