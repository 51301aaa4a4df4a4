// Hello, UPC: every thread greets, thread 0 checks that everyone did.
#include <cstdio>

#include "upc.h"

upc::shared_array<int> greeted(upc::per_thread(1));  // shared int greeted[THREADS];

int upc_main(int, char**) {
  std::printf("Hello from thread %d of %d\n", MYTHREAD, THREADS);
  greeted[MYTHREAD] = 1;
  upc_barrier;
  if (MYTHREAD == 0) {
    int count = 0;
    for (int t = 0; t < THREADS; ++t) count += greeted[t];
    std::printf("%d of %d threads said hello\n", count, THREADS);
    return count == THREADS ? 0 : 1;
  }
  return 0;
}
