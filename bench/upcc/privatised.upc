/* (a) a privatised loop: each thread casts &a[MYTHREAD*B] to a local pointer and
 * scales and sums its block. The C++ twin is privatised.cpp. */
#include <upc.h>
#include <stdio.h>
#include "kernels.h"

shared [PRIV_B] double a[PRIV_B * THREADS];

int main(void) {
  double t[KREPS], sum = 0;
  double *p = (double *)&a[MYTHREAD * PRIV_B];
  for (int j = 0; j < PRIV_B; j++) p[j] = (double)(j % 100);
  for (int r = -1; r < KREPS; r++) {
    upc_barrier;
    const double t0 = kernels_now();
    for (int k = 0; k < PRIV_PASSES; k++) {
      double *q = (double *)&a[MYTHREAD * PRIV_B];
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
    printf("upcemu-result {\"threads\": %d, \"backend\": \"%s\", \"kernel\": \"privatised\", \"language\": \"upc\", "
           "\"time_s\": %.6g, \"reps\": %d, \"checksum\": %.6g}\n",
           THREADS, kernels_backend(), kernels_median(t, KREPS), KREPS, sum);
  return 0;
}
