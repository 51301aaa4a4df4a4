// Stage 0 of the classroom 2-D Stencil: the sequential code, plain C++ with no
// UPC in its kernel. It keeps the kit's main() (so its result line looks like
// the others') and runs on thread 0 only: start it with -n 1.
//
//   build/tools/upcrun -n 1 build/apps/classroom/stencil2d/sequential [--rows=R] [--cols=C] [--iterations=I]
#include <cstdint>
#include <utility>
#include <vector>

#include "stencil2d.hpp"

namespace {

// The grid after the iterations (timed), checked.
int run(const stencil2d::options& opt) {
  const std::int64_t rows = opt.rows, cols = opt.cols, iterations = opt.iterations;
  // sloc classroom/stencil2d/sequential decl begin
  std::vector<double> u(static_cast<std::size_t>(rows * cols)), v(u.size());
  // sloc classroom/stencil2d/sequential decl end
  // sloc classroom/stencil2d/sequential comp begin
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      u[static_cast<std::size_t>(r * cols + c)] = v[static_cast<std::size_t>(r * cols + c)] = stencil2d::initial_value(r, c);
  // sloc classroom/stencil2d/sequential comp end
  classroom::stopwatch clock;
  // sloc classroom/stencil2d/sequential comp begin
  for (std::int64_t it = 0; it < iterations; ++it) {
    for (std::int64_t r = 1; r + 1 < rows; ++r)
      for (std::int64_t c = 1; c + 1 < cols; ++c) {
        const std::size_t i = static_cast<std::size_t>(r * cols + c), C = static_cast<std::size_t>(cols);
        v[i] = stencil2d::update(u[i - C], u[i + C], u[i - 1], u[i + 1]);
      }
    std::swap(u, v);  // the new grid is the old one of the next iteration
  }
  // sloc classroom/stencil2d/sequential comp end
  return stencil2d::check("sequential", opt, u, clock.seconds());
}

}  // namespace

int main(int argc, char** argv) { return classroom::sequential_main(stencil2d::code, run, argc, argv); }
