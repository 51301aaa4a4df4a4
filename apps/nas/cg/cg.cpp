// NAS Parallel Benchmark CG (NPB 3.x classes S, W, A, B) in UPC style, with
// the replicated-vector transpose of seed 004 §4.3 written two ways:
//   remap  [Row] W := P#[Index2, src_ind]  (upc::remap::gather)
//   hand   one upc_memget from the exchange partner (as NPB-MPI / NPB-UPC)
// The inverse power method estimates the largest eigenvalue of a random
// sparse symmetric positive definite matrix: niter outer iterations, each 25
// CG iterations, zeta = shift + 1 / (x . z), verified against NPB's value.
//
//   build/tools/upcrun -n 4 build/apps/nas/cg/cg_upc --class=S --variant=all
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../../../harness/cli.hpp"
#include "../../../harness/team.hpp"
#include "cg_class.hpp"
#include "conj_grad.hpp"
#include "launch.hpp"
#include "make_matrix.hpp"
#include "npb_report.hpp"
#include "proc_grid.hpp"
#include "row_sums.hpp"
#include "transpose_hand.hpp"
#include "transpose_remap.hpp"
#include "upc.h"

namespace {

struct outcome {
  double zeta = 0;
  bool verified = false;
};

// One benchmark run with one exchange: the untimed warm-up iteration NPB
// does, then niter timed ones; thread 0 prints NPB's report.
template <class Exchange>
outcome benchmark(const cg::problem_class& c, const cg::proc_grid& g, const cg::block_matrix& A, cg::row_sums& rows) {
  Exchange exchange(g);
  cg::solver<Exchange> s(A, static_cast<std::size_t>(g.ncols()), rows, exchange);
  std::vector<double> x(static_cast<std::size_t>(g.ncols()), 1.0), z(x.size());
  auto normalize_into_x = [&](double scale) {
    for (std::size_t j = 0; j < x.size(); ++j) x[j] = scale * z[j];
  };

  // NPB: one untimed iteration to touch code and data, then x = (1, ..., 1) again.
  s.conj_grad(x.data(), z.data());
  s.dot(x.data(), z.data());
  normalize_into_x(1.0 / std::sqrt(s.dot(z.data(), z.data())));
  std::fill(x.begin(), x.end(), 1.0);

  if (MYTHREAD == 0) std::printf("\n Communication: %s\n   iteration           ||r||                 zeta\n", Exchange::name);
  upc_barrier;
  const double start = bench::seconds_now();
  double zeta = 0;
  for (int it = 1; it <= c.niter; ++it) {
    const double rnorm = s.conj_grad(x.data(), z.data());
    const double xz = s.dot(x.data(), z.data()), zz = s.dot(z.data(), z.data());
    zeta = c.shift + 1.0 / xz;
    if (MYTHREAD == 0) std::printf("    %5d       %20.14e%20.13e\n", it, rnorm, zeta);
    normalize_into_x(1.0 / std::sqrt(zz));
  }
  const double seconds = bench::max_over_threads(bench::seconds_now() - start);

  const std::string how = exchange.summary();
  if (MYTHREAD == 0) std::printf(" Transpose: %s\n", how.c_str());
  const double error = zeta - c.zeta_verify;
  const outcome o{zeta, std::fabs(error) <= cg::epsilon};
  if (MYTHREAD == 0) {
    std::printf(" Zeta is    %20.13e\n", zeta);
    if (o.verified) std::printf(" Error is   %20.13e\n", error);
    else std::printf(" The correct zeta is %20.13e (error %.3e > %.0e): VERIFICATION FAILED\n", c.zeta_verify, error, cg::epsilon);
    npb::report r;
    r.name = "CG";
    r.variant = Exchange::name;
    r.cls = c.name;
    r.size = std::to_string(c.na);
    r.iterations = c.niter;
    r.seconds = seconds;
    r.mops = seconds > 0 ? cg::operations(c) / seconds / 1e6 : 0;
    r.operation = "floating point";
    r.verified = o.verified;
    npb::print(r);
  }
  return o;
}

int run(const cg::problem_class& c, const std::string& variant) {
  const cg::proc_grid g(c.na, THREADS, MYTHREAD);
  if (MYTHREAD == 0)
    std::printf("\n\n NAS Parallel Benchmarks (NPB3.x, upcemu UPC) - CG Benchmark\n\n"
                " Size: %11ld\n Iterations: %5d\n Number of active threads: %d (a %s processor grid)\n"
                " Number of nonzeroes per row: %8d\n Eigenvalue shift: %.3e\n",
                c.na, c.niter, THREADS, g.text().c_str(), c.nonzer, c.shift);
  const cg::block_matrix A = cg::make_block(c, g.firstrow(), g.lastrow(), g.firstcol(), g.lastcol());
  cg::row_sums rows(g);

  std::vector<outcome> done;
  if (variant == "remap" || variant == "all") done.push_back(benchmark<cg::remap_transpose>(c, g, A, rows));
  if (variant == "hand" || variant == "all") done.push_back(benchmark<cg::hand_transpose>(c, g, A, rows));
  bool ok = true;
  for (const outcome& o : done) ok = ok && o.verified;
  // Both exchanges move the same values into the same arithmetic: the zetas
  // must agree to the bit.
  if (done.size() == 2 && done[0].zeta != done[1].zeta) {
    ok = false;
    if (MYTHREAD == 0)
      std::printf(" remap and hand differ: zeta %.17g against %.17g (they should agree to the bit)\n", done[0].zeta,
                  done[1].zeta);
  } else if (done.size() == 2 && MYTHREAD == 0) {
    std::printf(" remap and hand: the same zeta to the bit\n");
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string cls = "S", variant = "all";
  bench::cli cli("cg_upc",
                 "NAS Parallel Benchmark CG (NPB 3.x) with the replicated-vector transpose of seed 004 §4.3 by the remap\n"
                 "operator (remap) and by hand with upc_memget (hand); all runs and verifies each. THREADS must be a\n"
                 "power of two (a nprows x npcols processor grid, npcols = nprows or 2 nprows).");
  cli.add_choice("class", "NPB class: S (na 1400), W (7000), A (14000), B (75000)", &cls, {"S", "W", "A", "B"});
  cli.add_choice("variant", "the transpose: remap, hand, or all (each in turn)", &variant, {"remap", "hand", "all"});
  if (auto status = cli.exit_status(argc, argv, true)) return *status;
  const cg::problem_class& c = *cg::find_class(cls);

  const int threads = apps::planned_threads();  // 1 when the settings are bad: apps::launch says what is wrong
  if (!cg::is_power_of_two(threads)) {
    std::fprintf(stderr, "cg_upc: THREADS = %d is not a power of two: CG's processor grid is nprows x npcols with npcols = nprows or 2 nprows (use 1, 2, 4, 8, 16, ... threads)\n",
                 threads);
    return 2;
  }

  const cg::proc_grid biggest(c.na, 1, 0);  // the most rows a thread can hold (THREADS = 1)
  const std::size_t heap = 4 * static_cast<std::size_t>(biggest.max_rows()) * sizeof(double) + (16u << 20);
  return apps::launch("cg_upc", heap, [&] { return run(c, variant); });
}
