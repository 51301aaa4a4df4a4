// Stage 0 of the classroom Stencil: the sequential code a teacher hands out,
// plain C++ with no UPC in its kernel. Students parallelise this loop nest.
// It keeps the kit's main() (so its result line looks like the others'), and
// runs on thread 0 only: start it with -n 1.
//
//   build/tools/upcrun -n 1 build/apps/classroom/stencil/sequential [--n=N] [--iterations=I]
#include <cstdint>
#include <utility>
#include <vector>

#include "stencil.hpp"

namespace {

// The vector after the iterations (timed), checked.
int run(const stencil::options& opt) {
  const std::int64_t n = opt.n, iterations = opt.iterations;
  // sloc classroom/stencil/sequential decl begin
  std::vector<double> u(static_cast<std::size_t>(n)), v(static_cast<std::size_t>(n));
  // sloc classroom/stencil/sequential decl end
  // sloc classroom/stencil/sequential comp begin
  for (std::int64_t i = 0; i < n; ++i) u[static_cast<std::size_t>(i)] = v[static_cast<std::size_t>(i)] = stencil::initial_value(i);
  // sloc classroom/stencil/sequential comp end
  classroom::stopwatch clock;
  // sloc classroom/stencil/sequential comp begin
  for (std::int64_t it = 0; it < iterations; ++it) {
    for (std::size_t i = 1; i + 1 < u.size(); ++i) v[i] = stencil::update(u[i - 1], u[i], u[i + 1]);
    std::swap(u, v);  // the new vector is the old one of the next iteration
  }
  // sloc classroom/stencil/sequential comp end
  return stencil::check("sequential", opt, u, clock.seconds());
}

}  // namespace

int main(int argc, char** argv) { return classroom::sequential_main(stencil::code, run, argc, argv); }
