// Stage 2 of the classroom 2-D Stencil: privatisation and bulk copies (as
// examples/stencil.cpp). The grids stay shared and blocked by rows, but each
// thread
//   - works on its own rows through pointers to local memory (privatisation);
//   - fetches the two ghost rows it needs, the last row of the thread above and
//     the first row of the thread below, with one upc_memget each;
//   - loops over its own rows only.
//
//   double *mine = (double *) &u[first][0];                        // my rows, privatised
//   upc_memget(ghost_up, &u[first - 1][0], C * sizeof(double));     // the ghost rows
//   upc_memget(ghost_down, &u[first + count][0], C * sizeof(double));
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil2d/optimised [--rows=R] [--cols=C] [--iterations=I]
#include <algorithm>
#include <cstdint>
#include <vector>

#include "stencil2d.hpp"

namespace {

int run(const stencil2d::options& opt) {
  const std::int64_t R = opt.rows, C = opt.cols;
  // sloc classroom/stencil2d/optimised decl begin
  const std::size_t block = static_cast<std::size_t>(classroom::block_of(R, THREADS) * C);  // whole rows
  upc::shared_array<double, upc::dynamic_block> u(static_cast<std::size_t>(R * C), upc::block(block));
  upc::shared_array<double, upc::dynamic_block> v(static_cast<std::size_t>(R * C), upc::block(block));
  const auto [first, count] = classroom::part_of(R, THREADS, MYTHREAD);
  double* my_u = count > 0 ? (&u[static_cast<std::size_t>(first * C)]).local() : nullptr;  // privatisation
  double* my_v = count > 0 ? (&v[static_cast<std::size_t>(first * C)]).local() : nullptr;
  std::vector<double> ghost_up(static_cast<std::size_t>(C)), ghost_down(static_cast<std::size_t>(C));
  // my rows to update, as local row numbers: all of them but the frame's
  const std::int64_t lo = std::max<std::int64_t>(first, 1) - first, hi = std::min(first + count, R - 1) - first;
  const std::size_t row_bytes = static_cast<std::size_t>(C) * sizeof(double);
  // sloc classroom/stencil2d/optimised decl end

  // sloc classroom/stencil2d/optimised comp begin
  for (std::int64_t i = 0; i < count * C; ++i) my_u[i] = my_v[i] = stencil2d::initial_value(first + i / C, i % C);
  // sloc classroom/stencil2d/optimised comp end
  // sloc classroom/stencil2d/optimised comm begin
  upc_barrier;
  // sloc classroom/stencil2d/optimised comm end

  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    // sloc classroom/stencil2d/optimised comm begin
    const auto& src = it % 2 == 0 ? u : v;
    if (count > 0 && first > 0) upc_memget(ghost_up.data(), &src[static_cast<std::size_t>((first - 1) * C)], row_bytes);
    if (count > 0 && first + count < R) upc_memget(ghost_down.data(), &src[static_cast<std::size_t>((first + count) * C)], row_bytes);
    // sloc classroom/stencil2d/optimised comm end
    // sloc classroom/stencil2d/optimised comp begin
    const double* s = it % 2 == 0 ? my_u : my_v;
    double* d = it % 2 == 0 ? my_v : my_u;
    for (std::int64_t i = lo; i < hi; ++i) {
      const double* up = i > 0 ? s + (i - 1) * C : ghost_up.data();
      const double* down = i + 1 < count ? s + (i + 1) * C : ghost_down.data();
      const double* row = s + i * C;
      for (std::int64_t c = 1; c + 1 < C; ++c) d[i * C + c] = stencil2d::update(up[c], down[c], row[c - 1], row[c + 1]);
    }
    // sloc classroom/stencil2d/optimised comp end
    // sloc classroom/stencil2d/optimised comm begin
    upc_barrier;  // the new rows are complete before the next iteration fetches ghost rows
    // sloc classroom/stencil2d/optimised comm end
  }
  return classroom::on_thread0(clock, [&](double seconds) {
    return stencil2d::check("optimised", opt, stencil2d::collect(opt.iterations % 2 == 0 ? u : v, opt), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil2d::code, "optimised", run, argc, argv); }
