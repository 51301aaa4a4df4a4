// Brownian dynamics with hydrodynamic interactions (seed 003, chapter 5): N
// Lennard-Jones beads whose random displacements are correlated through the
// Rotne–Prager–Yamakawa diffusion tensor D, by Cholesky or by Fixman's
// Chebyshev approximation of √D. The sequential code of §5.3 and the three
// UPC versions of §5.4.4 (README.md):
//
//   sequential       one thread, D whole; --method picks Cholesky, Fixman or both
//   cholesky         balanced rows of D, Listing 5.3 (a rooted priv broadcast per row)
//   fixman_balanced  balanced blocks of D, Listing 5.4 (priv exchange, allgather, allreduce)
//   fixman_minimum   whole rows per particle block (priv allgather only)
//
// Every parallel version is checked against the sequential code with the same
// method and seed: the final positions must agree to 1e-10 relative (min-comms
// is bit-identical; the others add partial sums in another order). The
// physics is checked too: D positive definite and L Lᵀ = D (Cholesky), Fixman's
// error within its bound. Exit status 0 only when everything checked out.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/app_result.hpp"
#include "cholesky_upc.hpp"
#include "fixman_balanced_upc.hpp"
#include "fixman_minimum_upc.hpp"
#include "launch.hpp"
#include "physics.hpp"
#include "positions_file.hpp"
#include "sequential.hpp"
#include "simulate.hpp"
#include "upc.h"
#include "upc_tick.h"

namespace {

using namespace brownian;

constexpr double position_tolerance = 1e-10;  // max |r - r_seq| / max |r_seq|
constexpr int largest_particles = 4096;

struct options {
  problem p;
  std::string variant = "all";
  std::string method = "both";
  std::string positions;  // --positions=FILE: thread 0 appends each version's final positions
};

// What a run of one version leaves for the report.
struct outcome {
  std::vector<double> positions;
  double seconds = 0;
  bool physics_ok = true;
  std::string physics;  // what was checked, in words
  fixman_stats fixman;  // Fixman versions only
};

double now() { return static_cast<double>(upc_ticks_to_ns(upc_ticks_now())) * 1e-9; }

std::string format(const char* fmt, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

std::string describe(const fixman_stats& s) {
  const double steps = s.steps > 0 ? s.steps : 1;
  return format("power iterations/step %.1f (lambda_max) %.1f (lambda_min), Chebyshev degree %.1f/step (max ", s.iterations_max / steps,
                s.iterations_min / steps, s.degree_sum / steps) +
         std::to_string(s.largest_degree) +
         format("), last spectrum estimate [%.3g, %.3g], Fixman error <= %.2g (bound %.2g)", s.lambda_min, s.lambda_max,
                s.worst_error, fixman_settings::error_bound);
}

bool all_finite(const std::vector<double>& r) {
  for (double x : r)
    if (!std::isfinite(x)) return false;
  return true;
}

// The sequential code on this thread alone (thread 0 calls it).
outcome run_sequential(const problem& p, const std::string& method) {
  outcome o;
  const double t0 = now();
  if (method == "cholesky") {
    sequential_cholesky v(p);
    o.positions = simulate(v, p);
    o.seconds = now() - t0;
    o.physics_ok = v.positive_definite() && v.factor_error() <= 1e-12;
    o.physics = std::string(v.positive_definite() ? "D positive definite at every step" : "D NOT POSITIVE DEFINITE") +
                format(", max|L L^T - D| / max|D| = %.2g at step 0 (at most 1e-12)", v.factor_error());
  } else {
    sequential_fixman v(p);
    o.positions = simulate(v, p);
    o.seconds = now() - t0;
    o.fixman = v.stats();
    o.physics_ok = v.stats().within_bound && v.interval_checked() >= 0;
    o.physics = describe(v.stats());
    if (v.interval_checked() != 0)
      o.physics += format("; the first step's interval [%.3g, %.3g] ", v.interval_low(), v.interval_high()) +
                   (v.interval_checked() > 0 ? "holds" : "DOES NOT HOLD") + " D's spectrum (Cholesky of D - lo I and hi I - D)";
  }
  if (!all_finite(o.positions)) {
    o.physics_ok = false;
    o.physics += "; POSITIONS NOT FINITE";
  }
  return o;
}

// A parallel version on every thread, timed between barriers.
template <class Version>
outcome run_parallel(const problem& p) {
  outcome o;
  Version v(p);
  upc_barrier;
  const double t0 = now();
  o.positions = simulate(v, p);
  upc_barrier;
  o.seconds = now() - t0;
  if constexpr (std::is_same_v<Version, cholesky_upc>) {
    o.physics_ok = v.positive_definite();
    o.physics = o.physics_ok ? "D positive definite at every step" : "D NOT POSITIVE DEFINITE";
  } else {
    o.fixman = v.stats();
    o.physics_ok = v.stats().within_bound;
    o.physics = describe(v.stats());
  }
  return o;
}

double mean_square_displacement(const problem& p, const std::vector<double>& r) {
  const std::vector<double> r0 = initial_positions(p);
  double s = 0;
  for (std::size_t i = 0; i < r.size(); ++i) s += (r[i] - r0[i]) * (r[i] - r0[i]);
  return s / p.particles;
}

void report(const options& o, const char* variant, const std::string& method, const outcome& out, bool verified,
            const std::string& check, double difference, bool identical) {
  std::printf("  %-20s %8.3f s  %s\n", variant, out.seconds, out.physics.c_str());
  if (!check.empty()) std::printf("  %-20s %10s  %s\n", "", "", check.c_str());
  std::printf("  %-20s %10s  %s\n", "", "", verified ? "verified" : "FAILED");
  apps::result_line({{"app", std::string("brownian")},
                     {"variant", std::string(variant)},
                     {"method", method},
                     {"particles", static_cast<std::int64_t>(o.p.particles)},
                     {"steps", static_cast<std::int64_t>(o.p.steps)},
                     {"time_s", out.seconds},
                     {"verified", verified},
                     {"identical", identical},
                     {"max_rel_difference", difference}});
}

// Thread 0: a parallel outcome against the sequential one.
bool compare(const options& o, const char* variant, const std::string& method, const outcome& par, const outcome& seq) {
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < seq.positions.size(); ++i) {
    worst = std::fmax(worst, std::fabs(par.positions[i] - seq.positions[i]));
    scale = std::fmax(scale, std::fabs(seq.positions[i]));
  }
  const double relative = worst / scale;
  const bool identical = std::memcmp(par.positions.data(), seq.positions.data(), seq.positions.size() * sizeof(double)) == 0;
  const bool close = relative <= position_tolerance;  // false for NaN too
  std::string check = identical ? "positions identical to the sequential run's"
                                : format("positions differ from the sequential run's by %.2g relative (at most %.0e)",
                                         relative, position_tolerance);
  if (method == "fixman" && (par.fixman.iterations_max != seq.fixman.iterations_max ||
                             par.fixman.iterations_min != seq.fixman.iterations_min ||
                             par.fixman.degree_sum != seq.fixman.degree_sum))
    check += "; the iteration counts differ from the sequential run's (" + std::to_string(par.fixman.iterations_max) + "/" +
             std::to_string(par.fixman.iterations_min) + "/" + std::to_string(par.fixman.degree_sum) + " against " +
             std::to_string(seq.fixman.iterations_max) + "/" + std::to_string(seq.fixman.iterations_min) + "/" +
             std::to_string(seq.fixman.degree_sum) + ")";
  const bool verified = close && par.physics_ok;
  report(o, variant, method, par, verified, check, relative, identical);
  return verified;
}

int body(const options& o) {
  const problem& p = o.p;
  const bool all = o.variant == "all";
  int failures = 0;
  outcome reference[2];  // thread 0: the sequential Cholesky and Fixman runs
  bool have[2] = {false, false};
  const char* methods[2] = {"cholesky", "fixman"};
  auto sequential = [&](int m) -> const outcome& {
    if (!have[m]) {
      reference[m] = run_sequential(p, methods[m]);
      have[m] = true;
    }
    return reference[m];
  };

  if (MYTHREAD == 0) {
    std::printf("brownian: %d particles (D is %d x %d), %d steps of dt %g, seed %llu, %d threads (%s)\n", p.particles,
                p.rows(), p.rows(), p.steps, p.dt, static_cast<unsigned long long>(p.seed), THREADS, apps::backend_name());
    std::fflush(stdout);
  }
  if (all || o.variant == "sequential") {
    for (int m = 0; m < 2; ++m) {
      if (!all && o.method != "both" && o.method != methods[m]) continue;
      if (MYTHREAD == 0) {
        const outcome& seq = sequential(m);
        report(o, m == 0 ? "sequential_cholesky" : "sequential_fixman", methods[m], seq, seq.physics_ok,
               format("mean square displacement %.4g sigma^2 per particle", mean_square_displacement(p, seq.positions)),
               0.0, true);
        if (!seq.physics_ok) ++failures;
        if (!o.positions.empty() && !append_positions(o.positions, "brownian", m == 0 ? "sequential_cholesky" : "sequential_fixman", seq.positions))
          ++failures;
      }
      upc_barrier;
    }
  }
  auto parallel = [&](const char* name, int m, auto run) {
    if (!all && o.variant != name) return;
    const outcome par = run();
    if (MYTHREAD == 0 && !compare(o, name, methods[m], par, sequential(m))) ++failures;
    if (MYTHREAD == 0 && !o.positions.empty() && !append_positions(o.positions, "brownian", name, par.positions)) ++failures;
    upc_barrier;
  };
  parallel("cholesky", 0, [&] { return run_parallel<cholesky_upc>(p); });
  parallel("fixman_balanced", 1, [&] { return run_parallel<fixman_balanced_upc>(p); });
  parallel("fixman_minimum", 1, [&] { return run_parallel<fixman_minimum_upc>(p); });
  return MYTHREAD == 0 && failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  std::int64_t particles = o.p.particles, steps = o.p.steps, seed = static_cast<std::int64_t>(o.p.seed);
  bench::cli cli("brownian",
                 "Brownian dynamics with hydrodynamic interactions (seed 003, chapter 5): N Lennard-Jones beads,\n"
                 "Rotne-Prager-Yamakawa diffusion tensor, random displacements by Cholesky or Fixman's method.\n"
                 "Each parallel version is checked against the sequential code.");
  cli.add_int("particles", "number of beads N (D is 3N x 3N), 2 to 4096", &particles, 2);
  cli.add_int("steps", "time steps", &steps, 1);
  cli.add_int("seed", "seed of the starting jitter and of the random displacements", &seed, 0);
  cli.add_real("dt", "time step in reduced units, at most 0.002", &o.p.dt);
  cli.add_choice("variant", "version to run", &o.variant, {"sequential", "cholesky", "fixman_balanced", "fixman_minimum", "all"});
  cli.add_choice("method", "covar() of --variant=sequential", &o.method, {"cholesky", "fixman", "both"});
  cli.add_choice("positions", "append each version's final positions to this file (one line each)", &o.positions, {});
  if (auto status = cli.exit_status(argc, argv, true)) return *status;
  if (particles > largest_particles) {
    std::fprintf(stderr, "brownian: --particles=%lld: at most %d\n", static_cast<long long>(particles), largest_particles);
    return 2;
  }
  if (steps > 1000000) {
    std::fprintf(stderr, "brownian: --steps=%lld: at most 1000000\n", static_cast<long long>(steps));
    return 2;
  }
  if (o.p.dt > 0.002) {
    std::fprintf(stderr, "brownian: --dt=%g: at most 0.002 (from 0.005 on, beads overlap and fly apart)\n", o.p.dt);
    return 2;
  }
  o.p.particles = static_cast<int>(particles);
  o.p.steps = static_cast<int>(steps);
  o.p.seed = static_cast<std::uint64_t>(seed);
  return apps::launch("brownian", 0, [&o] { return body(o); });
}
