// (c) fine-grained shared reads: over a cyclic array each thread reads, for each
// element it owns, that element (local) and its two neighbours (on the next and
// the previous thread: remote), and writes the sum to its own element of b. The
// UPC twin is neighbours.upc.
#include "../../harness/app_result.hpp"
#include "kernels.h"
#include "upc.h"

upc::shared_array<double> a{upc::per_thread(NEIGH_N)};  // shared double a[NEIGH_N*THREADS];
upc::shared_array<double> b{upc::per_thread(NEIGH_N)};  // shared double b[NEIGH_N*THREADS];

int upc_main(int, char**) {
  double t[KREPS], sum = 0;
  const int n = NEIGH_N * THREADS;
  for (int i = MYTHREAD; i < n; i += THREADS) a[i] = static_cast<double>(i % 100);
  for (int r = -1; r < KREPS; r++) {
    upc_barrier;
    const double t0 = kernels_now();
    for (int k = 0; k < NEIGH_PASSES; k++) {
      for (int i = MYTHREAD; i < n; i += THREADS) {
        const int l = i == 0 ? n - 1 : i - 1, h = i == n - 1 ? 0 : i + 1;
        b[i] = a[l] + a[i] + a[h];
      }
    }
    upc_barrier;
    if (r >= 0) t[r] = kernels_now() - t0;
  }
  for (int i = MYTHREAD; i < n; i += THREADS) sum += b[i];
  if (MYTHREAD == 0)
    apps::result_line({{"kernel", "neighbours"}, {"language", "cpp"}, {"time_s", kernels_median(t, KREPS)},
                       {"reps", KREPS}, {"checksum", sum}});
  return 0;
}
