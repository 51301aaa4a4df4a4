// Stage 4 of the classroom matrix-vector product: the extended collectives.
// The matrix and the vectors live in private memory from start to end: no
// shared array for the data, no padding, nothing privatised by hand.
//   - upc_all_scatter_v_local_priv hands each thread exactly its rows (_v: the
//     last threads may get fewer) from thread 0's private matrix into a
//     private array (before the clock, as the distribution of the data);
//   - upc_all_broadcast_in_place_priv copies thread 0's private b into every
//     thread's private b (in place: the same buffer is source and
//     destination);
//   - upc_all_gather_v_local_priv brings each thread's part of c back into
//     thread 0's private c.
//
//   upc_all_scatter_v_local_priv(my_a, a, disp, rows_n, R * N, sizeof(double), sync);
//   upc_all_broadcast_in_place_priv(b, N * sizeof(double), sync);
//   upc_all_gather_v_local_priv(c, my_c, disp, rows_1, R, sizeof(double), sync);
//
//   build/tools/upcrun -n 4 build/apps/classroom/matvec/extended [--n=N]
#include <cstdint>
#include <vector>

#include "matvec.hpp"
#include "upc_collective_ext.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const matvec::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/matvec/extended decl begin
  const std::size_t N = static_cast<std::size_t>(n);
  const std::size_t rows = static_cast<std::size_t>(classroom::block_of(n, THREADS));  // rows per thread
  const std::size_t count = static_cast<std::size_t>(classroom::part_of(n, THREADS, MYTHREAD).count);
  std::vector<double> a(MYTHREAD == 0 ? N * N : 0), c(MYTHREAD == 0 ? N : 0);  // thread 0's matrix and c
  std::vector<double> b(N), my_a(count * N), my_c(count);
  upc::shared_array<int> disp(upc::per_thread(1));             // where each thread's part starts in its buffer
  upc::shared_array<std::size_t> rows_n(upc::per_thread(1));  // how many matrix elements each thread gets
  upc::shared_array<std::size_t> rows_1(upc::per_thread(1));  // how many elements of c each thread has
  // sloc classroom/matvec/extended decl end
  // sloc classroom/matvec/extended comp begin
  for (std::size_t e = 0; e < a.size(); ++e)
    a[e] = matvec::a_element(static_cast<std::int64_t>(e / N), static_cast<std::int64_t>(e % N));
  if (MYTHREAD == 0)
    for (std::size_t j = 0; j < N; ++j) b[j] = matvec::b_element(static_cast<std::int64_t>(j));
  // sloc classroom/matvec/extended comp end
  // sloc classroom/matvec/extended comm begin
  disp[MYTHREAD] = 0;
  rows_n[MYTHREAD] = count * N;
  rows_1[MYTHREAD] = count;
  upc_all_scatter_v_local_priv(my_a.data(), a.data(), disp, rows_n, rows * N, sizeof(double), sync_all);
  // sloc classroom/matvec/extended comm end

  upc_barrier;
  classroom::stopwatch clock;
  // sloc classroom/matvec/extended comm begin
  upc_all_broadcast_in_place_priv(b.data(), N * sizeof(double), sync_all);
  // sloc classroom/matvec/extended comm end
  // sloc classroom/matvec/extended comp begin
  for (std::size_t i = 0; i < count; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < N; ++j) sum += my_a[i * N + j] * b[j];
    my_c[i] = sum;
  }
  // sloc classroom/matvec/extended comp end
  // sloc classroom/matvec/extended comm begin
  upc_all_gather_v_local_priv(c.data(), my_c.data(), disp, rows_1, rows, sizeof(double), sync_all);
  // sloc classroom/matvec/extended comm end
  return classroom::on_thread0(clock, [&](double seconds) { return matvec::check("extended", opt, c, seconds); });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(matvec::code, "extended", run, argc, argv); }
