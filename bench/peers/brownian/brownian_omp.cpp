// The OpenMP peer of apps/brownian (seed 003 §5.4.2, Figure 5.6): the same
// simulation (same problem options, physics, random numbers and Fixman driver)
// on shared memory, parallelised with OpenMP directives as the thesis did:
//   cholesky  D whole, Listing 5.1's column-by-column factorisation
//   fixman    D whole, each product with D split by rows (Listing 5.2)
// The forces and D are built by an `omp for` over particles (omp_system.hpp).
// OMP_NUM_THREADS sets the threads. Exit status 0 only when every version's
// physics checked out; --positions=FILE writes the final positions that the
// test compares with the UPC app's.
#include <omp.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "cholesky_omp.hpp"
#include "fixman_omp.hpp"
#include "peer_options.hpp"
#include "peer_report.hpp"
#include "positions_file.hpp"
#include "simulate.hpp"

namespace {

using namespace brownian;

// One version: its run timed, its checks, its report. False when a check failed.
template <class Version>
bool run(const peer_options& o, const char* variant, const char* method) {
  Version v(o.p);
  const double t0 = omp_get_wtime();
  const std::vector<double> positions = simulate(v, o.p);
  const double seconds = omp_get_wtime() - t0;
  bool ok = all_finite(positions);
  std::string physics = ok ? "" : "POSITIONS NOT FINITE; ";
  if constexpr (std::is_same_v<Version, cholesky_omp>) {
    ok = ok && v.positive_definite();
    physics += v.positive_definite() ? "D positive definite at every step" : "D NOT POSITIVE DEFINITE";
  } else {
    ok = ok && v.stats().within_bound;
    physics += describe_fixman(v.stats());
  }
  report_peer_run("openmp", omp_get_max_threads(), o.p, variant, method, seconds, ok, physics);
  if (!o.positions.empty() && !append_positions(o.positions, "brownian_omp", variant, positions)) ok = false;
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  peer_options o;
  if (auto status = parse_peer_options("brownian_omp",
                                       "The OpenMP peer of apps/brownian (seed 003, chapter 5): the same Brownian dynamics\n"
                                       "simulation, parallelised with OpenMP directives (OMP_NUM_THREADS threads).",
                                       {"cholesky", "fixman"}, argc, argv, true, o))
    return *status;
  std::printf("brownian_omp: %d particles (D is %d x %d), %d steps of dt %g, seed %llu, %d OpenMP threads\n", o.p.particles,
              o.p.rows(), o.p.rows(), o.p.steps, o.p.dt, static_cast<unsigned long long>(o.p.seed), omp_get_max_threads());
  std::fflush(stdout);
  int failures = 0;
  if (o.variant == "all" || o.variant == "cholesky") failures += run<cholesky_omp>(o, "cholesky", "cholesky") ? 0 : 1;
  if (o.variant == "all" || o.variant == "fixman") failures += run<fixman_omp>(o, "fixman", "fixman") ? 0 : 1;
  return failures ? 1 : 0;
}
