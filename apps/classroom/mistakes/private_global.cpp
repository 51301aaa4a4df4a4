// Mistake: a C++ global used as a UPC private variable. In UPC every variable
// that is not shared is private: each thread has its own `long done`. In
// upcemu's threads backend the UPC threads are OS threads of one process, and
// a namespace-scope C++ variable is one variable for all of them (docs/
// user-guide.md §3); on the processes backend each thread has its copy, as in
// UPC. The fix: `thread_local long done;`, or a local variable.
//
// upcemu says nothing; the program's own check finds the wrong count on the
// threads backend, and the processes backend gives the right one: run your
// programs on both.
#include <cstdio>

#include "upc.h"

long done = 0;  // MISTAKE: meant to be one per thread (thread_local long done = 0;)
upc::shared_array<long> counts(upc::per_thread(1));

int upc_main(int, char**) {
  for (int i = 0; i < 1000; ++i) done = done + 1;  // this thread's work
  upc_barrier;
  counts[MYTHREAD] = done;  // each thread reports what it did
  upc_barrier;
  if (MYTHREAD != 0) return 0;
  int wrong = 0;
  for (int t = 0; t < THREADS; ++t)
    if (counts[t] != 1000 && wrong++ < 3) std::printf("WRONG: thread %d counted %ld units of its work, not 1000\n", t, static_cast<long>(counts[t]));
  std::printf("%s\n", wrong ? "the private counters were not private" : "every thread counted its own work");
  return wrong ? 1 : 0;
}
