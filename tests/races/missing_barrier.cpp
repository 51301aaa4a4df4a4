// Race kind: the other threads' results read with no barrier in between (the
// classroom's mistake 5.1). Wrong: thread 0 adds up hits[] as soon as its own
// is in; right: after a upc_barrier. Lines marked `race:` are the report's two
// sides (check_races.py).
#include "mode.hpp"
#include "upc.h"

upc::shared_array<long> hits(upc::per_thread(1));

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  hits[MYTHREAD] = MYTHREAD + 1;  // race: write
  if (right) upc_barrier;
  long total = 0;
  if (MYTHREAD == 0)
    for (int t = 0; t < THREADS; ++t) total += hits[t];  // race: read
  upc_barrier;
  return MYTHREAD == 0 && total != static_cast<long>(THREADS) * (THREADS + 1) / 2;
}
