// Stage 2 of the classroom Minimum Distance: privatisation and bulk copies
// (the four "Excellent" codes of Table 2.5 used "correct upc_forall loops and
// privatizations of variables"). The matrix stays shared and blocked by rows,
// but each thread
//   - updates its own rows through a pointer to local memory (privatisation);
//   - fetches row k, in each step, with one upc_memget into a private row
//     (or reads it in place when it owns it);
//   - loops over its own rows only.
//
//   int *mine = (int *) &d[first][0];                        // my rows, privatised
//   upc_memget(row_k, &d[k][0], N * sizeof(int));            // row k, in one copy
//   for (i = 0; i < my_rows; i++) ... mine[i*N + j] ... row_k[j] ...
//   upc_barrier;
//
//   build/tools/upcrun -n 4 build/apps/classroom/min_distance/optimised [--nodes=N]
#include <cstdint>
#include <vector>

#include "min_distance.hpp"

namespace {

int run(const min_distance::options& opt) {
  const std::int64_t n = opt.nodes;
  // sloc classroom/min_distance/optimised decl begin
  const std::int64_t rows = classroom::block_of(n, THREADS);  // rows per thread
  upc::shared_array<int, upc::dynamic_block> d(static_cast<std::size_t>(n * n), upc::block(static_cast<std::size_t>(rows * n)));
  const auto [first, count] = classroom::part_of(n, THREADS, MYTHREAD);
  int* mine = count > 0 ? (&d[static_cast<std::size_t>(first * n)]).local() : nullptr;  // privatisation
  std::vector<int> row_k(static_cast<std::size_t>(n));
  // sloc classroom/min_distance/optimised decl end
  // sloc classroom/min_distance/optimised comp begin
  for (std::int64_t i = 0; i < count; ++i)
    for (std::int64_t j = 0; j < n; ++j) mine[i * n + j] = min_distance::initial_distance(first + i, j, n);
  // sloc classroom/min_distance/optimised comp end
  // sloc classroom/min_distance/optimised comm begin
  upc_barrier;
  // sloc classroom/min_distance/optimised comm end

  classroom::stopwatch clock;
  for (std::int64_t k = 0; k < n; ++k) {
    // sloc classroom/min_distance/optimised comm begin
    const int* dk = row_k.data();
    if (k >= first && k < first + count) dk = mine + (k - first) * n;  // my own row: read it in place
    else upc_memget(row_k.data(), &d[static_cast<std::size_t>(k * n)], static_cast<std::size_t>(n) * sizeof(int));
    // sloc classroom/min_distance/optimised comm end
    // sloc classroom/min_distance/optimised comp begin
    for (std::int64_t i = 0; i < count; ++i) {
      int* di = mine + i * n;
      const int dik = di[k];
      for (std::int64_t j = 0; j < n; ++j)
        if (dik + dk[j] < di[j]) di[j] = dik + dk[j];
    }
    // sloc classroom/min_distance/optimised comp end
    // sloc classroom/min_distance/optimised comm begin
    upc_barrier;  // row k+1 is final before step k+1 fetches it
    // sloc classroom/min_distance/optimised comm end
  }
  return classroom::on_thread0(clock, [&](double seconds) {
    return min_distance::check("optimised", opt, min_distance::collect(d, n), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(min_distance::code, "optimised", run, argc, argv); }
