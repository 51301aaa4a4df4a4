/* ext_mpi: Open MPI's counterparts of bench/collbench/extbench (seed 003's
 * Figures 3.12-3.14), timed the same way (mpi_timing.h) and verified:
 *   bcast      MPI_Bcast of nbytes from rank 0
 *   scatter_v  MPI_Scatterv, nbytes to every rank, at byte 8 of its buffer
 *   exchange   MPI_Alltoall with MPI_IN_PLACE, nbytes per (sender, receiver) piece
 *
 *   mpirun -n 4 ext_mpi --min-bytes=4096 --max-bytes=8388608 --format=jsonl
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_machine.h"
#include "mpi_timing.h"

static const char* const benches[] = {"bcast", "scatter_v", "exchange"};

struct ctx {
  int b, rank, size;
  unsigned long long n;
  unsigned char *buf, *src;
  int *counts, *displs;
};

static void body(void* v, long iters) {
  struct ctx* c = v;
  for (long i = 0; i < iters; ++i) {
    if (c->b == 0) MPI_Bcast(c->buf, (int)c->n, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (c->b == 1)
      MPI_Scatterv(c->src, c->counts, c->displs, MPI_BYTE, c->buf + 8, (int)c->n, MPI_BYTE, 0, MPI_COMM_WORLD);
    else MPI_Alltoall(MPI_IN_PLACE, 0, MPI_BYTE, c->buf, (int)c->n, MPI_BYTE, MPI_COMM_WORLD);
  }
}

static unsigned char value(int b, int who, unsigned long long i, unsigned long long seed) {
  return (unsigned char)((who * 131 + b * 7 + i * 29 + seed * 3) & 0xff);
}

static unsigned long long verify(struct ctx* c, unsigned long long seed) {
  unsigned long long bytes = c->b == 0 ? c->n : c->n * (unsigned long long)c->size + (c->b == 1 ? 8 : 0);
  for (unsigned long long i = 0; i < bytes; ++i) c->buf[i] = value(c->b, c->rank, i, seed);
  if (c->b == 1)
    for (unsigned long long i = 0; i < c->n * (unsigned long long)c->size; ++i) c->src[i] = value(c->b, 100 + c->rank, i, seed);
  body(c, 1);
  unsigned long long wrong = 0;
  for (unsigned long long i = 0; i < (c->b == 1 ? c->n : bytes); ++i) {
    unsigned char want;
    if (c->b == 0) want = value(0, 0, i, seed);
    else if (c->b == 1) want = value(1, 100, c->n * (unsigned long long)c->rank + i, seed);
    else want = value(2, (int)(i / c->n), c->n * (unsigned long long)c->rank + i % c->n, seed);
    if (c->buf[(c->b == 1 ? 8 : 0) + i] != want) ++wrong;
  }
  return mb_sum_over_ranks(wrong);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct ctx c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  unsigned long long min_bytes = 4096, max_bytes = 8ULL << 20, max_moved = 0;
  long reps = 5, step = 2;
  double min_time = 0.01;
  int jsonl = 0, only = -1;
  for (int i = 1; i < argc; ++i) {
    if (!strncmp(argv[i], "--min-bytes=", 12)) min_bytes = strtoull(argv[i] + 12, NULL, 10);
    else if (!strncmp(argv[i], "--max-bytes=", 12)) max_bytes = strtoull(argv[i] + 12, NULL, 10);
    else if (!strncmp(argv[i], "--max-moved=", 12)) max_moved = strtoull(argv[i] + 12, NULL, 10);
    else if (!strncmp(argv[i], "--step=", 7)) step = strtol(argv[i] + 7, NULL, 10);
    else if (!strncmp(argv[i], "--reps=", 7)) reps = strtol(argv[i] + 7, NULL, 10);
    else if (!strncmp(argv[i], "--min-time=", 11)) min_time = strtod(argv[i] + 11, NULL);
    else if (!strcmp(argv[i], "--format=jsonl")) jsonl = 1;
    else if (!strncmp(argv[i], "--bench=", 8)) {
      for (int b = 0; b < 3; ++b)
        if (!strcmp(argv[i] + 8, benches[b])) only = b;
    } else if (!strcmp(argv[i], "--help")) {
      if (c.rank == 0)
        printf("usage: mpirun -n N ext_mpi [--bench=bcast|scatter_v|exchange] [--min-bytes=B] [--max-bytes=B] [--step=K]\n"
               "       [--max-moved=B] [--reps=R] [--min-time=S] [--format=jsonl]\n");
      MPI_Finalize();
      return 0;
    } else {
      if (c.rank == 0) fprintf(stderr, "ext_mpi: bad option '%s' (see --help)\n", argv[i]);
      MPI_Finalize();
      return 2;
    }
  }
  if (step < 2 || min_bytes < 1 || min_bytes > max_bytes || max_bytes > (1ULL << 30)) {
    if (c.rank == 0) fprintf(stderr, "ext_mpi: need --step >= 2 and 1 <= --min-bytes <= --max-bytes <= 1G\n");
    MPI_Finalize();
    return 2;
  }
  unsigned long long biggest = max_bytes * (unsigned long long)c.size + 64;
  c.buf = malloc(biggest);
  c.src = malloc(biggest);
  c.counts = malloc(sizeof(int) * (size_t)c.size);
  c.displs = malloc(sizeof(int) * (size_t)c.size);
  memset(c.buf, 1, biggest);
  memset(c.src, 2, biggest);
  struct mb_machine m;
  mb_machine_info(&m);
  unsigned long long wrong_total = 0, seed = 1;
  for (int b = 0; b < 3; ++b) {
    if (only >= 0 && b != only) continue;
    c.b = b;
    if (c.rank == 0) {
      if (jsonl)
        printf("# {\"bench\": \"extbench\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"variant\": \"mpi\", "
               "\"peer\": \"%s\", \"cpu_model\": \"%s\", \"date\": \"%s\"}\n", c.size, benches[b], m.peer, m.cpu, m.date);
      else
        printf("# bench=extbench backend=mpi threads=%d coll=%s variant=mpi peer=\"%s\"\n", c.size, benches[b], m.peer);
    }
    for (unsigned long long n = min_bytes; n <= max_bytes; n *= (unsigned long long)step) {
      unsigned long long moved = n * (unsigned long long)c.size * (b == 2 ? (unsigned long long)c.size : 1);
      if (max_moved && moved > max_moved) break;
      c.n = n;
      for (int r = 0; r < c.size; ++r) {
        c.counts[r] = (int)n;
        c.displs[r] = (int)(n * (unsigned long long)r);
      }
      body(&c, 1);
      long cap = (long)((8ULL << 30) / moved);
      if (cap < 1) cap = 1;
      long iters = mb_calibrate(mb_span_per_call, body, &c, min_time, 1, cap);
      double* us = malloc(sizeof(double) * (size_t)reps);
      for (long r = 0; r < reps; ++r) us[r] = mb_span_per_call(body, &c, iters) * 1e6;
      mb_sort(us, reps);
      unsigned long long wrong = verify(&c, ++seed);
      wrong_total += wrong;
      double med = mb_median_sorted(us, reps);
      if (c.rank == 0) {
        if (jsonl)
          printf("{\"bench\": \"extbench\", \"backend\": \"mpi\", \"threads\": %d, \"coll\": \"%s\", \"variant\": \"mpi\", "
                 "\"nbytes\": %llu, \"iters\": %ld, \"min_us\": %.6g, \"median_us\": %.6g, \"max_us\": %.6g, \"gbps\": %.6g, "
                 "\"verified\": true, \"wrong\": %llu}\n",
                 c.size, benches[b], n, iters, us[0], med, us[reps - 1], (double)moved / (med * 1e-6) * 1e-9, wrong);
        else
          printf("%12s %10llu %10ld %12.6g %12.6g %12.6g %10llu\n", "mpi", n, iters, us[0], med, us[reps - 1], wrong);
      }
      free(us);
    }
  }
  MPI_Finalize();
  return wrong_total ? 1 : 0;
}
