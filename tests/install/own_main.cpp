// A program with its own main() (as the benchmarks have), built against an
// installed upcemu with `pkg-config --cflags --libs upcemu-nomain`: it reads the
// UPCEMU_* settings itself and starts its SPMD run with upc::run
// (tests/install/test_install.py).
#include <cstdio>
#include <functional>

#include "upc.h"

upc::shared_array<int> seen(upc::per_thread(1));  // shared int seen[THREADS];

int main() {
  upc::launch_options opt = upc::launch_options::from_environment();
  if (opt.threads == 0) opt.threads = 2;
  const upc::run_result r = upc::run(opt, std::function<int()>([] {
    seen[MYTHREAD] = MYTHREAD + 1;
    upc_barrier;
    if (MYTHREAD != 0) return 0;
    int total = 0;
    for (int t = 0; t < THREADS; ++t) total += seen[t];
    return total == THREADS * (THREADS + 1) / 2 ? 0 : 1;
  }));
  std::printf("own main: %d threads, exit code %d%s\n", opt.threads, r.exit_code, r.failed ? ", failed" : "");
  return r.ok() ? 0 : 1;
}
