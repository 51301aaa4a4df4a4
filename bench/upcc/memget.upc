/* (d) upc_memget of rows: each thread fetches the ROWS rows (one block each) of
 * the next thread into a private buffer and reads both ends of each. The C++
 * twin is memget.cpp. */
#include <upc.h>
#include <stdio.h>
#include "kernels.h"

shared [ROW] double m[ROW * ROWS * THREADS];

int main(void) {
  static double buf[ROW];
  double t[KREPS], sum = 0;
  for (int i = 0; i < ROWS; i++) {
    double *mine = (double *)&m[(i * THREADS + MYTHREAD) * ROW];
    for (int j = 0; j < ROW; j++) mine[j] = (double)((i + j) % 100);
  }
  const int peer = (MYTHREAD + 1) % THREADS;
  for (int r = -1; r < KREPS; r++) {
    upc_barrier;
    const double t0 = kernels_now();
    for (int k = 0; k < MEMGET_PASSES; k++) {
      for (int i = 0; i < ROWS; i++) {
        upc_memget(buf, &m[(i * THREADS + peer) * ROW], ROW * sizeof(double));
        sum += buf[0] + buf[ROW - 1];
      }
    }
    upc_barrier;
    if (r >= 0) t[r] = kernels_now() - t0;
  }
  if (MYTHREAD == 0)
    printf("upcemu-result {\"threads\": %d, \"backend\": \"%s\", \"kernel\": \"memget\", \"language\": \"upc\", "
           "\"time_s\": %.6g, \"reps\": %d, \"checksum\": %.6g}\n",
           THREADS, kernels_backend(), kernels_median(t, KREPS), KREPS, sum);
  return 0;
}
