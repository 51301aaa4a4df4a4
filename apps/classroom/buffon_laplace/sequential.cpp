// Stage 0 of the classroom Buffon-Laplace needle: the sequential code, plain
// C++ with no UPC in its kernel. It keeps the kit's main() (so its result line
// looks like the others') and runs on thread 0 only: start it with -n 1.
//
//   build/tools/upcrun -n 1 build/apps/classroom/buffon_laplace/sequential [--trials=N]
#include <cstdint>

#include "buffon.hpp"

namespace {

int run(const buffon::options& opt) {
  const buffon::problem& p = opt.p;
  classroom::stopwatch clock;
  // sloc classroom/buffon_laplace/sequential decl begin
  montecarlo::stream rng = montecarlo::stream_of(0, buffon::seed);
  std::int64_t hits = 0;
  // sloc classroom/buffon_laplace/sequential decl end
  // sloc classroom/buffon_laplace/sequential comp begin
  for (long i = 0; i < p.trials; ++i)
    if (buffon::drop_needle(rng, p)) ++hits;
  // sloc classroom/buffon_laplace/sequential comp end
  return buffon::check("sequential", opt, hits, 1, clock.seconds());
}

}  // namespace

int main(int argc, char** argv) { return classroom::sequential_main(buffon::code, run, argc, argv); }
