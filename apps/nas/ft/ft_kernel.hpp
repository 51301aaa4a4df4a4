// The computation every version shares (not counted in the programmability
// table): the slab decomposition's shape, NPB's initial conditions, the
// evolution factors, the evolution step and the checksum points.
//
// The two layouts of NPB's 1-D decomposition (row-major, x fastest as in
// NPB's Fortran u(nx, ny, nz)):
//   slab   [nz/THREADS][ny][nx]  thread t holds z-planes t*nzl ... : FFTs along x and y
//   pencil [ny/THREADS][nx][nz]  thread t holds y-rows t*nyl ...   : FFTs along z
// One global transpose (all-to-all) goes from one to the other.
#pragma once
#include "ft_classes.hpp"

namespace ft {

struct shape {
  int nx, ny, nz, threads, me;
  long nzl, nyl;  // my z-planes (slab), my y-rows (pencil)
  long local;     // elements per thread, either layout
  long chunk;     // elements a thread sends to each thread in a transpose

  shape(const problem_class& c, int threads_, int me_)
      : nx(c.nx),
        ny(c.ny),
        nz(c.nz),
        threads(threads_),
        me(me_),
        nzl(c.nz / threads_),
        nyl(c.ny / threads_),
        local(static_cast<long>(c.nx) * c.ny * (c.nz / threads_)),
        chunk(local / threads_) {}
};

// NPB's compute_initial_conditions: z-plane k holds the random numbers
// 2*nx*ny*k + 1 ... of the stream from 314159265 (real, imaginary, x fastest);
// each thread jumps ahead to its first plane.
void initial_conditions(const shape& s, cplx* slab);

// exp(-4 alpha pi^2 (kx^2 + ky^2 + kz^2)) at my pencil points (s.local of
// them), alpha = 1e-6, with the signed frequencies of NPB's compute_indexmap.
void evolution_factors(const shape& s, double* factor);

// NPB's evolve: u0 *= factor; pencil = u0.
void evolve(const shape& s, cplx* u0, const double* factor, cplx* pencil);

// The checksum points j = 1 ... 1024 (x = j mod nx, y = 3j mod ny, z = 5j mod
// nz) that lie in my slab: visit(j, value).
template <class Visit>
void checksum_points(const shape& s, const cplx* slab, Visit&& visit) {
  for (int j = 1; j <= 1024; ++j) {
    const long x = j % s.nx, y = (3L * j) % s.ny, z = (5L * j) % s.nz;
    if (z / s.nzl != s.me) continue;
    visit(j, slab[((z - s.me * s.nzl) * s.ny + y) * s.nx + x]);
  }
}

}  // namespace ft
