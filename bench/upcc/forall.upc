/* (b) upc_forall over a blocked shared array with &f[i] affinity, writing each
 * element. The C++ twin is forall.cpp. */
#include <upc.h>
#include <stdio.h>
#include "kernels.h"

shared [FORALL_B] double f[FORALL_B * FORALL_BLOCKS * THREADS];

int main(void) {
  double t[KREPS], sum = 0;
  const int n = FORALL_B * FORALL_BLOCKS * THREADS;
  for (int r = -1; r < KREPS; r++) {
    upc_barrier;
    const double t0 = kernels_now();
    for (int k = 0; k < FORALL_PASSES; k++) {
      upc_forall (int i = 0; i < n; i++; &f[i]) f[i] = (double)i * 0.5 + k;
    }
    upc_barrier;
    if (r >= 0) t[r] = kernels_now() - t0;
  }
  upc_forall (int i = 0; i < n; i++; &f[i]) sum += f[i];
  if (MYTHREAD == 0)
    printf("upcemu-result {\"threads\": %d, \"backend\": \"%s\", \"kernel\": \"forall\", \"language\": \"upc\", "
           "\"time_s\": %.6g, \"reps\": %d, \"checksum\": %.6g}\n",
           THREADS, kernels_backend(), kernels_median(t, KREPS), KREPS, sum);
  return 0;
}
