// The parts of a test program of tests/mpi: every thread gives its verdict on
// a part, thread 0 prints "ok NAME" or "FAILED NAME" once all have, and
// failed_parts counts the failures (the program's exit status).
#pragma once
#include <cstdio>

#include "upc.h"

namespace parts {

inline int failed_parts = 0;

inline void part(const char* name, bool ok_here) {
  static upc::shared_array<int> verdicts(upc::per_thread(1));
  verdicts[MYTHREAD] = ok_here ? 1 : 0;
  upc_barrier;
  int ok = 1;
  for (int t = 0; t < THREADS; ++t) ok &= verdicts[t];
  upc_barrier;
  if (!ok) ++failed_parts;
  if (MYTHREAD == 0) std::printf("%s %s\n", ok ? "ok" : "FAILED", name);
  std::fflush(stdout);
}

}  // namespace parts
