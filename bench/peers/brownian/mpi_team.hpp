// What the three MPI versions share (§5.4.3): the rank and size, the forces of
// my particle block joined by an in-place MPI_Allgather (every process keeps
// every coordinate, as in the UPC versions), and the collectives the versions
// call, each stopping the job with a message naming it when MPI fails (MPI's
// default handler aborts anyway; this says where).
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <vector>

#include "decomposition.hpp"
#include "physics.hpp"

namespace brownian {

struct mpi_team {
  int rank = 0, size = 1;
  mpi_team() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
};

inline void mpi_check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  std::fprintf(stderr, "brownian_mpi: %s failed (MPI error %d)\n", call, status);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// Piece t of `buf` (count doubles each) from rank t to every rank.
inline void allgather_in_place(double* buf, int count) {
  mpi_check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, count, MPI_DOUBLE, MPI_COMM_WORLD), "MPI_Allgather");
}
// Piece t of every rank's `buf` to rank t, which finds rank s's in its piece s.
inline void alltoall_in_place(double* buf, int count) {
  mpi_check(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, count, MPI_DOUBLE, MPI_COMM_WORLD), "MPI_Alltoall");
}
inline double allreduce(double mine, MPI_Op op) {
  double all = 0;
  mpi_check(MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, op, MPI_COMM_WORLD), "MPI_Allreduce");
  return all;
}

// calc_force() in parallel: F (padded_rows long) of my particles, then of all;
// g = Δt F / kT.
inline void mpi_forces(const problem& p, const particle_blocks& blocks, int rank, const double* pos, std::vector<double>& F,
                       std::vector<double>& g) {
  for (int i = blocks.first(rank); i < blocks.last(rank); ++i) lj_force(pos, p.particles, i, &F[static_cast<std::size_t>(3 * i)]);
  allgather_in_place(F.data(), blocks.piece_rows());
  for (int i = 0; i < p.rows(); ++i) g[static_cast<std::size_t>(i)] = drift_weight(p) * F[static_cast<std::size_t>(i)];
}

}  // namespace brownian
