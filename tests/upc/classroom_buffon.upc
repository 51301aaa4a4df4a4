/* Classroom code (seed 003 §2.2): Buffon-Laplace needle. A needle of length L
 * falls on a grid of A x B cells; it crosses a line with probability
 * p = (2L(A+B) - L^2) / (pi A B), so pi = (2L(A+B) - L^2) / (p A B). Each thread
 * drops its share of needles with its own random sequence and accumulates its
 * crossings in its element of a shared array; upc_forall over the array gives
 * each thread its own element. Checked against a sequential run and pi. */
#include <upc_relaxed.h>
#include <math.h>
#include <stdio.h>

#define NEEDLES 30000
#define A 3.0
#define B 2.0
#define L 1.0

shared int crossings[THREADS];
shared int needles[THREADS];

static unsigned long long seed_of(int t) { return 987654321ULL + 7919ULL * (unsigned long long)t; }

static double uniform(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* One needle: its centre in a cell, its direction a random point of the unit
 * disc (rejection), normalised; it crosses if an end leaves the cell. */
static int drop(unsigned long long *s) {
  double x = A * uniform(s), y = B * uniform(s), dx, dy, r;
  do {
    dx = 2 * uniform(s) - 1;
    dy = 2 * uniform(s) - 1;
    r = dx * dx + dy * dy;
  } while (r > 1.0 || r == 0.0);
  r = sqrt(r);
  dx = dx / r * L / 2;
  dy = dy / r * L / 2;
  return x - fabs(dx) < 0 || x + fabs(dx) > A || y - fabs(dy) < 0 || y + fabs(dy) > B;
}

static int run(int t, int n) {
  unsigned long long s = seed_of(t);
  int c = 0;
  for (int i = 0; i < n; i++) c += drop(&s);
  return c;
}

int main(void) {
  int bad = 0;
  int per = NEEDLES / THREADS + (MYTHREAD < NEEDLES % THREADS);
  upc_forall (int t = 0; t < THREADS; t++; &crossings[t]) {
    crossings[t] = run(t, per);
    needles[t] = per;
  }
  upc_barrier;
  if (MYTHREAD == 0) {
    long c = 0, n = 0, want = 0;
    for (int t = 0; t < THREADS; t++) {
      c += crossings[t];
      n += needles[t];
      want += run(t, NEEDLES / THREADS + (t < NEEDLES % THREADS));
    }
    double p = (double)c / n;
    double pi = (2 * L * (A + B) - L * L) / (p * A * B);
    if (n != NEEDLES || c != want) {
      printf("buffon: %ld needles (want %d), %ld crossings (sequential %ld)\n", n, NEEDLES, c, want);
      bad = 1;
    }
    if (fabs(pi - 3.14159265) > 0.08) {
      printf("buffon: pi estimate %f too far\n", pi);
      bad = 1;
    }
    if (!bad) printf("classroom buffon: pi %f (%d threads): ok\n", pi, THREADS);
  }
  return bad;
}
