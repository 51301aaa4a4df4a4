/* NAS FT with MPI: the MPI peer of apps/nas/ft (seed 003 §3.6's comparison).
 * The same problem, generator, FFTW line transforms, slab decomposition,
 * checksum and report as the UPC versions; the global transpose is
 * MPI_Alltoall between separate send and receive buffers (variant "alltoall",
 * as NPB-MPI's transpose2_global) or MPI_Alltoall(MPI_IN_PLACE, ...) on one
 * buffer (variant "in_place", as the thesis's upc_all_exchange_in_place_priv).
 *
 *   mpirun -np 4 build/bench/peers/mpi/nas/ft_mpi --class=S --variant=all
 *
 * Layouts (row-major, x fastest as NPB's Fortran u(nx, ny, nz)):
 *   slab   [nz/P][ny][nx]  rank r holds z-planes r*nzl ...: FFTs along x and y
 *   pencil [ny/P][nx][nz]  rank r holds y-rows r*nyl ...  : FFTs along z */
#include <complex.h> /* before fftw3.h: fftw_complex is then double _Complex */
#include <fftw3.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npb_c.h"
#include "../../../../harness/npb_classes.h"

typedef fftw_complex cplx; /* double _Complex */

/* ---- the classes (NPB 3.x) and the verification --------------------------------------- */

enum { batch = 16 };

/* The official NPB classes are in harness/npb_classes.h, shared with apps/nas/ft. */

/* NPB 3.x's test: |(sum - ref) / ref| <= 1e-12 (complex modulus). */
static double relative_error(const double sum[2], const double ref[2]) {
  const double dr = sum[0] - ref[0], di = sum[1] - ref[1], r2 = ref[0] * ref[0] + ref[1] * ref[1];
  return sqrt((dr * dr + di * di) / r2);
}

/* ---- the shape of the decomposition ---------------------------------------- */

struct shape {
  int nx, ny, nz, ranks, me;
  long nzl, nyl, local, chunk;
};

/* ---- the 1-D FFTs (FFTW, batches of 16 lines; the same plans as the UPC
 * versions' line_fft.cpp, so the same bits) ---------------------------------- */

struct line_ffts {
  cplx* scratch;
  fftw_plan x[2], y[2], z[2]; /* [0] forward (NPB's exp(+i...): FFTW_BACKWARD), [1] inverse */
};

static fftw_plan contiguous_plan(cplx* s, int n, int sign) {
  return fftw_plan_many_dft(1, &n, batch, s, NULL, 1, n, s, NULL, 1, n, sign, FFTW_ESTIMATE);
}
static fftw_plan interleaved_plan(cplx* s, int n, int sign) {
  return fftw_plan_many_dft(1, &n, batch, s, NULL, batch, 1, s, NULL, batch, 1, sign, FFTW_ESTIMATE);
}

static void make_ffts(struct line_ffts* f, const struct shape* s) {
  int longest = s->nx > s->ny ? s->nx : s->ny;
  if (s->nz > longest) longest = s->nz;
  f->scratch = fftw_malloc(sizeof(cplx) * (size_t)batch * (size_t)longest);
  for (int d = 0; d < 2; ++d) {
    const int sign = d == 0 ? FFTW_BACKWARD : FFTW_FORWARD;
    f->x[d] = contiguous_plan(f->scratch, s->nx, sign);
    f->y[d] = interleaved_plan(f->scratch, s->ny, sign);
    f->z[d] = contiguous_plan(f->scratch, s->nz, sign);
  }
}

static void free_ffts(struct line_ffts* f) {
  for (int d = 0; d < 2; ++d) {
    fftw_destroy_plan(f->x[d]);
    fftw_destroy_plan(f->y[d]);
    fftw_destroy_plan(f->z[d]);
  }
  fftw_free(f->scratch);
}

static void contiguous(struct line_ffts* f, fftw_plan plan, int n, cplx* lines, long count) {
  const int same_alignment = fftw_alignment_of((double*)lines) == fftw_alignment_of((double*)f->scratch);
  const size_t bytes = sizeof(cplx) * (size_t)batch * (size_t)n;
  for (long first = 0; first < count; first += batch) {
    cplx* at = lines + first * n;
    if (same_alignment) {
      fftw_execute_dft(plan, at, at);
    } else {
      memcpy(f->scratch, at, bytes);
      fftw_execute_dft(plan, f->scratch, f->scratch);
      memcpy(at, f->scratch, bytes);
    }
  }
}

static void strided_y(struct line_ffts* f, const struct shape* s, fftw_plan plan, cplx* plane) {
  for (int x0 = 0; x0 < s->nx; x0 += batch) {
    for (int y = 0; y < s->ny; ++y) memcpy(f->scratch + y * batch, plane + (long)y * s->nx + x0, sizeof(cplx) * batch);
    fftw_execute_dft(plan, f->scratch, f->scratch);
    for (int y = 0; y < s->ny; ++y) memcpy(plane + (long)y * s->nx + x0, f->scratch + y * batch, sizeof(cplx) * batch);
  }
}

/* forward (+1): x then y; inverse (-1): y then x (NPB's order) */
static void planes_xy(struct line_ffts* f, const struct shape* s, int direction, cplx* planes) {
  const int d = direction > 0 ? 0 : 1;
  for (long k = 0; k < s->nzl; ++k) {
    cplx* plane = planes + k * (long)s->nx * s->ny;
    if (direction > 0) {
      contiguous(f, f->x[d], s->nx, plane, s->ny);
      strided_y(f, s, f->y[d], plane);
    } else {
      strided_y(f, s, f->y[d], plane);
      contiguous(f, f->x[d], s->nx, plane, s->ny);
    }
  }
}

static void lines_z(struct line_ffts* f, const struct shape* s, int direction, cplx* pencil) {
  contiguous(f, f->z[direction > 0 ? 0 : 1], s->nz, pencil, s->nyl * s->nx);
}

/* ---- NPB's initial conditions, evolution factors and evolution ------------- */

static void initial_conditions(const struct shape* s, cplx* slab) {
  const uint64_t per_plane = 2ULL * (uint64_t)s->nx * (uint64_t)s->ny;
  double start = NPB_SEED;
  npb_randlc(&start, npb_power_mod(NPB_MULTIPLIER, per_plane * (uint64_t)(s->me * s->nzl)));
  const double plane_jump = npb_power_mod(NPB_MULTIPLIER, per_plane);
  for (long k = 0; k < s->nzl; ++k) {
    double x0 = start;
    npb_vranlc((long)per_plane, &x0, NPB_MULTIPLIER, (double*)(slab + k * (long)s->nx * s->ny));
    npb_randlc(&start, plane_jump);
  }
}

static long frequency(long i, long n) { return (i + n / 2) % n - n / 2; }

static void evolution_factors(const struct shape* s, double* factor) {
  const double alpha = 1e-6, pi = 3.141592653589793238;
  const double ap = -4.0 * alpha * pi * pi;
  long at = 0;
  for (long yl = 0; yl < s->nyl; ++yl) {
    const long jj = frequency(s->me * s->nyl + yl, s->ny);
    for (long x = 0; x < s->nx; ++x) {
      const long ii = frequency(x, s->nx);
      for (long z = 0; z < s->nz; ++z) {
        const long kk = frequency(z, s->nz);
        factor[at++] = exp(ap * (double)(ii * ii + jj * jj + kk * kk));
      }
    }
  }
}

static void evolve(const struct shape* s, cplx* u0, const double* factor, cplx* pencil) {
  for (long i = 0; i < s->local; ++i) {
    u0[i] *= factor[i]; /* each part times the factor, as NPB */
    pencil[i] = u0[i];
  }
}

/* ---- the transposes ---------------------------------------------------------- */

/* sloc ft/mpi_alltoall comp begin */
/* sloc ft/mpi_in_place comp begin */
enum { block = 16 };

/* slab [zl][y][x] -> send [q][zl][yl][x] */
static void pack_slab(const struct shape* s, const cplx* slab, cplx* send) {
  const long rows = s->nyl * s->nx;
  for (int q = 0; q < s->ranks; ++q)
    for (long zl = 0; zl < s->nzl; ++zl)
      memcpy(send + (q * s->nzl + zl) * rows, slab + (zl * s->ny + q * s->nyl) * s->nx, sizeof(cplx) * (size_t)rows);
}

/* recv [p][zl][yl][x] -> pencil [yl][x][z = p*nzl + zl] */
static void unpack_to_pencil(const struct shape* s, const cplx* recv, cplx* pencil) {
  for (long yl = 0; yl < s->nyl; ++yl)
    for (long x0 = 0; x0 < s->nx; x0 += block)
      for (long z = 0; z < s->nz; ++z) {
        const cplx* from = recv + (z * s->nyl + yl) * s->nx;
        cplx* to = pencil + (yl * s->nx) * s->nz + z;
        const long x1 = x0 + block < s->nx ? x0 + block : s->nx;
        for (long x = x0; x < x1; ++x) to[x * s->nz] = from[x];
      }
}

/* pencil [yl][x][z] -> send [q][yl][x][zl] */
static void pack_pencil(const struct shape* s, const cplx* pencil, cplx* send) {
  for (int q = 0; q < s->ranks; ++q)
    for (long line = 0; line < s->nyl * s->nx; ++line)
      memcpy(send + (q * s->nyl * s->nx + line) * s->nzl, pencil + line * s->nz + q * s->nzl,
             sizeof(cplx) * (size_t)s->nzl);
}

/* recv [p][yl][x][zl] -> slab [zl][y = p*nyl + yl][x] */
static void unpack_to_slab(const struct shape* s, const cplx* recv, cplx* slab) {
  for (long y = 0; y < s->ny; ++y)
    for (long x0 = 0; x0 < s->nx; x0 += block)
      for (long zl = 0; zl < s->nzl; ++zl) {
        const cplx* from = recv + y * s->nx * s->nzl + zl;
        cplx* to = slab + (zl * s->ny + y) * s->nx;
        const long x1 = x0 + block < s->nx ? x0 + block : s->nx;
        for (long x = x0; x < x1; ++x) to[x] = from[x * s->nzl];
      }
}
/* sloc ft/mpi_in_place comp end */
/* sloc ft/mpi_alltoall comp end */

/* Chunk q of send goes to rank q; chunk p of recv comes from rank p. */
static void alltoall(const struct shape* s, const cplx* send, cplx* recv) {
  /* sloc ft/mpi_alltoall comm begin */
  MPI_Alltoall(send, (int)(2 * s->chunk), MPI_DOUBLE, recv, (int)(2 * s->chunk), MPI_DOUBLE, MPI_COMM_WORLD);
  /* sloc ft/mpi_alltoall comm end */
}

static void alltoall_in_place(const struct shape* s, cplx* buffer) {
  /* sloc ft/mpi_in_place comm begin */
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, (int)(2 * s->chunk), MPI_DOUBLE, MPI_COMM_WORLD);
  /* sloc ft/mpi_in_place comm end */
}

/* Each returns where its output is: the other array (alltoall) or the one
 * the data came from (in place). The input is destroyed. */
static cplx* to_pencils(const struct shape* s, int in_place, cplx* slab, cplx* other) {
  pack_slab(s, slab, other);
  if (in_place) {
    alltoall_in_place(s, other);
    unpack_to_pencil(s, other, slab);
    return slab;
  }
  alltoall(s, other, slab);
  unpack_to_pencil(s, slab, other);
  return other;
}

static cplx* to_slabs(const struct shape* s, int in_place, cplx* pencil, cplx* other) {
  pack_pencil(s, pencil, other);
  if (in_place) {
    alltoall_in_place(s, other);
    unpack_to_slab(s, other, pencil);
    return pencil;
  }
  alltoall(s, other, pencil);
  unpack_to_slab(s, pencil, other);
  return other;
}

/* ---- one run ------------------------------------------------------------------ */

/* FNV-1a of the sums' bytes: the same digest as the UPC versions' means the
 * same bits. */
static unsigned long long digest(const double* sums, int n) {
  unsigned long long h = 14695981039346656037ULL;
  const unsigned char* bytes = (const unsigned char*)sums;
  for (size_t i = 0; i < (size_t)n * 2 * sizeof(double); ++i) h = (h ^ bytes[i]) * 1099511628211ULL;
  return h;
}

/* Returns 1 when verified (on every rank). */
static int solve(const struct npb_ft_class* c, const struct shape* s, struct line_ffts* f, int in_place,
                 double* seconds, double sums[][2]) {
  /* sloc ft/mpi_alltoall decl begin */
  /* sloc ft/mpi_in_place decl begin */
  cplx* u1 = fftw_malloc(sizeof(cplx) * (size_t)s->local);
  cplx* u2 = fftw_malloc(sizeof(cplx) * (size_t)s->local);
  /* sloc ft/mpi_in_place decl end */
  /* sloc ft/mpi_alltoall decl end */
  cplx* u0 = fftw_malloc(sizeof(cplx) * (size_t)s->local);
  double* factor = malloc(sizeof(double) * (size_t)s->local);
  double* points = calloc((size_t)c->niter * 2048, sizeof(double));
  double* all_points = calloc((size_t)c->niter * 2048, sizeof(double));
  if (!u1 || !u2 || !u0 || !factor || !points || !all_points) {
    fprintf(stderr, "ft_mpi: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  /* untimed, as NPB's first pass: touches every array */
  cplx *slab = u1, *other = u2;
  initial_conditions(s, slab);
  planes_xy(f, s, +1, slab);
  cplx* pencil = to_pencils(s, in_place, slab, other);
  lines_z(f, s, +1, pencil);
  lines_z(f, s, -1, pencil);
  to_slabs(s, in_place, pencil, pencil == slab ? other : slab);
  MPI_Barrier(MPI_COMM_WORLD);

  const double start = MPI_Wtime();
  evolution_factors(s, factor);
  initial_conditions(s, slab);
  planes_xy(f, s, +1, slab);
  pencil = to_pencils(s, in_place, slab, other);
  cplx* spare = pencil == slab ? other : slab;
  lines_z(f, s, +1, pencil);
  memcpy(u0, pencil, sizeof(cplx) * (size_t)s->local);
  for (int iter = 1; iter <= c->niter; ++iter) {
    evolve(s, u0, factor, pencil);
    lines_z(f, s, -1, pencil);
    cplx* result = to_slabs(s, in_place, pencil, spare);
    planes_xy(f, s, -1, result);
    for (int j = 1; j <= 1024; ++j) { /* the checksum points in my slab */
      const long x = j % s->nx, y = (3L * j) % s->ny, z = (5L * j) % s->nz;
      if (z / s->nzl != s->me) continue;
      const cplx* v = result + ((z - s->me * s->nzl) * s->ny + y) * s->nx + x;
      points[((long)(iter - 1) * 1024 + j - 1) * 2] = creal(*v);
      points[((long)(iter - 1) * 1024 + j - 1) * 2 + 1] = cimag(*v);
    }
  }
  /* one owner per point, zeros elsewhere: the sum is exact; rank 0 adds the
   * points up in NPB's order j = 1 ... 1024 */
  MPI_Reduce(points, all_points, c->niter * 2048, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (s->me == 0) {
    const double n = (double)c->nx * c->ny * c->nz;
    for (int iter = 1; iter <= c->niter; ++iter) {
      double re = 0, im = 0;
      for (int j = 0; j < 1024; ++j) {
        re += all_points[((long)(iter - 1) * 1024 + j) * 2];
        im += all_points[((long)(iter - 1) * 1024 + j) * 2 + 1];
      }
      sums[iter - 1][0] = re / n;
      sums[iter - 1][1] = im / n;
      if (!(relative_error(sums[iter - 1], c->ref[iter - 1]) <= 1e-12)) ok = 0;
    }
  }
  *seconds = MPI_Wtime() - start;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  fftw_free(u1);
  fftw_free(u2);
  fftw_free(u0);
  free(factor);
  free(points);
  free(all_points);
  return ok;
}

static void usage(void) {
  printf(
      "usage: mpirun -np P ft_mpi [options]\n\n"
      "NAS FT (NPB 3.x classes and verification) on NPB's slab decomposition with MPI; the global\n"
      "transpose by MPI_Alltoall (alltoall) or MPI_Alltoall with MPI_IN_PLACE (in_place); all runs\n"
      "and verifies both. P must divide ny and nz of the class.\n\n"
      "options:\n"
      "  --class=S|W|A|B                    NPB class: S 64x64x64, W 128x128x32, A 256x256x128 (6 iterations),\n"
      "                                     B 512x256x256 (20) (default S)\n"
      "  --variant=alltoall|in_place|all    the transpose (default all)\n"
      "  --help                             this text\n");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  const struct npb_ft_class* c = &npb_ft_classes[0];
  const char* variant = "all";
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      if (me == 0) usage();
      MPI_Finalize();
      return 0;
    }
    int known = 0;
    if (strncmp(a, "--class=", 8) == 0) {
      for (size_t k = 0; k < sizeof npb_ft_classes / sizeof npb_ft_classes[0]; ++k)
        if (strlen(a + 8) == 1 && a[8] == npb_ft_classes[k].name) {
          c = &npb_ft_classes[k];
          known = 1;
        }
      if (!known) {
        if (me == 0) fprintf(stderr, "ft_mpi: --class=%s: not one of S, W, A, B\n", a + 8);
        MPI_Finalize();
        return 2;
      }
    } else if (strncmp(a, "--variant=", 10) == 0) {
      variant = a + 10;
      if (strcmp(variant, "alltoall") != 0 && strcmp(variant, "in_place") != 0 && strcmp(variant, "all") != 0) {
        if (me == 0) fprintf(stderr, "ft_mpi: --variant=%s: not one of alltoall, in_place, all\n", variant);
        MPI_Finalize();
        return 2;
      }
    } else {
      if (me == 0) fprintf(stderr, "ft_mpi: unknown option %s (see --help)\n", a);
      MPI_Finalize();
      return 2;
    }
  }
  if (c->ny % ranks != 0 || c->nz % ranks != 0) {
    if (me == 0)
      fprintf(stderr,
              "ft_mpi: %d processes do not divide class %c's ny=%d and nz=%d: each process holds nz/P z-planes and "
              "ny/P y-rows (use a power of two up to %d)\n",
              ranks, c->name, c->ny, c->nz, c->ny < c->nz ? c->ny : c->nz);
    MPI_Finalize();
    return 2;
  }

  struct shape s;
  s.nx = c->nx;
  s.ny = c->ny;
  s.nz = c->nz;
  s.ranks = ranks;
  s.me = me;
  s.nzl = c->nz / ranks;
  s.nyl = c->ny / ranks;
  s.local = (long)c->nx * c->ny * s.nzl;
  s.chunk = s.local / ranks;
  struct line_ffts f;
  make_ffts(&f, &s); /* plans made once, before the timed part */

  char size[64];
  snprintf(size, sizeof size, "%dx%dx%d", c->nx, c->ny, c->nz);
  const char* names[] = {"alltoall", "in_place"};
  int failures = 0;
  for (int v = 0; v < 2; ++v) {
    if (strcmp(variant, "all") != 0 && strcmp(variant, names[v]) != 0) continue;
    if (me == 0)
      printf(
          "\n\n NAS Parallel Benchmarks (MPI peer of upcemu) - FT Benchmark\n\n Size: %s, iterations: %d, processes: "
          "%d, "
          "transpose: %s\n\n",
          size, c->niter, ranks, names[v]);
    double seconds = 0, sums[NPB_FT_MAX_ITERATIONS][2];
    const int ok = solve(c, &s, &f, v == 1, &seconds, sums);
    if (!ok) ++failures;
    if (me != 0) continue;
    for (int iter = 1; iter <= c->niter; ++iter)
      printf(" T =%5d     Checksum =%22.12e%22.12e   (error %.2e)\n", iter, sums[iter - 1][0], sums[iter - 1][1],
             relative_error(sums[iter - 1], c->ref[iter - 1]));
    printf(" Result verification %s (checksums' bits: %016llx)\n", ok ? "successful" : "failed",
           digest(&sums[0][0], c->niter));
    const double n = (double)c->nx * c->ny * c->nz;
    const double mops =
        seconds > 0 ? 1e-6 * n * (14.8157 + 7.19641 * log(n) + (5.23518 + 7.21113 * log(n)) * c->niter) / seconds : 0.0;
    npb_print_report("FT", "ft", names[v], c->name, size, c->niter, seconds, mops, "floating point", ok, ranks);
  }
  free_ffts(&f);
  MPI_Finalize();
  return failures ? 1 : 0;
}
