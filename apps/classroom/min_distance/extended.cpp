// Stage 4 of the classroom Minimum Distance: the extended collectives. The
// matrix lives in private memory from start to end: no shared matrix, no
// padding, nothing privatised by hand.
//   - upc_all_scatter_v_local_priv hands each thread exactly its rows (_v: the
//     last threads may get fewer) from thread 0's private matrix into a
//     private array;
//   - in each step, the owner of row k copies it into a private row, and
//     upc_all_broadcast_rooted_in_place_priv copies it from there into every
//     thread's private row (in place: the same buffer is source and
//     destination; rooted: the owner of row k is the root);
//   - upc_all_gather_v_local_priv brings the rows back to thread 0.
//
//   upc_all_scatter_v_local_priv(mine, whole, disp, counts, R * N, sizeof(int), sync);
//   upc_all_broadcast_rooted_in_place_priv(row_k, N * sizeof(int), k / R, sync);
//   upc_all_gather_v_local_priv(whole, mine, disp, counts, R * N, sizeof(int), sync);
//
//   build/tools/upcrun -n 4 build/apps/classroom/min_distance/extended [--nodes=N]
#include <algorithm>
#include <cstdint>
#include <vector>

#include "min_distance.hpp"
#include "upc_collective_ext.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const min_distance::options& opt) {
  const std::int64_t n = opt.nodes;
  // sloc classroom/min_distance/extended decl begin
  const std::size_t N = static_cast<std::size_t>(n);
  const std::int64_t rows = classroom::block_of(n, THREADS);  // rows per thread
  const auto [first, count] = classroom::part_of(n, THREADS, MYTHREAD);
  std::vector<int> whole(MYTHREAD == 0 ? N * N : 0);  // thread 0's matrix
  std::vector<int> mine(static_cast<std::size_t>(count) * N), row_k(N);
  upc::shared_array<int> disp(upc::per_thread(1));            // where each thread's rows start in its buffer
  upc::shared_array<std::size_t> counts(upc::per_thread(1));  // how many elements each thread gets
  // sloc classroom/min_distance/extended decl end
  // sloc classroom/min_distance/extended comp begin
  for (std::size_t e = 0; e < whole.size(); ++e)
    whole[e] = min_distance::initial_distance(static_cast<std::int64_t>(e / N), static_cast<std::int64_t>(e % N), n);
  // sloc classroom/min_distance/extended comp end
  // sloc classroom/min_distance/extended comm begin
  disp[MYTHREAD] = 0;
  counts[MYTHREAD] = static_cast<std::size_t>(count) * N;
  upc_all_scatter_v_local_priv(mine.data(), whole.data(), disp, counts, static_cast<std::size_t>(rows) * N, sizeof(int),
                               sync_all);
  // sloc classroom/min_distance/extended comm end

  upc_barrier;
  classroom::stopwatch clock;
  for (std::int64_t k = 0; k < n; ++k) {
    // sloc classroom/min_distance/extended comm begin
    const int owner = static_cast<int>(k / rows);
    if (owner == MYTHREAD) std::copy_n(mine.begin() + (k - first) * n, N, row_k.begin());
    upc_all_broadcast_rooted_in_place_priv(row_k.data(), N * sizeof(int), owner, sync_all);
    // sloc classroom/min_distance/extended comm end
    // sloc classroom/min_distance/extended comp begin
    for (std::int64_t i = 0; i < count; ++i) {
      int* di = mine.data() + i * n;
      const int dik = di[k];
      for (std::size_t j = 0; j < N; ++j)
        if (dik + row_k[j] < di[j]) di[j] = dik + row_k[j];
    }
    // sloc classroom/min_distance/extended comp end
  }
  // sloc classroom/min_distance/extended comm begin
  upc_all_gather_v_local_priv(whole.data(), mine.data(), disp, counts, static_cast<std::size_t>(rows) * N, sizeof(int),
                              sync_all);
  // sloc classroom/min_distance/extended comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return min_distance::check("extended", opt, whole, seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(min_distance::code, "extended", run, argc, argv); }
