/* How the MPI peers time: the loops of harness/team.hpp and
 * bench/common/stats.hpp in C, so that a peer's numbers mean what its UPC
 * benchmark's mean. A body makes n calls on every rank; a round starts all
 * ranks with MPI_Barrier and each notes CLOCK_MONOTONIC, one clock for every
 * process of the machine. Every function that takes a body is collective and
 * returns the same value on every rank. */
#ifndef UPCEMU_BENCH_MPI_TIMING_H
#define UPCEMU_BENCH_MPI_TIMING_H

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double mb_seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* n calls of what is timed; ctx is the peer's own. */
typedef void (*mb_body)(void* ctx, long n);
/* Seconds per call of body(ctx, n), one way or another (below). */
typedef double (*mb_timer)(mb_body body, void* ctx, long n);

/* (latest end - earliest start across ranks) / n: the collectives' measure. */
static inline double mb_span_per_call(mb_body body, void* ctx, long n) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = mb_seconds_now();
  body(ctx, n);
  double t1 = mb_seconds_now(), start, end;
  MPI_Allreduce(&t0, &start, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return (end - start) / (double)n;
}

/* The slowest rank's own time / n: the barrier's measure (team.hpp's timed_on_slowest). */
static inline double mb_slowest_per_call(mb_body body, void* ctx, long n) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = mb_seconds_now();
  body(ctx, n);
  double mine = mb_seconds_now() - t0, slowest;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest / (double)n;
}

/* Calls per round so that a round lasts about `target` seconds, as team.hpp's
 * calibrate_iterations: warm-up for about `target` seconds, then grow n by 8
 * from `start` until a run takes an eighth of the target, then scale; within [1, cap]. */
static inline long mb_calibrate(mb_timer timer, mb_body body, void* ctx, double target, long start, long cap) {
  double warm = 0;
  for (long k = 1; warm < target && k <= cap; k *= 2) warm += timer(body, ctx, k) * (double)k;
  long n = start < cap ? start : cap;
  for (;;) {
    double t = timer(body, ctx, n) * (double)n;
    if (t >= target / 8 || n >= cap) {
      double scaled = (double)n * target / (t > 1e-9 ? t : 1e-9);
      return scaled < 1 ? 1 : scaled > (double)cap ? cap : (long)scaled;
    }
    n = n * 8 < cap ? n * 8 : cap;
  }
}

static inline int mb_compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}
static inline void mb_sort(double* v, long n) { qsort(v, (size_t)n, sizeof(double), mb_compare_doubles); }
/* The median of v[0, n), sorted. */
static inline double mb_median_sorted(const double* v, long n) { return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2; }
/* The median of v[0, n), left as it is. */
static inline double mb_median(const double* v, long n) {
  double* c = malloc(sizeof(double) * (size_t)n);
  memcpy(c, v, sizeof(double) * (size_t)n);
  mb_sort(c, n);
  double m = mb_median_sorted(c, n);
  free(c);
  return m;
}

/* The sum over ranks of a count (wrong bytes, failed rounds), on every rank. */
static inline unsigned long long mb_sum_over_ranks(unsigned long long mine) {
  unsigned long long sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

#endif
