// Sparse x dense matrix multiplication C = A x B, the kernel of seed 003 §3.4.2
// (Listing 3.16, Figure 3.16): A is an m x m sparse matrix in CSR form, B a dense
// m x n matrix (n = 1: a vector), both in thread 0's private memory. The rows of
// A are split into consecutive blocks with about the same number of nonzeros per
// thread; each thread multiplies its block by the whole of B and the blocks of C
// are collected in thread 0's private memory. The versions differ only in how
// the data move (versions.hpp). Thread 0 checks C against the sequential product,
// which must give the same bits (each row sums its nonzeros in the same order).
//
//   build/tools/upcrun -n 4 build/apps/sparse_matmul/sparse_matmul --m=16614 --density=0.004 --n=64
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/app_result.hpp"
#include "launch.hpp"
#include "split.hpp"
#include "upc.h"
#include "version_driver.hpp"
#include "versions.hpp"

namespace {

struct options {
  std::int64_t m = 16614;  // the thesis's FIDAP matrix: 16614 x 16614, 0.4% nonzeros
  double density = 0.004;
  std::int64_t n = 64;     // columns of B (the thesis: 4480)
  std::string variant = "all";
  std::int64_t seed = 2013;
};

int run(const options& o) {
  const sparse::problem p{static_cast<std::size_t>(o.m), static_cast<std::size_t>(o.m), static_cast<std::size_t>(o.n)};
  sparse::csr A;
  std::vector<std::size_t> first_row;
  std::vector<double> B(p.k * p.n), C, expected;
  if (MYTHREAD == 0) {
    A = sparse::generate(p.m, p.k, o.density, static_cast<std::uint64_t>(o.seed));
    first_row = sparse::split_by_nonzeros(A, THREADS);
    sparse::fill_dense(B.data(), B.size(), static_cast<std::uint64_t>(o.seed) + 1);
    C.resize(p.m * p.n);
    expected.resize(p.m * p.n);
    sparse::compute_mm_sparse(A.val.data(), A.col_ind.data(), A.row_ptr.data(), B.data(), expected.data(), p.m, p.n);
    std::printf("sparse_matmul: A %zu x %zu with %zu nonzeros (%.3f%%), B %zu x %zu; rows per thread:", p.m, p.k, A.nonzeros(),
                100.0 * static_cast<double>(A.nonzeros()) / static_cast<double>(p.m * p.k), p.k, p.n);
    for (int t = 0; t < THREADS && t < 16; ++t) std::printf(" %zu", first_row[static_cast<std::size_t>(t) + 1] - first_row[static_cast<std::size_t>(t)]);
    std::printf("%s\n", THREADS > 16 ? " ..." : "");
  }
  int failures = 0;
  for (const std::string& name : apps::chosen_variants(o.variant, sparse::version_names())) {
    std::unique_ptr<sparse::version> v = sparse::make_version(name, p, A, first_row);
    const double seconds = apps::timed_run([&] { v->run(A, B.data(), C.data()); }, C, B);
    if (MYTHREAD != 0) continue;
    const std::size_t wrong =
        apps::count_differences(C.data(), expected, [&p](std::size_t i) { std::printf("C[%zu][%zu]", i / p.n, i % p.n); });
    const bool verified = wrong == 0;
    const double gflops = 2.0 * static_cast<double>(A.nonzeros()) * static_cast<double>(p.n) / seconds / 1e9;
    std::printf("sparse_matmul: %d threads (%s), variant %s: %.4f s, %.3f GFLOPS, %s\n", THREADS, apps::backend_name(), name.c_str(),
                seconds, gflops, verified ? "verified (identical to the sequential product)" : "WRONG");
    if (!verified) std::printf("  %zu of %zu entries of C differ from the sequential product\n", wrong, expected.size());
    apps::result_line({{"app", std::string("sparse_matmul")},
                       {"variant", name},
                       {"size", std::to_string(p.m) + "x" + std::to_string(p.n)},
                       {"nonzeros", static_cast<std::int64_t>(A.nonzeros())},
                       {"time_s", seconds},
                       {"gflops", gflops},
                       {"verified", verified}});
    if (!verified) ++failures;
  }
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bench::cli cli("sparse_matmul",
                 "C = A x B, A an m x m sparse matrix (CSR, uneven rows), B m x n dense (seed 003 §3.4.2, Listing 3.16):\n"
                 "rows split by nonzeros, CSR arrays scattered, B broadcast, C gathered on thread 0.\n"
                 "Variants: standard (upc_memput/upc_memget and barriers), priv (upc_all_scatter_v_priv,\n"
                 "upc_all_vector_copy_priv, upc_all_broadcast_in_place_priv, upc_all_gather_v_priv), all (each in turn).");
  cli.add_int("m", "rows and columns of the sparse matrix A", &o.m, 1);
  cli.add_real("density", "fraction of A's entries that are nonzero, at most 1", &o.density);
  cli.add_int("n", "columns of the dense matrix B (1: a vector)", &o.n, 1);
  cli.add_choice("variant", "how the matrices move", &o.variant, apps::variant_choices(sparse::version_names()));
  cli.add_int("seed", "seed of the random matrices", &o.seed, 0);
  if (auto status = cli.exit_status(argc, argv, true)) return *status;
  if (o.density > 1) {
    std::fprintf(stderr, "sparse_matmul: --density=%g: at most 1\n", o.density);
    return 2;
  }
  const std::size_t m = static_cast<std::size_t>(o.m), n = static_cast<std::size_t>(o.n);
  const std::size_t nz = sparse::most_nonzeros(m, m, o.density);
  if (nz >= static_cast<std::size_t>(INT_MAX) || m >= static_cast<std::size_t>(INT_MAX) / 2) {
    std::fprintf(stderr, "sparse_matmul: --m=%zu with --density=%g: too many nonzeros for int row pointers\n", m, o.density);
    return 2;
  }
  // The shared heap: the standard version's auxiliary arrays (B on thread 0,
  // the CSR chunks and C's blocks), the library's staging of the priv forms.
  const std::size_t heap = sizeof(double) * (3 * m * n + 2 * m * n) + 24 * nz + 8 * m + (32u << 20);
  return apps::launch("sparse_matmul", heap, [&] { return run(o); });
}
