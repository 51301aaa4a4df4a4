// Stage 0 of the classroom pi: the sequential Monte Carlo code, plain C++ with
// no UPC in its kernel. It keeps the kit's main() (so its result line looks like
// the others') and runs on thread 0 only: start it with -n 1.
//
//   build/tools/upcrun -n 1 build/apps/classroom/pi/sequential [--trials=N]
#include <cstdint>

#include "pi.hpp"

namespace {

int run(const pi::options& opt) {
  classroom::stopwatch clock;
  // sloc classroom/pi/sequential decl begin
  montecarlo::stream rng = montecarlo::stream_of(0, pi::seed);
  std::int64_t hits = 0;
  // sloc classroom/pi/sequential decl end
  // sloc classroom/pi/sequential comp begin
  for (std::int64_t i = 0; i < opt.trials; ++i)
    if (pi::throw_dart(rng)) ++hits;
  // sloc classroom/pi/sequential comp end
  return pi::check("sequential", opt, hits, 1, clock.seconds());
}

}  // namespace

int main(int argc, char** argv) { return classroom::sequential_main(pi::code, run, argc, argv); }
