// Stage 2 of the classroom pi: private accumulation. Each thread runs exactly
// its own trials in a plain loop (no upc_forall testing all N), counts its hits
// in a private variable, and writes its count once to its element of a shared
// array; after one barrier, thread 0 adds the THREADS counts. No lock: no two
// threads ever write the same element.
//
//   long mine = 0;
//   for (i = 0; i < my_trials; i++) if (dart()) mine++;
//   hits[MYTHREAD] = mine;
//   upc_barrier;
//   if (MYTHREAD == 0) for (t = 0; t < THREADS; t++) total += hits[t];
//
//   build/tools/upcrun -n 4 build/apps/classroom/pi/optimised [--trials=N]
#include <cstdint>

#include "pi.hpp"

namespace {

int run(const pi::options& opt) {
  // sloc classroom/pi/optimised decl begin
  upc::shared_array<long> hits(upc::per_thread(1));  // shared long hits[THREADS];
  montecarlo::stream rng = montecarlo::stream_of(MYTHREAD, pi::seed);
  const std::int64_t my_trials = montecarlo::trials_of(opt.trials, THREADS, MYTHREAD);
  long mine = 0;
  // sloc classroom/pi/optimised decl end
  upc_barrier;

  classroom::stopwatch clock;
  // sloc classroom/pi/optimised comp begin
  for (std::int64_t i = 0; i < my_trials; ++i)
    if (pi::throw_dart(rng)) ++mine;
  hits[MYTHREAD] = mine;  // one write, to this thread's own element
  // sloc classroom/pi/optimised comp end
  // sloc classroom/pi/optimised comm begin
  upc_barrier;  // every count is in before thread 0 reads them
  // sloc classroom/pi/optimised comm end
  long total = 0;
  if (MYTHREAD == 0) {
    // sloc classroom/pi/optimised comp begin
    for (int t = 0; t < THREADS; ++t) total += hits[t];
    // sloc classroom/pi/optimised comp end
  }
  return classroom::on_thread0(clock, [&](double seconds) {
    return pi::check("optimised", opt, total, THREADS, seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(pi::code, "optimised", run, argc, argv); }
