/* The peer of bench/collbench/upccoll_overlap.cpp: how much of MPI_Iallreduce
 * (MPI_SUM on MPI_DOUBLE, count = nbytes / 8) and MPI_Ialltoall (nbytes per pair,
 * MPI_BYTE) is hidden behind computation, with the same definitions, calibration,
 * timing and jsonl fields (impl "mpi", progress "mpi"):
 *
 *   t_coll     MPI_I<coll> + MPI_Wait          t_comp   the computation alone (f × t_coll)
 *   t_overlap  MPI_I<coll>; computation; MPI_Wait
 *   hidden     (t_coll + t_comp - t_overlap) / t_coll, in percent
 *
 * Computation "cpu" (a dependent multiply-add loop, calibrated iterations) or
 * "offload" (clock_nanosleep to a deadline, timer slack 1 ns), each plain and with
 * MPI_Test every --test-us microseconds until it reports completion. Open MPI has
 * no progress thread for shared memory: a non-blocking collective advances inside
 * MPI calls (MPI_Test, MPI_Wait), which is what the MPI_Test variant shows.
 * Timing as coll_mpi.c: MPI_Barrier, per-rank CLOCK_MONOTONIC, (latest end -
 * earliest start) / iters, medians over --reps rounds.
 *
 *   mpirun --oversubscribe --bind-to none -np 4 overlap_mpi --coll=allreduce --format=jsonl
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "../../collbench/overlap_work.h"
#include "../../collbench/upccoll_model.h"
#include "mpi_cli.h"
#include "mpi_machine.h"
#include "mpi_timing.h"

#define MAX_ITEMS 16

struct options {
  int colls[2], ncolls, kinds[2], nkinds, jsonl, test, verify;
  uint64_t sizes[MAX_ITEMS];
  int nsizes;
  double factors[MAX_ITEMS];
  int nfactors;
  long reps;
  double min_time, test_us;
  char sizes_text[256], factors_text[256], colls_text[64], kinds_text[64];
};

struct state {
  const struct options* o;
  int rank, ranks, c;
  uint64_t nbytes;
  unsigned char *src, *dst, *scratch;
  double sink;
};

static void start(struct state* s, MPI_Request* req) {
  if (s->c == UC_ALLREDUCE)
    MPI_Iallreduce(s->src, s->dst, (int)(s->nbytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, req);
  else
    MPI_Ialltoall(s->src, (int)s->nbytes, MPI_BYTE, s->dst, (int)s->nbytes, MPI_BYTE, MPI_COMM_WORLD, req);
}

static int mpi_test(void* req) {
  int done = 0;
  MPI_Test((MPI_Request*)req, &done, MPI_STATUS_IGNORE);
  return done;
}

/* The computation; with req, MPI_Test every w->test_ns until it completes.
 * Returns whether the collective is known complete. */
static int compute(struct state* s, const struct ov_work* w, MPI_Request* req) {
  return ov_compute(w, &s->sink, req ? mpi_test : NULL, req);
}

enum body_kind { BODY_COLL, BODY_COMP, BODY_OVERLAP, BODY_OVERLAP_TEST };

/* What a round times: body k (with the computation w) on state s. */
struct timed {
  struct state* s;
  enum body_kind k;
  const struct ov_work* w;
};

static void body(void* timed, long n) {
  const struct timed* t = (const struct timed*)timed;
  struct state* s = t->s;
  for (long i = 0; i < n; ++i) {
    MPI_Request req;
    switch (t->k) {
      case BODY_COLL:
        start(s, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
      case BODY_COMP: compute(s, t->w, NULL); break;
      case BODY_OVERLAP:
        start(s, &req);
        compute(s, t->w, NULL);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
      case BODY_OVERLAP_TEST:
        start(s, &req);
        compute(s, t->w, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* immediate (MPI_REQUEST_NULL) once MPI_Test saw completion */
        break;
    }
  }
}

static double span_per_call(struct state* s, enum body_kind k, const struct ov_work* w, long n) {
  struct timed t = {s, k, w};
  return mb_span_per_call(body, &t, n);
}

static double measure_comp(void* s, const struct ov_work* w, long n) { return span_per_call(s, BODY_COMP, w, n); }

static uint64_t verify(struct state* s, uint64_t seed) {
  const int T = s->ranks, me = s->rank;
  struct ov_work w = {1, 1000, 100, 0, 10000};
  memset(s->dst, COLL_POISON_BYTE, uc_dst_bytes(s->c, T, s->nbytes));
  uc_fill_source(s->c, s->src, uc_src_bytes(s->c, T, s->nbytes), seed, me);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Request req;
  start(s, &req);
  if (!compute(s, &w, &req)) MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  return mb_sum_over_ranks(uc_count_wrong(s->c, T, me, 0, seed, s->nbytes, s->dst, s->scratch, 0));
}

/* Comma-separated items through `each`; 0 when one fails or there are too many. */
static int parse_list(const char* v, char* keep, size_t keep_size, int (*each)(struct options*, const char*),
                      struct options* o) {
  snprintf(keep, keep_size, "%s", v);
  char buf[256];
  snprintf(buf, sizeof buf, "%s", v);
  for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
    if (!each(o, tok)) return 0;
  return 1;
}
static int add_coll(struct options* o, const char* t) {
  int c = uc_from_name(t);
  if ((c != UC_ALLREDUCE && c != UC_ALLTOALL) || o->ncolls >= 2) return 0;
  o->colls[o->ncolls++] = c;
  return 1;
}
static int add_kind(struct options* o, const char* t) {
  if ((strcmp(t, "cpu") && strcmp(t, "offload")) || o->nkinds >= 2) return 0;
  o->kinds[o->nkinds++] = !strcmp(t, "cpu");
  return 1;
}
static int add_size(struct options* o, const char* t) {
  if (o->nsizes >= MAX_ITEMS || !mb_parse_size(t, 0, &o->sizes[o->nsizes]) || o->sizes[o->nsizes] < 8) return 0;
  o->nsizes++;
  return 1;
}
static int add_factor(struct options* o, const char* t) {
  if (o->nfactors >= MAX_ITEMS || !mb_parse_positive(t, &o->factors[o->nfactors])) return 0;
  o->nfactors++;
  return 1;
}

static void usage(void) {
  printf(
      "usage: mpirun --oversubscribe --bind-to none -np N overlap_mpi [options]\n\n"
      "The peer of bench/collbench/upccoll_overlap: MPI_Iallreduce / MPI_Ialltoall + MPI_Wait alone\n"
      "(t_coll), a computation alone (t_comp, calibrated to factor x t_coll), and overlapped\n"
      "(t_overlap); hidden = (t_coll + t_comp - t_overlap) / t_coll.\n\n"
      "options:\n"
      "  --coll=LIST          allreduce,alltoall (default both)\n"
      "  --sizes=LIST         blocks per rank (default 1K,64K,1M)\n"
      "  --compute=LIST       cpu,offload (default both)\n"
      "  --factors=LIST       t_comp targets as multiples of t_coll (default 1,2)\n"
      "  --test-us=X          microseconds of computation between MPI_Test calls (default 10)\n"
      "  --no-test            skip the MPI_Test variant\n"
      "  --reps=N             rounds (default 7)\n"
      "  --min-time=X         seconds per t_coll round (default 0.01)\n"
      "  --no-verify          skip verification\n"
      "  --format=text|jsonl  (default text)\n"
      "  --help               this text\n");
}

static void print_row(const struct state* s, const struct ov_work* w, double f, int with_test, long iters, double tc,
                      double tp, double to, double tmin, double tmax, double hid_rounds) {
  const struct options* o = s->o;
  const char* kind = w->cpu ? "cpu" : "offload";
  const double work = w->cpu ? (double)w->iters : w->sleep_ns * 1e-3;
  const double hidden = (tc + tp - to) / tc * 100;
  if (o->jsonl)
    printf("{\"bench\": \"upccoll_overlap\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"impl\": \"mpi\", "
           "\"progress\": \"mpi\", \"nbytes\": %llu, \"compute\": \"%s\", \"factor\": %g, \"test\": %s, \"test_us\": %g, "
           "\"iters\": %ld, \"work\": %.6g, \"t_coll_us\": %.6g, \"t_comp_us\": %.6g, \"t_overlap_us\": %.6g, "
           "\"t_overlap_min_us\": %.6g, \"t_overlap_max_us\": %.6g, \"comp_ratio\": %.6g, \"hidden_pct\": %.6g, "
           "\"hidden_pct_rounds\": %.6g}\n",
           s->ranks, uc_names[s->c], (unsigned long long)s->nbytes, kind, f, with_test ? "true" : "false",
           with_test ? o->test_us : 0.0, iters, work, tc * 1e6, tp * 1e6, to * 1e6, tmin * 1e6, tmax * 1e6, tp / tc,
           hidden, hid_rounds);
  else
    printf("  %10s %9llu %8s %6g %5s %8ld %12.6g %11.6g %11.6g %12.6g %10.4g %10.4g %17.4g\n", uc_names[s->c],
           (unsigned long long)s->nbytes, kind, f, with_test ? "true" : "false", iters, work, tc * 1e6, tp * 1e6,
           to * 1e6, tp / tc, hidden, hid_rounds);
  fflush(stdout);
}

int main(int argc, char** argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  s.sink = 1.0;
  mb_init(&argc, &argv, &s.rank, &s.ranks);
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

  struct options o;
  memset(&o, 0, sizeof o);
  o.test = 1, o.verify = 1, o.reps = 7, o.min_time = 0.01, o.test_us = 10;
  int bad = 0;
  const char *colls = "allreduce,alltoall", *sizes = "1K,64K,1M", *kinds = "cpu,offload", *factors = "1,2";
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (mb_is_help(argv[i])) {
      if (s.rank == 0) usage();
      return mb_finalize(0);
    } else if (!strcmp(argv[i], "--no-test")) {
      o.test = 0;
    } else if (!strcmp(argv[i], "--no-verify")) {
      o.verify = 0;
    } else if ((v = mb_option_value(argc, argv, &i, "--coll"))) {
      colls = v;
    } else if ((v = mb_option_value(argc, argv, &i, "--sizes"))) {
      sizes = v;
    } else if ((v = mb_option_value(argc, argv, &i, "--compute"))) {
      kinds = v;
    } else if ((v = mb_option_value(argc, argv, &i, "--factors"))) {
      factors = v;
    } else if ((v = mb_option_value(argc, argv, &i, "--test-us"))) {
      bad = !mb_parse_positive(v, &o.test_us);
    } else if ((v = mb_option_value(argc, argv, &i, "--reps"))) {
      bad = !mb_parse_long(v, 1, &o.reps);
    } else if ((v = mb_option_value(argc, argv, &i, "--min-time"))) {
      bad = !mb_parse_positive(v, &o.min_time);
    } else if ((v = mb_option_value(argc, argv, &i, "--format"))) {
      bad = !mb_parse_format(v, &o.jsonl);
    } else {
      bad = 1;
    }
    if (bad && s.rank == 0) fprintf(stderr, "overlap_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  if (!bad && !(parse_list(colls, o.colls_text, sizeof o.colls_text, add_coll, &o) &&
                parse_list(sizes, o.sizes_text, sizeof o.sizes_text, add_size, &o) &&
                parse_list(kinds, o.kinds_text, sizeof o.kinds_text, add_kind, &o) &&
                parse_list(factors, o.factors_text, sizeof o.factors_text, add_factor, &o))) {
    if (s.rank == 0) fprintf(stderr, "overlap_mpi: bad --coll, --sizes, --compute or --factors (see --help)\n");
    bad = 1;
  }
  if (bad) return mb_finalize(2);
  s.o = &o;
  uint64_t block = 16, max_n = 16;
  for (int j = 0; j < o.ncolls; ++j)
    for (int i = 0; i < o.nsizes; ++i) {
      uint64_t a = uc_src_bytes(o.colls[j], s.ranks, o.sizes[i]), b = uc_dst_bytes(o.colls[j], s.ranks, o.sizes[i]);
      if (a > block) block = a;
      if (b > block) block = b;
      if (o.sizes[i] > max_n) max_n = o.sizes[i];
    }
  s.src = malloc(block);
  s.dst = malloc(block);
  s.scratch = malloc(max_n);
  if (!s.src || !s.dst || !s.scratch) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(s.src, 4, block);
  memset(s.dst, 5, block);

  char version[256];
  mb_library_version(version, sizeof version);

  double *tc = malloc(sizeof(double) * (size_t)o.reps), *tp = malloc(sizeof(double) * (size_t)o.reps),
         *to = malloc(sizeof(double) * (size_t)o.reps), *tt = malloc(sizeof(double) * (size_t)o.reps),
         *hid = malloc(sizeof(double) * (size_t)o.reps), *hid_t = malloc(sizeof(double) * (size_t)o.reps);
  uint64_t total_wrong = 0, seed = 1;
  for (int j = 0; j < o.ncolls; ++j) {
    s.c = o.colls[j];
    if (s.rank == 0) {
      if (o.jsonl)
        printf("# {\"bench\": \"upccoll_overlap\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"impl\": \"mpi\", "
               "\"progress\": \"mpi\", \"mpi_call\": \"%s\", \"type\": \"%s\", \"sizes\": \"%s\", \"compute\": \"%s\", "
               "\"factors\": \"%s\", \"test_us\": %g, \"reps\": %ld, \"min_time_s\": %g, \"timer_slack_ns\": 1, "
               "\"statistic\": \"per call: (latest end - earliest start across ranks)/iters; medians over reps; hidden = "
               "(t_coll + t_comp - t_overlap) / t_coll\", \"verify\": %s, \"peer\": \"%s\"}\n",
               s.ranks, uc_names[s.c], s.c == UC_ALLREDUCE ? "MPI_Iallreduce" : "MPI_Ialltoall",
               s.c == UC_ALLREDUCE ? "double" : "byte", o.sizes_text, o.kinds_text, o.factors_text,
               o.test ? o.test_us : 0.0, o.reps, o.min_time, o.verify ? "true" : "false", version);
      else
        printf("# bench=upccoll_overlap backend=mpi threads=%d coll=%s impl=mpi mpi_call=%s sizes=%s compute=%s factors=%s "
               "test_us=%g reps=%ld min_time_s=%g peer=\"%s\"\n#  %10s %9s %8s %6s %5s %8s %12s %11s %11s %12s %10s %10s "
               "%17s\n",
               s.ranks, uc_names[s.c], s.c == UC_ALLREDUCE ? "MPI_Iallreduce" : "MPI_Ialltoall", o.sizes_text,
               o.kinds_text, o.factors_text, o.test ? o.test_us : 0.0, o.reps, o.min_time, version, "coll", "nbytes",
               "compute", "factor", "test", "iters", "work", "t_coll_us", "t_comp_us", "t_overlap_us", "comp_ratio",
               "hidden_pct", "hidden_pct_rounds");
      fflush(stdout);
    }
    for (int i = 0; i < o.nsizes; ++i) {
      s.nbytes = s.c == UC_ALLREDUCE ? (o.sizes[i] / 8 ? o.sizes[i] / 8 : 1) * 8 : o.sizes[i];
      ++seed;
      struct timed coll = {&s, BODY_COLL, NULL};
      body(&coll, 3); /* warm-up */
      const long iters = mb_calibrate(mb_span_per_call, body, &coll, o.min_time, 1, 1L << 30);
      double c0[5];
      for (int r = 0; r < 5; ++r) c0[r] = span_per_call(&s, BODY_COLL, NULL, iters);
      const double t_coll0 = mb_median(c0, 5);
      for (int k = 0; k < o.nkinds; ++k)
        for (int fi = 0; fi < o.nfactors; ++fi) {
          struct ov_work w = {o.kinds[k], 0, 1, 0, o.test_us * 1e3};
          ov_calibrate(&w, o.factors[fi] * t_coll0, iters, measure_comp, &s);
          for (long r = 0; r < o.reps; ++r) {
            tc[r] = span_per_call(&s, BODY_COLL, &w, iters);
            tp[r] = span_per_call(&s, BODY_COMP, &w, iters);
            to[r] = span_per_call(&s, BODY_OVERLAP, &w, iters);
            hid[r] = (tc[r] + tp[r] - to[r]) / tc[r] * 100;
            if (o.test) {
              tt[r] = span_per_call(&s, BODY_OVERLAP_TEST, &w, iters);
              hid_t[r] = (tc[r] + tp[r] - tt[r]) / tc[r] * 100;
            }
          }
          const double mc = mb_median(tc, o.reps), mp = mb_median(tp, o.reps);
          for (int with_test = 0; with_test <= o.test; ++with_test) {
            double* ov = with_test ? tt : to;
            double* sorted = malloc(sizeof(double) * (size_t)o.reps);
            memcpy(sorted, ov, sizeof(double) * (size_t)o.reps);
            mb_sort(sorted, o.reps);
            if (s.rank == 0)
              print_row(&s, &w, o.factors[fi], with_test, iters, mc, mp, mb_median(ov, o.reps), sorted[0],
                        sorted[o.reps - 1], mb_median(with_test ? hid_t : hid, o.reps));
            free(sorted);
          }
        }
      uint64_t wrong = o.verify ? verify(&s, seed) : 0;
      total_wrong += wrong;
      if (s.rank == 0) {
        printf("# verified %s nbytes=%llu: %s%llu wrong\n", uc_names[s.c], (unsigned long long)s.nbytes,
               o.verify ? "" : "(skipped) ", (unsigned long long)wrong);
        if (wrong)
          fprintf(stderr, "overlap_mpi: %s nbytes=%llu ranks=%d: %llu wrong\n", uc_names[s.c],
                  (unsigned long long)s.nbytes, s.ranks, (unsigned long long)wrong);
        fflush(stdout);
      }
    }
  }
  __asm__ __volatile__("" : : "r,m"(s.sink) : "memory");
  free(tc), free(tp), free(to), free(tt), free(hid), free(hid_t);
  free(s.src), free(s.dst), free(s.scratch);
  return mb_finalize(total_wrong ? 1 : 0);
}
