// Stage 3 of the classroom pi: the UPC standard collectives. Thread 0 holds the
// problem (the number of trials, as if read from input) and upc_all_broadcast
// gives every thread its copy; the counts are combined by upc_all_reduceL
// instead of a loop over the shared array (or a lock). Both collectives work on
// shared memory only, so the problem and the counts go through shared arrays.
//
//   upc_all_broadcast(problem, &input, sizeof(long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   hits[MYTHREAD] = mine;
//   upc_all_reduceL(&total, hits, UPC_ADD, THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//
//   build/tools/upcrun -n 4 build/apps/classroom/pi/collectives [--trials=N]
#include <cstdint>

#include "pi.hpp"
#include "upc_collective.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const pi::options& opt) {
  // sloc classroom/pi/collectives decl begin
  upc::shared<long> input;                              // the problem, on thread 0
  upc::shared_array<long> problem(upc::per_thread(1));  // every thread's copy of it
  upc::shared_array<long> hits(upc::per_thread(1));     // shared long hits[THREADS];
  upc::shared<long> total;                              // the reduction's result, on thread 0
  montecarlo::stream rng = montecarlo::stream_of(MYTHREAD, pi::seed);
  long mine = 0;
  // sloc classroom/pi/collectives decl end
  // sloc classroom/pi/collectives comp begin
  if (MYTHREAD == 0) input = opt.trials;
  // sloc classroom/pi/collectives comp end
  upc_barrier;

  classroom::stopwatch clock;
  // sloc classroom/pi/collectives comm begin
  upc_all_broadcast(problem, &input, sizeof(long), sync_all);
  // sloc classroom/pi/collectives comm end
  // sloc classroom/pi/collectives comp begin
  const std::int64_t my_trials = montecarlo::trials_of(problem[MYTHREAD], THREADS, MYTHREAD);
  for (std::int64_t i = 0; i < my_trials; ++i)
    if (pi::throw_dart(rng)) ++mine;
  hits[MYTHREAD] = mine;
  // sloc classroom/pi/collectives comp end
  // sloc classroom/pi/collectives comm begin
  upc_all_reduceL(&total, hits, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr, sync_all);
  // sloc classroom/pi/collectives comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return pi::check("collectives", opt, total.get(), THREADS, seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(pi::code, "collectives", run, argc, argv); }
