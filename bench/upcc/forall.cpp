// (b) upc_forall over a blocked shared array with &f[i] affinity, writing each
// element. The UPC twin is forall.upc.
#include "../../harness/app_result.hpp"
#include "kernels.h"
#include "upc.h"

// shared [FORALL_B] double f[FORALL_B*FORALL_BLOCKS*THREADS];
upc::shared_array<double, FORALL_B> f{upc::per_thread(FORALL_B * FORALL_BLOCKS)};

int upc_main(int, char**) {
  double t[KREPS], sum = 0;
  const int n = FORALL_B * FORALL_BLOCKS * THREADS;
  for (int r = -1; r < KREPS; r++) {
    upc_barrier;
    const double t0 = kernels_now();
    for (int k = 0; k < FORALL_PASSES; k++) {
      upc_forall(int i = 0; i < n; i++, &f[i]) f[i] = static_cast<double>(i) * 0.5 + k;
    }
    upc_barrier;
    if (r >= 0) t[r] = kernels_now() - t0;
  }
  upc_forall(int i = 0; i < n; i++, &f[i]) sum += f[i];
  if (MYTHREAD == 0)
    apps::result_line({{"kernel", "forall"}, {"language", "cpp"}, {"time_s", kernels_median(t, KREPS)},
                       {"reps", KREPS}, {"checksum", sum}});
  return 0;
}
