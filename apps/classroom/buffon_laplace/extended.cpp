// Stage 4 of the classroom Buffon-Laplace needle: the extended collectives.
// The problem and the counts stay in private variables:
// upc_all_broadcast_in_place_priv copies thread 0's problem into every
// thread's own variable, and upc_all_reduceL_all_in_place_priv replaces every
// thread's count by the sum of all of them (an allreduce, in place, on private
// memory). No shared data is declared at all.
//
//   upc_all_broadcast_in_place_priv(&p, sizeof(problem), sync);
//   upc_all_reduceL_all_in_place_priv(&mine, UPC_ADD, THREADS, 1, NULL, sync);
//
//   build/tools/upcrun -n 4 build/apps/classroom/buffon_laplace/extended [--trials=N]
#include <cstdint>

#include "buffon.hpp"
#include "upc_collective_ext.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const buffon::options& opt) {
  // sloc classroom/buffon_laplace/extended decl begin
  buffon::problem p{};  // thread 0 holds the problem
  if (MYTHREAD == 0) p = opt.p;
  montecarlo::stream rng = montecarlo::stream_of(MYTHREAD, buffon::seed);
  long mine = 0;
  // sloc classroom/buffon_laplace/extended decl end
  upc_barrier;

  classroom::stopwatch clock;
  // sloc classroom/buffon_laplace/extended comm begin
  upc_all_broadcast_in_place_priv(&p, sizeof(buffon::problem), sync_all);
  // sloc classroom/buffon_laplace/extended comm end
  // sloc classroom/buffon_laplace/extended comp begin
  const std::int64_t my_trials = montecarlo::trials_of(p.trials, THREADS, MYTHREAD);
  for (std::int64_t i = 0; i < my_trials; ++i)
    if (buffon::drop_needle(rng, p)) ++mine;
  // sloc classroom/buffon_laplace/extended comp end
  // sloc classroom/buffon_laplace/extended comm begin
  upc_all_reduceL_all_in_place_priv(&mine, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr, sync_all);
  // sloc classroom/buffon_laplace/extended comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return buffon::check("extended", opt, mine, THREADS, seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(buffon::code, "extended", run, argc, argv); }
