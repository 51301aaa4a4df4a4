// Barriers whose waiters sleep, for the tests of the barrier's wake-up (issue 27.4):
// above 256 THREADS the sleepers of a phase are woken as a tree, each woken sleeper
// waking two more, and a wake that is not passed on leaves sleepers asleep until
// their safety-net timeout (200 ms at 300 THREADS). Run with UPCEMU_TUNE_YIELD=0 so
// that every waiter sleeps at once.
//
//   rounds R            R barriers; in each round a different thread arrives last,
//                       after a short pause, so the others are asleep when it does.
//                       Every thread checks that its neighbour's word written before
//                       the barrier is seen after it. Thread 0 prints "R rounds done".
//   dies R T            like rounds, but thread T throws after round R while the
//                       others sleep in the next barrier: the run must end with
//                       thread T's failure (nobody left asleep).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "upc.h"

upc::shared_array<long> passed(upc::per_thread(1));  // shared long passed[THREADS]: rounds passed

namespace {
int arg_int(int argc, char** argv, int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; }

// Round r: thread (r * 7) mod THREADS is late, so the others are asleep when it arrives.
bool late_in(int round) { return (round * 7) % THREADS == MYTHREAD; }
}  // namespace

int upc_main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const int rounds = arg_int(argc, argv, 2, 100);
  const int dies_after = mode == "dies" ? rounds : -1;
  const int who = arg_int(argc, argv, 3, THREADS - 1);
  const int total = mode == "dies" ? rounds + 2 : rounds;
  const int next = (MYTHREAD + 1) % THREADS;
  for (int r = 0; r < total; ++r) {
    passed[MYTHREAD] = r;
    if (late_in(r)) usleep(2000);
    if (r == dies_after) {
      usleep(200000);  // the others are asleep in this barrier by now
      if (MYTHREAD == who) throw std::runtime_error("dies between barriers");
    }
    upc_barrier;
    if (passed[next] < r) {
      std::fprintf(stderr, "thread %d: after barrier %d, thread %d's word is %ld\n", MYTHREAD, r, next,
                   static_cast<long>(passed[next]));
      return 2;
    }
    upc_barrier;  // nobody writes round r + 1 before every thread has checked round r
  }
  if (MYTHREAD == 0) std::printf("%d rounds done\n", rounds);
  return 0;
}
