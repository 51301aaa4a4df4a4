// (a) a privatised loop: each thread casts &a[MYTHREAD*B] to a local pointer and
// scales and sums its block. The UPC twin is privatised.upc.
#include "../../harness/app_result.hpp"
#include "kernels.h"
#include "upc.h"

upc::shared_array<double, PRIV_B> a{upc::per_thread(PRIV_B)};  // shared [PRIV_B] double a[PRIV_B*THREADS];

int upc_main(int, char**) {
  double t[KREPS], sum = 0;
  double* p = static_cast<double*>(&a[MYTHREAD * PRIV_B]);
  for (int j = 0; j < PRIV_B; j++) p[j] = static_cast<double>(j % 100);
  for (int r = -1; r < KREPS; r++) {
    upc_barrier;
    const double t0 = kernels_now();
    for (int k = 0; k < PRIV_PASSES; k++) {
      double* q = static_cast<double*>(&a[MYTHREAD * PRIV_B]);
      double s = 0;
      for (int j = 0; j < PRIV_B; j++) {
        q[j] = q[j] * 0.5 + 1.0;
        s += q[j];
      }
      sum += s;
    }
    upc_barrier;
    if (r >= 0) t[r] = kernels_now() - t0;
  }
  if (MYTHREAD == 0)
    apps::result_line({{"kernel", "privatised"}, {"language", "cpp"}, {"time_s", kernels_median(t, KREPS)},
                       {"reps", KREPS}, {"checksum", sum}});
  return 0;
}
