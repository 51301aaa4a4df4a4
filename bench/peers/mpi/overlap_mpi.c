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
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "../../collbench/upccoll_model.h"

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

struct work {
  int cpu;
  long long iters, chunk;
  double sleep_ns, test_ns;
};

struct state {
  const struct options* o;
  int rank, ranks, c;
  uint64_t nbytes;
  unsigned char *src, *dst, *scratch;
  double sink;
};

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double mono_ns(void) { return seconds_now() * 1e9; }
static void sleep_until_ns(double t) {
  struct timespec ts;
  ts.tv_sec = (time_t)(t / 1e9);
  ts.tv_nsec = (long)(t - (double)ts.tv_sec * 1e9);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
  }
}

static double spin(long long k, double x) {
  for (long long i = 0; i < k; ++i) {
    x = x * 0.999999999 + 1e-9;
    __asm__ __volatile__("" : : "r,m"(x) : "memory");
  }
  return x;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}
static double median(double* v, long n) {
  double* c = malloc(sizeof(double) * (size_t)n);
  memcpy(c, v, sizeof(double) * (size_t)n);
  qsort(c, (size_t)n, sizeof(double), compare_doubles);
  double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
  free(c);
  return m;
}

static void start(struct state* s, MPI_Request* req) {
  if (s->c == UC_ALLREDUCE)
    MPI_Iallreduce(s->src, s->dst, (int)(s->nbytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, req);
  else
    MPI_Ialltoall(s->src, (int)s->nbytes, MPI_BYTE, s->dst, (int)s->nbytes, MPI_BYTE, MPI_COMM_WORLD, req);
}

/* The computation; with req, MPI_Test every w->test_ns until it completes.
 * Returns whether the collective is known complete. */
static int compute(struct state* s, const struct work* w, MPI_Request* req) {
  int done = 0;
  if (w->cpu) {
    if (!req) {
      s->sink = spin(w->iters, s->sink);
    } else {
      for (long long k = 0; k < w->iters; k += w->chunk) {
        s->sink = spin(w->chunk < w->iters - k ? w->chunk : w->iters - k, s->sink);
        if (!done) MPI_Test(req, &done, MPI_STATUS_IGNORE);
      }
    }
  } else {
    const double deadline = mono_ns() + w->sleep_ns;
    if (!req) {
      sleep_until_ns(deadline);
    } else {
      double now = mono_ns();
      do { /* at least one sleep, as without tests */
        sleep_until_ns(now + w->test_ns < deadline ? now + w->test_ns : deadline);
        if (!done) MPI_Test(req, &done, MPI_STATUS_IGNORE);
        now = mono_ns();
      } while (now < deadline);
    }
  }
  return done;
}

enum body_kind { BODY_COLL, BODY_COMP, BODY_OVERLAP, BODY_OVERLAP_TEST };

static void body(struct state* s, enum body_kind k, const struct work* w, long n) {
  for (long i = 0; i < n; ++i) {
    MPI_Request req;
    switch (k) {
      case BODY_COLL:
        start(s, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
      case BODY_COMP: compute(s, w, NULL); break;
      case BODY_OVERLAP:
        start(s, &req);
        compute(s, w, NULL);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
      case BODY_OVERLAP_TEST:
        start(s, &req);
        compute(s, w, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* immediate (MPI_REQUEST_NULL) once MPI_Test saw completion */
        break;
    }
  }
}

static double span_per_call(struct state* s, enum body_kind k, const struct work* w, long n) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = seconds_now();
  body(s, k, w, n);
  double t1 = seconds_now(), a, b;
  MPI_Allreduce(&t0, &a, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&t1, &b, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return (b - a) / (double)n;
}

static long calibrate_iters(struct state* s, double target) {
  long n = 1;
  for (;;) {
    double t = span_per_call(s, BODY_COLL, NULL, n) * (double)n;
    if (t >= target / 8 || n >= (1L << 30)) {
      double scaled = (double)n * target / (t > 1e-9 ? t : 1e-9);
      return scaled < 1 ? 1 : (long)scaled;
    }
    n *= 8;
  }
}

/* As upccoll_overlap.cpp's calibrate_work. */
static double calibrate_work(struct state* s, struct work* w, double target, long iters) {
  if (w->cpu) {
    long long k = 1000;
    double t;
    for (;;) {
      struct work probe = *w;
      probe.iters = k;
      t = span_per_call(s, BODY_COMP, &probe, 1);
      if (t >= 2e-3 || k >= (1LL << 40)) break;
      k *= 4;
    }
    const double per_iter = t / (double)k;
    w->iters = (long long)(target / per_iter);
    if (w->iters < 1) w->iters = 1;
    w->chunk = (long long)(w->test_ns * 1e-9 / per_iter);
    if (w->chunk < 1) w->chunk = 1;
    double m = span_per_call(s, BODY_COMP, w, iters);
    for (int i = 0; i < 4 && fabs(m / target - 1) > 0.05; ++i) {
      w->iters = (long long)((double)w->iters * target / m);
      if (w->iters < 1) w->iters = 1;
      m = span_per_call(s, BODY_COMP, w, iters);
    }
    return m;
  }
  w->sleep_ns = target * 1e9;
  double m = span_per_call(s, BODY_COMP, w, iters);
  for (int i = 0; i < 4 && fabs(m / target - 1) > 0.05; ++i) {
    w->sleep_ns -= (m - target) * 1e9;
    if (w->sleep_ns < 0) w->sleep_ns = 0;
    m = span_per_call(s, BODY_COMP, w, iters);
    if (w->sleep_ns == 0) break;
  }
  return m;
}

static uint64_t verify(struct state* s, uint64_t seed) {
  const int T = s->ranks, me = s->rank;
  struct work w = {1, 1000, 100, 0, 10000};
  memset(s->dst, COLL_POISON_BYTE, uc_dst_bytes(s->c, T, s->nbytes));
  uc_fill_source(s->c, s->src, uc_src_bytes(s->c, T, s->nbytes), seed, me);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Request req;
  start(s, &req);
  if (!compute(s, &w, &req)) MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  unsigned long long mine = uc_count_wrong(s->c, T, me, 0, seed, s->nbytes, s->dst, s->scratch, 0), sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

static int parse_size(const char* text, uint64_t* out) {
  char* end;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text) return 0;
  uint64_t mult = 1;
  if (!strcmp(end, "") || !strcmp(end, "B")) mult = 1;
  else if (!strcmp(end, "K") || !strcmp(end, "k") || !strcmp(end, "KiB")) mult = 1ULL << 10;
  else if (!strcmp(end, "M") || !strcmp(end, "MiB")) mult = 1ULL << 20;
  else return 0;
  *out = (uint64_t)v * mult;
  return 1;
}

static const char* option_value(int argc, char** argv, int* i, const char* name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] == '\0' && *i + 1 < argc) return argv[++*i];
  return NULL;
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
  if (o->nsizes >= MAX_ITEMS || !parse_size(t, &o->sizes[o->nsizes]) || o->sizes[o->nsizes] < 8) return 0;
  o->nsizes++;
  return 1;
}
static int add_factor(struct options* o, const char* t) {
  char* end;
  double f = strtod(t, &end);
  if (end == t || *end || !(f > 0) || o->nfactors >= MAX_ITEMS) return 0;
  o->factors[o->nfactors++] = f;
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

static void print_row(const struct state* s, const struct work* w, double f, int with_test, long iters, double tc,
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
  MPI_Init(&argc, &argv);
  struct state s;
  memset(&s, 0, sizeof s);
  s.sink = 1.0;
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.ranks);
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

  struct options o;
  memset(&o, 0, sizeof o);
  o.test = 1, o.verify = 1, o.reps = 7, o.min_time = 0.01, o.test_us = 10;
  int bad = 0;
  const char *colls = "allreduce,alltoall", *sizes = "1K,64K,1M", *kinds = "cpu,offload", *factors = "1,2";
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (s.rank == 0) usage();
      MPI_Finalize();
      return 0;
    } else if (!strcmp(argv[i], "--no-test")) {
      o.test = 0;
    } else if (!strcmp(argv[i], "--no-verify")) {
      o.verify = 0;
    } else if ((v = option_value(argc, argv, &i, "--coll"))) {
      colls = v;
    } else if ((v = option_value(argc, argv, &i, "--sizes"))) {
      sizes = v;
    } else if ((v = option_value(argc, argv, &i, "--compute"))) {
      kinds = v;
    } else if ((v = option_value(argc, argv, &i, "--factors"))) {
      factors = v;
    } else if ((v = option_value(argc, argv, &i, "--test-us"))) {
      char* end;
      o.test_us = strtod(v, &end);
      bad = end == v || *end || !(o.test_us > 0);
    } else if ((v = option_value(argc, argv, &i, "--reps"))) {
      char* end;
      o.reps = strtol(v, &end, 10);
      bad = end == v || *end || o.reps < 1;
    } else if ((v = option_value(argc, argv, &i, "--min-time"))) {
      char* end;
      o.min_time = strtod(v, &end);
      bad = end == v || *end || !(o.min_time > 0);
    } else if ((v = option_value(argc, argv, &i, "--format"))) {
      bad = strcmp(v, "text") && strcmp(v, "jsonl");
      o.jsonl = !strcmp(v, "jsonl");
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
  if (bad) {
    MPI_Finalize();
    return 2;
  }
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

  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  for (char* c = version; *c; ++c)
    if (*c == '\n' || *c == '"' || *c == '\\') *c = ' ';
  char* comma = strchr(version, ',');
  if (comma) *comma = '\0';

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
      body(&s, BODY_COLL, NULL, 3); /* warm-up */
      const long iters = calibrate_iters(&s, o.min_time);
      double c0[5];
      for (int r = 0; r < 5; ++r) c0[r] = span_per_call(&s, BODY_COLL, NULL, iters);
      const double t_coll0 = median(c0, 5);
      for (int k = 0; k < o.nkinds; ++k)
        for (int fi = 0; fi < o.nfactors; ++fi) {
          struct work w = {o.kinds[k], 0, 1, 0, o.test_us * 1e3};
          calibrate_work(&s, &w, o.factors[fi] * t_coll0, iters);
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
          const double mc = median(tc, o.reps), mp = median(tp, o.reps);
          for (int with_test = 0; with_test <= o.test; ++with_test) {
            double* ov = with_test ? tt : to;
            double* sorted = malloc(sizeof(double) * (size_t)o.reps);
            memcpy(sorted, ov, sizeof(double) * (size_t)o.reps);
            qsort(sorted, (size_t)o.reps, sizeof(double), compare_doubles);
            if (s.rank == 0)
              print_row(&s, &w, o.factors[fi], with_test, iters, mc, mp, median(ov, o.reps), sorted[0],
                        sorted[o.reps - 1], median(with_test ? hid_t : hid, o.reps));
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
  MPI_Finalize();
  return total_wrong ? 1 : 0;
}
