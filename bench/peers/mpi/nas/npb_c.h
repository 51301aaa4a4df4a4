/* The NAS Parallel Benchmarks' random generator and end-of-run report for the
 * MPI peers of the applications (apps/nas): the same sequence as
 * apps/common/npb_random.hpp (x_{k+1} = a x_k mod 2^46, exact in 128-bit
 * integers), the same report and the same upcemu-result line, so that
 * tools/bench/run_apps.sh reads both kinds of run alike. */
#ifndef UPCEMU_NPB_C_H
#define UPCEMU_NPB_C_H
#include <stdint.h>
#include <stdio.h>

#define NPB_TWO_POW_46 70368744177664.0
#define NPB_MULTIPLIER 1220703125.0
#define NPB_SEED 314159265.0

static inline double npb_randlc(double *x, double a) {
  unsigned __int128 product = (unsigned __int128)(uint64_t)*x * (uint64_t)a;
  uint64_t next = (uint64_t)(product & ((((unsigned __int128)1) << 46) - 1));
  *x = (double)next;
  return *x / NPB_TWO_POW_46;
}

static inline void npb_vranlc(long n, double *x, double a, double *y) {
  for (long i = 0; i < n; ++i) y[i] = npb_randlc(x, a);
}

/* a^k mod 2^46 */
static inline double npb_power_mod(double a, uint64_t k) {
  double result = 1, base = a;
  while (k != 0) {
    if (k & 1) npb_randlc(&result, base);
    double b2 = base;
    npb_randlc(&b2, base);
    base = b2;
    k >>= 1;
  }
  return result;
}

/* Rank 0 calls this once. */
static inline void npb_print_report(const char *name, const char *lower_name, const char *variant, char cls,
                                    const char *size, int iterations, double seconds, double mops,
                                    const char *operation, int verified, int ranks) {
  printf("\n\n %s Benchmark Completed\n", name);
  printf(" Class           = %24c\n", cls);
  printf(" Size            = %24s\n", size);
  printf(" Iterations      = %24d\n", iterations);
  printf(" Time in seconds = %24.2f\n", seconds);
  printf(" Total processes = %24d\n", ranks);
  printf(" Mop/s total     = %24.2f\n", mops);
  printf(" Mop/s/process   = %24.2f\n", mops / ranks);
  printf(" Operation type  = %24s\n", operation);
  printf(" Verification    = %24s\n", verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
  printf(" Communication   = %24s\n\n", variant);
  printf("upcemu-result {\"threads\": %d, \"backend\": \"mpi\", \"app\": \"%s\", \"variant\": \"%s\", \"class\": \"%c\", "
         "\"time_s\": %.6g, \"mops\": %.6g, \"verified\": %s}\n",
         ranks, lower_name, variant, cls, seconds, mops, verified ? "true" : "false");
  fflush(stdout);
}
#endif
