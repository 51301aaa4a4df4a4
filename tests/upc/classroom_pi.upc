/* Classroom code (seed 003 §2.2): pi by Monte Carlo. Each thread throws darts at
 * the unit square with its own random sequence and counts those inside the
 * quarter circle; the counts meet twice, in a shared array (one element per
 * thread, summed by thread 0) and in a shared total updated under a lock. The
 * answer is checked against the same sequences run sequentially, and pi. */
#include <upc.h>
#include <stdio.h>

#define TRIALS 20000

shared long hits[THREADS];
shared long total;
shared double estimate;

/* A private linear congruential generator: each thread its own state. */
static unsigned long long state;
static double next_random(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) / 9007199254740992.0;
}

static long count_hits(int thread) {
  long in = 0;
  state = 12345 + 1000003ULL * (unsigned long long)thread;
  for (int i = 0; i < TRIALS; i++) {
    double x = next_random(), y = next_random();
    if (x * x + y * y <= 1.0) in++;
  }
  return in;
}

int main(int argc, char **argv) {
  upc_lock_t *lock = upc_all_lock_alloc();
  long mine;
  int bad = 0;
  (void)argc;
  (void)argv;
  if (MYTHREAD == 0) total = 0;
  upc_barrier;
  mine = count_hits(MYTHREAD);
  hits[MYTHREAD] = mine;
  upc_lock(lock);
  total += mine;
  upc_unlock(lock);
  upc_barrier;
  if (MYTHREAD == 0) {
    long sum = 0, want = 0;
    for (int t = 0; t < THREADS; t++) {
      sum += hits[t];
      want += count_hits(t);
    }
    estimate = 4.0 * sum / ((double)TRIALS * THREADS);
    if (sum != total || sum != want) {
      printf("pi: counts differ: array %ld, locked total %ld, sequential %ld\n", sum, (long)total, want);
      bad = 1;
    }
  }
  upc_barrier;
  if (estimate < 3.10 || estimate > 3.18) {
    printf("thread %d: pi estimate %f is too far from pi\n", MYTHREAD, estimate);
    bad = 1;
  }
  upc_barrier;
  if (MYTHREAD == 0) upc_lock_free(lock);
  if (!bad && MYTHREAD == 0) printf("classroom pi: %f (%d threads): ok\n", estimate, THREADS);
  return bad;
}
