// Several upc::run in one program on the mpi backend (docs/backends.md): each
// run on every rank, with fresh per-thread state; a run whose THREADS is not
// the number of ranks raises upc::error alike on every rank, and the program
// goes on. Exit status 0 when all of that holds.
#include <cstdio>
#include <string>

#include "upc.h"

namespace {
int one_run(int threads) {
  upc::launch_options o = upc::launch_options::from_environment();
  o.threads = threads;
  // Each run sums MYTHREAD through a shared array allocated in that run.
  const upc::run_result r = upc::run(o, std::function<int()>([] {
    upc::sptr<int> a = upc_all_alloc(THREADS, sizeof(int));
    a[MYTHREAD] = MYTHREAD;
    upc_barrier;
    int sum = 0;
    for (int t = 0; t < THREADS; ++t) sum += a[t];
    upc_barrier;
    upc_all_free(a);
    return sum == THREADS * (THREADS - 1) / 2 ? 0 : 1;
  }));
  return r.ok() ? 0 : 1;
}
}  // namespace

int main() {
  const upc::launch_options env = upc::launch_options::from_environment();
  const int ranks = env.threads;
  int bad = one_run(ranks) + one_run(ranks);
  try {
    one_run(ranks + 1);
    std::puts("several_runs: a run with THREADS = ranks + 1 was not refused");
    ++bad;
  } catch (const upc::error& e) {
    if (std::string(e.what()).find("THREADS is " + std::to_string(ranks + 1)) == std::string::npos) {
      std::printf("several_runs: unexpected refusal: %s\n", e.what());
      ++bad;
    }
  }
  bad += one_run(ranks);
  if (bad == 0 && upc::current_backend() == upc::backend_kind::mpi) std::puts("several_runs: ok");
  return bad == 0 ? 0 : 1;
}
