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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../collbench/coll_model.h"
#include "mpi_coll.h"
#include "mpi_machine.h"

struct options {
  struct mb_sweep sw;
  int coll, is_double;
  uint64_t effective_max;
};

struct state {
  const struct options* o;
  int rank, ranks, cpus;
  uint64_t nbytes; /* the size being timed */
  unsigned char *src, *dst, *scratch;
  struct mb_bound bound;
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
      MPI_Reduce(&local, s->dst, 1, MPI_DOUBLE, MPI_SUM, (int)s->o->sw.root, MPI_COMM_WORLD);
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
      MPI_Reduce(&local, s->dst, 1, MPI_LONG, MPI_SUM, (int)s->o->sw.root, MPI_COMM_WORLD);
      return;
    }
    MPI_Exscan(&local, &offset, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (s->rank == 0) offset = 0;
    long* y = (long*)s->dst;
    for (uint64_t k = 0; k < ne; ++k) y[k] = offset += x[k];
  }
}

static void call(struct state* s, uint64_t nbytes) {
  const int n = (int)nbytes, root = (int)s->o->sw.root;
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

/* The timed body: n calls with blocks of s->nbytes. */
static void coll_body(void* ctx, long n) {
  struct state* s = (struct state*)ctx;
  for (long i = 0; i < n; ++i) call(s, s->nbytes);
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
  if ((o->coll == COLL_BROADCAST || o->coll == COLL_SCATTER) && s->rank != o->sw.root) return;
  coll_fill_pattern(s->src, coll_src_bytes(o->coll, s->ranks, nbytes), seed, s->rank, 0);
}

static uint64_t check(struct state* s, uint64_t nbytes, uint64_t seed) {
  const struct options* o = s->o;
  const int me = s->rank, T = s->ranks, root = (int)o->sw.root;
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

static void usage(void) {
  printf(
      "usage: mpirun -np N coll_mpi [options]\n\n"
      "The peer of bench/collbench: MPI_Bcast, Scatter, Gather, Allgather, Alltoall, Sendrecv (permute),\n"
      "Reduce and Exscan (reduce, prefix_reduce over the whole blocked array), timed, bounded and\n"
      "verified as collbench does, with the same output fields.\n\n"
      "options:\n"
      "  --coll=NAME          broadcast|scatter|gather|gather_all|exchange|permute|reduce|prefix_reduce\n"
      "                       (default broadcast)\n" MB_SIZES_USAGE
      "  --type=long|double   element type of reduce / prefix_reduce (default long)\n" MB_ROUNDS_USAGE MB_FORMAT_USAGE
      "  --help               this text\n");
}

static void print_header(const struct state* s) {
  const struct options* o = s->o;
  const struct mb_sweep* w = &o->sw;
  struct mb_machine m;
  mb_machine_info(&m);
  const int copiers = s->ranks < s->cpus ? s->ranks : s->cpus;
  const char* type = coll_is_reduction(o->coll) ? (o->is_double ? "double" : "long") : "byte";
  if (w->jsonl)
    printf("# {\"bench\": \"collbench\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"algo\": \"mpi\", "
           "\"flags\": \"mpi\", \"type\": \"%s\", \"op\": \"%s\", \"root\": %ld, \"min_bytes\": %llu, \"max_bytes\": %llu, "
           "\"step\": %ld, \"reps\": %ld, \"min_time_s\": %g, \"bound_copiers\": %d, "
           "\"bound\": \"fastest round of min(THREADS,CPUs) ranks each making ceil(copies/that) memcpys of nbytes at once\", "
           "\"statistic\": \"per call: (latest end - earliest start across ranks)/iters; median/min/max over reps\", "
           "\"verify\": %s, \"peer\": \"%s\", \"cpus\": %d, \"cpu_model\": \"%s\", \"date\": \"%s\"}\n",
           s->ranks, coll_names[o->coll], type, coll_is_reduction(o->coll) ? "MPI_SUM" : "none", w->root,
           (unsigned long long)w->min_bytes, (unsigned long long)o->effective_max, w->step, w->reps, w->min_time, copiers,
           w->verify ? "true" : "false", m.peer, s->cpus, m.cpu, m.date);
  else
    printf("# bench=collbench backend=mpi threads=%d coll=%s algo=mpi flags=mpi type=%s op=%s root=%ld min_bytes=%llu "
           "max_bytes=%llu step=%ld reps=%ld min_time_s=%g bound_copiers=%d verify=%s peer=\"%s\" cpus=%d "
           "cpu_model=\"%s\" date=%s\n",
           s->ranks, coll_names[o->coll], type, coll_is_reduction(o->coll) ? "MPI_SUM" : "none", w->root,
           (unsigned long long)w->min_bytes, (unsigned long long)o->effective_max, w->step, w->reps, w->min_time, copiers,
           w->verify ? "true" : "false", m.peer, s->cpus, m.cpu, m.date);
  if (!w->jsonl) mb_print_columns("nelems");
  fflush(stdout);
}

int main(int argc, char** argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  mb_init(&argc, &argv, &s.rank, &s.ranks);
  s.cpus = mb_bound_cpus();

  struct options o = {MB_SWEEP_DEFAULTS, COLL_BROADCAST, 0, 0};
  int bad = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (mb_is_help(argv[i])) {
      if (s.rank == 0) usage();
      return mb_finalize(0);
    } else if (mb_sweep_option(argc, argv, &i, s.ranks, &o.sw, &bad)) {
      /* sizes, rounds, root, --format, --no-verify */
    } else if ((v = mb_option_value(argc, argv, &i, "--coll"))) {
      o.coll = coll_from_name(v);
      bad = o.coll < 0;
    } else if ((v = mb_option_value(argc, argv, &i, "--type"))) {
      bad = strcmp(v, "long") && strcmp(v, "double");
      o.is_double = !strcmp(v, "double");
    } else {
      bad = 1;
    }
    if (bad && s.rank == 0) fprintf(stderr, "coll_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  const struct mb_sweep* w = &o.sw;
  const uint64_t e = coll_is_reduction(o.coll) ? elem_size(&o) : 1;
  if (!bad && (w->min_bytes < e || w->min_bytes > w->max_bytes || w->max_bytes > (1ULL << 30))) {
    if (s.rank == 0) fprintf(stderr, "coll_mpi: need %llu <= --min-bytes <= --max-bytes <= 1G\n", (unsigned long long)e);
    bad = 1;
  }
  /* The largest size within --max-moved. */
  const uint64_t copies = coll_copies(o.coll, s.ranks);
  o.effective_max = 0;
  for (uint64_t sz = w->min_bytes; sz <= w->max_bytes; sz *= (uint64_t)w->step) {
    if (w->max_moved && sz * copies > w->max_moved) break;
    o.effective_max = sz;
    if (sz > w->max_bytes / (uint64_t)w->step) break;
  }
  if (!bad && o.effective_max == 0) {
    if (s.rank == 0) fprintf(stderr, "coll_mpi: --max-moved leaves no size (copies per call: %llu)\n", (unsigned long long)copies);
    bad = 1;
  }
  if (bad) return mb_finalize(2);
  s.o = &o;

  const uint64_t max = o.effective_max;
  const size_t src_bytes = coll_src_bytes(o.coll, s.ranks, max), dst_bytes = coll_dst_bytes(o.coll, s.ranks, max);
  s.src = malloc(src_bytes);
  s.dst = malloc(dst_bytes > max ? dst_bytes : max); /* broadcast's root receives nothing but checks src */
  s.bound.copier = s.rank < (s.ranks < s.cpus ? s.ranks : s.cpus);
  s.bound.k = coll_bound_copies_per_copier(o.coll, s.ranks, s.cpus);
  uint64_t bound_bytes = 1;
  for (uint64_t sz = w->min_bytes; sz <= o.effective_max; sz *= (uint64_t)w->step) {
    const uint64_t e = effective_bytes(&o, sz), b = coll_bound_blocks(s.bound.k, e) * e;
    if (b > bound_bytes) bound_bytes = b;
    if (sz > o.effective_max / (uint64_t)w->step) break;
  }
  s.bound.src = malloc(bound_bytes);
  s.bound.dst = malloc(bound_bytes);
  s.scratch = malloc(max > 16 ? max : 16);
  if (!s.src || !s.dst || !s.bound.src || !s.bound.dst || !s.scratch) {
    fprintf(stderr, "coll_mpi: rank %d: out of memory for %llu-byte blocks\n", s.rank, (unsigned long long)max);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  memset(s.src, 4, src_bytes); /* touch every page before timing */
  memset(s.dst, 5, dst_bytes > max ? dst_bytes : max);
  memset(s.bound.src, 1, bound_bytes);
  memset(s.bound.dst, 2, bound_bytes);
  memset(s.scratch, 3, max > 16 ? max : 16);

  if (s.rank == 0) {
    if (o.effective_max < w->max_bytes)
      printf("# sizes above %llu skipped: --max-moved=%llu with %llu blocks per call at ranks=%d\n",
             (unsigned long long)o.effective_max, (unsigned long long)w->max_moved, (unsigned long long)copies, s.ranks);
    print_header(&s);
  }

  uint64_t total_wrong = 0, seed = 1;
  for (uint64_t requested = w->min_bytes; requested <= o.effective_max; requested *= (uint64_t)w->step) {
    const uint64_t nbytes = effective_bytes(&o, requested);
    ++seed;
    s.nbytes = s.bound.nbytes = nbytes;
    call(&s, nbytes); /* warm-up */
    const struct mb_timing t = mb_time_size(coll_body, &s, &s.bound, copies * nbytes, w->reps, w->min_time);
    uint64_t wrong = 0;
    if (w->verify) {
      prepare(&s, nbytes, seed);
      MPI_Barrier(MPI_COMM_WORLD);
      call(&s, nbytes);
      MPI_Barrier(MPI_COMM_WORLD);
      wrong = mb_sum_over_ranks(check(&s, nbytes, seed));
      total_wrong += wrong;
    }
    if (s.rank == 0) {
      const struct mb_row row = {
          .bench = "collbench",
          .coll = coll_names[o.coll],
          .ran = mpi_call_names[o.coll],
          .type = coll_is_reduction(o.coll) ? (o.is_double ? "double" : "long") : "byte",
          .count_name = "nelems",
          .threads = s.ranks,
          .nbytes = nbytes,
          .count = coll_is_reduction(o.coll) ? nbytes / elem_size(&o) * (uint64_t)s.ranks : 0,
          .t = t,
          .verified = w->verify,
          .wrong = wrong};
      mb_print_row(&row, w->jsonl);
      if (wrong)
        fprintf(stderr, "coll_mpi: %s nbytes=%llu ranks=%d: %llu %s wrong\n", coll_names[o.coll],
                (unsigned long long)nbytes, s.ranks, (unsigned long long)wrong,
                coll_is_reduction(o.coll) ? "elements" : "bytes");
    }
    if (requested > o.effective_max / (uint64_t)w->step) break;
  }
  free(s.src);
  free(s.dst);
  free(s.bound.src);
  free(s.bound.dst);
  free(s.scratch);
  return mb_finalize(total_wrong ? 1 : 0);
}
