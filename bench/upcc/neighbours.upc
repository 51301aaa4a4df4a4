/* (c) fine-grained shared reads: over a cyclic array each thread reads, for each
 * element it owns, that element (local) and its two neighbours (on the next and
 * the previous thread: remote), and writes the sum to its own element of b. The
 * C++ twin is neighbours.cpp. */
#include <upc.h>
#include <stdio.h>
#include "kernels.h"

shared double a[NEIGH_N * THREADS];
shared double b[NEIGH_N * THREADS];

int main(void) {
  double t[KREPS], sum = 0;
  const int n = NEIGH_N * THREADS;
  for (int i = MYTHREAD; i < n; i += THREADS) a[i] = (double)(i % 100);
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
    printf("upcemu-result {\"threads\": %d, \"backend\": \"%s\", \"kernel\": \"neighbours\", \"language\": \"upc\", "
           "\"time_s\": %.6g, \"reps\": %d, \"checksum\": %.6g}\n",
           THREADS, kernels_backend(), kernels_median(t, KREPS), KREPS, sum);
  return 0;
}
