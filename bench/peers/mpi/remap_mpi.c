/* remap_mpi: Open MPI's counterpart of bench/remap/remapbench — the NAS FT
 * 3-D transpose X2(y, z, x) = X1(x, y, z) on a 1-D layout (x blocks of X1, y
 * blocks of X2, balanced as upcemu's), written the usual MPI way: pack each
 * destination's piece, MPI_Alltoallv, unpack (the local transpose). Timed as
 * the collectives are (mpi_timing.h: latest end - earliest start / iters,
 * median/min/max over rounds), verified. --kernel=cg: the CG replicated-vector
 * transpose instead (one MPI_Sendrecv per rank, NPB CG's pattern).
 *
 *   mpirun -n 4 remap_mpi --class=S --format=jsonl
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_machine.h"
#include "mpi_timing.h"

struct cls {
  const char* name;
  long nx, ny, nz;
};
static const struct cls classes[] = {{"S", 64, 64, 64}, {"W", 128, 128, 32}, {"A", 256, 256, 128}, {"B", 512, 256, 256}};

typedef struct {
  double re, im;
} cplx;

struct ctx {
  int rank, size;
  long nx, ny, nz;
  cplx *x1, *x2, *send, *recv;
  int *scount, *sdispl, *rcount, *rdispl;  /* in bytes (elements of MPI_BYTE): classes fit in int */
};

/* Block k of p over 1..n (balanced, as upcemu's layouts): [lo(k), lo(k+1)). */
static long lo_of(long n, int p, int k) { return 1 + (long)(((__int128)k * n) / p); }

static void transpose(struct ctx* c) {
  /* LOC ft-mpi begin */
  const long xlo = lo_of(c->nx, c->size, c->rank), xn = lo_of(c->nx, c->size, c->rank + 1) - xlo;
  const long ylo = lo_of(c->ny, c->size, c->rank), yn = lo_of(c->ny, c->size, c->rank + 1) - ylo;
  /* pack: for each q, my x rows of q's y block (x, y, z order) */
  long k = 0;
  for (int q = 0; q < c->size; ++q) {
    const long qlo = lo_of(c->ny, c->size, q), qn = lo_of(c->ny, c->size, q + 1) - qlo;
    for (long x = 0; x < xn; ++x)
      memcpy(c->send + k + x * qn * c->nz, c->x1 + (x * c->ny + (qlo - 1)) * c->nz, sizeof(cplx) * (size_t)(qn * c->nz));
    k += xn * qn * c->nz;
  }
  MPI_Alltoallv(c->send, c->scount, c->sdispl, MPI_BYTE, c->recv, c->rcount, c->rdispl, MPI_BYTE, MPI_COMM_WORLD);
  /* unpack: from p, its x block of my y rows (x, y, z) into X2 (y, z, x) */
  k = 0;
  for (int p = 0; p < c->size; ++p) {
    const long plo = lo_of(c->nx, c->size, p), pn = lo_of(c->nx, c->size, p + 1) - plo;
    for (long x = 0; x < pn; ++x)
      for (long y = 0; y < yn; ++y)
        for (long z = 0; z < c->nz; ++z) c->x2[(y * c->nz + z) * c->nx + (plo - 1 + x)] = c->recv[k + (x * yn + y) * c->nz + z];
    k += pn * yn * c->nz;
  }
  (void)xlo;
  /* LOC ft-mpi end */
}

static void body(void* v, long iters) {
  for (long i = 0; i < iters; ++i) transpose(v);
}

/* ---- the CG replicated-vector transpose (seed 004 §4.3), --kernel=cg -------- */
/* P: the column vector, rows of 1..n in blocks over the grid rows, replicated
 * along each grid row; W: the row vector, blocks over the grid columns. Every
 * rank receives its W block from the one rank src_ind names (NPB CG's
 * one-to-one exchange) and sends one piece of its P block: one MPI_Sendrecv. */
struct cg {
  long n;
  int rows, cols, rank, to, from;
  double *p, *w;
  long send_off, send_n, recv_n;
};
static long src_ind_of(long n, long rows, long cols, long row, long col) {
  return row * (n / rows) + (col * (n / cols)) % ((n + rows - 1) / rows) + 1;
}
static int block_holding(long n, int parts, long v) { return (int)((((__int128)v) * parts - 1) / n); } /* 1-based v */
static void cg_body(void* v, long iters) {
  struct cg* c = v;
  for (long i = 0; i < iters; ++i)
    /* LOC cg-mpi begin */
    MPI_Sendrecv(c->p + c->send_off, (int)c->send_n, MPI_DOUBLE, c->to, 7, c->w, (int)c->recv_n, MPI_DOUBLE, c->from, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* LOC cg-mpi end */
}

static int run_cg(long n, long reps, double min_time, int jsonl, const char* name) {
  struct cg c;
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* the grid upcemu chooses for rank 2: the largest factor <= sqrt(P) rows */
  int rows = 1;
  for (int k = 1; k * k <= size; ++k)
    if (size % k == 0) rows = k;
  c.rows = rows;
  c.cols = size / rows;
  c.n = n;
  /* LOC cg-mpi begin */
  const int r = c.rank / c.cols, col = c.rank % c.cols;
  const long rlo = lo_of(n, c.rows, r), clo = lo_of(n, c.cols, col), cn = lo_of(n, c.cols, col + 1) - clo;
  /* where my W block comes from: the row holding it, the column src_ind selects */
  const long src = src_ind_of(n, c.rows, c.cols, r, col);
  c.from = block_holding(n, c.rows, clo) * c.cols + block_holding(n, c.cols, src);
  c.recv_n = cn;
  /* who takes a piece of my P block (one rank, the pattern being one-to-one) */
  c.to = c.rank;
  c.send_off = 0;
  c.send_n = 0;
  for (int q = 0; q < size; ++q) {
    const int qr = q / c.cols, qc = q % c.cols;
    const long qlo = lo_of(n, c.cols, qc), qsrc = src_ind_of(n, c.rows, c.cols, qr, qc);
    if (block_holding(n, c.rows, qlo) * c.cols + block_holding(n, c.cols, qsrc) == c.rank) {
      c.to = q;
      c.send_off = qlo - rlo;
      c.send_n = lo_of(n, c.cols, qc + 1) - qlo;
    }
  }
  /* LOC cg-mpi end */
  const long pn = lo_of(n, c.rows, r + 1) - rlo;
  c.p = malloc(sizeof(double) * (size_t)(pn + 1));
  c.w = malloc(sizeof(double) * (size_t)(cn + 1));
  for (long i = 0; i < pn; ++i) c.p[i] = 0.5 + (double)(rlo + i);
  cg_body(&c, 1);
  unsigned long long wrong = 0;
  for (long j = 0; j < cn; ++j) wrong += c.w[j] != 0.5 + (double)(clo + j);
  wrong = mb_sum_over_ranks(wrong);
  long iters = mb_calibrate(mb_span_per_call, cg_body, &c, min_time, 1, 1L << 22);
  double* us = malloc(sizeof(double) * (size_t)reps);
  for (long k = 0; k < reps; ++k) us[k] = mb_span_per_call(cg_body, &c, iters) * 1e6;
  mb_sort(us, reps);
  if (c.rank == 0) {
    if (jsonl)
      printf("{\"bench\": \"remapbench\", \"backend\": \"mpi\", \"threads\": %d, \"class\": \"%s\", \"variant\": \"cg-mpi\", "
             "\"iters\": %ld, \"min_us\": %.6g, \"median_us\": %.6g, \"max_us\": %.6g, \"verified\": true, \"wrong\": %llu}\n",
             size, name, iters, us[0], mb_median_sorted(us, reps), us[reps - 1], wrong);
    else
      printf("%12s %10ld %12.6g %12.6g %12.6g %10llu\n", "cg-mpi", iters, us[0], mb_median_sorted(us, reps), us[reps - 1], wrong);
  }
  return wrong ? 1 : 0;
}

static cplx value(long x, long y, long z) {
  cplx v = {(double)(x * 1000000 + y * 1000 + z), (double)(x - z)};
  return v;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct ctx c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  const char* which = "S";
  int cg_kernel = 0;
  long reps = 5;
  double min_time = 0.05;
  int jsonl = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strncmp(argv[i], "--class=", 8)) which = argv[i] + 8;
    else if (!strncmp(argv[i], "--reps=", 7)) reps = strtol(argv[i] + 7, NULL, 10);
    else if (!strncmp(argv[i], "--min-time=", 11)) min_time = strtod(argv[i] + 11, NULL);
    else if (!strcmp(argv[i], "--format=jsonl")) jsonl = 1;
    else if (!strcmp(argv[i], "--kernel=cg")) cg_kernel = 1;
    else if (!strcmp(argv[i], "--kernel=ft")) cg_kernel = 0;
    else if (!strcmp(argv[i], "--help")) {
      if (c.rank == 0) printf("usage: mpirun -n N remap_mpi [--kernel=ft|cg] [--class=S|W|A|B] [--reps=R] [--min-time=S] [--format=jsonl]\n");
      MPI_Finalize();
      return 0;
    } else {
      if (c.rank == 0) fprintf(stderr, "remap_mpi: bad option '%s' (see --help)\n", argv[i]);
      MPI_Finalize();
      return 2;
    }
  }
  const struct cls* k = NULL;
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i)
    if (!strcmp(which, classes[i].name)) k = &classes[i];
  if (!k || reps < 1) {
    if (c.rank == 0) fprintf(stderr, "remap_mpi: --class must be S, W, A or B and --reps at least 1\n");
    MPI_Finalize();
    return 2;
  }
  if (cg_kernel) {
    static const long cg_n[] = {1400, 7000, 14000, 75000};
    const int status = run_cg(cg_n[k - classes], reps, min_time, jsonl, k->name);
    MPI_Finalize();
    return status;
  }
  c.nx = k->nx;
  c.ny = k->ny;
  c.nz = k->nz;
  const int P = c.size, me = c.rank;
  const long xn = lo_of(c.nx, P, me + 1) - lo_of(c.nx, P, me), yn = lo_of(c.ny, P, me + 1) - lo_of(c.ny, P, me);
  c.x1 = malloc(sizeof(cplx) * (size_t)(xn * c.ny * c.nz + 1));
  c.x2 = malloc(sizeof(cplx) * (size_t)(yn * c.nz * c.nx + 1));
  c.send = malloc(sizeof(cplx) * (size_t)(xn * c.ny * c.nz + 1));
  c.recv = malloc(sizeof(cplx) * (size_t)(yn * c.nz * c.nx + 1));
  c.scount = malloc(sizeof(int) * (size_t)P);
  c.sdispl = malloc(sizeof(int) * (size_t)P);
  c.rcount = malloc(sizeof(int) * (size_t)P);
  c.rdispl = malloc(sizeof(int) * (size_t)P);
  /* LOC ft-mpi begin */
  long so = 0, ro = 0;
  for (int q = 0; q < P; ++q) {
    const long qy = lo_of(c.ny, P, q + 1) - lo_of(c.ny, P, q), qx = lo_of(c.nx, P, q + 1) - lo_of(c.nx, P, q);
    c.scount[q] = (int)(xn * qy * c.nz * (long)sizeof(cplx));
    c.sdispl[q] = (int)so;
    so += c.scount[q];
    c.rcount[q] = (int)(qx * yn * c.nz * (long)sizeof(cplx));
    c.rdispl[q] = (int)ro;
    ro += c.rcount[q];
  }
  /* LOC ft-mpi end */
  const long x0 = lo_of(c.nx, P, me), y0 = lo_of(c.ny, P, me);
  for (long x = 0; x < xn; ++x)
    for (long y = 0; y < c.ny; ++y)
      for (long z = 0; z < c.nz; ++z) c.x1[(x * c.ny + y) * c.nz + z] = value(x0 + x, y + 1, z + 1);
  transpose(&c);
  unsigned long long wrong = 0;
  for (long y = 0; y < yn; ++y)
    for (long z = 0; z < c.nz; ++z)
      for (long x = 0; x < c.nx; ++x) {
        const cplx want = value(x + 1, y0 + y, z + 1), got = c.x2[(y * c.nz + z) * c.nx + x];
        wrong += got.re != want.re || got.im != want.im;
      }
  wrong = mb_sum_over_ranks(wrong);
  long iters = mb_calibrate(mb_span_per_call, body, &c, min_time, 1, 1L << 20);
  double* us = malloc(sizeof(double) * (size_t)reps);
  for (long r = 0; r < reps; ++r) us[r] = mb_span_per_call(body, &c, iters) * 1e6;
  mb_sort(us, reps);
  struct mb_machine m;
  mb_machine_info(&m);
  if (me == 0) {
    if (jsonl)
      printf("{\"bench\": \"remapbench\", \"backend\": \"mpi\", \"threads\": %d, \"class\": \"%s\", \"variant\": \"mpi\", "
             "\"iters\": %ld, \"min_us\": %.6g, \"median_us\": %.6g, \"max_us\": %.6g, \"verified\": true, \"wrong\": %llu, "
             "\"peer\": \"%s\"}\n",
             P, k->name, iters, us[0], mb_median_sorted(us, reps), us[reps - 1], wrong, m.peer);
    else
      printf("# bench=remapbench backend=mpi threads=%d class=%s peer=\"%s\"\n%12s %10ld %12.6g %12.6g %12.6g %10llu\n", P,
             k->name, m.peer, "mpi", iters, us[0], mb_median_sorted(us, reps), us[reps - 1], wrong);
  }
  MPI_Finalize();
  return wrong ? 1 : 0;
}
