/* The peer of bench/collbench/upccoll_bench.cpp (UPC Collectives 2.0): the MPI
 * collectives that the upccoll_* functions mirror, with the same sizes, counts and
 * displacements, the same timing loop, the same memcpy bound, the same
 * verification data (bench/collbench/upccoll_model.h) and the same jsonl fields,
 * with backend "mpi", threads = ranks, algo "mpi" and `ran` naming the MPI call.
 *
 *   barrier MPI_Barrier          bcast MPI_Bcast (one buffer: the root's send buffer)
 *   scatter MPI_Scatter          scatterv MPI_Scatterv
 *   gather MPI_Gather            gatherv MPI_Gatherv
 *   allgather MPI_Allgather      allgatherv MPI_Allgatherv
 *   alltoall MPI_Alltoall        alltoallv MPI_Alltoallv
 *   reduce MPI_Reduce            allreduce MPI_Allreduce
 *   reduce_scatter MPI_Reduce_scatter (recvcounts[t] = count)
 *   scan MPI_Exscan              (MPI_DOUBLE, MPI_SUM for the reductions)
 *
 * Timing, per size: one untimed call, a calibration of calls per round to about
 * --min-time seconds, then --reps rounds; a round is MPI_Barrier, each rank notes
 * its start, makes `iters` calls, notes its end; the round's time per call is
 * (latest end - earliest start across ranks) / iters, CLOCK_MONOTONIC being one
 * clock for every process of the machine. The memcpy bound is timed after each
 * round the same way (fastest round). Verification: fresh data, poisoned receive
 * buffers, one call, every rank checks what it received (not the root of bcast,
 * whose data never leaves its send buffer, nor rank 0 of MPI_Exscan, undefined).
 *
 *   mpirun --oversubscribe --bind-to none -np 4 coll2_mpi --coll=allreduce --format=jsonl
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../collbench/upccoll_model.h"

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usable_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

struct options {
  int colls[UC_COUNT], ncolls, jsonl, verify, bound;
  long root, reps, step;
  uint64_t min_bytes, max_bytes, max_moved;
  double min_time;
};

struct state {
  const struct options* o;
  int rank, ranks, cpus, coll;
  uint64_t bound_k; /* the bound's copies per copier */
  int *counts, *displs;
  unsigned char *src, *dst, *copy_src, *copy_dst, *scratch;
};

static void call(struct state* s, uint64_t nbytes) {
  const int c = s->coll, root = (int)s->o->root;
  const int count = (int)(nbytes / uc_elem(c));
  MPI_Comm w = MPI_COMM_WORLD;
  switch (c) {
    case UC_BARRIER: MPI_Barrier(w); break;
    case UC_BCAST: MPI_Bcast(s->rank == root ? s->src : s->dst, count, MPI_BYTE, root, w); break;
    case UC_SCATTER: MPI_Scatter(s->src, count, MPI_BYTE, s->dst, count, MPI_BYTE, root, w); break;
    case UC_SCATTERV: MPI_Scatterv(s->src, s->counts, s->displs, MPI_BYTE, s->dst, count, MPI_BYTE, root, w); break;
    case UC_GATHER: MPI_Gather(s->src, count, MPI_BYTE, s->dst, count, MPI_BYTE, root, w); break;
    case UC_GATHERV: MPI_Gatherv(s->src, count, MPI_BYTE, s->dst, s->counts, s->displs, MPI_BYTE, root, w); break;
    case UC_ALLGATHER: MPI_Allgather(s->src, count, MPI_BYTE, s->dst, count, MPI_BYTE, w); break;
    case UC_ALLGATHERV: MPI_Allgatherv(s->src, count, MPI_BYTE, s->dst, s->counts, s->displs, MPI_BYTE, w); break;
    case UC_ALLTOALL: MPI_Alltoall(s->src, count, MPI_BYTE, s->dst, count, MPI_BYTE, w); break;
    case UC_ALLTOALLV:
      MPI_Alltoallv(s->src, s->counts, s->displs, MPI_BYTE, s->dst, s->counts, s->displs, MPI_BYTE, w);
      break;
    case UC_REDUCE: MPI_Reduce(s->src, s->dst, count, MPI_DOUBLE, MPI_SUM, root, w); break;
    case UC_ALLREDUCE: MPI_Allreduce(s->src, s->dst, count, MPI_DOUBLE, MPI_SUM, w); break;
    case UC_REDUCE_SCATTER: MPI_Reduce_scatter(s->src, s->dst, s->counts, MPI_DOUBLE, MPI_SUM, w); break;
    case UC_SCAN: MPI_Exscan(s->src, s->dst, count, MPI_DOUBLE, MPI_SUM, w); break;
  }
}

enum body_kind { BODY_COLL, BODY_COPY };

static void body(struct state* s, enum body_kind k, uint64_t nbytes, long n) {
  if (k == BODY_COLL) {
    for (long i = 0; i < n; ++i) call(s, nbytes);
    return;
  }
  const int copiers = s->ranks < s->cpus ? s->ranks : s->cpus;
  if (s->rank >= copiers) return;
  for (long i = 0; i < n; ++i) {
    coll_bound_copies(s->copy_dst, s->copy_src, nbytes, s->bound_k, coll_bound_blocks(s->bound_k, nbytes));
    __asm__ __volatile__("" : : : "memory");
  }
}

/* Seconds per call: (latest end - earliest start across ranks) / n. */
static double span_per_call(struct state* s, enum body_kind k, uint64_t nbytes, long n) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = seconds_now();
  body(s, k, nbytes, n);
  double t1 = seconds_now(), start, end;
  MPI_Allreduce(&t0, &start, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return (end - start) / (double)n;
}

/* Calls per round so that a round lasts about `target` seconds (as coll_mpi.c). */
static long calibrate(struct state* s, enum body_kind k, uint64_t nbytes, double target, long cap) {
  long n = 1;
  for (;;) {
    double t = span_per_call(s, k, nbytes, n) * (double)n;
    if (t >= target / 8 || n >= cap) {
      double scaled = (double)n * target / (t > 1e-9 ? t : 1e-9);
      return scaled < 1 ? 1 : scaled > (double)cap ? cap : (long)scaled;
    }
    n = n * 8 < cap ? n * 8 : cap;
  }
}

/* The sizes of collective c (as upccoll_bench's): whole elements, within --max-moved. */
static int sizes(const struct options* o, int c, int ranks, uint64_t* out, int max_out) {
  if (c == UC_BARRIER) {
    out[0] = 0;
    return 1;
  }
  int k = 0;
  const uint64_t e = uc_elem(c), copies = uc_copies(c, ranks);
  for (uint64_t sz = o->min_bytes; sz <= o->max_bytes && k < max_out;) {
    uint64_t n = (sz / e ? sz / e : 1) * e;
    if (o->max_moved && n * copies > o->max_moved) break;
    if (k == 0 || out[k - 1] != n) out[k++] = n;
    if (sz > o->max_bytes / (uint64_t)o->step) break;
    sz *= (uint64_t)o->step;
  }
  return k;
}

static int parse_size(const char* text, uint64_t* out) {
  char* end;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text) return 0;
  uint64_t mult = 1;
  if (!strcmp(end, "") || !strcmp(end, "B")) mult = 1;
  else if (!strcmp(end, "K") || !strcmp(end, "k") || !strcmp(end, "KiB")) mult = 1ULL << 10;
  else if (!strcmp(end, "M") || !strcmp(end, "MiB")) mult = 1ULL << 20;
  else if (!strcmp(end, "G") || !strcmp(end, "GiB")) mult = 1ULL << 30;
  else return 0;
  *out = (uint64_t)v * mult;
  return 1;
}

static int parse_long(const char* s, long min, long* out) {
  char* end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < min) return 0;
  *out = v;
  return 1;
}

/* "a,b,c" or "all" into o->colls; 0 on an unknown name. */
static int parse_colls(const char* v, struct options* o) {
  o->ncolls = 0;
  if (!strcmp(v, "all")) {
    for (int c = 0; c < UC_COUNT; ++c) o->colls[o->ncolls++] = c;
    return 1;
  }
  char buf[512];
  snprintf(buf, sizeof buf, "%s", v);
  for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int c = uc_from_name(tok);
    if (c < 0 || o->ncolls >= UC_COUNT) return 0;
    o->colls[o->ncolls++] = c;
  }
  return o->ncolls > 0;
}

static const char* option_value(int argc, char** argv, int* i, const char* name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] == '\0' && *i + 1 < argc) return argv[++*i];
  return NULL;
}

static void usage(void) {
  printf(
      "usage: mpirun --oversubscribe --bind-to none -np N coll2_mpi [options]\n\n"
      "The peer of bench/collbench/upccoll_bench: the MPI collectives that the UPC Collectives 2.0\n"
      "functions mirror, timed, bounded and verified as upccoll_bench does, with the same output\n"
      "fields. Reductions: MPI_SUM on MPI_DOUBLE.\n\n"
      "options:\n"
      "  --coll=LIST          comma-separated collectives, or all (default all); --list names them\n"
      "  --min-bytes=BYTES    smallest block per rank (default 8)\n"
      "  --max-bytes=BYTES    largest block per rank (default 8M)\n"
      "  --step=N             size multiplier from one row to the next (default 2)\n"
      "  --max-moved=BYTES    skip sizes where copies*nbytes exceeds this (0: no limit) (default 0)\n"
      "  --root=N             root rank (default 0)\n"
      "  --reps=N             timed rounds per size (default 5)\n"
      "  --min-time=X         seconds per timed round (default 0.01)\n"
      "  --no-verify          skip verification\n"
      "  --no-bound           skip the memcpy bound\n"
      "  --format=text|jsonl  rows as aligned text or one JSON object per line (default text)\n"
      "  --list               the collectives and their MPI calls\n"
      "  --help               this text\n");
}

static void library_version(char* out, size_t size) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  for (char* c = version; *c; ++c)
    if (*c == '\n' || *c == '"' || *c == '\\') *c = ' ';
  char* comma = strchr(version, ',');
  if (comma) *comma = '\0';
  snprintf(out, size, "%s", version);
}

static void cpu_model(char* out, size_t size) {
  snprintf(out, size, "unknown");
  FILE* f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "model name", 10)) {
      char* c = strchr(line, ':');
      if (c) {
        c += 2;
        c[strcspn(c, "\n")] = '\0';
        snprintf(out, size, "%s", c);
      }
      break;
    }
  fclose(f);
}

static const char* type_name(int c) { return uc_is_reduction(c) ? "double" : c == UC_BARRIER ? "none" : "byte"; }

static void print_header(const struct state* s, uint64_t min_n, uint64_t max_n) {
  const struct options* o = s->o;
  const int c = s->coll;
  char version[256], cpu[256], date[32];
  library_version(version, sizeof version);
  cpu_model(cpu, sizeof cpu);
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  const int copiers = s->ranks < s->cpus ? s->ranks : s->cpus;
  const char* bound = o->bound && c != UC_BARRIER
                          ? "fastest round of min(THREADS,CPUs) ranks each making ceil(copies/that) memcpys of nbytes at once"
                          : "none";
  if (o->jsonl)
    printf("# {\"bench\": \"upccoll\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"algo\": \"mpi\", "
           "\"flags\": \"mpi\", \"team\": \"MPI_COMM_WORLD\", \"type\": \"%s\", \"op\": \"%s\", \"root\": %ld, "
           "\"min_bytes\": %llu, \"max_bytes\": %llu, \"step\": %ld, \"reps\": %ld, \"min_time_s\": %g, "
           "\"mpi_call\": \"%s\", \"bound_copiers\": %d, \"bound\": \"%s\", "
           "\"statistic\": \"per call: (latest end - earliest start across ranks)/iters; median/min/max over reps\", "
           "\"verify\": %s, \"peer\": \"%s\", \"cpus\": %d, \"cpu_model\": \"%s\", \"date\": \"%s\"}\n",
           s->ranks, uc_names[c], type_name(c), uc_is_reduction(c) ? "MPI_SUM" : "none", o->root,
           (unsigned long long)min_n, (unsigned long long)max_n, o->step, o->reps, o->min_time, uc_mpi_names[c],
           copiers, bound, o->verify ? "true" : "false", version, s->cpus, cpu, date);
  else
    printf("# bench=upccoll backend=mpi threads=%d coll=%s algo=mpi flags=mpi team=MPI_COMM_WORLD type=%s op=%s root=%ld "
           "min_bytes=%llu max_bytes=%llu step=%ld reps=%ld min_time_s=%g mpi_call=%s bound_copiers=%d verify=%s "
           "peer=\"%s\" cpus=%d cpu_model=\"%s\" date=%s\n",
           s->ranks, uc_names[c], type_name(c), uc_is_reduction(c) ? "MPI_SUM" : "none", o->root,
           (unsigned long long)min_n, (unsigned long long)max_n, o->step, o->reps, o->min_time, uc_mpi_names[c],
           copiers, o->verify ? "true" : "false", version, s->cpus, cpu, date);
  if (!o->jsonl)
    printf("# %18s %18s %18s %18s %11s %11s %11s %11s %11s %11s %11s %11s %14s %11s %11s\n", "algo", "ran", "flags",
           "type", "nbytes", "count", "iters", "min_us", "median_us", "max_us", "gbps", "bound_us", "ratio_vs_bound",
           "verified", "wrong");
  fflush(stdout);
}

/* "%.6g", or null / nan for a value that is not a number. */
static const char* num(char* buf, double x, int jsonl) {
  if (x != x) return jsonl ? "null" : "nan";
  snprintf(buf, 32, "%.6g", x);
  return buf;
}

/* Every size of collective s->coll; returns the wrong bytes/elements found. */
static uint64_t run_collective(struct state* s, uint64_t* seed) {
  const struct options* o = s->o;
  const int c = s->coll, me = s->rank, T = s->ranks, root = (int)o->root;
  uint64_t sz[64];
  const int nsz = sizes(o, c, T, sz, 64);
  const int copiers = T < s->cpus ? T : s->cpus;
  s->bound_k = (uc_copies(c, T) + (uint64_t)copiers - 1) / (uint64_t)copiers;
  if (me == 0) print_header(s, sz[0], sz[nsz - 1]);
  double* us = malloc(sizeof(double) * (size_t)o->reps);
  double* bound = malloc(sizeof(double) * (size_t)o->reps);
  uint64_t total_wrong = 0;
  for (int i = 0; i < nsz; ++i) {
    const uint64_t nbytes = sz[i], count = nbytes / uc_elem(c);
    ++*seed;
    for (int t = 0; t < T; ++t) {
      s->counts[t] = (int)count;
      s->displs[t] = (int)uc_displ(t, T, count);
    }
    call(s, nbytes); /* warm-up */
    const uint64_t moved = uc_copies(c, T) * nbytes > 0 ? uc_copies(c, T) * nbytes : 1;
    const long cap = (long)((16ULL << 30) / moved);
    const long iters = calibrate(s, BODY_COLL, nbytes, o->min_time, cap > 1 ? cap : 1);
    const int with_bound = o->bound && c != UC_BARRIER;
    const long copy_iters = with_bound ? calibrate(s, BODY_COPY, nbytes, o->min_time / 2, cap > 1 ? cap : 1) : 0;
    for (long r = 0; r < o->reps; ++r) {
      us[r] = span_per_call(s, BODY_COLL, nbytes, iters) * 1e6;
      bound[r] = with_bound ? span_per_call(s, BODY_COPY, nbytes, copy_iters) * 1e6 : 0;
    }
    uint64_t wrong = 0;
    const int verified = o->verify && c != UC_BARRIER;
    if (verified) {
      memset(s->dst, COLL_POISON_BYTE, uc_dst_bytes(c, T, nbytes));
      uc_fill_source(c, s->src, uc_src_bytes(c, T, nbytes), *seed, me);
      MPI_Barrier(MPI_COMM_WORLD);
      call(s, nbytes);
      MPI_Barrier(MPI_COMM_WORLD);
      unsigned long long mine = 0, sum = 0;
      if (!(c == UC_BCAST && me == root)) /* MPI_Bcast's root keeps its data in its send buffer */
        mine = uc_count_wrong(c, T, me, root, *seed, nbytes, s->dst, s->scratch, 0);
      if (mine)
        fprintf(stderr, "coll2_mpi: %s nbytes=%llu ranks=%d: rank %d: %llu %s wrong\n", uc_names[c],
                (unsigned long long)nbytes, T, me, mine, uc_is_reduction(c) ? "elements" : "bytes");
      MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      wrong = sum;
      total_wrong += wrong;
    }
    qsort(us, (size_t)o->reps, sizeof(double), compare_doubles);
    qsort(bound, (size_t)o->reps, sizeof(double), compare_doubles);
    const double median = o->reps % 2 ? us[o->reps / 2] : (us[o->reps / 2 - 1] + us[o->reps / 2]) / 2;
    const double nan = 0.0 / 0.0;
    const double bound_min = with_bound ? bound[0] : nan, ratio = with_bound ? bound_min / median : nan;
    const double gbps = c == UC_BARRIER ? nan : (double)moved / (median * 1e-6) * 1e-9;
    if (me == 0) {
      char b1[32], b2[32], b3[32];
      if (o->jsonl)
        printf("{\"bench\": \"upccoll\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"algo\": \"mpi\", "
               "\"ran\": \"%s\", \"flags\": \"mpi\", \"type\": \"%s\", \"nbytes\": %llu, \"count\": %llu, \"iters\": %ld, "
               "\"min_us\": %.6g, \"median_us\": %.6g, \"max_us\": %.6g, \"gbps\": %s, \"bound_us\": %s, "
               "\"ratio_vs_bound\": %s, \"verified\": %s, \"wrong\": %llu}\n",
               T, uc_names[c], uc_mpi_names[c], type_name(c), (unsigned long long)nbytes, (unsigned long long)count, iters,
               us[0], median, us[o->reps - 1], num(b1, gbps, 1), num(b2, bound_min, 1), num(b3, ratio, 1),
               verified ? "true" : "false", (unsigned long long)wrong);
      else
        printf("  %18s %18s %18s %18s %11llu %11llu %11ld %11.6g %11.6g %11.6g %11s %11s %14s %11s %11llu\n", "mpi",
               uc_mpi_names[c], "mpi", type_name(c), (unsigned long long)nbytes, (unsigned long long)count, iters, us[0],
               median, us[o->reps - 1], num(b1, gbps, 0), num(b2, bound_min, 0), num(b3, ratio, 0),
               verified ? "true" : "false", (unsigned long long)wrong);
      fflush(stdout);
    }
  }
  free(us);
  free(bound);
  return total_wrong;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct state s;
  memset(&s, 0, sizeof s);
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.ranks);
  s.cpus = usable_cpus();
  MPI_Bcast(&s.cpus, 1, MPI_INT, 0, MPI_COMM_WORLD); /* one CPU count for the bound */

  struct options o;
  memset(&o, 0, sizeof o);
  o.jsonl = 0, o.verify = 1, o.bound = 1, o.root = 0, o.reps = 5, o.step = 2;
  o.min_bytes = 8, o.max_bytes = 8ULL << 20, o.max_moved = 0, o.min_time = 0.01;
  parse_colls("all", &o);
  int bad = 0, list = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (s.rank == 0) usage();
      MPI_Finalize();
      return 0;
    } else if (!strcmp(argv[i], "--list")) {
      list = 1;
    } else if (!strcmp(argv[i], "--no-verify")) {
      o.verify = 0;
    } else if (!strcmp(argv[i], "--no-bound")) {
      o.bound = 0;
    } else if ((v = option_value(argc, argv, &i, "--coll"))) {
      bad = !parse_colls(v, &o);
    } else if ((v = option_value(argc, argv, &i, "--min-bytes"))) {
      bad = !parse_size(v, &o.min_bytes);
    } else if ((v = option_value(argc, argv, &i, "--max-bytes"))) {
      bad = !parse_size(v, &o.max_bytes);
    } else if ((v = option_value(argc, argv, &i, "--max-moved"))) {
      bad = !parse_size(v, &o.max_moved);
    } else if ((v = option_value(argc, argv, &i, "--step"))) {
      bad = !parse_long(v, 2, &o.step);
    } else if ((v = option_value(argc, argv, &i, "--reps"))) {
      bad = !parse_long(v, 1, &o.reps);
    } else if ((v = option_value(argc, argv, &i, "--root"))) {
      bad = !parse_long(v, 0, &o.root) || o.root >= s.ranks;
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
    if (bad && s.rank == 0) fprintf(stderr, "coll2_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  if (list) {
    if (s.rank == 0)
      for (int c = 0; c < UC_COUNT; ++c) printf("%-16s %s\n", uc_names[c], uc_mpi_names[c]);
    MPI_Finalize();
    return 0;
  }
  if (!bad && (o.min_bytes < 1 || o.min_bytes > o.max_bytes || o.max_bytes > (1ULL << 30))) {
    if (s.rank == 0) fprintf(stderr, "coll2_mpi: need 1 <= --min-bytes <= --max-bytes <= 1G\n");
    bad = 1;
  }
  /* Buffers for the largest size of any collective asked for; MPI counts are int. */
  uint64_t src_bytes = 16, dst_bytes = 16, max_n = 16, bound_bytes = 16;
  const int copiers = s.ranks < s.cpus ? s.ranks : s.cpus;
  for (int j = 0; j < o.ncolls && !bad; ++j) {
    const int c = o.colls[j];
    uint64_t sz[64];
    const int nsz = sizes(&o, c, s.ranks, sz, 64);
    if (nsz == 0) {
      if (s.rank == 0) fprintf(stderr, "coll2_mpi: --max-moved leaves no size for %s\n", uc_names[c]);
      bad = 1;
    }
    const uint64_t k = (uc_copies(c, s.ranks) + (uint64_t)copiers - 1) / (uint64_t)copiers;
    for (int i = 0; i < nsz; ++i) {
      const uint64_t n = sz[i];
      if (uc_src_bytes(c, s.ranks, n) > src_bytes) src_bytes = uc_src_bytes(c, s.ranks, n);
      if (uc_dst_bytes(c, s.ranks, n) > dst_bytes) dst_bytes = uc_dst_bytes(c, s.ranks, n);
      if (n > max_n) max_n = n;
      if (c != UC_BARRIER && o.bound && coll_bound_blocks(k, n) * n > bound_bytes) bound_bytes = coll_bound_blocks(k, n) * n;
    }
  }
  if (!bad && (src_bytes > 0x7fffffffULL || dst_bytes > 0x7fffffffULL)) {
    if (s.rank == 0) fprintf(stderr, "coll2_mpi: buffers above 2 GiB (MPI int counts); lower --max-bytes or --max-moved\n");
    bad = 1;
  }
  if (bad) {
    MPI_Finalize();
    return 2;
  }
  s.o = &o;
  s.src = malloc(src_bytes);
  s.dst = malloc(dst_bytes);
  s.copy_src = malloc(bound_bytes);
  s.copy_dst = malloc(bound_bytes);
  s.scratch = malloc(max_n);
  s.counts = malloc(sizeof(int) * (size_t)s.ranks);
  s.displs = malloc(sizeof(int) * (size_t)s.ranks);
  if (!s.src || !s.dst || !s.copy_src || !s.copy_dst || !s.scratch || !s.counts || !s.displs) {
    fprintf(stderr, "coll2_mpi: rank %d: out of memory\n", s.rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  memset(s.src, 4, src_bytes); /* touch every page before timing */
  memset(s.dst, 5, dst_bytes);
  memset(s.copy_src, 1, bound_bytes);
  memset(s.copy_dst, 2, bound_bytes);
  memset(s.scratch, 3, max_n);

  uint64_t total_wrong = 0, seed = 1;
  for (int j = 0; j < o.ncolls; ++j) {
    s.coll = o.colls[j];
    total_wrong += run_collective(&s, &seed);
  }
  free(s.src);
  free(s.dst);
  free(s.copy_src);
  free(s.copy_dst);
  free(s.scratch);
  free(s.counts);
  free(s.displs);
  MPI_Finalize();
  return total_wrong ? 1 : 0;
}
