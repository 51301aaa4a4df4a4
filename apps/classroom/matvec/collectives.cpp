// Stage 3 of the classroom matrix-vector product: the UPC standard
// collectives. The matrix and b start on thread 0 and c ends there, as the
// sequential program's do:
//   - upc_all_scatter hands each thread its block of rows (before the clock,
//     as the distribution of the data);
//   - upc_all_broadcast copies b into every thread's block of a shared array
//     (one copy per thread);
//   - upc_all_gather brings the blocks of c back to thread 0.
// The computation works on the privatised blocks, as in the optimised stage.
// The standard collectives move the same amount for every thread, from and to
// shared memory (§2.1.2): the matrix and c are padded to THREADS equal blocks.
//
//   upc_all_scatter(a, whole_a, R * N * sizeof(double), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   upc_all_broadcast(b, whole_b, N * sizeof(double), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   upc_all_gather(whole_c, c, R * sizeof(double), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//
//   build/tools/upcrun -n 4 build/apps/classroom/matvec/collectives [--n=N]
#include <cstdint>
#include <vector>

#include "matvec.hpp"
#include "upc_collective.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const matvec::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/matvec/collectives decl begin
  const std::size_t N = static_cast<std::size_t>(n), T = static_cast<std::size_t>(THREADS);
  const std::size_t me = static_cast<std::size_t>(MYTHREAD);
  const std::size_t rows = static_cast<std::size_t>(classroom::block_of(n, THREADS));  // rows per thread
  upc::shared_array<double, upc::indefinite> whole_a(rows * T * N), whole_b(N), whole_c(rows * T);  // on thread 0
  upc::shared_array<double, upc::dynamic_block> a(rows * T * N, upc::block(rows * N));
  upc::shared_array<double, upc::dynamic_block> b(N * T, upc::block(N));  // shared [N] double b[N*THREADS]
  upc::shared_array<double, upc::dynamic_block> c(rows * T, upc::block(rows));
  const std::int64_t count = classroom::part_of(n, THREADS, MYTHREAD).count;
  const double* my_a = (&a[me * rows * N]).local();
  const double* my_b = (&b[me * N]).local();
  double* my_c = (&c[me * rows]).local();
  // sloc classroom/matvec/collectives decl end
  // sloc classroom/matvec/collectives comp begin
  if (MYTHREAD == 0) {  // thread 0 holds the matrix and b, as the sequential program does
    double* wa = whole_a.data().local();
    double* wb = whole_b.data().local();
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) wa[i * n + j] = matvec::a_element(i, j);
    for (std::int64_t j = 0; j < n; ++j) wb[j] = matvec::b_element(j);
  }
  // sloc classroom/matvec/collectives comp end
  // sloc classroom/matvec/collectives comm begin
  upc_all_scatter(a, whole_a, rows * N * sizeof(double), sync_all);
  // sloc classroom/matvec/collectives comm end

  upc_barrier;
  classroom::stopwatch clock;
  // sloc classroom/matvec/collectives comm begin
  upc_all_broadcast(b, whole_b, N * sizeof(double), sync_all);
  // sloc classroom/matvec/collectives comm end
  // sloc classroom/matvec/collectives comp begin
  for (std::int64_t i = 0; i < count; ++i) {
    double sum = 0;
    for (std::int64_t j = 0; j < n; ++j) sum += my_a[i * n + j] * my_b[j];
    my_c[i] = sum;
  }
  // sloc classroom/matvec/collectives comp end
  // sloc classroom/matvec/collectives comm begin
  upc_all_gather(whole_c, c, rows * sizeof(double), sync_all);
  // sloc classroom/matvec/collectives comm end
  const double seconds = clock.seconds();

  if (MYTHREAD != 0) return 0;
  const double* wc = whole_c.data().local();
  return matvec::check("collectives", opt, std::vector<double>(wc, wc + n), seconds);
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(matvec::code, "collectives", run, argc, argv); }
