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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../collbench/upccoll_model.h"
#include "mpi_coll.h"
#include "mpi_machine.h"

struct options {
  struct mb_sweep sw;
  int colls[UC_COUNT], ncolls, bound;
};

struct state {
  const struct options* o;
  int rank, ranks, cpus, coll;
  uint64_t nbytes; /* the size being timed */
  int *counts, *displs;
  unsigned char *src, *dst, *scratch;
  struct mb_bound bound;
};

static void call(struct state* s, uint64_t nbytes) {
  const int c = s->coll, root = (int)s->o->sw.root;
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

/* The timed body: n calls with blocks of s->nbytes. */
static void coll_body(void* ctx, long n) {
  struct state* s = (struct state*)ctx;
  for (long i = 0; i < n; ++i) call(s, s->nbytes);
}

/* The sizes of collective c: upccoll_model.h's, as upccoll_bench's. */
static int sizes(const struct options* o, int c, int ranks, uint64_t* out, int max_out) {
  const struct mb_sweep* w = &o->sw;
  return uc_sizes(c, ranks, w->min_bytes, w->max_bytes, (uint64_t)w->step, w->max_moved, out, max_out);
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

static void usage(void) {
  printf(
      "usage: mpirun --oversubscribe --bind-to none -np N coll2_mpi [options]\n\n"
      "The peer of bench/collbench/upccoll_bench: the MPI collectives that the UPC Collectives 2.0\n"
      "functions mirror, timed, bounded and verified as upccoll_bench does, with the same output\n"
      "fields. Reductions: MPI_SUM on MPI_DOUBLE.\n\n"
      "options:\n"
      "  --coll=LIST          comma-separated collectives, or all (default all); --list names them\n" MB_SIZES_USAGE
      MB_ROUNDS_USAGE
      "  --no-bound           skip the memcpy bound\n" MB_FORMAT_USAGE
      "  --list               the collectives and their MPI calls\n"
      "  --help               this text\n");
}

static void print_header(const struct state* s, uint64_t min_n, uint64_t max_n) {
  const struct mb_sweep* w = &s->o->sw;
  const int c = s->coll;
  struct mb_machine m;
  mb_machine_info(&m);
  const int copiers = s->ranks < s->cpus ? s->ranks : s->cpus;
  const char* bound = s->o->bound && c != UC_BARRIER
                          ? "fastest round of min(THREADS,CPUs) ranks each making ceil(copies/that) memcpys of nbytes at once"
                          : "none";
  if (w->jsonl)
    printf("# {\"bench\": \"upccoll\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"algo\": \"mpi\", "
           "\"flags\": \"mpi\", \"team\": \"MPI_COMM_WORLD\", \"type\": \"%s\", \"op\": \"%s\", \"root\": %ld, "
           "\"min_bytes\": %llu, \"max_bytes\": %llu, \"step\": %ld, \"reps\": %ld, \"min_time_s\": %g, "
           "\"mpi_call\": \"%s\", \"bound_copiers\": %d, \"bound\": \"%s\", "
           "\"statistic\": \"per call: (latest end - earliest start across ranks)/iters; median/min/max over reps\", "
           "\"verify\": %s, \"peer\": \"%s\", \"cpus\": %d, \"cpu_model\": \"%s\", \"date\": \"%s\"}\n",
           s->ranks, uc_names[c], uc_type_name(c), uc_is_reduction(c) ? "MPI_SUM" : "none", w->root,
           (unsigned long long)min_n, (unsigned long long)max_n, w->step, w->reps, w->min_time, uc_mpi_names[c],
           copiers, bound, w->verify ? "true" : "false", m.peer, s->cpus, m.cpu, m.date);
  else
    printf("# bench=upccoll backend=mpi threads=%d coll=%s algo=mpi flags=mpi team=MPI_COMM_WORLD type=%s op=%s root=%ld "
           "min_bytes=%llu max_bytes=%llu step=%ld reps=%ld min_time_s=%g mpi_call=%s bound_copiers=%d verify=%s "
           "peer=\"%s\" cpus=%d cpu_model=\"%s\" date=%s\n",
           s->ranks, uc_names[c], uc_type_name(c), uc_is_reduction(c) ? "MPI_SUM" : "none", w->root,
           (unsigned long long)min_n, (unsigned long long)max_n, w->step, w->reps, w->min_time, uc_mpi_names[c],
           copiers, w->verify ? "true" : "false", m.peer, s->cpus, m.cpu, m.date);
  if (!w->jsonl) mb_print_columns("count");
  fflush(stdout);
}

/* Every size of collective s->coll; returns the wrong bytes/elements found. */
static uint64_t run_collective(struct state* s, uint64_t* seed) {
  const struct mb_sweep* w = &s->o->sw;
  const int c = s->coll, me = s->rank, T = s->ranks, root = (int)w->root;
  uint64_t sz[64];
  const int nsz = sizes(s->o, c, T, sz, 64);
  s->bound.k = uc_bound_copies_per_copier(c, T, s->cpus);
  if (me == 0) print_header(s, sz[0], sz[nsz - 1]);
  uint64_t total_wrong = 0;
  for (int i = 0; i < nsz; ++i) {
    const uint64_t nbytes = sz[i], count = nbytes / uc_elem(c);
    ++*seed;
    for (int t = 0; t < T; ++t) {
      s->counts[t] = (int)count;
      s->displs[t] = (int)uc_displ(t, T, count);
    }
    s->nbytes = s->bound.nbytes = nbytes;
    call(s, nbytes); /* warm-up */
    const int with_bound = s->o->bound && c != UC_BARRIER;
    const struct mb_timing t =
        mb_time_size(coll_body, s, with_bound ? &s->bound : NULL, uc_copies(c, T) * nbytes, w->reps, w->min_time);
    uint64_t wrong = 0;
    const int verified = w->verify && c != UC_BARRIER;
    if (verified) {
      memset(s->dst, COLL_POISON_BYTE, uc_dst_bytes(c, T, nbytes));
      uc_fill_source(c, s->src, uc_src_bytes(c, T, nbytes), *seed, me);
      MPI_Barrier(MPI_COMM_WORLD);
      call(s, nbytes);
      MPI_Barrier(MPI_COMM_WORLD);
      unsigned long long mine = 0;
      if (!(c == UC_BCAST && me == root)) /* MPI_Bcast's root keeps its data in its send buffer */
        mine = uc_count_wrong(c, T, me, root, *seed, nbytes, s->dst, s->scratch, 0);
      if (mine)
        fprintf(stderr, "coll2_mpi: %s nbytes=%llu ranks=%d: rank %d: %llu %s wrong\n", uc_names[c],
                (unsigned long long)nbytes, T, me, mine, uc_is_reduction(c) ? "elements" : "bytes");
      wrong = mb_sum_over_ranks(mine);
      total_wrong += wrong;
    }
    if (me == 0) {
      const struct mb_row row = {.bench = "upccoll",
                                 .coll = uc_names[c],
                                 .ran = uc_mpi_names[c],
                                 .type = uc_type_name(c),
                                 .count_name = "count",
                                 .threads = T,
                                 .nbytes = nbytes,
                                 .count = count,
                                 .t = t,
                                 .verified = verified,
                                 .wrong = wrong};
      mb_print_row(&row, w->jsonl);
    }
  }
  return total_wrong;
}

int main(int argc, char** argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  mb_init(&argc, &argv, &s.rank, &s.ranks);
  s.cpus = mb_bound_cpus();

  struct options o = {.sw = MB_SWEEP_DEFAULTS, .bound = 1};
  parse_colls("all", &o);
  int bad = 0, list = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (mb_is_help(argv[i])) {
      if (s.rank == 0) usage();
      return mb_finalize(0);
    } else if (!strcmp(argv[i], "--list")) {
      list = 1;
    } else if (!strcmp(argv[i], "--no-bound")) {
      o.bound = 0;
    } else if (mb_sweep_option(argc, argv, &i, s.ranks, &o.sw, &bad)) {
      /* sizes, rounds, root, --format, --no-verify */
    } else if ((v = mb_option_value(argc, argv, &i, "--coll"))) {
      bad = !parse_colls(v, &o);
    } else {
      bad = 1;
    }
    if (bad && s.rank == 0) fprintf(stderr, "coll2_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  if (list) {
    if (s.rank == 0)
      for (int c = 0; c < UC_COUNT; ++c) printf("%-16s %s\n", uc_names[c], uc_mpi_names[c]);
    return mb_finalize(0);
  }
  if (!bad && (o.sw.min_bytes < 1 || o.sw.min_bytes > o.sw.max_bytes || o.sw.max_bytes > (1ULL << 30))) {
    if (s.rank == 0) fprintf(stderr, "coll2_mpi: need 1 <= --min-bytes <= --max-bytes <= 1G\n");
    bad = 1;
  }
  /* Buffers for the largest size of any collective asked for; MPI counts are int. */
  uint64_t src_bytes = 16, dst_bytes = 16, max_n = 16, bound_bytes = 16;
  for (int j = 0; j < o.ncolls && !bad; ++j) {
    const int c = o.colls[j];
    uint64_t sz[64];
    const int nsz = sizes(&o, c, s.ranks, sz, 64);
    if (nsz == 0) {
      if (s.rank == 0) fprintf(stderr, "coll2_mpi: --max-moved leaves no size for %s\n", uc_names[c]);
      bad = 1;
    }
    const uint64_t k = uc_bound_copies_per_copier(c, s.ranks, s.cpus);
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
  if (bad) return mb_finalize(2);
  s.o = &o;
  s.src = malloc(src_bytes);
  s.dst = malloc(dst_bytes);
  s.bound.copier = s.rank < (s.ranks < s.cpus ? s.ranks : s.cpus);
  s.bound.src = malloc(bound_bytes);
  s.bound.dst = malloc(bound_bytes);
  s.scratch = malloc(max_n);
  s.counts = malloc(sizeof(int) * (size_t)s.ranks);
  s.displs = malloc(sizeof(int) * (size_t)s.ranks);
  if (!s.src || !s.dst || !s.bound.src || !s.bound.dst || !s.scratch || !s.counts || !s.displs) {
    fprintf(stderr, "coll2_mpi: rank %d: out of memory\n", s.rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  memset(s.src, 4, src_bytes); /* touch every page before timing */
  memset(s.dst, 5, dst_bytes);
  memset(s.bound.src, 1, bound_bytes);
  memset(s.bound.dst, 2, bound_bytes);
  memset(s.scratch, 3, max_n);

  uint64_t total_wrong = 0, seed = 1;
  for (int j = 0; j < o.ncolls; ++j) {
    s.coll = o.colls[j];
    total_wrong += run_collective(&s, &seed);
  }
  free(s.src);
  free(s.dst);
  free(s.bound.src);
  free(s.bound.dst);
  free(s.scratch);
  free(s.counts);
  free(s.displs);
  return mb_finalize(total_wrong ? 1 : 0);
}
