// Fixman's algorithm with balanced communications, "bal-comms", with MPI
// (§5.4.4, Figure 5.4, Listing 5.4): D stored once, without its lower
// triangle: the diagonal blocks of my particles (arrayDiag) and an equal share
// of the N(N-1)/2 blocks above the diagonal, consecutive in row order
// (arrayD, offdiagonal_runs).
//
// A product y = D x: each block D_ij of arrayD adds D_ij x_j to row i and
// D_ij x_i to row j of Dcopy (one piece per rank); an in-place MPI_Alltoall
// brings every rank's partial sums of my rows to me, added to my diagonal
// blocks' part. After each iteration: MPI_Allgather in place (every row
// everywhere) and, in the power method, MPI_Allreduce(MPI_MAX). The partial
// sums are added in another order than the sequential row sums: the results
// agree to rounding, not bit for bit.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "decomposition.hpp"
#include "fixman.hpp"
#include "mpi_team.hpp"
#include "physics.hpp"

namespace brownian {

class fixman_balanced_mpi {
 public:
  explicit fixman_balanced_mpi(const problem& p)
      : p_(p), n_(p.rows()), blocks_(p.particles, team_.size), runs_(offdiagonal_runs(p.particles, team_.size, team_.rank)) {
    lo_ = 3 * blocks_.first(team_.rank);
    hi_ = 3 * blocks_.last(team_.rank);
    std::size_t count = 0;
    for (const block_run& r : runs_) count += static_cast<std::size_t>(r.jp_last - r.jp_first);
    arrayD_.resize(9 * count);
    arrayDiag_.resize(static_cast<std::size_t>(9 * (hi_ - lo_) / 3));
    F_.assign(blocks_.padded_rows(), 0.0);
    g_.assign(blocks_.padded_rows(), 0.0);
    Dcopy_.assign(blocks_.padded_rows(), 0.0);
    y_.assign(blocks_.padded_rows(), 0.0);
  }

  int lo() const { return lo_; }
  int hi() const { return hi_; }
  std::size_t length() const { return blocks_.padded_rows(); }

  void build(const double* pos) {
    mpi_forces(p_, blocks_, team_.rank, pos, F_, g_);
    double* b = arrayD_.data();
    for (const block_run& r : runs_)
      for (int jp = r.jp_first; jp < r.jp_last; ++jp, b += 9) rpy_block(pos, r.ip, jp, b);
    for (int ip = lo_ / 3; ip < hi_ / 3; ++ip) self_block(&arrayDiag_[static_cast<std::size_t>(9 * (ip - lo_ / 3))]);
  }

  // The operator of fixman.hpp.
  int rows() const { return n_; }
  void multiply(const double* x, double* y) {
    std::fill(Dcopy_.begin(), Dcopy_.end(), 0.0);
    const double* b = arrayD_.data();
    for (const block_run& r : runs_) {
      const double* xi = x + 3 * r.ip;
      double* yi = &Dcopy_[static_cast<std::size_t>(3 * r.ip)];
      for (int jp = r.jp_first; jp < r.jp_last; ++jp, b += 9) {
        const double* xj = x + 3 * jp;
        double* yj = &Dcopy_[static_cast<std::size_t>(3 * jp)];
        for (int a = 0; a < 3; ++a) {
          yi[a] += b[3 * a] * xj[0] + b[3 * a + 1] * xj[1] + b[3 * a + 2] * xj[2];
          yj[a] += b[3 * a] * xi[0] + b[3 * a + 1] * xi[1] + b[3 * a + 2] * xi[2];
        }
      }
    }
    for (int ip = lo_ / 3; ip < hi_ / 3; ++ip) {
      const double* d = &arrayDiag_[static_cast<std::size_t>(9 * (ip - lo_ / 3))];
      for (int a = 0; a < 3; ++a) y[3 * ip + a] = d[3 * a] * x[3 * ip] + d[3 * a + 1] * x[3 * ip + 1] + d[3 * a + 2] * x[3 * ip + 2];
    }
    alltoall_in_place(Dcopy_.data(), blocks_.piece_rows());
    const std::size_t piece = static_cast<std::size_t>(blocks_.piece_rows());
    for (int r = lo_; r < hi_; ++r)
      for (int t = 0; t < team_.size; ++t) y[r] += Dcopy_[static_cast<std::size_t>(t) * piece + static_cast<std::size_t>(r - lo_)];
  }
  void share(double* v) { allgather_in_place(v, blocks_.piece_rows()); }
  double max_all(const double*, double mine) const { return allreduce(mine, MPI_MAX); }
  double sum_all(double mine) const { return allreduce(mine, MPI_SUM); }

  void displacement(const double* xi, double* dr) {
    multiply(g_.data(), dr);
    fixman_sqrt_times(*this, state_, xi, y_.data(), stats_);
    const double c = std::sqrt(2.0 * p_.dt);
    for (int r = lo_; r < hi_; ++r) dr[r] += c * y_[static_cast<std::size_t>(r)];
  }

  const fixman_stats& stats() const { return stats_; }

 private:
  mpi_team team_;
  problem p_;
  int n_;
  particle_blocks blocks_;
  std::vector<block_run> runs_;
  int lo_ = 0, hi_ = 0;
  std::vector<double> arrayD_, arrayDiag_, F_, g_, Dcopy_, y_;
  fixman_state state_;
  fixman_stats stats_;
};

}  // namespace brownian
