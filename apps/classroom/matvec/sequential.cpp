// Stage 0 of the classroom matrix-vector product: the sequential code, plain
// C++ with no UPC in its kernel. It keeps the kit's main() (so its result line
// looks like the others') and runs on thread 0 only: start it with -n 1.
//
//   build/tools/upcrun -n 1 build/apps/classroom/matvec/sequential [--n=N]
#include <cstdint>
#include <vector>

#include "matvec.hpp"

namespace {

// c = a b (the product timed), checked.
int run(const matvec::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/matvec/sequential decl begin
  std::vector<double> a(static_cast<std::size_t>(n * n)), b(static_cast<std::size_t>(n)), c(static_cast<std::size_t>(n));
  // sloc classroom/matvec/sequential decl end
  // sloc classroom/matvec/sequential comp begin
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) a[static_cast<std::size_t>(i * n + j)] = matvec::a_element(i, j);
  for (std::int64_t j = 0; j < n; ++j) b[static_cast<std::size_t>(j)] = matvec::b_element(j);
  // sloc classroom/matvec/sequential comp end
  classroom::stopwatch clock;
  // sloc classroom/matvec/sequential comp begin
  for (std::int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::int64_t j = 0; j < n; ++j) sum += a[static_cast<std::size_t>(i * n + j)] * b[static_cast<std::size_t>(j)];
    c[static_cast<std::size_t>(i)] = sum;
  }
  // sloc classroom/matvec/sequential comp end
  return matvec::check("sequential", opt, c, clock.seconds());
}

}  // namespace

int main(int argc, char** argv) { return classroom::sequential_main(matvec::code, run, argc, argv); }
