/* With upcc -T N: pointers to rows of shared whose length contains THREADS, as
   a parameter spelled as a pointer and as a variable (without -T both are
   errors: tests/upc/neg/param_ptr_threads.upc, var_ptr_threads.upc). */
#include <upc.h>
#include <stdio.h>

#define ROW (4 * THREADS)
shared int g[3][ROW];
shared [2] int h[3][ROW];

static int errors;

static long row_sum(shared int (*a)[4 * THREADS], int i) {
  long s = 0;
  for (int j = 0; j < ROW; j++) s += a[i][j];
  return s;
}

static long blocked_sum(shared [2] int (*a)[ROW], int i) {
  long s = 0;
  for (int j = 0; j < ROW; j++) s += a[i][j];
  return s;
}

int main(void) {
  int i, j;
  shared int (*p)[4 * THREADS] = g;
  shared [2] int (*q)[ROW] = h;
  for (i = 0; i < 3; i++)
    upc_forall (j = 0; j < ROW; j++; &p[i][j]) {
      p[i][j] = 100 * i + j;
      q[i][j] = 1000 * i + j;
    }
  upc_barrier;
  for (i = 0; i < 3; i++) {
    long want = 0, wantb = 0;
    for (j = 0; j < ROW; j++) {
      want += 100 * i + j;
      wantb += 1000 * i + j;
      if (upc_threadof(&q[i][j]) != (size_t)((i * ROW + j) / 2 % THREADS)) errors++;
    }
    if (row_sum(p, i) != want || row_sum(g, i) != want || blocked_sum(q, i) != wantb) {
      printf("thread %d: FAIL row %d\n", MYTHREAD, i);
      errors++;
    }
  }
  if ((p + 2) - p != 2 || &p[1][0] - &p[0][0] != ROW) errors++;
  upc_barrier;
  if (errors == 0 && MYTHREAD == 0) printf("ptr_rows_static: ok at %d threads\n", THREADS);
  return errors != 0;
}
