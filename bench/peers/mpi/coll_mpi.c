/* The peer of bench/collbench: the same collectives in MPI, with the same sizes,
 * the same timing loop, the same memcpy bound, the same verification data
 * (bench/collbench/coll_model.h) and the same jsonl fields, with backend "mpi",
 * threads = ranks, algo "mpi" and `ran` naming the MPI call.
 *
 *   broadcast      MPI_Bcast from the root's source buffer (the other ranks receive)
 *   scatter        MPI_Scatter
 *   gather         MPI_Gather
 *   gather_all     MPI_Allgather
 *   exchange       MPI_Alltoall
 *   permute        MPI_Sendrecv: rank r sends its block to (r+1) % ranks and
 *                  receives from (r-1) % ranks, as collbench's perm[r] = (r+1) % THREADS
 *   reduce         the rank's block summed locally, then MPI_Reduce of that one value
 *                  (count 1, MPI_SUM) to the root: the result upc_all_reduceT gives,
 *                  one value over all THREADS*nelems elements. (An MPI_Reduce of
 *                  count nelems would be an element-wise vector reduction, a different
 *                  operation.)
 *   prefix_reduce  the rank's block summed locally, MPI_Exscan of that value (the
 *                  exclusive form of MPI_Scan), then the local prefix from it: the
 *                  result upc_all_prefix_reduceT gives over the blocked array.
 *
 * Timing, per size: one untimed call, a calibration of calls per repetition to about
 * --min-time seconds, then --reps rounds; a round is MPI_Barrier, each rank notes its
 * start, makes `iters` calls, notes its end; the round's time per call is (latest
 * end - earliest start across ranks) / iters, CLOCK_MONOTONIC being one clock for
 * every process of the machine. The memcpy bound is timed after each round the
 * same way, and its fastest round counts. Verification as collbench: fresh data,
 * one call, every rank checks what it received.
 *
 *   mpirun -np 4 ./build-bench/bench/peers/mpi/coll_mpi --coll=broadcast --format=jsonl
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

#include "../../collbench/coll_model.h"

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
  int coll, is_double, jsonl, verify;
  long root, reps, step;
  uint64_t min_bytes, max_bytes, max_moved, effective_max;
  double min_time;
};

struct state {
  const struct options* o;
  int rank, ranks, cpus;
  uint64_t bound_k; /* the bound's copies per copier (coll_model.h) */
  unsigned char *src, *dst, *copy_src, *copy_dst, *scratch;
};

static const char* const mpi_call_names[COLL_COUNT] = {"MPI_Bcast",  "MPI_Scatter",  "MPI_Gather",
                                                       "MPI_Allgather", "MPI_Alltoall", "MPI_Sendrecv",
                                                       "MPI_Reduce", "MPI_Exscan"};

static size_t elem_size(const struct options* o) { return o->is_double ? sizeof(double) : sizeof(long); }

/* nbytes as the collective sees it: whole elements for the reductions. */
static uint64_t effective_bytes(const struct options* o, uint64_t nbytes) {
  if (!coll_is_reduction(o->coll)) return nbytes;
  uint64_t e = elem_size(o), n = nbytes / e;
  return (n ? n : 1) * e;
}

static void reduce_call(struct state* s, uint64_t nbytes) {
  const uint64_t ne = nbytes / elem_size(s->o);
  const int prefix = s->o->coll == COLL_PREFIX_REDUCE;
  if (s->o->is_double) {
    const double* x = (const double*)s->src;
    double local = 0, offset = 0;
    for (uint64_t k = 0; k < ne; ++k) local += x[k];
    if (!prefix) {
      MPI_Reduce(&local, s->dst, 1, MPI_DOUBLE, MPI_SUM, (int)s->o->root, MPI_COMM_WORLD);
      return;
    }
    MPI_Exscan(&local, &offset, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (s->rank == 0) offset = 0; /* MPI_Exscan leaves rank 0's result undefined */
    double* y = (double*)s->dst;
    for (uint64_t k = 0; k < ne; ++k) y[k] = offset += x[k];
  } else {
    const long* x = (const long*)s->src;
    long local = 0, offset = 0;
    for (uint64_t k = 0; k < ne; ++k) local += x[k];
    if (!prefix) {
      MPI_Reduce(&local, s->dst, 1, MPI_LONG, MPI_SUM, (int)s->o->root, MPI_COMM_WORLD);
      return;
    }
    MPI_Exscan(&local, &offset, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (s->rank == 0) offset = 0;
    long* y = (long*)s->dst;
    for (uint64_t k = 0; k < ne; ++k) y[k] = offset += x[k];
  }
}

static void call(struct state* s, uint64_t nbytes) {
  const int n = (int)nbytes, root = (int)s->o->root;
  switch (s->o->coll) {
    case COLL_BROADCAST:
      MPI_Bcast(s->rank == root ? s->src : s->dst, n, MPI_BYTE, root, MPI_COMM_WORLD);
      break;
    case COLL_SCATTER: MPI_Scatter(s->src, n, MPI_BYTE, s->dst, n, MPI_BYTE, root, MPI_COMM_WORLD); break;
    case COLL_GATHER: MPI_Gather(s->src, n, MPI_BYTE, s->dst, n, MPI_BYTE, root, MPI_COMM_WORLD); break;
    case COLL_GATHER_ALL: MPI_Allgather(s->src, n, MPI_BYTE, s->dst, n, MPI_BYTE, MPI_COMM_WORLD); break;
    case COLL_EXCHANGE: MPI_Alltoall(s->src, n, MPI_BYTE, s->dst, n, MPI_BYTE, MPI_COMM_WORLD); break;
    case COLL_PERMUTE: {
      int to = coll_permute_target(s->rank, s->ranks), from = (s->rank - 1 + s->ranks) % s->ranks;
      MPI_Sendrecv(s->src, n, MPI_BYTE, to, 7, s->dst, n, MPI_BYTE, from, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    }
    case COLL_REDUCE:
    case COLL_PREFIX_REDUCE: reduce_call(s, nbytes); break;
  }
}

/* What a timed body does n times: the collective, or a round of the memcpy bound
 * (the first min(ranks, CPUs) ranks each make bound_k copies of nbytes between
 * private buffers, coll_model.h). */
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

/* Calls per round so that a round lasts about `target` seconds, as bench/common's
 * calibrate_iterations: grow n by 8 until a run takes an eighth of the target, then
 * scale; within [1, cap], the same on every rank. */
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

static void prepare(struct state* s, uint64_t nbytes, uint64_t seed) {
  const struct options* o = s->o;
  memset(s->dst, COLL_POISON_BYTE, coll_dst_bytes(o->coll, s->ranks, nbytes));
  if (coll_is_reduction(o->coll)) {
    const uint64_t ne = nbytes / elem_size(o);
    for (uint64_t k = 0; k < ne; ++k) {
      long v = coll_reduce_value(seed, s->rank, k);
      if (o->is_double) ((double*)s->src)[k] = (double)v;
      else ((long*)s->src)[k] = v;
    }
    return;
  }
  if ((o->coll == COLL_BROADCAST || o->coll == COLL_SCATTER) && s->rank != o->root) return;
  coll_fill_pattern(s->src, coll_src_bytes(o->coll, s->ranks, nbytes), seed, s->rank, 0);
}

static uint64_t check(struct state* s, uint64_t nbytes, uint64_t seed) {
  const struct options* o = s->o;
  const int me = s->rank, T = s->ranks, root = (int)o->root;
  const uint64_t n = nbytes;
  uint64_t wrong = 0;
  switch (o->coll) {
    case COLL_BROADCAST: /* the root's buffer is the source itself */
      return coll_count_wrong(me == root ? s->src : s->dst, n, seed, root, 0, s->scratch);
    case COLL_SCATTER: return coll_count_wrong(s->dst, n, seed, root, (uint64_t)me * n, s->scratch);
    case COLL_GATHER:
    case COLL_GATHER_ALL:
      if (o->coll == COLL_GATHER && me != root) return 0;
      for (int t = 0; t < T; ++t) wrong += coll_count_wrong(s->dst + (uint64_t)t * n, n, seed, t, 0, s->scratch);
      return wrong;
    case COLL_EXCHANGE:
      for (int t = 0; t < T; ++t)
        wrong += coll_count_wrong(s->dst + (uint64_t)t * n, n, seed, t, (uint64_t)me * n, s->scratch);
      return wrong;
    case COLL_PERMUTE: return coll_count_wrong(s->dst, n, seed, (me - 1 + T) % T, 0, s->scratch);
    case COLL_REDUCE:
    case COLL_PREFIX_REDUCE: {
      const uint64_t ne = n / elem_size(o);
      if (o->coll == COLL_REDUCE) {
        if (me != root) return 0;
        long expected = 0;
        for (int t = 0; t < T; ++t) expected += coll_block_sum(seed, t, ne);
        double got = o->is_double ? ((double*)s->dst)[0] : (double)((long*)s->dst)[0];
        return got == (double)expected ? 0 : 1;
      }
      long running = 0;
      for (int t = 0; t < me; ++t) running += coll_block_sum(seed, t, ne);
      for (uint64_t k = 0; k < ne; ++k) {
        running += coll_reduce_value(seed, me, k);
        double got = o->is_double ? ((double*)s->dst)[k] : (double)((long*)s->dst)[k];
        wrong += got != (double)running;
      }
      return wrong;
    }
  }
  return 0;
}

/* "64", "4K", "8M", "1G"; 0 on anything else. */
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

/* Accepts --name=value and --name value. Returns the value or NULL. */
static const char* option_value(int argc, char** argv, int* i, const char* name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] == '\0' && *i + 1 < argc) return argv[++*i];
  return NULL;
}

static void usage(void) {
  printf(
      "usage: mpirun -np N coll_mpi [options]\n\n"
      "The peer of bench/collbench: MPI_Bcast, Scatter, Gather, Allgather, Alltoall, Sendrecv (permute),\n"
      "Reduce and Exscan (reduce, prefix_reduce over the whole blocked array), timed, bounded and\n"
      "verified as collbench does, with the same output fields.\n\n"
      "options:\n"
      "  --coll=NAME          broadcast|scatter|gather|gather_all|exchange|permute|reduce|prefix_reduce\n"
      "                       (default broadcast)\n"
      "  --min-bytes=BYTES    smallest block per rank (default 8)\n"
      "  --max-bytes=BYTES    largest block per rank (default 8M)\n"
      "  --step=N             size multiplier from one row to the next (default 2)\n"
      "  --max-moved=BYTES    skip sizes where copies*nbytes exceeds this (0: no limit) (default 0)\n"
      "  --type=long|double   element type of reduce / prefix_reduce (default long)\n"
      "  --root=N             root rank (default 0)\n"
      "  --reps=N             timed rounds per size (default 5)\n"
      "  --min-time=X         seconds per timed round (default 0.01)\n"
      "  --no-verify          skip verification\n"
      "  --format=text|jsonl  rows as aligned text or one JSON object per line (default text)\n"
      "  --help               this text\n");
}

static void library_version(char* out, size_t size) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  for (char* c = version; *c; ++c)
    if (*c == '\n' || *c == '"' || *c == '\\') *c = ' ';
  char* comma = strchr(version, ','); /* "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4" */
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

static void print_header(const struct state* s) {
  const struct options* o = s->o;
  char version[256], cpu[256], date[32];
  library_version(version, sizeof version);
  cpu_model(cpu, sizeof cpu);
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  const int copiers = s->ranks < s->cpus ? s->ranks : s->cpus;
  const char* type = coll_is_reduction(o->coll) ? (o->is_double ? "double" : "long") : "byte";
  if (o->jsonl)
    printf("# {\"bench\": \"collbench\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"algo\": \"mpi\", "
           "\"flags\": \"mpi\", \"type\": \"%s\", \"op\": \"%s\", \"root\": %ld, \"min_bytes\": %llu, \"max_bytes\": %llu, "
           "\"step\": %ld, \"reps\": %ld, \"min_time_s\": %g, \"bound_copiers\": %d, "
           "\"bound\": \"fastest round of min(THREADS,CPUs) ranks each making ceil(copies/that) memcpys of nbytes at once\", "
           "\"statistic\": \"per call: (latest end - earliest start across ranks)/iters; median/min/max over reps\", "
           "\"verify\": %s, \"peer\": \"%s\", \"cpus\": %d, \"cpu_model\": \"%s\", \"date\": \"%s\"}\n",
           s->ranks, coll_names[o->coll], type, coll_is_reduction(o->coll) ? "MPI_SUM" : "none", o->root,
           (unsigned long long)o->min_bytes, (unsigned long long)o->effective_max, o->step, o->reps, o->min_time, copiers,
           o->verify ? "true" : "false", version, s->cpus, cpu, date);
  else
    printf("# bench=collbench backend=mpi threads=%d coll=%s algo=mpi flags=mpi type=%s op=%s root=%ld min_bytes=%llu "
           "max_bytes=%llu step=%ld reps=%ld min_time_s=%g bound_copiers=%d verify=%s peer=\"%s\" cpus=%d "
           "cpu_model=\"%s\" date=%s\n",
           s->ranks, coll_names[o->coll], type, coll_is_reduction(o->coll) ? "MPI_SUM" : "none", o->root,
           (unsigned long long)o->min_bytes, (unsigned long long)o->effective_max, o->step, o->reps, o->min_time, copiers,
           o->verify ? "true" : "false", version, s->cpus, cpu, date);
  if (!o->jsonl)
    printf("# %18s %18s %18s %18s %11s %11s %11s %11s %11s %11s %11s %11s %14s %11s %11s\n", "algo", "ran", "flags",
           "type", "nbytes", "nelems", "iters", "min_us", "median_us", "max_us", "gbps", "bound_us", "ratio_vs_bound",
           "verified", "wrong");
  fflush(stdout);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct state s;
  memset(&s, 0, sizeof s);
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.ranks);
  s.cpus = usable_cpus();
  /* Every rank must use the same CPU count for the bound: take rank 0's. */
  MPI_Bcast(&s.cpus, 1, MPI_INT, 0, MPI_COMM_WORLD);

  struct options o = {COLL_BROADCAST, 0, 0, 1, 0, 5, 2, 8, 8ULL << 20, 0, 0, 0.01};
  int bad = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (s.rank == 0) usage();
      MPI_Finalize();
      return 0;
    } else if (!strcmp(argv[i], "--no-verify")) {
      o.verify = 0;
    } else if ((v = option_value(argc, argv, &i, "--coll"))) {
      o.coll = coll_from_name(v);
      bad = o.coll < 0;
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
    } else if ((v = option_value(argc, argv, &i, "--type"))) {
      bad = strcmp(v, "long") && strcmp(v, "double");
      o.is_double = !strcmp(v, "double");
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
    if (bad && s.rank == 0) fprintf(stderr, "coll_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  const uint64_t e = coll_is_reduction(o.coll) ? elem_size(&o) : 1;
  if (!bad && (o.min_bytes < e || o.min_bytes > o.max_bytes || o.max_bytes > (1ULL << 30))) {
    if (s.rank == 0) fprintf(stderr, "coll_mpi: need %llu <= --min-bytes <= --max-bytes <= 1G\n", (unsigned long long)e);
    bad = 1;
  }
  /* The largest size within --max-moved. */
  const uint64_t copies = coll_copies(o.coll, s.ranks);
  o.effective_max = 0;
  for (uint64_t sz = o.min_bytes; sz <= o.max_bytes; sz *= (uint64_t)o.step) {
    if (o.max_moved && sz * copies > o.max_moved) break;
    o.effective_max = sz;
    if (sz > o.max_bytes / (uint64_t)o.step) break;
  }
  if (!bad && o.effective_max == 0) {
    if (s.rank == 0) fprintf(stderr, "coll_mpi: --max-moved leaves no size (copies per call: %llu)\n", (unsigned long long)copies);
    bad = 1;
  }
  if (bad) {
    MPI_Finalize();
    return 2;
  }
  s.o = &o;

  const uint64_t max = o.effective_max;
  const size_t src_bytes = coll_src_bytes(o.coll, s.ranks, max), dst_bytes = coll_dst_bytes(o.coll, s.ranks, max);
  s.src = malloc(src_bytes);
  s.dst = malloc(dst_bytes > max ? dst_bytes : max); /* broadcast's root receives nothing but checks src */
  s.bound_k = coll_bound_copies_per_copier(o.coll, s.ranks, s.cpus);
  uint64_t bound_bytes = 1;
  for (uint64_t sz = o.min_bytes; sz <= o.effective_max; sz *= (uint64_t)o.step) {
    const uint64_t e = effective_bytes(&o, sz), b = coll_bound_blocks(s.bound_k, e) * e;
    if (b > bound_bytes) bound_bytes = b;
    if (sz > o.effective_max / (uint64_t)o.step) break;
  }
  s.copy_src = malloc(bound_bytes);
  s.copy_dst = malloc(bound_bytes);
  s.scratch = malloc(max > 16 ? max : 16);
  if (!s.src || !s.dst || !s.copy_src || !s.copy_dst || !s.scratch) {
    fprintf(stderr, "coll_mpi: rank %d: out of memory for %llu-byte blocks\n", s.rank, (unsigned long long)max);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  memset(s.src, 4, src_bytes); /* touch every page before timing */
  memset(s.dst, 5, dst_bytes > max ? dst_bytes : max);
  memset(s.copy_src, 1, bound_bytes);
  memset(s.copy_dst, 2, bound_bytes);
  memset(s.scratch, 3, max > 16 ? max : 16);

  if (s.rank == 0) {
    if (o.effective_max < o.max_bytes)
      printf("# sizes above %llu skipped: --max-moved=%llu with %llu blocks per call at ranks=%d\n",
             (unsigned long long)o.effective_max, (unsigned long long)o.max_moved, (unsigned long long)copies, s.ranks);
    print_header(&s);
  }

  double* us = malloc(sizeof(double) * (size_t)o.reps);
  double* bound = malloc(sizeof(double) * (size_t)o.reps);
  uint64_t total_wrong = 0, seed = 1;
  for (uint64_t requested = o.min_bytes; requested <= o.effective_max; requested *= (uint64_t)o.step) {
    const uint64_t nbytes = effective_bytes(&o, requested);
    ++seed;
    call(&s, nbytes); /* warm-up */
    const uint64_t moved = copies * nbytes;
    const long cap = (long)((16ULL << 30) / moved);
    const long iters = calibrate(&s, BODY_COLL, nbytes, o.min_time, cap > 1 ? cap : 1);
    const long copy_iters = calibrate(&s, BODY_COPY, nbytes, o.min_time / 2, cap > 1 ? cap : 1);
    for (long r = 0; r < o.reps; ++r) {
      us[r] = span_per_call(&s, BODY_COLL, nbytes, iters) * 1e6;
      bound[r] = span_per_call(&s, BODY_COPY, nbytes, copy_iters) * 1e6;
    }
    uint64_t wrong = 0;
    if (o.verify) {
      prepare(&s, nbytes, seed);
      MPI_Barrier(MPI_COMM_WORLD);
      call(&s, nbytes);
      MPI_Barrier(MPI_COMM_WORLD);
      uint64_t mine = check(&s, nbytes, seed);
      unsigned long long m = mine, sum = 0;
      MPI_Allreduce(&m, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      wrong = sum;
      total_wrong += wrong;
    }
    qsort(us, (size_t)o.reps, sizeof(double), compare_doubles);
    qsort(bound, (size_t)o.reps, sizeof(double), compare_doubles);
    const double median = o.reps % 2 ? us[o.reps / 2] : (us[o.reps / 2 - 1] + us[o.reps / 2]) / 2;
    const double bound_min = bound[0], ratio_to_bound = bound_min / median; /* the fastest bound round */
    if (s.rank == 0) {
      const char* type = coll_is_reduction(o.coll) ? (o.is_double ? "double" : "long") : "byte";
      const unsigned long long nelems = coll_is_reduction(o.coll) ? nbytes / elem_size(&o) * (uint64_t)s.ranks : 0;
      const double gbps = (double)moved / (median * 1e-6) * 1e-9;
      if (o.jsonl)
        printf("{\"bench\": \"collbench\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"algo\": \"mpi\", "
               "\"ran\": \"%s\", \"flags\": \"mpi\", \"type\": \"%s\", \"nbytes\": %llu, \"nelems\": %llu, \"iters\": %ld, "
               "\"min_us\": %.6g, \"median_us\": %.6g, \"max_us\": %.6g, \"gbps\": %.6g, \"bound_us\": %.6g, "
               "\"ratio_vs_bound\": %.6g, \"verified\": %s, \"wrong\": %llu}\n",
               s.ranks, coll_names[o.coll], mpi_call_names[o.coll], type, (unsigned long long)nbytes, nelems, iters, us[0],
               median, us[o.reps - 1], gbps, bound_min, ratio_to_bound, o.verify ? "true" : "false",
               (unsigned long long)wrong);
      else
        printf("  %18s %18s %18s %18s %11llu %11llu %11ld %11.6g %11.6g %11.6g %11.6g %11.6g %14.6g %11s %11llu\n", "mpi",
               mpi_call_names[o.coll], "mpi", type, (unsigned long long)nbytes, nelems, iters, us[0], median,
               us[o.reps - 1], gbps, bound_min, ratio_to_bound, o.verify ? "true" : "false", (unsigned long long)wrong);
      if (wrong)
        fprintf(stderr, "coll_mpi: %s nbytes=%llu ranks=%d: %llu %s wrong\n", coll_names[o.coll],
                (unsigned long long)nbytes, s.ranks, (unsigned long long)wrong,
                coll_is_reduction(o.coll) ? "elements" : "bytes");
      fflush(stdout);
    }
    if (requested > o.effective_max / (uint64_t)o.step) break;
  }
  free(us);
  free(bound);
  free(s.src);
  free(s.dst);
  free(s.copy_src);
  free(s.copy_dst);
  free(s.scratch);
  MPI_Finalize();
  return total_wrong ? 1 : 0;
}
