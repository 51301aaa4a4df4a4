// Stage 4 of the classroom Stencil: the extended collectives of the thesis
// (<upc_collective_ext.h>, seed 003 chapter 3). They lift the limitations the
// collectives stage had to work around (§2.1.2, §2.3):
//   - _priv: source and destination may be private memory, so the vector
//     lives in ordinary private arrays from start to end; no shared array is
//     declared at all, and nothing is privatised by hand;
//   - _v: each thread may move a different amount, so the vector is not
//     padded: a thread gets exactly its ceil(N/THREADS) or fewer elements
//     (_local: the displacements are offsets inside each thread's buffer).
//
//   upc_all_scatter_v_local_priv(mine, whole, disp, counts, B, sizeof(double), sync);
//   upc_all_gather_all_priv(every_edge, my_edges, 2 * sizeof(double), sync);
//   upc_all_gather_v_local_priv(whole, mine, disp, counts, B, sizeof(double), sync);
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil/extended [--n=N] [--iterations=I]
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "stencil.hpp"
#include "upc_collective_ext.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const stencil::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/stencil/extended decl begin
  const std::size_t block = static_cast<std::size_t>(classroom::block_of(n, THREADS));
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  const auto [first, count] = classroom::part_of(n, THREADS, MYTHREAD);
  std::vector<double> whole(MYTHREAD == 0 ? static_cast<std::size_t>(n) : 0);  // thread 0's vector
  std::vector<double> s(static_cast<std::size_t>(count)), d(static_cast<std::size_t>(count));
  std::vector<double> my_edges(2), every_edge(2 * T);
  upc::shared_array<int> disp(upc::per_thread(1));          // where each thread's part starts in its buffer
  upc::shared_array<std::size_t> counts(upc::per_thread(1));  // how many elements each thread gets
  const std::int64_t lo = std::max<std::int64_t>(first, 1) - first, hi = std::min(first + count, n - 1) - first;
  // sloc classroom/stencil/extended decl end

  // sloc classroom/stencil/extended comp begin
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(whole.size()); ++i) whole[static_cast<std::size_t>(i)] = stencil::initial_value(i);
  // sloc classroom/stencil/extended comp end
  // sloc classroom/stencil/extended comm begin
  disp[MYTHREAD] = 0;
  counts[MYTHREAD] = static_cast<std::size_t>(count);
  upc_all_scatter_v_local_priv(s.data(), whole.data(), disp, counts, block, sizeof(double), sync_all);
  // sloc classroom/stencil/extended comm end
  // sloc classroom/stencil/extended comp begin
  d = s;  // the two ends never change, in either vector
  // sloc classroom/stencil/extended comp end

  upc_barrier;
  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    // sloc classroom/stencil/extended comm begin
    if (count > 0) my_edges = {s.front(), s.back()};
    upc_all_gather_all_priv(every_edge.data(), my_edges.data(), 2 * sizeof(double), sync_all);
    const double left = me > 0 ? every_edge[2 * (me - 1) + 1] : 0, right = me + 1 < T ? every_edge[2 * (me + 1)] : 0;
    // sloc classroom/stencil/extended comm end
    // sloc classroom/stencil/extended comp begin
    const auto edge = [&](std::int64_t j) {
      const std::size_t k = static_cast<std::size_t>(j);
      return stencil::update(j > 0 ? s[k - 1] : left, s[k], j + 1 < count ? s[k + 1] : right);
    };
    if (lo < hi) d[static_cast<std::size_t>(lo)] = edge(lo);
    for (std::int64_t j = lo + 1; j < hi - 1; ++j) {
      const std::size_t k = static_cast<std::size_t>(j);
      d[k] = stencil::update(s[k - 1], s[k], s[k + 1]);
    }
    if (hi - 1 > lo) d[static_cast<std::size_t>(hi - 1)] = edge(hi - 1);
    std::swap(s, d);
    // sloc classroom/stencil/extended comp end
  }
  // sloc classroom/stencil/extended comm begin
  upc_all_gather_v_local_priv(whole.data(), s.data(), disp, counts, block, sizeof(double), sync_all);
  // sloc classroom/stencil/extended comm end
  return classroom::on_thread0(clock, [&](double seconds) { return stencil::check("extended", opt, whole, seconds); });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil::code, "extended", run, argc, argv); }
