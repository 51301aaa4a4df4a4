// Stage 1 of the classroom Minimum Distance: the first UPC version. The matrix
// is a shared array blocked by whole rows (thread t owns rows t*R .. t*R+R-1,
// R = ceil(N / THREADS)), upc_forall gives each row to its owner, and every
// element is read and written through the shared array; row k, which every
// thread needs in step k, is read one element at a time from its owner. A
// barrier ends each step, so that row k+1 is final before anyone reads it.
//
//   shared [R*N] int d[N][N];
//   for (k = 0; k < N; k++) {
//     upc_forall (i = 0; i < N; i++; &d[i][0])
//       for (j = 0; j < N; j++) if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
//     upc_barrier;
//   }
//
//   build/tools/upcrun -n 4 build/apps/classroom/min_distance/naive [--nodes=N]
#include <cstdint>

#include "min_distance.hpp"

namespace {

int run(const min_distance::options& opt) {
  const std::int64_t n = opt.nodes;
  // sloc classroom/min_distance/naive decl begin
  const std::size_t rows = static_cast<std::size_t>(classroom::block_of(n, THREADS));  // rows per thread
  upc::shared_array<int, upc::dynamic_block> d(static_cast<std::size_t>(n * n), upc::block(rows * static_cast<std::size_t>(n)));
  // sloc classroom/min_distance/naive decl end
  // sloc classroom/min_distance/naive comp begin
  upc_forall (std::int64_t i = 0; i < n * n; i++, &d[i]) d[i] = min_distance::initial_distance(i / n, i % n, n);
  // sloc classroom/min_distance/naive comp end
  // sloc classroom/min_distance/naive comm begin
  upc_barrier;
  // sloc classroom/min_distance/naive comm end

  classroom::stopwatch clock;
  for (std::int64_t k = 0; k < n; ++k) {
    // sloc classroom/min_distance/naive comp begin
    upc_forall (std::int64_t i = 0; i < n; i++, &d[i * n]) {
      const int dik = d[i * n + k];
      for (std::int64_t j = 0; j < n; ++j) {
        const int via_k = dik + d[k * n + j];  // row k: another thread's, most of the time
        if (via_k < d[i * n + j]) d[i * n + j] = via_k;
      }
    }
    // sloc classroom/min_distance/naive comp end
    // sloc classroom/min_distance/naive comm begin
    upc_barrier;  // row k+1 is final before step k+1 reads it
    // sloc classroom/min_distance/naive comm end
  }
  return classroom::on_thread0(clock, [&](double seconds) {
    return min_distance::check("naive", opt, min_distance::collect(d, n), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(min_distance::code, "naive", run, argc, argv); }
