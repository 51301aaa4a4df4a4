// Mistake: a collective called with different arguments on different threads.
// Each thread broadcasts "its" number of elements, computed from its own share
// of the work; but nbytes of upc_all_broadcast is single-valued: every thread
// must pass the same value (and the same src, dst and flags). The fix: compute
// the size from the problem, not from MYTHREAD.
//
// upcemu compares the calls in every run and stops, naming the function, the
// argument, both values and both threads.
#include <cstdio>

#include "upc.h"
#include "upc_collective.h"

constexpr int most = 8;
upc::shared_array<int, upc::indefinite> source(most);   // on thread 0
upc::shared_array<int, most> copies{upc::per_thread(most)};

int upc_main(int, char**) {
  const int n = 10;  // elements to share out
  const int mine = n / THREADS + (MYTHREAD < n % THREADS ? 1 : 0);
  if (MYTHREAD == 0)
    for (int i = 0; i < most; ++i) source[i] = i;
  upc_barrier;
  // MISTAKE: nbytes differs between threads
  upc_all_broadcast(copies, source, mine * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  if (MYTHREAD == 0) std::printf("broadcast done\n");
  return 0;
}
