// Stage 4 of the classroom 2-D Stencil: the extended collectives. The grid
// lives in private memory from start to end: no shared grid, no padding, no
// copies of edge rows into shared arrays.
//   - upc_all_scatter_v_local_priv hands each thread exactly its rows (_v: the
//     last threads may get fewer) from thread 0's private grid;
//   - every iteration, two upc_all_permute_priv calls send each thread's last
//     and first rows, straight from its private grid, into the private ghost
//     rows of the threads below and above;
//   - upc_all_gather_v_local_priv brings the rows back to thread 0.
//
//   upc_all_scatter_v_local_priv(mine, whole, disp, counts, B, sizeof(double), sync);
//   upc_all_permute_priv(ghost_up, my_last_row, perm_down, C * sizeof(double), sync);
//   upc_all_permute_priv(ghost_down, my_first_row, perm_up, C * sizeof(double), sync);
//   upc_all_gather_v_local_priv(whole, mine, disp, counts, B, sizeof(double), sync);
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil2d/extended [--rows=R] [--cols=C] [--iterations=I]
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "stencil2d.hpp"
#include "upc_collective_ext.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const stencil2d::options& opt) {
  const std::int64_t R = opt.rows, C = opt.cols;
  // sloc classroom/stencil2d/extended decl begin
  const std::size_t cols = static_cast<std::size_t>(C), block = static_cast<std::size_t>(classroom::block_of(R, THREADS)) * cols;
  const auto [first, count] = classroom::part_of(R, THREADS, MYTHREAD);
  std::vector<double> whole(MYTHREAD == 0 ? static_cast<std::size_t>(R * C) : 0);  // thread 0's grid
  std::vector<double> s(static_cast<std::size_t>(count * C)), d(s.size());
  std::vector<double> ghost_up(cols), ghost_down(cols), no_rows(cols);  // no_rows: what a thread without rows sends
  upc::shared_array<int> disp(upc::per_thread(1));            // where each thread's rows start in its buffer
  upc::shared_array<std::size_t> counts(upc::per_thread(1));  // how many points each thread gets
  upc::shared_array<int> perm_down(upc::per_thread(1)), perm_up(upc::per_thread(1));
  const std::int64_t lo = std::max<std::int64_t>(first, 1) - first, hi = std::min(first + count, R - 1) - first;
  // sloc classroom/stencil2d/extended decl end
  // sloc classroom/stencil2d/extended comp begin
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(whole.size()); ++i)
    whole[static_cast<std::size_t>(i)] = stencil2d::initial_value(i / C, i % C);
  perm_down[MYTHREAD] = (MYTHREAD + 1) % THREADS;          // my last row goes to the thread below
  perm_up[MYTHREAD] = (MYTHREAD + THREADS - 1) % THREADS;  // my first row to the thread above
  // sloc classroom/stencil2d/extended comp end
  // sloc classroom/stencil2d/extended comm begin
  disp[MYTHREAD] = 0;
  counts[MYTHREAD] = static_cast<std::size_t>(count * C);
  upc_all_scatter_v_local_priv(s.data(), whole.data(), disp, counts, block, sizeof(double), sync_all);
  // sloc classroom/stencil2d/extended comm end
  // sloc classroom/stencil2d/extended comp begin
  d = s;  // the frame never changes, in either grid
  // sloc classroom/stencil2d/extended comp end

  upc_barrier;
  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    // sloc classroom/stencil2d/extended comm begin
    const double* my_first = count > 0 ? s.data() : no_rows.data();
    const double* my_last = count > 0 ? s.data() + (count - 1) * C : no_rows.data();
    upc_all_permute_priv(ghost_up.data(), my_last, perm_down, cols * sizeof(double), sync_all);
    upc_all_permute_priv(ghost_down.data(), my_first, perm_up, cols * sizeof(double), sync_all);
    // sloc classroom/stencil2d/extended comm end
    // sloc classroom/stencil2d/extended comp begin
    for (std::int64_t i = lo; i < hi; ++i) {
      const double* up = i > 0 ? s.data() + (i - 1) * C : ghost_up.data();
      const double* down = i + 1 < count ? s.data() + (i + 1) * C : ghost_down.data();
      const double* row = s.data() + i * C;
      double* out = d.data() + i * C;
      for (std::int64_t c = 1; c + 1 < C; ++c) out[c] = stencil2d::update(up[c], down[c], row[c - 1], row[c + 1]);
    }
    std::swap(s, d);
    // sloc classroom/stencil2d/extended comp end
  }
  // sloc classroom/stencil2d/extended comm begin
  upc_all_gather_v_local_priv(whole.data(), s.data(), disp, counts, block, sizeof(double), sync_all);
  // sloc classroom/stencil2d/extended comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return stencil2d::check("extended", opt, whole, seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil2d::code, "extended", run, argc, argv); }
