// The options of the OpenMP and MPI peers: the UPC app's (apps/brownian)
// problem options with the same defaults, limits and messages, so that the
// same command line gives the same problem everywhere.
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "../../../harness/cli.hpp"
#include "physics.hpp"

namespace brownian {

struct peer_options {
  problem p;
  std::string variant = "all";
  std::string positions;  // --positions=FILE (positions_file.hpp)
};

// The status to exit with (0 after --help, 2 after a bad option) or nothing
// when the peer should run. Only the `printer` process prints.
inline std::optional<int> parse_peer_options(const char* program, const char* summary, std::vector<std::string> variants,
                                             int argc, char** argv, bool printer, peer_options& o) {
  std::int64_t particles = o.p.particles, steps = o.p.steps, seed = static_cast<std::int64_t>(o.p.seed);
  bench::cli cli(program, summary);
  cli.add_int("particles", "number of beads N (D is 3N x 3N), 2 to 4096", &particles, 2);
  cli.add_int("steps", "time steps", &steps, 1);
  cli.add_int("seed", "seed of the starting jitter and of the random displacements", &seed, 0);
  cli.add_real("dt", "time step in reduced units, at most 0.002", &o.p.dt);
  variants.push_back("all");
  cli.add_choice("variant", "version to run", &o.variant, variants);
  cli.add_choice("positions", "append each version's final positions to this file (one line each)", &o.positions, {});
  if (auto status = cli.exit_status(argc, argv, printer)) return status;
  auto bad = [&](const char* what, double value, const char* limit) {
    if (printer) std::fprintf(stderr, "%s: --%s=%g: %s\n", program, what, value, limit);
    return 2;
  };
  if (particles > 4096) return bad("particles", static_cast<double>(particles), "at most 4096");
  if (steps > 1000000) return bad("steps", static_cast<double>(steps), "at most 1000000");
  if (o.p.dt > 0.002) return bad("dt", o.p.dt, "at most 0.002 (from 0.005 on, beads overlap and fly apart)");
  o.p.particles = static_cast<int>(particles);
  o.p.steps = static_cast<int>(steps);
  o.p.seed = static_cast<std::uint64_t>(seed);
  return std::nullopt;
}

}  // namespace brownian
