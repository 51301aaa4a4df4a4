// Stage 3 of the classroom Buffon-Laplace needle: the UPC standard collectives.
// Thread 0 holds the problem (the grid, the needle and the number of trials,
// as if read from input) and upc_all_broadcast gives every thread its copy; the
// counts are combined by upc_all_reduceL instead of a loop over the shared
// array (or a lock). Both collectives work on shared memory only, so the
// problem and the counts go through shared arrays.
//
//   upc_all_broadcast(copies, &input, sizeof(problem), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   hits[MYTHREAD] = mine;
//   upc_all_reduceL(&total, hits, UPC_ADD, THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//
//   build/tools/upcrun -n 4 build/apps/classroom/buffon_laplace/collectives [--trials=N]
#include <cstdint>

#include "buffon.hpp"
#include "upc_collective.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const buffon::options& opt) {
  // sloc classroom/buffon_laplace/collectives decl begin
  upc::shared<buffon::problem> input;                             // the problem, on thread 0
  upc::shared_array<buffon::problem> copies(upc::per_thread(1));  // every thread's copy of it
  upc::shared_array<long> hits(upc::per_thread(1));               // shared long hits[THREADS];
  upc::shared<long> total;                                        // the reduction's result, on thread 0
  montecarlo::stream rng = montecarlo::stream_of(MYTHREAD, buffon::seed);
  long mine = 0;
  // sloc classroom/buffon_laplace/collectives decl end
  // sloc classroom/buffon_laplace/collectives comp begin
  if (MYTHREAD == 0) input = opt.p;
  // sloc classroom/buffon_laplace/collectives comp end
  upc_barrier;

  classroom::stopwatch clock;
  // sloc classroom/buffon_laplace/collectives comm begin
  upc_all_broadcast(copies, &input, sizeof(buffon::problem), sync_all);
  // sloc classroom/buffon_laplace/collectives comm end
  // sloc classroom/buffon_laplace/collectives comp begin
  const buffon::problem p = copies[MYTHREAD];
  const std::int64_t my_trials = montecarlo::trials_of(p.trials, THREADS, MYTHREAD);
  for (std::int64_t i = 0; i < my_trials; ++i)
    if (buffon::drop_needle(rng, p)) ++mine;
  hits[MYTHREAD] = mine;
  // sloc classroom/buffon_laplace/collectives comp end
  // sloc classroom/buffon_laplace/collectives comm begin
  upc_all_reduceL(&total, hits, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr, sync_all);
  // sloc classroom/buffon_laplace/collectives comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return buffon::check("collectives", opt, total.get(), THREADS, seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(buffon::code, "collectives", run, argc, argv); }
