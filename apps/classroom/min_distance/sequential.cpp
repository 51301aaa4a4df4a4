// Stage 0 of the classroom Minimum Distance: the sequential Floyd-Warshall
// code, plain C++ with no UPC in its kernel. It keeps the kit's main() (so its
// result line looks like the others') and runs on thread 0 only: start it
// with -n 1.
//
//   build/tools/upcrun -n 1 build/apps/classroom/min_distance/sequential [--nodes=N]
#include <cstdint>
#include <vector>

#include "min_distance.hpp"

namespace {

// The distances after Floyd-Warshall (the k loop timed), checked.
int run(const min_distance::options& opt) {
  const std::int64_t n = opt.nodes;
  // sloc classroom/min_distance/sequential decl begin
  std::vector<int> d(static_cast<std::size_t>(n * n));
  // sloc classroom/min_distance/sequential decl end
  // sloc classroom/min_distance/sequential comp begin
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) d[static_cast<std::size_t>(i * n + j)] = min_distance::initial_distance(i, j, n);
  // sloc classroom/min_distance/sequential comp end
  classroom::stopwatch clock;
  // sloc classroom/min_distance/sequential comp begin
  for (std::int64_t k = 0; k < n; ++k)
    for (std::int64_t i = 0; i < n; ++i) {
      const int dik = d[static_cast<std::size_t>(i * n + k)];
      for (std::int64_t j = 0; j < n; ++j) {
        const int via_k = dik + d[static_cast<std::size_t>(k * n + j)];
        if (via_k < d[static_cast<std::size_t>(i * n + j)]) d[static_cast<std::size_t>(i * n + j)] = via_k;
      }
    }
  // sloc classroom/min_distance/sequential comp end
  return min_distance::check("sequential", opt, d, clock.seconds());
}

}  // namespace

int main(int argc, char** argv) { return classroom::sequential_main(min_distance::code, run, argc, argv); }
