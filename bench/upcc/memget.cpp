// (d) upc_memget of rows: each thread fetches the ROWS rows (one block each) of
// the next thread into a private buffer and reads both ends of each. The UPC twin
// is memget.upc.
#include "../../harness/app_result.hpp"
#include "kernels.h"
#include "upc.h"

upc::shared_array<double, ROW> m{upc::per_thread(ROW * ROWS)};  // shared [ROW] double m[ROW*ROWS*THREADS];

int upc_main(int, char**) {
  static thread_local double buf[ROW];  // private to each UPC thread, as upcc makes a static (_Thread_local)
  double t[KREPS], sum = 0;
  for (int i = 0; i < ROWS; i++) {
    double* mine = static_cast<double*>(&m[(i * THREADS + MYTHREAD) * ROW]);
    for (int j = 0; j < ROW; j++) mine[j] = static_cast<double>((i + j) % 100);
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
    apps::result_line({{"kernel", "memget"}, {"language", "cpp"}, {"time_s", kernels_median(t, KREPS)},
                       {"reps", KREPS}, {"checksum", sum}});
  return 0;
}
