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

// The vector after `iterations` steps; `seconds` gets the time of the iterations.
std::vector<double> run_stencil(std::int64_t n, std::int64_t iterations, double& seconds) {
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
  seconds = clock.seconds();
  return u;
}

}  // namespace

int main(int argc, char** argv) {
  stencil::options opt;
  if (auto status = stencil::parse(argc, argv, "sequential", opt)) return *status;
  return apps::launch("classroom/stencil/sequential", stencil::heap_bytes(opt), [&] {
    if (MYTHREAD != 0) return 0;  // the sequential code runs on thread 0 alone
    double seconds = 0;
    const std::vector<double> u = run_stencil(opt.n, opt.iterations, seconds);
    return stencil::check("sequential", opt, u, seconds);
  });
}
