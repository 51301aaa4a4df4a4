// Stage 3 of the classroom 2-D Stencil: the UPC standard collectives. The grid
// starts on thread 0 and ends there, as the sequential program's does:
//   - upc_all_scatter hands each thread its block of rows;
//   - every iteration, two upc_all_permute calls move the ghost rows: each
//     thread's last row to the thread below (perm_down[t] = t+1) and its first
//     row to the thread above (perm_up[t] = t-1), around a ring;
//   - upc_all_gather brings the blocks back to thread 0.
// The computation works on the privatised rows, as in the optimised stage.
// The standard collectives move the same amount for every thread, from and to
// shared memory (§2.1.2): the grid is padded to THREADS equal blocks of rows,
// and the edge rows are copied into shared arrays before they can be sent.
//
//   upc_all_scatter(u, whole, B * sizeof(double), sync);
//   upc_all_permute(ghosts_up, last_rows, perm_down, C * sizeof(double), sync);
//   upc_all_permute(ghosts_down, first_rows, perm_up, C * sizeof(double), sync);
//   upc_all_gather(whole, u, B * sizeof(double), sync);
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil2d/collectives [--rows=R] [--cols=C] [--iterations=I]
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "stencil2d.hpp"
#include "upc_collective.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const stencil2d::options& opt) {
  const std::int64_t R = opt.rows, C = opt.cols;
  // sloc classroom/stencil2d/collectives decl begin
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  const std::size_t cols = static_cast<std::size_t>(C), block = static_cast<std::size_t>(classroom::block_of(R, THREADS)) * cols;
  upc::shared_array<double, upc::indefinite> whole(block * T);  // thread 0's grid, padded to THREADS blocks of rows
  upc::shared_array<double, upc::dynamic_block> u(block * T, upc::block(block)), v(block * T, upc::block(block));
  upc::shared_array<double, upc::dynamic_block> first_rows(cols * T, upc::block(cols)), last_rows(cols * T, upc::block(cols));
  upc::shared_array<double, upc::dynamic_block> ghosts_up(cols * T, upc::block(cols)), ghosts_down(cols * T, upc::block(cols));
  upc::shared_array<int> perm_down(upc::per_thread(1)), perm_up(upc::per_thread(1));
  const auto [first, count] = classroom::part_of(R, THREADS, MYTHREAD);
  double* my_u = (&u[me * block]).local();
  double* my_v = (&v[me * block]).local();
  double* my_first = (&first_rows[me * cols]).local();
  double* my_last = (&last_rows[me * cols]).local();
  const double* ghost_up = (&ghosts_up[me * cols]).local();
  const double* ghost_down = (&ghosts_down[me * cols]).local();
  const std::int64_t lo = std::max<std::int64_t>(first, 1) - first, hi = std::min(first + count, R - 1) - first;
  // sloc classroom/stencil2d/collectives decl end
  // sloc classroom/stencil2d/collectives comp begin
  if (MYTHREAD == 0) {  // thread 0 holds the starting grid, as the sequential program does
    double* w = whole.data().local();
    for (std::int64_t i = 0; i < R * C; ++i) w[i] = stencil2d::initial_value(i / C, i % C);
  }
  perm_down[MYTHREAD] = (MYTHREAD + 1) % THREADS;            // my last row goes to the thread below
  perm_up[MYTHREAD] = (MYTHREAD + THREADS - 1) % THREADS;    // my first row to the thread above
  // sloc classroom/stencil2d/collectives comp end
  // sloc classroom/stencil2d/collectives comm begin
  upc_all_scatter(u, whole, block * sizeof(double), sync_all);
  // sloc classroom/stencil2d/collectives comm end
  // sloc classroom/stencil2d/collectives comp begin
  std::memcpy(my_v, my_u, block * sizeof(double));  // the frame never changes, in either grid
  // sloc classroom/stencil2d/collectives comp end

  upc_barrier;
  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    const double* s = it % 2 == 0 ? my_u : my_v;
    double* d = it % 2 == 0 ? my_v : my_u;
    // sloc classroom/stencil2d/collectives comm begin
    if (count > 0) {
      std::memcpy(my_first, s, cols * sizeof(double));
      std::memcpy(my_last, s + (count - 1) * C, cols * sizeof(double));
    }
    upc_all_permute(ghosts_up, last_rows, perm_down, cols * sizeof(double), sync_all);
    upc_all_permute(ghosts_down, first_rows, perm_up, cols * sizeof(double), sync_all);
    // sloc classroom/stencil2d/collectives comm end
    // sloc classroom/stencil2d/collectives comp begin
    for (std::int64_t i = lo; i < hi; ++i) {
      const double* up = i > 0 ? s + (i - 1) * C : ghost_up;
      const double* down = i + 1 < count ? s + (i + 1) * C : ghost_down;
      const double* row = s + i * C;
      for (std::int64_t c = 1; c + 1 < C; ++c) d[i * C + c] = stencil2d::update(up[c], down[c], row[c - 1], row[c + 1]);
    }
    // sloc classroom/stencil2d/collectives comp end
  }
  // sloc classroom/stencil2d/collectives comm begin
  upc_all_gather(whole, opt.iterations % 2 == 0 ? u : v, block * sizeof(double), sync_all);
  // sloc classroom/stencil2d/collectives comm end
  const double seconds = clock.seconds();

  if (MYTHREAD != 0) return 0;
  const double* w = whole.data().local();
  return stencil2d::check("collectives", opt, std::vector<double>(w, w + R * C), seconds);
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil2d::code, "collectives", run, argc, argv); }
