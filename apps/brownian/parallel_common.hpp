// What the three UPC versions share (§5.4.1): every process keeps every
// coordinate, computes the forces of its own block of particles and joins them
// with an in-place allgather of the extended collectives, all in private memory.
#pragma once
#include <vector>

#include "decomposition.hpp"
#include "physics.hpp"
#include "upc.h"
#include "upc_collective_ext.h"

namespace brownian {

// Every buffer of these collectives is private to its thread: a thread's data
// is ready when it enters and free again when it leaves, which is what MYSYNC
// promises, with no barrier.
constexpr upc_flag_t priv_sync = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;

// sloc brownian/cholesky comm begin
// sloc brownian/fixman_balanced comm begin
// sloc brownian/fixman_minimum comm begin
// One double from every thread, combined (UPC_ADD, UPC_MAX, UPC_MIN), on every thread.
inline double allreduce(double mine, upc_op_t op) {
  double all = 0;
  upc_all_reduceD_all_priv(&all, &mine, op, static_cast<size_t>(THREADS), 1, nullptr, priv_sync);
  return all;
}
// sloc brownian/fixman_minimum comm end
// sloc brownian/fixman_balanced comm end
// sloc brownian/cholesky comm end

// calc_force() in parallel: F (padded_rows long) of my particles, then of all;
// g = Δt F / kT.
inline void parallel_forces(const problem& p, const particle_blocks& blocks, const double* pos, std::vector<double>& F,
                            std::vector<double>& g) {
  // sloc brownian/cholesky comp begin
  // sloc brownian/fixman_balanced comp begin
  // sloc brownian/fixman_minimum comp begin
  for (int i = blocks.first(MYTHREAD); i < blocks.last(MYTHREAD); ++i)
    lj_force(pos, p.particles, i, &F[static_cast<std::size_t>(3 * i)]);
  // sloc brownian/fixman_minimum comp end
  // sloc brownian/fixman_balanced comp end
  // sloc brownian/cholesky comp end
  // sloc brownian/cholesky comm begin
  // sloc brownian/fixman_balanced comm begin
  // sloc brownian/fixman_minimum comm begin
  upc_all_gather_all_in_place_priv(F.data(), static_cast<size_t>(blocks.piece_rows()) * sizeof(double), priv_sync);
  // sloc brownian/fixman_minimum comm end
  // sloc brownian/fixman_balanced comm end
  // sloc brownian/cholesky comm end
  // sloc brownian/cholesky comp begin
  // sloc brownian/fixman_balanced comp begin
  // sloc brownian/fixman_minimum comp begin
  for (int i = 0; i < p.rows(); ++i) g[static_cast<std::size_t>(i)] = drift_weight(p) * F[static_cast<std::size_t>(i)];
  // sloc brownian/fixman_minimum comp end
  // sloc brownian/fixman_balanced comp end
  // sloc brownian/cholesky comp end
}

}  // namespace brownian
