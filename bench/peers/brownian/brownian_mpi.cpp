// The MPI peer of apps/brownian (seed 003 §5.4.3–5.4.4, Figure 5.8): the same
// simulation (same problem options, physics, random numbers and Fixman driver)
// on distributed memory, each version with the decomposition and collectives
// of its UPC twin, written with MPI as the thesis's MPI code was:
//   cholesky         balanced rows of D, MPI_Bcast per row (cholesky_mpi.hpp)
//   fixman_balanced  balanced blocks of D, MPI_Alltoall + MPI_Allgather + MPI_Allreduce
//   fixman_minimum   whole rows per particle block, MPI_Allgather only
// Run under mpirun. Exit status 0 only when every version's physics checked out;
// --positions=FILE (rank 0) writes the final positions that the test compares
// with the UPC app's.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "cholesky_mpi.hpp"
#include "fixman_balanced_mpi.hpp"
#include "fixman_minimum_mpi.hpp"
#include "mpi_team.hpp"
#include "peer_options.hpp"
#include "peer_report.hpp"
#include "positions_file.hpp"
#include "simulate.hpp"

namespace {

using namespace brownian;

// One version on every rank, timed between barriers; rank 0 reports. The
// verdict is every rank's (the checks are reduced).
template <class Version>
bool run(const peer_options& o, const char* variant, const char* method) {
  const mpi_team team;
  Version v(o.p);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  const std::vector<double> positions = simulate(v, o.p);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  bool ok = all_finite(positions);
  std::string physics = ok ? "" : "POSITIONS NOT FINITE; ";
  if constexpr (std::is_same_v<Version, cholesky_mpi>) {
    const bool definite = v.positive_definite();
    ok = ok && definite;
    physics += definite ? "D positive definite at every step" : "D NOT POSITIVE DEFINITE";
  } else {
    ok = ok && v.stats().within_bound;
    physics += describe_fixman(v.stats());
  }
  ok = allreduce(ok ? 1.0 : 0.0, MPI_MIN) == 1.0;
  if (team.rank == 0) {
    report_peer_run("mpi", team.size, o.p, variant, method, seconds, ok, physics);
    if (!o.positions.empty() && !append_positions(o.positions, "brownian_mpi", variant, positions)) ok = false;
  }
  return ok;
}

int body(const peer_options& o, int rank, int size) {
  if (rank == 0) {
    std::printf("brownian_mpi: %d particles (D is %d x %d), %d steps of dt %g, seed %llu, %d MPI processes\n", o.p.particles,
                o.p.rows(), o.p.rows(), o.p.steps, o.p.dt, static_cast<unsigned long long>(o.p.seed), size);
    std::fflush(stdout);
  }
  int failures = 0;
  auto selected = [&](const char* name) { return o.variant == "all" || o.variant == name; };
  if (selected("cholesky")) failures += run<cholesky_mpi>(o, "cholesky", "cholesky") ? 0 : 1;
  if (selected("fixman_balanced")) failures += run<fixman_balanced_mpi>(o, "fixman_balanced", "fixman") ? 0 : 1;
  if (selected("fixman_minimum")) failures += run<fixman_minimum_mpi>(o, "fixman_minimum", "fixman") ? 0 : 1;
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer_options o;
  int status = 0;
  if (auto stop = parse_peer_options("brownian_mpi",
                                     "The MPI peer of apps/brownian (seed 003, chapter 5): the same Brownian dynamics\n"
                                     "simulation on distributed memory (run under mpirun).",
                                     {"cholesky", "fixman_balanced", "fixman_minimum"}, argc, argv, rank == 0, o))
    status = *stop;
  else
    status = body(o, rank, size);
  // Every rank parsed the same argv: all stop together; rank 0's status is the job's.
  MPI_Finalize();
  return rank == 0 ? status : 0;
}
