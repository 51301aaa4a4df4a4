/* The computation that bench/collbench/upccoll_overlap.cpp and its Open MPI peer
 * bench/peers/mpi/overlap_mpi.c overlap with a non-blocking collective, in plain C
 * so that both include it and compute, test and calibrate alike.
 *
 * Two kinds: "cpu", a dependent chain of multiply-adds of a calibrated number of
 * iterations (a fixed amount of work: when another thread shares the core it
 * takes longer), and "offload", a sleep until a deadline (clock_nanosleep; the
 * programs set the timer slack to 1 ns), leaving the core free. With a test of
 * the collective (upccoll_test, MPI_Test), the computation is cut into slices of
 * about test_ns (cpu: chunks of iterations; offload: shorter sleeps) with a test
 * between two, until one reports completion. */
#ifndef UPCEMU_BENCH_OVERLAP_WORK_H
#define UPCEMU_BENCH_OVERLAP_WORK_H

#include <math.h>
#include <time.h>

struct ov_work {
  int cpu;                /* 1: cpu, 0: offload */
  long long iters, chunk; /* cpu: iterations, and per test interval */
  double sleep_ns;        /* offload */
  double test_ns;
};

static inline double ov_mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline void ov_sleep_until_ns(double t) {
  struct timespec ts;
  ts.tv_sec = (time_t)(t / 1e9);
  ts.tv_nsec = (long)(t - (double)ts.tv_sec * 1e9);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
  }
}

/* k iterations of work that cannot be skipped. */
static inline double ov_spin(long long k, double x) {
  for (long long i = 0; i < k; ++i) {
    x = x * 0.999999999 + 1e-9;
    __asm__ __volatile__("" : : "r,m"(x) : "memory");
  }
  return x;
}

/* Tests the collective in flight (ctx is the program's): 1 once it is complete. */
typedef int (*ov_test)(void* ctx);

/* The computation once, its result folded into *sink; with test, test(ctx) every
 * w->test_ns until it returns 1. Returns whether a test saw completion. */
static inline int ov_compute(const struct ov_work* w, double* sink, ov_test test, void* ctx) {
  int done = 0;
  if (w->cpu) {
    if (!test) {
      *sink = ov_spin(w->iters, *sink);
    } else {
      for (long long k = 0; k < w->iters; k += w->chunk) {
        *sink = ov_spin(w->chunk < w->iters - k ? w->chunk : w->iters - k, *sink);
        if (!done) done = test(ctx);
      }
    }
  } else {
    const double deadline = ov_mono_ns() + w->sleep_ns;
    if (!test) {
      ov_sleep_until_ns(deadline);
    } else {
      double now = ov_mono_ns();
      do { /* at least one sleep, as without tests */
        ov_sleep_until_ns(now + w->test_ns < deadline ? now + w->test_ns : deadline);
        if (!done) done = test(ctx);
        now = ov_mono_ns();
      } while (now < deadline);
    }
  }
  return done;
}

/* Seconds per computation of n computations of w, every thread (rank) computing
 * at once, measured as the program measures the collective. */
typedef double (*ov_measure)(void* ctx, const struct ov_work* w, long n);

/* Sets w (iterations or sleep) so that the computation alone takes about target
 * seconds per call in rounds of `iters`; returns the last measurement. Within 5%
 * of the target or after four corrections, whichever comes first. */
static inline double ov_calibrate(struct ov_work* w, double target, long iters, ov_measure measure, void* ctx) {
  if (w->cpu) {
    /* Seconds per iteration from a run of a few milliseconds; then corrections on
     * the real measurement. */
    long long k = 1000;
    double t;
    for (;;) {
      struct ov_work probe = *w;
      probe.iters = k;
      t = measure(ctx, &probe, 1);
      if (t >= 2e-3 || k >= (1LL << 40)) break;
      k *= 4;
    }
    const double per_iter = t / (double)k;
    w->iters = (long long)(target / per_iter);
    if (w->iters < 1) w->iters = 1;
    w->chunk = (long long)(w->test_ns * 1e-9 / per_iter);
    if (w->chunk < 1) w->chunk = 1;
    double m = measure(ctx, w, iters);
    for (int i = 0; i < 4 && fabs(m / target - 1) > 0.05; ++i) {
      w->iters = (long long)((double)w->iters * target / m);
      if (w->iters < 1) w->iters = 1;
      m = measure(ctx, w, iters);
    }
    return m;
  }
  w->sleep_ns = target * 1e9;
  double m = measure(ctx, w, iters);
  for (int i = 0; i < 4 && fabs(m / target - 1) > 0.05; ++i) {
    w->sleep_ns -= (m - target) * 1e9; /* the overshoot is a fixed cost */
    if (w->sleep_ns < 0) w->sleep_ns = 0;
    m = measure(ctx, w, iters);
    if (w->sleep_ns == 0) break;
  }
  return m;
}

#endif
