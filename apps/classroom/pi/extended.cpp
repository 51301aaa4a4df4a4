// Stage 4 of the classroom pi: the extended collectives. The problem and the
// counts stay in private variables: upc_all_broadcast_in_place_priv copies
// thread 0's number of trials into every thread's own variable, and
// upc_all_reduceL_all_in_place_priv replaces every thread's count by the sum of
// all of them (an allreduce, in place, on private memory). No shared data is
// declared at all.
//
//   upc_all_broadcast_in_place_priv(&trials, sizeof(long), sync);
//   upc_all_reduceL_all_in_place_priv(&mine, UPC_ADD, THREADS, 1, NULL, sync);
//
//   build/tools/upcrun -n 4 build/apps/classroom/pi/extended [--trials=N]
#include <cstdint>

#include "pi.hpp"
#include "upc_collective_ext.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const pi::options& opt) {
  // sloc classroom/pi/extended decl begin
  long trials = MYTHREAD == 0 ? opt.trials : 0;  // thread 0 holds the problem
  montecarlo::stream rng = montecarlo::stream_of(MYTHREAD, pi::seed);
  long mine = 0;
  // sloc classroom/pi/extended decl end
  upc_barrier;

  classroom::stopwatch clock;
  // sloc classroom/pi/extended comm begin
  upc_all_broadcast_in_place_priv(&trials, sizeof(long), sync_all);
  // sloc classroom/pi/extended comm end
  // sloc classroom/pi/extended comp begin
  const std::int64_t my_trials = montecarlo::trials_of(trials, THREADS, MYTHREAD);
  long count = 0;  // not `mine` itself: its address goes to the collective, which would keep it in memory
  for (std::int64_t i = 0; i < my_trials; ++i)
    if (pi::throw_dart(rng)) ++count;
  mine = count;
  // sloc classroom/pi/extended comp end
  // sloc classroom/pi/extended comm begin
  upc_all_reduceL_all_in_place_priv(&mine, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr, sync_all);
  // sloc classroom/pi/extended comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return pi::check("extended", opt, mine, THREADS, seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(pi::code, "extended", run, argc, argv); }
