/* Declared pointers to arrays of shared (`shared int (*p)[N] = a;`) as
   variables: block scope, static, file scope with an initialiser, a typedef, an
   array of them, a struct member. Each is one pointer-to-shared; p[i][j] is
   element i*N+j of the array under its own block, p + 1 and p++ step whole
   rows, q - p counts rows. Checked against the arrays indexed directly. */
#include <upc.h>
#include <stdio.h>

#define N 5
#define R 4

shared int a[R][N];
shared [3] long b[R + 1][N];
shared int (*fp)[N] = a;               /* file scope, initialised */
typedef shared [3] long (*brow_p)[N];
struct view { shared int (*rows)[N]; int n; };

static int errors;
static void check(int ok, const char *what, int i, int j) {
  if (!ok) {
    printf("thread %d: FAIL %s [%d][%d]\n", MYTHREAD, what, i, j);
    errors++;
  }
}

static long sum_rows(shared int (*rows)[N], int n) {   /* a parameter spelled as a pointer */
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < N; j++) s += rows[i][j];
  return s;
}

int main(void) {
  int i, j;
  shared int (*p)[N] = a;
  brow_p q = b + 1;                    /* row 1 of b */
  static shared int (*ps)[N];
  shared int (*pa[2])[N] = {a, a + 2};
  struct view v = {a + 1, R - 1};
  ps = a;
  /* writes through p, each thread its own elements (affinity &p[i][j]) */
  for (i = 0; i < R; i++)
    upc_forall (j = 0; j < N; j++; &p[i][j])
      p[i][j] = 10 * i + j;
  upc_forall (i = 0; i < (R + 1) * N; i++; &b[i / N][i % N])
    b[i / N][i % N] = 1000 + i;
  upc_barrier;
  for (i = 0; i < R; i++)
    for (j = 0; j < N; j++) {
      check(a[i][j] == 10 * i + j, "a", i, j);
      check(fp[i][j] == 10 * i + j, "file-scope fp", i, j);
      check(ps[i][j] == 10 * i + j, "static ps", i, j);
      check(upc_threadof(&p[i][j]) == (size_t)((i * N + j) % THREADS), "threadof &p[i][j]", i, j);
      check(&p[i][j] == &a[i][j], "&p[i][j] == &a[i][j]", i, j);
      check((*(p + i))[j] == 10 * i + j, "(*(p + i))[j]", i, j);
    }
  for (i = 0; i < R; i++)
    for (j = 0; j < N; j++) {
      check(q[i][j] == 1000 + (i + 1) * N + j, "blocked q", i, j);
      check(upc_threadof(&q[i][j]) == (size_t)(((i + 1) * N + j) / 3 % THREADS), "threadof &q[i][j]", i, j);
      check(upc_phaseof(&q[i][j]) == (size_t)(((i + 1) * N + j) % 3), "phaseof &q[i][j]", i, j);
    }
  for (i = 0; i < 2; i++)
    for (j = 0; j < N; j++)
      check(pa[i][1][j] == 10 * (2 * i + 1) + j, "pa[i][1][j]", i, j);
  for (i = 0; i < v.n; i++)
    for (j = 0; j < N; j++)
      check(v.rows[i][j] == 10 * (i + 1) + j, "struct member v.rows", i, j);
  /* stepping rows */
  shared int (*r)[N] = a;
  r++;
  check(r[0][2] == 12, "r++", 1, 2);
  r += 2;
  check((*r)[4] == 34, "r += 2; (*r)[4]", 3, 4);
  check(r - p == 3, "r - p (rows)", 3, 0);
  check(r > p && p < r && r != p, "r > p", 3, 0);
  check(r - 3 == p, "r - 3 == p", 0, 0);
  brow_p q2 = q + 2;
  check(q2 - q == 2 && q2[0][0] == 1000 + 3 * N, "blocked q + 2", 2, 0);
  long want = 0;
  for (i = 0; i < R; i++)
    for (j = 0; j < N; j++) want += 10 * i + j;
  check(sum_rows(p, R) == want && sum_rows(fp, R) == want, "sum_rows(p)", R, N);
  upc_barrier;
  if (errors == 0 && MYTHREAD == 0) printf("ptr_to_rows: ok at %d threads\n", THREADS);
  return errors != 0;
}
