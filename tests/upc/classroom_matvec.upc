/* Classroom code (seed 003 §2.2): the matrix-vector product, the sample the
 * study's seminar ran beside "Hello World" and pi, as in the Berkeley UPC
 * slides. The matrix is blocked by rows (`shared [N] double a[N][N]`: row i on
 * thread i % THREADS), and c[i] of `shared double c[N]` lives with row i.
 * Seminar version: upc_forall with affinity &a[i][0], every access through the
 * shared arrays. Privatised version: each row read through a cast to a private
 * pointer, b fetched from thread 0 with one upc_memget, each sum private. The
 * elements are small whole numbers, so both must equal the sequential product
 * exactly. */
#include <upc_relaxed.h>
#include <stdio.h>

#define N 13

shared [N] double a[N][N];
shared double b[N], c[N], d[N];
shared [] double b0[N];  /* a copy of b on thread 0, for one upc_memget */

static double a_element(int i, int j) { return (double)((i * 7 + j * 13) % 19 - 9); }
static double b_element(int j) { return (double)(j % 11 - 5); }

static void seminar(void) {
  int i, j;
  upc_forall (i = 0; i < N; i++; &a[i][0]) {
    c[i] = 0;
    for (j = 0; j < N; j++) c[i] += a[i][j] * b[j];
  }
}

static void privatised(void) {
  int i, j;
  double my_b[N];
  upc_memget(my_b, b0, N * sizeof(double));
  upc_forall (i = 0; i < N; i++; &a[i][0]) {
    double *row = (double *)&a[i][0];  /* my row, privatised */
    double sum = 0;
    for (j = 0; j < N; j++) sum += row[j] * my_b[j];
    d[i] = sum;
  }
}

int main(void) {
  int i, j, bad = 0;
  upc_forall (i = 0; i < N; i++; &a[i][0])
    for (j = 0; j < N; j++) a[i][j] = a_element(i, j);
  upc_forall (j = 0; j < N; j++; &b[j]) b[j] = b_element(j);
  if (MYTHREAD == 0)
    for (j = 0; j < N; j++) b0[j] = b_element(j);
  upc_barrier;
  seminar();
  privatised();
  upc_barrier;  /* every c[i] and d[i] is written before anyone reads them */
  for (i = 0; i < N; i++) {
    double want = 0;
    for (j = 0; j < N; j++) want += a_element(i, j) * b_element(j);
    if (c[i] != want || d[i] != want) {
      if (!bad) printf("thread %d: c[%d] = %g, d[%d] = %g, want %g\n", MYTHREAD, i, (double)c[i], i, (double)d[i], want);
      bad = 1;
    }
  }
  upc_barrier;
  if (!bad && MYTHREAD == 0) printf("classroom matvec (%d threads, c[0] = %g): ok\n", THREADS, (double)c[0]);
  return bad;
}
