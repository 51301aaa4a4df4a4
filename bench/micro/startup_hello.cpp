// The program startup_time starts over and over: hello, as a user writes it first.
// Every thread greets and marks itself in a shared array; after a barrier thread 0
// counts the marks and prints "N of N threads said hello" (status 1 if one is
// missing). Run alone it is just hello: UPCEMU_THREADS=8 ./startup_hello
#include <cstdio>

#include "upc.h"

int upc_main(int, char**) {
  upc::shared_array<int> greeted(upc::per_thread(1));
  std::printf("Hello from thread %d of %d\n", MYTHREAD, THREADS);
  greeted[MYTHREAD] = 1;
  upc_barrier;
  if (MYTHREAD != 0) return 0;
  int count = 0;
  for (int t = 0; t < THREADS; ++t) count += greeted[t];
  std::printf("%d of %d threads said hello\n", count, THREADS);
  return count == THREADS ? 0 : 1;
}
