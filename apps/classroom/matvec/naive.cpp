// Stage 1 of the classroom matrix-vector product: the seminar's UPC version
// (the Berkeley slides'). The matrix is a shared array blocked by whole rows
// (thread t owns rows t*R .. t*R+R-1, R = ceil(N / THREADS)), c is blocked the
// same way, so that c[i] lives with row i, and b is spread round robin (the
// default layout). upc_forall gives each c[i] to its owner, and every element
// is read and written through the shared arrays: the row is local, most of b
// is another thread's.
//
//   shared [R*N] double a[N][N];  shared double b[N];  shared [R] double c[N];
//   upc_forall (i = 0; i < N; i++; &c[i]) {
//     c[i] = 0;
//     for (j = 0; j < N; j++) c[i] += a[i][j] * b[j];
//   }
//   upc_barrier;
//
//   build/tools/upcrun -n 4 build/apps/classroom/matvec/naive [--n=N]
#include <cstdint>

#include "matvec.hpp"

namespace {

int run(const matvec::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/matvec/naive decl begin
  const std::size_t N = static_cast<std::size_t>(n), rows = static_cast<std::size_t>(classroom::block_of(n, THREADS));
  upc::shared_array<double, upc::dynamic_block> a(N * N, upc::block(rows * N));  // blocked by rows
  upc::shared_array<double> b(N);                                                // round robin
  upc::shared_array<double, upc::dynamic_block> c(N, upc::block(rows));          // c[i] with row i
  // sloc classroom/matvec/naive decl end
  // sloc classroom/matvec/naive comp begin
  upc_forall (std::int64_t e = 0; e < n * n; e++, &a[e]) a[e] = matvec::a_element(e / n, e % n);
  upc_forall (std::int64_t j = 0; j < n; j++, &b[j]) b[j] = matvec::b_element(j);
  // sloc classroom/matvec/naive comp end
  // sloc classroom/matvec/naive comm begin
  upc_barrier;
  // sloc classroom/matvec/naive comm end

  classroom::stopwatch clock;
  // sloc classroom/matvec/naive comp begin
  upc_forall (std::int64_t i = 0; i < n; i++, &c[i]) {
    c[i] = 0;
    for (std::int64_t j = 0; j < n; ++j) c[i] += a[i * n + j] * b[j];
  }
  // sloc classroom/matvec/naive comp end
  // sloc classroom/matvec/naive comm begin
  upc_barrier;  // every c[i] is written before thread 0 reads c
  // sloc classroom/matvec/naive comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return matvec::check("naive", opt, matvec::collect(c, n), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(matvec::code, "naive", run, argc, argv); }
