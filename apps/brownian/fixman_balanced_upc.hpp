// Fixman's algorithm with balanced communications, "bal-comms" (§5.4.4,
// Figure 5.4, Listing 5.4). D is stored once, without its lower triangle:
// the diagonal 3x3 blocks of my particles in arrayDiag, and an equal share of
// the N(N-1)/2 blocks above the diagonal, consecutive in row order whatever
// particles they belong to, in arrayD (9 doubles a block).
//
// A product y = D x, as Listing 5.4 computes it:
//   each block D_ij of arrayD adds D_ij x_j to row i and D_ij x_i to row j
//   (D_ji = D_ijᵀ = D_ij) of Dcopy, a vector of THREADS pieces, piece t holding
//   thread t's rows;
//   upc_all_exchange_in_place_priv(Dcopy): piece t of every thread goes to
//   thread t, which finds there, piece by piece, every thread's partial sums
//   of its own rows, and adds them to its diagonal blocks' part;
// and after each iteration of the power method for λmax
//   upc_all_gather_all_in_place_priv(x_d): every row to every thread;
//   upc_all_reduceD_all_priv(UPC_MAX): the eigenvalue estimate everywhere;
// Lanczos and the Chebyshev recurrence gather their new vector the same way,
// and Fixman's error check adds two numbers per step with UPC_ADD.
// The partial sums are added in another order than the sequential row sums:
// the results agree to rounding, not bit for bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "decomposition.hpp"
#include "fixman.hpp"
#include "parallel_common.hpp"
#include "physics.hpp"
#include "upc.h"
#include "upc_collective_ext.h"

namespace brownian {

class fixman_balanced_upc {
 public:
  // sloc brownian/fixman_balanced decl begin
  explicit fixman_balanced_upc(const problem& p)
      : p_(p), n_(p.rows()), blocks_(p.particles, THREADS), runs_(offdiagonal_runs(p.particles, THREADS, MYTHREAD)) {
    lo_ = 3 * blocks_.first(MYTHREAD);
    hi_ = 3 * blocks_.last(MYTHREAD);
    std::size_t count = 0;
    for (const block_run& r : runs_) count += static_cast<std::size_t>(r.jp_last - r.jp_first);
    arrayD_.resize(9 * count);
    arrayDiag_.resize(static_cast<std::size_t>(9 * (hi_ - lo_) / 3));
    F_.assign(blocks_.padded_rows(), 0.0);
    g_.assign(blocks_.padded_rows(), 0.0);
    Dcopy_.assign(blocks_.padded_rows(), 0.0);
    y_.assign(blocks_.padded_rows(), 0.0);
  }
  // sloc brownian/fixman_balanced decl end

  int lo() const { return lo_; }
  int hi() const { return hi_; }
  std::size_t length() const { return blocks_.padded_rows(); }

  void build(const double* pos) {
    parallel_forces(p_, blocks_, pos, F_, g_);
    // sloc brownian/fixman_balanced comp begin
    double* b = arrayD_.data();
    for (const block_run& r : runs_)
      for (int jp = r.jp_first; jp < r.jp_last; ++jp, b += 9) rpy_block(pos, r.ip, jp, b);
    for (int ip = lo_ / 3; ip < hi_ / 3; ++ip) self_block(&arrayDiag_[static_cast<std::size_t>(9 * (ip - lo_ / 3))]);
    // sloc brownian/fixman_balanced comp end
  }

  // The operator of fixman.hpp.
  int rows() const { return n_; }
  void multiply(const double* x, double* y) {
    // sloc brownian/fixman_balanced comp begin
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
    // sloc brownian/fixman_balanced comp end
    // sloc brownian/fixman_balanced comm begin
    upc_all_exchange_in_place_priv(Dcopy_.data(), static_cast<size_t>(blocks_.piece_rows()) * sizeof(double), priv_sync);
    // sloc brownian/fixman_balanced comm end
    // sloc brownian/fixman_balanced comp begin
    const std::size_t piece = static_cast<std::size_t>(blocks_.piece_rows());
    for (int r = lo_; r < hi_; ++r)
      for (int t = 0; t < THREADS; ++t) y[r] += Dcopy_[static_cast<std::size_t>(t) * piece + static_cast<std::size_t>(r - lo_)];
    // sloc brownian/fixman_balanced comp end
  }
  // sloc brownian/fixman_balanced comm begin
  void share(double* v) {
    upc_all_gather_all_in_place_priv(v, static_cast<size_t>(blocks_.piece_rows()) * sizeof(double), priv_sync);
  }
  double max_all(const double*, double mine) const { return allreduce(mine, UPC_MAX); }
  double sum_all(double mine) const { return allreduce(mine, UPC_ADD); }
  // sloc brownian/fixman_balanced comm end

  void displacement(const double* xi, double* dr) {
    // sloc brownian/fixman_balanced comp begin
    multiply(g_.data(), dr);
    fixman_sqrt_times(*this, state_, xi, y_.data(), stats_);
    const double c = std::sqrt(2.0 * p_.dt);
    for (int r = lo_; r < hi_; ++r) dr[r] += c * y_[static_cast<std::size_t>(r)];
    // sloc brownian/fixman_balanced comp end
  }

  const fixman_stats& stats() const { return stats_; }

 private:
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
