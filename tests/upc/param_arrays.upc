/* Parameters declared as arrays of shared (UPC 1.3 / C11 6.7.6.3: an array
 * parameter is a pointer to its element); indexing through it steps whole
 * rows, counted in the base element under its block. Built with upcc -T N (THREADS in an inner dimension of a parameter). */
#include <upc.h>
#include <stdio.h>

#define ROW (5 * THREADS)

strict shared int grid[3][ROW];
shared int flat[ROW];
shared [2] long blocked[4][6];

static int errors;

static void check(int ok, const char *what, int i) {
  if (!ok) {
    printf("thread %d: FAIL %s %d\n", MYTHREAD, what, i);
    errors++;
  }
}

/* the first dimension is dropped; the row keeps THREADS */
void fill(strict shared int g[3][5 * THREADS], int rows) {
  int i, j;
  for (i = 0; i < rows; i++)
    upc_forall (j = 0; j < ROW; j++; &g[i][j])
      g[i][j] = 100 * i + j;
}

int sum_row(strict shared int g[][5 * THREADS], int i) {
  int j, s = 0;
  for (j = 0; j < ROW; j++)
    s += g[i][j];
  return s;
}

void fill_flat(shared int f[ROW]) {
  int j;
  upc_forall (j = 0; j < ROW; j++; &f[j])
    f[j] = 7 * j;
}

void fill_blocked(shared [2] long b[4][6], long base) {
  int i, j;
  for (i = 0; i < 4; i++)
    upc_forall (j = 0; j < 6; j++; &b[i][j])
      b[i][j] = base + 10 * i + j;
}

int main(void) {
  int i, j;
  fill(grid, 3);
  fill_flat(flat);
  fill_blocked(blocked, 1000);
  upc_barrier;
  for (i = 0; i < 3; i++) {
    int want = 0;
    for (j = 0; j < ROW; j++) {
      check(grid[i][j] == 100 * i + j, "grid", i * ROW + j);
      want += 100 * i + j;
    }
    check(sum_row(grid, i) == want, "sum_row", i);
  }
  for (j = 0; j < ROW; j++)
    check(flat[j] == 7 * j, "flat", j);
  for (i = 0; i < 4; i++)
    for (j = 0; j < 6; j++)
      check(blocked[i][j] == 1000 + 10 * i + j, "blocked", i * 6 + j);
  upc_barrier;
  if (errors == 0 && MYTHREAD == 0)
    printf("param_arrays: ok (THREADS %d)\n", THREADS);
  return errors != 0;
}
