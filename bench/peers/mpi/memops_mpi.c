/* The peer of bench/micro/memops_bandwidth's remote rows: what MPI itself takes
 * to move the same bytes to and from the neighbour rank, (rank + 1) % ranks, as
 * GB/s per rank (10^9 B/s, slowest rank), every rank at once, as there.
 *
 *   MPI_Get   MPI_Get of `bytes` from the neighbour's window into private memory,
 *             then MPI_Win_flush (a passive-target epoch opened once with
 *             MPI_Win_lock_all): complete on return, as upc_memget is
 *   MPI_Put   MPI_Put of private bytes into the neighbour's window, then flush
 *   pingpong  two-sided: ranks in pairs (0-1, 2-3, ...; an odd last rank idles),
 *             `bytes` there with MPI_Send and back; a transfer is half a round
 *             trip (the classic one-way bandwidth)
 *
 * Rows have memops_bandwidth's fields (op, where "remote", bytes, iters,
 * median/min/max_gbps, wrong) with backend "mpi" and threads = ranks. Each
 * size's transfers per repetition are calibrated to --min-time; --reps rounds
 * run every op once, the first rotating. Verification: after the timed rounds,
 * each op moves a fresh pattern once and the receiving rank checks every byte.
 *
 *   mpirun -np 2 ./build/bench/peers/mpi/memops_mpi --min-bytes=4K --max-bytes=4M --step=16 --format=jsonl
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_cli.h"
#include "mpi_machine.h"
#include "mpi_timing.h"

enum op { op_get, op_put, op_pingpong, op_count };
static const char* const op_names[op_count] = {"MPI_Get", "MPI_Put", "pingpong"};

struct state {
  int rank, ranks, next, partner; /* partner: the ping-pong pair's other rank, or -1 */
  MPI_Win win;
  char* window; /* [0, max): what others get; [max, 2 max): what others put */
  char *src, *dst;
  uint64_t max;
  uint64_t size;
  enum op o;
};

static uint64_t pattern_word(uint64_t seed, int writer, uint64_t i) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)writer * 0xbf58476d1ce4e5b9ULL + i;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static void fill_pattern(char* p, uint64_t n, uint64_t seed, int writer) {
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t w = pattern_word(seed, writer, i / 8);
    p[i] = (char)(w >> (8 * (i % 8)));
  }
}
static unsigned long long count_wrong(const char* p, uint64_t n, uint64_t seed, int writer) {
  unsigned long long wrong = 0;
  for (uint64_t i = 0; i < n; ++i) wrong += p[i] != (char)(pattern_word(seed, writer, i / 8) >> (8 * (i % 8)));
  return wrong;
}

static void transfer(void* ctx, long n) {
  struct state* s = ctx;
  const int count = (int)s->size;
  for (long i = 0; i < n; ++i) {
    switch (s->o) {
      case op_get:
        MPI_Get(s->dst, count, MPI_BYTE, s->next, 0, count, MPI_BYTE, s->win);
        MPI_Win_flush(s->next, s->win);
        break;
      case op_put:
        MPI_Put(s->src, count, MPI_BYTE, s->next, (MPI_Aint)s->max, count, MPI_BYTE, s->win);
        MPI_Win_flush(s->next, s->win);
        break;
      default:
        if (s->partner < 0) return;
        if (s->rank < s->partner) {
          MPI_Send(s->src, count, MPI_BYTE, s->partner, 0, MPI_COMM_WORLD);
          MPI_Recv(s->dst, count, MPI_BYTE, s->partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(s->dst, count, MPI_BYTE, s->partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(s->src, count, MPI_BYTE, s->partner, 0, MPI_COMM_WORLD);
        }
    }
  }
}

/* Seconds per transfer: a ping-pong's round trip moves the bytes twice. */
static double per_transfer(struct state* s, long n) {
  double t = mb_slowest_per_call(transfer, s, n);
  return s->o == op_pingpong ? t / 2 : t;
}

/* One transfer of a fresh pattern; the wrong bytes over all ranks. */
static unsigned long long verify(struct state* s, uint64_t seed) {
  const int prev = (s->rank - 1 + s->ranks) % s->ranks;
  unsigned long long wrong = 0;
  if (s->o == op_get) fill_pattern(s->window, s->size, seed, s->rank);
  else fill_pattern(s->src, s->size, seed, s->rank);
  MPI_Win_sync(s->win);
  MPI_Barrier(MPI_COMM_WORLD);
  transfer(s, 1);
  MPI_Win_flush_all(s->win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_sync(s->win);
  if (s->o == op_get) wrong = count_wrong(s->dst, s->size, seed, s->next);
  else if (s->o == op_put) wrong = count_wrong(s->window + s->max, s->size, seed, prev);
  else if (s->partner >= 0) wrong = count_wrong(s->dst, s->size, seed, s->partner);
  return mb_sum_over_ranks(wrong);
}

static void usage(void) {
  printf(
      "usage: mpirun -np N memops_mpi [options]\n\n"
      "GB/s per rank of MPI_Get and MPI_Put (passive target, flushed per transfer) to the\n"
      "neighbour rank and of a two-sided ping-pong, every rank at once (the peer of\n"
      "bench/micro/memops_bandwidth's remote rows).\n\n"
      "options:\n"
      "  --min-bytes=N        smallest transfer (default 8)\n"
      "  --max-bytes=N        largest transfer (default 4M; at most 1G)\n"
      "  --step=N             size multiplier from one row to the next (default 2)\n"
      "  --reps=N             repetitions per size; rows report median, min and max (default 5)\n"
      "  --min-time=X         seconds per repetition (default 0.02)\n"
      "  --format=text|jsonl  aligned text or one JSON object per line (default text)\n"
      "  --help               this text\n");
}

int main(int argc, char** argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  mb_init(&argc, &argv, &s.rank, &s.ranks);
  uint64_t min_bytes = 8, max_bytes = 4u << 20;
  long step = 2, reps = 5;
  double min_time = 0.02;
  int jsonl = 0, bad = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (mb_is_help(argv[i])) {
      if (s.rank == 0) usage();
      return mb_finalize(0);
    } else if ((v = mb_option_value(argc, argv, &i, "--min-bytes"))) {
      bad = !mb_parse_size(v, 1, &min_bytes);
    } else if ((v = mb_option_value(argc, argv, &i, "--max-bytes"))) {
      bad = !mb_parse_size(v, 1, &max_bytes);
    } else if ((v = mb_option_value(argc, argv, &i, "--step"))) {
      bad = !mb_parse_long(v, 2, &step);
    } else if ((v = mb_option_value(argc, argv, &i, "--reps"))) {
      bad = !mb_parse_long(v, 1, &reps);
    } else if ((v = mb_option_value(argc, argv, &i, "--min-time"))) {
      bad = !mb_parse_positive(v, &min_time);
    } else if ((v = mb_option_value(argc, argv, &i, "--format"))) {
      bad = !mb_parse_format(v, &jsonl);
    } else {
      bad = 1;
    }
    if (bad && s.rank == 0) fprintf(stderr, "memops_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  if (!bad && (min_bytes < 1 || min_bytes > max_bytes || max_bytes > (1u << 30))) {
    bad = 1;
    if (s.rank == 0) fprintf(stderr, "memops_mpi: need 1 <= --min-bytes <= --max-bytes <= 1G\n");
  }
  if (bad) return mb_finalize(2);

  s.max = max_bytes;
  s.next = (s.rank + 1) % s.ranks;
  s.partner = (s.rank ^ 1) < s.ranks ? s.rank ^ 1 : -1;
  /* Open MPI's default one-sided component needs RDMA hardware: over TCP the
   * window fails unless OMPI_MCA_osc=pt2pt (run_hosts_vs_mpi.sh sets it). */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (MPI_Win_allocate((MPI_Aint)(2 * max_bytes), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &s.window, &s.win) != MPI_SUCCESS) {
    if (s.rank == 0)
      fprintf(stderr, "memops_mpi: MPI_Win_allocate failed (Open MPI over TCP: set OMPI_MCA_osc=pt2pt)\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  s.src = malloc(max_bytes);
  s.dst = malloc(max_bytes);
  memset(s.window, 4, 2 * max_bytes);
  memset(s.src, 1, max_bytes); /* touch every page before timing */
  memset(s.dst, 2, max_bytes);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, s.win);

  if (s.rank == 0) {
    struct mb_machine m;
    mb_machine_info(&m);
    if (jsonl)
      printf("# {\"bench\": \"memops_bandwidth\", \"backend\": \"mpi\", \"threads\": %d, \"min_bytes\": %llu, "
             "\"max_bytes\": %llu, \"step\": %ld, \"reps\": %ld, \"min_time_s\": %g, \"ops\": \"MPI_Get,MPI_Put,pingpong\", "
             "\"remote_peer\": \"(rank+1)%%ranks; pingpong: rank^1\", \"unit\": \"GB/s = 1e9 bytes/s per rank, slowest rank\", "
             "\"verify\": true, \"peer\": \"%s\", \"cpu_model\": \"%s\", \"date\": \"%s\"}\n",
             s.ranks, (unsigned long long)min_bytes, (unsigned long long)max_bytes, step, reps, min_time, m.peer, m.cpu,
             m.date);
    else
      printf("# bench=memops_bandwidth backend=mpi threads=%d peer=\"%s\" cpu_model=\"%s\" date=%s\n# %-10s %10s %10s %12s %12s %12s %6s\n",
             s.ranks, m.peer, m.cpu, m.date, "op", "bytes", "iters", "median_gbps", "min_gbps", "max_gbps", "wrong");
    fflush(stdout);
  }

  unsigned long long total_wrong = 0, test_index = 0;
  double* gbps[op_count];
  for (int k = 0; k < op_count; ++k) gbps[k] = malloc(sizeof(double) * (size_t)reps);
  for (uint64_t size = min_bytes;;) {
    s.size = size;
    long iters[op_count];
    const long cap = (long)((64ULL << 30) / size > 0 ? (64ULL << 30) / size : 1);
    for (int k = 0; k < op_count; ++k) {
      s.o = (enum op)k;
      iters[k] = mb_calibrate(mb_slowest_per_call, transfer, &s, min_time, 1, cap);
    }
    for (long r = 0; r < reps; ++r)
      for (int j = 0; j < op_count; ++j) {
        const int k = (int)((j + r) % op_count);
        s.o = (enum op)k;
        gbps[k][r] = (double)size / per_transfer(&s, iters[k]) * 1e-9;
      }
    for (int k = 0; k < op_count; ++k) {
      s.o = (enum op)k;
      const unsigned long long wrong = verify(&s, ++test_index * 131 + size);
      total_wrong += wrong;
      mb_sort(gbps[k], reps);
      if (s.rank == 0) {
        const double median = mb_median_sorted(gbps[k], reps);
        if (jsonl)
          printf("{\"bench\": \"memops_bandwidth\", \"backend\": \"mpi\", \"threads\": %d, \"op\": \"%s\", \"where\": \"remote\", "
                 "\"bytes\": %llu, \"iters\": %ld, \"median_gbps\": %.6g, \"min_gbps\": %.6g, \"max_gbps\": %.6g, \"wrong\": %llu}\n",
                 s.ranks, op_names[k], (unsigned long long)size, iters[k], median, gbps[k][0], gbps[k][reps - 1], wrong);
        else
          printf("  %-10s %10llu %10ld %12.6g %12.6g %12.6g %6llu\n", op_names[k], (unsigned long long)size, iters[k], median,
                 gbps[k][0], gbps[k][reps - 1], wrong);
        fflush(stdout);
      }
    }
    if (size > max_bytes / (uint64_t)step) break;
    size *= (uint64_t)step;
  }
  MPI_Win_unlock_all(s.win);
  MPI_Win_free(&s.win);
  for (int k = 0; k < op_count; ++k) free(gbps[k]);
  free(s.src);
  free(s.dst);
  if (total_wrong && s.rank == 0) fprintf(stderr, "memops_mpi: %llu bytes arrived wrong\n", total_wrong);
  return mb_finalize(total_wrong ? 1 : 0);
}
