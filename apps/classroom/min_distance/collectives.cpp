// Stage 3 of the classroom Minimum Distance: the UPC standard collectives. The
// matrix starts on thread 0 and ends there, as the sequential program's does:
//   - upc_all_scatter hands each thread its block of rows;
//   - in each step, upc_all_broadcast copies row k from its owner into every
//     thread's block of a shared array of rows (one copy per thread);
//   - upc_all_gather brings the blocks of rows back to thread 0.
// The computation works on the privatised rows, as in the optimised stage.
// The standard collectives move the same amount for every thread, from and to
// shared memory (§2.1.2): the matrix is padded to THREADS equal blocks of rows.
//
//   upc_all_scatter(d, whole, R * N * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   upc_all_broadcast(row_k, &d[k][0], N * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   upc_all_gather(whole, d, R * N * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//
//   build/tools/upcrun -n 4 build/apps/classroom/min_distance/collectives [--nodes=N]
#include <cstdint>
#include <vector>

#include "min_distance.hpp"
#include "upc_collective.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const min_distance::options& opt) {
  const std::int64_t n = opt.nodes;
  // sloc classroom/min_distance/collectives decl begin
  const std::size_t N = static_cast<std::size_t>(n), T = static_cast<std::size_t>(THREADS);
  const std::size_t rows = static_cast<std::size_t>(classroom::block_of(n, THREADS));  // rows per thread
  upc::shared_array<int, upc::indefinite> whole(rows * T * N);  // thread 0's matrix, padded to THREADS blocks
  upc::shared_array<int, upc::dynamic_block> d(rows * T * N, upc::block(rows * N));
  upc::shared_array<int, upc::dynamic_block> row_k(N * T, upc::block(N));  // shared [N] int row_k[N*THREADS]
  const auto [first, count] = classroom::part_of(n, THREADS, MYTHREAD);
  int* mine = (&d[static_cast<std::size_t>(MYTHREAD) * rows * N]).local();
  const int* dk = (&row_k[static_cast<std::size_t>(MYTHREAD) * N]).local();
  // sloc classroom/min_distance/collectives decl end
  // sloc classroom/min_distance/collectives comp begin
  if (MYTHREAD == 0) {  // thread 0 holds the matrix, as the sequential program does
    int* w = whole.data().local();
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) w[i * n + j] = min_distance::initial_distance(i, j, n);
  }
  // sloc classroom/min_distance/collectives comp end
  // sloc classroom/min_distance/collectives comm begin
  upc_all_scatter(d, whole, rows * N * sizeof(int), sync_all);
  // sloc classroom/min_distance/collectives comm end

  upc_barrier;
  classroom::stopwatch clock;
  for (std::int64_t k = 0; k < n; ++k) {
    // sloc classroom/min_distance/collectives comm begin
    upc_all_broadcast(row_k, &d[static_cast<std::size_t>(k * n)], N * sizeof(int), sync_all);
    // sloc classroom/min_distance/collectives comm end
    // sloc classroom/min_distance/collectives comp begin
    for (std::int64_t i = 0; i < count; ++i) {
      int* di = mine + i * n;
      const int dik = di[k];
      for (std::int64_t j = 0; j < n; ++j)
        if (dik + dk[j] < di[j]) di[j] = dik + dk[j];
    }
    // sloc classroom/min_distance/collectives comp end
  }
  // sloc classroom/min_distance/collectives comm begin
  upc_all_gather(whole, d, rows * N * sizeof(int), sync_all);
  // sloc classroom/min_distance/collectives comm end
  const double seconds = clock.seconds();

  if (MYTHREAD != 0) return 0;
  const int* w = whole.data().local();
  return min_distance::check("collectives", opt, std::vector<int>(w, w + n * n), seconds);
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(min_distance::code, "collectives", run, argc, argv); }
