// A UPC-style program built against an *installed* upcemu, from outside the
// source tree (tests/install/test_install.py):
//
//   c++ -std=c++20 prog.cpp $(pkg-config --cflags --libs upcemu) -o prog
//   upcrun -n 3 ./prog                 prints "THREADS 3: sum 1..30 = 465, lock 3, reduce 465"
//   upcrun -n 3 ./prog _exit 5         thread 1 calls _exit(5): the run is reported as
//                                      "thread 1 called _exit(5)", exit status 5 — which
//                                      works only when the pkg-config link has the --wrap flags
//
// It includes a top-level header, a nested one (upc/...) and the generated
// <upc_collective_ext.h>, so a header missing from the installed include
// folder fails the build.
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "upc.h"
#include "upc/remap.hpp"
#include "upc_collective.h"
#include "upc_collective_ext.h"

constexpr int N = 10;                                  // elements per thread
upc::shared_array<long, N> x{upc::per_thread(N)};      // shared [N] long x[N*THREADS];
upc::shared_array<long> partial(upc::per_thread(1));   // shared long partial[THREADS];
upc::shared<long> reduced;                             // the reduction's result, on thread 0
upc::shared<long> locked;                              // incremented under a lock

int upc_main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "_exit") == 0) {
    upc_barrier;
    if (MYTHREAD == 1 % THREADS) _exit(std::atoi(argv[2]));
    upc_barrier;  // the others wait here until the run is ended
    return 0;
  }
  upc_lock_t* lock = upc_all_lock_alloc();
  upc_forall (int i = 0; i < N * THREADS; i++, &x[i])  // UPC: (...; i++; &x[i])
    x[i] = i + 1;
  upc_barrier;
  long mine = 0;
  for (std::size_t i : upc::my_indices(x)) mine += x[i];
  partial[MYTHREAD] = mine;
  upc_lock(lock);
  locked = locked + 1;
  upc_unlock(lock);
  upc_all_reduceL(&reduced, partial, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr,
                  UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  upc_barrier;
  if (MYTHREAD != 0) return 0;
  long sum = 0;
  for (int t = 0; t < THREADS; ++t) sum += partial[t];
  const long n = static_cast<long>(N) * THREADS;
  std::printf("THREADS %d: sum 1..%ld = %ld, lock %ld, reduce %ld\n", THREADS, n, sum, locked.get(), reduced.get());
  return sum == n * (n + 1) / 2 && reduced.get() == sum && locked.get() == THREADS ? 0 : 1;
}
