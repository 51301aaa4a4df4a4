/* bench/upcc: the sizes, the timer and the median shared by the UPC (.upc, built
 * by upcc) and the C++ (.cpp, upcemu_program_dep) versions of each kernel, so the
 * two do identical work. Plain C, includable from C++ (docs/benchmarks.md,
 * "upcc: translated UPC against the C++ API"). */
#ifndef BENCH_UPCC_KERNELS_H
#define BENCH_UPCC_KERNELS_H
#include <stdlib.h>
#include <time.h>

/* Repetitions timed (after one warm-up); time_s is their median. */
#define KREPS 9
/* (a) privatised: doubles per thread, passes per repetition. */
#define PRIV_B (1 << 16)
#define PRIV_PASSES 400
/* (b) upc_forall: block size, blocks per thread, passes per repetition. */
#define FORALL_B 64
#define FORALL_BLOCKS 256
#define FORALL_PASSES 100
/* (c) neighbours: elements per thread (cyclic, block 1), passes per repetition. */
#define NEIGH_N (1 << 14)
#define NEIGH_PASSES 60
/* (d) upc_memget: doubles per row (one row a block), rows per thread, passes. */
#define ROW 2048
#define ROWS 8
#define MEMGET_PASSES 10000

static inline double kernels_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int kernels_cmp(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static inline double kernels_median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), kernels_cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The backend a run uses, as upcrun set it. */
static inline const char* kernels_backend(void) {
  const char* b = getenv("UPCEMU_BACKEND");
  return b && *b ? b : "threads";
}
#endif
