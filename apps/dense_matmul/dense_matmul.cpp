// Dense matrix multiplication C = A x B (N x N doubles), the kernel of seed 003
// §3.4.1 (Listings 3.14 and 3.15, Figure 3.15): A and B start in thread 0's
// private memory; each thread multiplies a block of rows of A by the whole of B
// (BLAS, or plain loops) and C ends in thread 0's private memory. The versions
// differ only in how the matrices move (versions.hpp). Thread 0 checks C against
// the same multiplication done sequentially on the whole matrices.
//
//   build/tools/upcrun -n 4 build/apps/dense_matmul/dense_matmul --n=1024 --variant=all
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/app_result.hpp"
#include "launch.hpp"
#include "upc.h"
#include "version_driver.hpp"
#include "versions.hpp"

namespace {

constexpr double tolerance = 1e-12;  // max |C - C_seq| / max |C_seq|

struct options {
  std::int64_t n = 1024;
  std::string variant = "all";
  std::string local = "blas";
  std::int64_t seed = 2013;
};

// splitmix64: a seeded stream of doubles in [-1, 1).
struct random_stream {
  std::uint64_t state;
  double next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
  }
};

void fill_random(double* p, std::size_t count, std::uint64_t seed) {
  random_stream r{seed};
  for (std::size_t i = 0; i < count; ++i) p[i] = r.next();
}

// Thread 0: the largest difference between C and C_seq, relative to C_seq's largest entry.
double relative_difference(const double* C, const std::vector<double>& expected) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double d = std::fabs(C[i] - expected[i]);
    diff = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(diff, d);
    scale = std::max(scale, std::fabs(expected[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

int run(const options& o) {
  const std::size_t n = static_cast<std::size_t>(o.n);
  const dense::layout shape(n, THREADS);
  const dense::local_method how = dense::parse_local(o.local);
  std::vector<double> A, C, expected, B(n * n);
  if (MYTHREAD == 0) {
    A.assign(shape.padded_rows() * n, 0.0);  // padding rows stay zero
    C.assign(shape.padded_rows() * n, 0.0);
    fill_random(A.data(), n * n, static_cast<std::uint64_t>(o.seed));
    fill_random(B.data(), n * n, static_cast<std::uint64_t>(o.seed) + 1);
    expected.resize(n * n);
    dense::compute_submatrix(A.data(), B.data(), expected.data(), n, n, n, how);
  }
  int failures = 0;
  for (const std::string& name : apps::chosen_variants(o.variant, dense::version_names())) {
    std::unique_ptr<dense::version> v = dense::make_version(name, shape, how);
    const double seconds = apps::timed_run([&] { v->run(A.data(), B.data(), C.data()); }, C, B);
    if (MYTHREAD != 0) continue;
    const double rel = relative_difference(C.data(), expected);
    const bool verified = rel <= tolerance;
    const double gflops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / seconds / 1e9;
    std::printf("dense_matmul: %zu x %zu, %d threads (%s), variant %s, local %s: %.4f s, %.3f GFLOPS, %s (max relative difference %.3g)\n",
                n, n, THREADS, apps::backend_name(), name.c_str(), o.local.c_str(), seconds, gflops,
                verified ? "verified" : "WRONG", rel);
    apps::result_line({{"app", std::string("dense_matmul")},
                       {"variant", name},
                       {"size", std::to_string(n)},
                       {"local", o.local},
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
  bench::cli cli("dense_matmul",
                 "C = A x B for N x N doubles (seed 003 §3.4.1): A's rows scattered, B broadcast, C gathered on thread 0.\n"
                 "Variants: standard (Listing 3.14: upc_memput/upc_memget and barriers), priv (Listing 3.15:\n"
                 "upc_all_scatter_priv, upc_all_broadcast_in_place_priv, upc_all_gather_priv), in_place (shared ends:\n"
                 "upc_all_scatter, upc_all_broadcast_in_place, upc_all_gather), all (each in turn).");
  cli.add_int("n", "rows and columns of the matrices (any N; blocks of ceil(N/THREADS) rows)", &o.n, 1);
  cli.add_choice("variant", "how the matrices move", &o.variant, apps::variant_choices(dense::version_names()));
  cli.add_choice("local", "each thread's multiply: cblas_dgemm (OpenBLAS, one thread) or the triple loop", &o.local, {"blas", "loops"});
  cli.add_int("seed", "seed of the random matrices", &o.seed, 0);
  if (auto status = cli.exit_status(argc, argv, true)) return *status;
  if (o.n > 46340) {  // N*N must fit BLAS's int dimensions and products
    std::fprintf(stderr, "dense_matmul: --n=%lld: at most 46340\n", static_cast<long long>(o.n));
    return 2;
  }
  openblas_set_num_threads(1);  // the UPC threads are the parallelism; processes inherit it

  // The shared heap the largest version needs: B replicated (N*N), A and C on
  // thread 0 (padded), two blocks, and the library's staging of the priv forms.
  const std::size_t n = static_cast<std::size_t>(o.n);
  const dense::layout shape(n, apps::planned_threads());
  const std::size_t heap = sizeof(double) * (n * n + 4 * shape.padded_rows() * n + 2 * shape.chunk()) + (32u << 20);
  return apps::launch("dense_matmul", heap, [&] { return run(o); });
}
