// Stage 2 of the classroom matrix-vector product: privatisation and one bulk
// copy. The matrix and c stay shared and blocked by rows, and b starts on
// thread 0 (as the sequential program's), but each thread
//   - fetches the whole of b with one upc_memget into a private vector;
//   - reads its own rows and writes its own part of c through pointers to
//     local memory (privatisation);
//   - loops over its own rows only, adding into a private sum.
//
//   shared [] double b[N];                                   // on thread 0
//   upc_memget(my_b, b, N * sizeof(double));                 // b, in one copy
//   double *my_a = (double *) &a[first][0], *my_c = (double *) &c[first];
//   for (i = 0; i < my_rows; i++) { sum = 0; for (j...) sum += my_a[i*N + j] * my_b[j]; my_c[i] = sum; }
//   upc_barrier;
//
//   build/tools/upcrun -n 4 build/apps/classroom/matvec/optimised [--n=N]
#include <cstdint>
#include <vector>

#include "matvec.hpp"

namespace {

int run(const matvec::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/matvec/optimised decl begin
  const std::size_t N = static_cast<std::size_t>(n), rows = static_cast<std::size_t>(classroom::block_of(n, THREADS));
  upc::shared_array<double, upc::dynamic_block> a(N * N, upc::block(rows * N));
  upc::shared_array<double, upc::indefinite> b(N);  // shared [] double b[N]: on thread 0
  upc::shared_array<double, upc::dynamic_block> c(N, upc::block(rows));
  const auto [first, count] = classroom::part_of(n, THREADS, MYTHREAD);
  double* my_a = count > 0 ? (&a[static_cast<std::size_t>(first * n)]).local() : nullptr;  // privatisation
  double* my_c = count > 0 ? (&c[static_cast<std::size_t>(first)]).local() : nullptr;
  std::vector<double> my_b(N);
  // sloc classroom/matvec/optimised decl end
  // sloc classroom/matvec/optimised comp begin
  for (std::int64_t i = 0; i < count; ++i)
    for (std::int64_t j = 0; j < n; ++j) my_a[i * n + j] = matvec::a_element(first + i, j);
  if (MYTHREAD == 0)
    for (std::int64_t j = 0; j < n; ++j) b.data().local()[j] = matvec::b_element(j);
  // sloc classroom/matvec/optimised comp end
  // sloc classroom/matvec/optimised comm begin
  upc_barrier;
  // sloc classroom/matvec/optimised comm end

  classroom::stopwatch clock;
  // sloc classroom/matvec/optimised comm begin
  upc_memget(my_b.data(), b, N * sizeof(double));
  // sloc classroom/matvec/optimised comm end
  // sloc classroom/matvec/optimised comp begin
  for (std::int64_t i = 0; i < count; ++i) {
    double sum = 0;
    for (std::int64_t j = 0; j < n; ++j) sum += my_a[i * n + j] * my_b[static_cast<std::size_t>(j)];
    my_c[i] = sum;
  }
  // sloc classroom/matvec/optimised comp end
  // sloc classroom/matvec/optimised comm begin
  upc_barrier;  // every part of c is written before thread 0 reads c
  // sloc classroom/matvec/optimised comm end
  return classroom::on_thread0(clock, [&](double seconds) {
    return matvec::check("optimised", opt, matvec::collect(c, n), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(matvec::code, "optimised", run, argc, argv); }
