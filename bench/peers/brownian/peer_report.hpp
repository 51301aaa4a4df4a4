// How a peer reports a version's run, in the UPC app's form (apps/brownian):
// a line of text, and one `upcemu-result` line with the same fields
// (tools/bench/run_brownian_peers.sh collects them), whose `backend` says
// which peer ran ("openmp" or "mpi"). `verified` is the physics checks here
// (D positive definite, Fixman's error within its bound, finite positions);
// the agreement with the UPC versions is the test's (compare_positions.py).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../../../harness/report.hpp"
#include "fixman.hpp"
#include "physics.hpp"

namespace brownian {

inline bool all_finite(const std::vector<double>& r) {
  for (double x : r)
    if (!std::isfinite(x)) return false;
  return true;
}

inline void report_peer_run(const char* backend, int threads, const problem& p, const char* variant, const char* method,
                            double seconds, bool verified, const std::string& physics) {
  std::printf("  %-20s %8.3f s  %s\n  %-20s %10s  %s\n", variant, seconds, physics.c_str(), "", "",
              verified ? "verified" : "FAILED");
  bench::record fields{{"threads", static_cast<std::int64_t>(threads)},
                       {"backend", std::string(backend)},
                       {"app", std::string("brownian")},
                       {"variant", std::string(variant)},
                       {"method", std::string(method)},
                       {"particles", static_cast<std::int64_t>(p.particles)},
                       {"steps", static_cast<std::int64_t>(p.steps)},
                       {"time_s", seconds},
                       {"verified", verified}};
  std::printf("upcemu-result %s\n", bench::to_json(fields).c_str());
  std::fflush(stdout);
}

// Fixman's physics check in words, and whether it passed.
inline std::string describe_fixman(const fixman_stats& s) {
  char buf[200];
  const double steps = s.steps > 0 ? s.steps : 1;
  std::snprintf(buf, sizeof buf, "Chebyshev degree %.1f/step, Fixman error <= %.2g (bound %.2g)", s.degree_sum / steps,
                s.worst_error, fixman_settings::error_bound);
  return buf;
}

}  // namespace brownian
