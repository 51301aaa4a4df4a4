/* Classroom code (seed 003 §2.2): 1-D three-point stencil, in its two classroom
 * stages. Naive: upc_forall over the shared vector, every access through the
 * shared array. Optimised: each thread privatises its block with a cast
 * `(double *)&u[MYTHREAD * BLK]`, fetches the two halo elements of its
 * neighbours with upc_memget, and loops over private memory. Both must give the
 * sequential result exactly (the same operations in the same order). */
#include <upc.h>
#include <stdio.h>

#define BLK 8
#define N (BLK * THREADS)
#define ITERS 10

shared [BLK] double u[BLK * THREADS], v[BLK * THREADS];
shared [BLK] double w[BLK * THREADS], z[BLK * THREADS];

static double initial(int i) { return (double)((i * 37) % 11) - 3.0; }
static double update(double l, double c, double r) { return 0.25 * l + 0.5 * c + 0.25 * r; }

static void naive(void) {
  int i, it;
  upc_forall (i = 0; i < N; i++; &u[i]) u[i] = v[i] = initial(i);
  upc_barrier;
  for (it = 0; it < ITERS; it++) {
    shared [BLK] double *src = it % 2 == 0 ? u : v;
    shared [BLK] double *dst = it % 2 == 0 ? v : u;
    upc_forall (i = 1; i < N - 1; i++; &dst[i]) dst[i] = update(src[i - 1], src[i], src[i + 1]);
    upc_barrier;
  }
}

static void optimised(void) {
  double *my_w = (double *)&w[MYTHREAD * BLK];   /* privatisation */
  double *my_z = (double *)&z[MYTHREAD * BLK];
  int first = MYTHREAD * BLK;
  for (int j = 0; j < BLK; j++) my_w[j] = my_z[j] = initial(first + j);
  upc_barrier;
  for (int it = 0; it < ITERS; it++) {
    shared [BLK] double *src = it % 2 == 0 ? w : z;
    double *s = it % 2 == 0 ? my_w : my_z;
    double *d = it % 2 == 0 ? my_z : my_w;
    double left = 0, right = 0;
    if (MYTHREAD > 0) upc_memget(&left, &src[first - 1], sizeof(double));
    if (MYTHREAD < THREADS - 1) upc_memget(&right, &src[first + BLK], sizeof(double));
    for (int j = 0; j < BLK; j++) {
      int g = first + j;
      if (g == 0 || g == N - 1) continue;
      d[j] = update(j > 0 ? s[j - 1] : left, s[j], j < BLK - 1 ? s[j + 1] : right);
    }
    upc_barrier;
  }
}

int main(void) {
  double ref[2][BLK * 64];
  int bad = 0;
  naive();
  optimised();
  for (int i = 0; i < N; i++) ref[0][i] = ref[1][i] = initial(i);
  for (int it = 0; it < ITERS; it++) {
    double *s = ref[it % 2], *d = ref[1 - it % 2];
    for (int i = 1; i < N - 1; i++) d[i] = update(s[i - 1], s[i], s[i + 1]);
  }
  /* ITERS even: the result is back in u / w */
  for (int i = MYTHREAD; i < N; i += THREADS) {
    if (u[i] != ref[ITERS % 2][i] || w[i] != ref[ITERS % 2][i]) {
      printf("thread %d: element %d: naive %g, optimised %g, want %g\n", MYTHREAD, i, u[i], w[i],
             ref[ITERS % 2][i]);
      bad = 1;
    }
  }
  upc_barrier;
  if (!bad && MYTHREAD == 0) printf("classroom stencil (%d threads): ok\n", THREADS);
  return bad;
}
