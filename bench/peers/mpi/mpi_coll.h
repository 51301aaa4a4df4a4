/* What the collective peers coll_mpi.c (of collbench) and coll2_mpi.c (of
 * upccoll_bench) share, so that their rows compare with each other and with their
 * UPC benchmarks': the options of a size sweep, the memcpy bound, the timing of
 * one size against that bound, and the row. */
#ifndef UPCEMU_BENCH_MPI_COLL_H
#define UPCEMU_BENCH_MPI_COLL_H

#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../collbench/coll_model.h"
#include "mpi_cli.h"
#include "mpi_timing.h"

/* The options of a size sweep (with their defaults in MB_SWEEP_DEFAULTS). */
struct mb_sweep {
  uint64_t min_bytes, max_bytes, max_moved;
  long step, reps, root;
  double min_time;
  int jsonl, verify;
};
#define MB_SWEEP_DEFAULTS {8, 8ULL << 20, 0, 2, 5, 0, 0.01, 0, 1}
#define MB_SIZES_USAGE                                                                                    \
  "  --min-bytes=BYTES    smallest block per rank (default 8)\n"                                           \
  "  --max-bytes=BYTES    largest block per rank (default 8M)\n"                                           \
  "  --step=N             size multiplier from one row to the next (default 2)\n"                          \
  "  --max-moved=BYTES    skip sizes where copies*nbytes exceeds this (0: no limit) (default 0)\n"
#define MB_ROUNDS_USAGE                                                 \
  "  --root=N             root rank (default 0)\n"                         \
  "  --reps=N             timed rounds per size (default 5)\n"             \
  "  --min-time=X         seconds per timed round (default 0.01)\n"        \
  "  --no-verify          skip verification\n"
#define MB_FORMAT_USAGE "  --format=text|jsonl  rows as aligned text or one JSON object per line (default text)\n"

/* Reads argv[*i] when it is a sweep option: returns 1, with *bad set when its
 * value is wrong; 0 for any other argument. */
static inline int mb_sweep_option(int argc, char** argv, int* i, int ranks, struct mb_sweep* o, int* bad) {
  const char* v;
  if (!strcmp(argv[*i], "--no-verify")) o->verify = 0;
  else if ((v = mb_option_value(argc, argv, i, "--min-bytes"))) *bad = !mb_parse_size(v, 1, &o->min_bytes);
  else if ((v = mb_option_value(argc, argv, i, "--max-bytes"))) *bad = !mb_parse_size(v, 1, &o->max_bytes);
  else if ((v = mb_option_value(argc, argv, i, "--max-moved"))) *bad = !mb_parse_size(v, 1, &o->max_moved);
  else if ((v = mb_option_value(argc, argv, i, "--step"))) *bad = !mb_parse_long(v, 2, &o->step);
  else if ((v = mb_option_value(argc, argv, i, "--reps"))) *bad = !mb_parse_long(v, 1, &o->reps);
  else if ((v = mb_option_value(argc, argv, i, "--root"))) *bad = !mb_parse_long(v, 0, &o->root) || o->root >= ranks;
  else if ((v = mb_option_value(argc, argv, i, "--min-time"))) *bad = !mb_parse_positive(v, &o->min_time);
  else if ((v = mb_option_value(argc, argv, i, "--format"))) *bad = !mb_parse_format(v, &o->jsonl);
  else return 0;
  return 1;
}

/* The CPUs the bound counts with, the same on every rank: rank 0's usable CPUs
 * (the affinity mask), at least 1. Collective. */
static inline int mb_bound_cpus(void) {
  int cpus;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
    cpus = CPU_COUNT(&set);
  } else {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpus = n > 0 ? (int)n : 1;
  }
  MPI_Bcast(&cpus, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return cpus;
}

/* The memcpy bound of coll_model.h on one rank: a copier (one of the first
 * min(ranks, CPUs) ranks) makes k copies of nbytes between private buffers. */
struct mb_bound {
  int copier;
  uint64_t k, nbytes;
  unsigned char *src, *dst;
};
static inline void mb_bound_body(void* bound, long n) {
  const struct mb_bound* b = (const struct mb_bound*)bound;
  if (!b->copier) return;
  for (long i = 0; i < n; ++i) {
    coll_bound_copies(b->dst, b->src, b->nbytes, b->k, coll_bound_blocks(b->k, b->nbytes));
    __asm__ __volatile__("" : : : "memory");
  }
}

/* One size, timed: min/median/max µs per call over rounds, the bound's fastest
 * round, bound / median, and GB/s at the median. */
struct mb_timing {
  long iters;
  double min_us, median_us, max_us, bound_us, ratio_vs_bound, gbps;
};

/* Calibrates coll to min_time per round and, unless bound is NULL, the bound to
 * min_time / 2 (neither beyond 16 GiB moved per round), then makes reps rounds,
 * each the collective and then the bound. Without the bound, bound_us and the
 * ratio are NaN; gbps (moved bytes per call) is NaN when nothing moves. */
static inline struct mb_timing mb_time_size(mb_body coll, void* ctx, struct mb_bound* bound, uint64_t moved, long reps,
                                            double min_time) {
  struct mb_timing t;
  const long cap = (long)((16ULL << 30) / (moved > 0 ? moved : 1));
  t.iters = mb_calibrate(mb_span_per_call, coll, ctx, min_time, 1, cap > 1 ? cap : 1);
  const long copy_iters = bound ? mb_calibrate(mb_span_per_call, mb_bound_body, bound, min_time / 2, 1, cap > 1 ? cap : 1) : 0;
  double* us = malloc(sizeof(double) * (size_t)reps);
  double* bound_us = malloc(sizeof(double) * (size_t)reps);
  for (long r = 0; r < reps; ++r) {
    us[r] = mb_span_per_call(coll, ctx, t.iters) * 1e6;
    bound_us[r] = bound ? mb_span_per_call(mb_bound_body, bound, copy_iters) * 1e6 : 0;
  }
  mb_sort(us, reps);
  mb_sort(bound_us, reps);
  t.min_us = us[0];
  t.median_us = mb_median_sorted(us, reps);
  t.max_us = us[reps - 1];
  t.bound_us = bound ? bound_us[0] : NAN; /* the fastest bound round */
  t.ratio_vs_bound = bound ? t.bound_us / t.median_us : NAN;
  t.gbps = moved ? (double)moved / (t.median_us * 1e-6) * 1e-9 : NAN;
  free(us);
  free(bound_us);
  return t;
}

/* A row of collbench's / upccoll_bench's fields for the MPI call `ran`. */
struct mb_row {
  const char *bench, *coll, *ran, *type, *count_name; /* count_name: "nelems" or "count" */
  int threads;
  uint64_t nbytes, count;
  struct mb_timing t;
  int verified;
  uint64_t wrong;
};

/* "%.6g", or null (jsonl) / nan (text) for a value that is not a number. */
static inline const char* mb_num(char* buf, double x, int jsonl) {
  if (x != x) return jsonl ? "null" : "nan";
  snprintf(buf, 32, "%.6g", x);
  return buf;
}

/* The text rows' column line. */
static inline void mb_print_columns(const char* count_name) {
  printf("# %18s %18s %18s %18s %11s %11s %11s %11s %11s %11s %11s %11s %14s %11s %11s\n", "algo", "ran", "flags", "type",
         "nbytes", count_name, "iters", "min_us", "median_us", "max_us", "gbps", "bound_us", "ratio_vs_bound", "verified",
         "wrong");
}

static inline void mb_print_row(const struct mb_row* r, int jsonl) {
  char b1[32], b2[32], b3[32];
  const struct mb_timing* t = &r->t;
  if (jsonl)
    printf("{\"bench\": \"%s\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"algo\": \"mpi\", "
           "\"ran\": \"%s\", \"flags\": \"mpi\", \"type\": \"%s\", \"nbytes\": %llu, \"%s\": %llu, \"iters\": %ld, "
           "\"min_us\": %.6g, \"median_us\": %.6g, \"max_us\": %.6g, \"gbps\": %s, \"bound_us\": %s, "
           "\"ratio_vs_bound\": %s, \"verified\": %s, \"wrong\": %llu}\n",
           r->bench, r->threads, r->coll, r->ran, r->type, (unsigned long long)r->nbytes, r->count_name,
           (unsigned long long)r->count, t->iters, t->min_us, t->median_us, t->max_us, mb_num(b1, t->gbps, 1),
           mb_num(b2, t->bound_us, 1), mb_num(b3, t->ratio_vs_bound, 1), r->verified ? "true" : "false",
           (unsigned long long)r->wrong);
  else
    printf("  %18s %18s %18s %18s %11llu %11llu %11ld %11.6g %11.6g %11.6g %11s %11s %14s %11s %11llu\n", "mpi", r->ran,
           "mpi", r->type, (unsigned long long)r->nbytes, (unsigned long long)r->count, t->iters, t->min_us, t->median_us,
           t->max_us, mb_num(b1, t->gbps, 0), mb_num(b2, t->bound_us, 0), mb_num(b3, t->ratio_vs_bound, 0),
           r->verified ? "true" : "false", (unsigned long long)r->wrong);
  fflush(stdout);
}

#endif
