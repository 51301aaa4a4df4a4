// Fixman's algorithm with minimum communications, "min-comms" (§5.4.4,
// Figure 5.5): the particles are split evenly and each thread computes the
// whole rows of D of its own particles (3 b rows of n = 3N), using the symmetry
// only between its own particles (about twice the work of the other versions).
// Every row sum of D x is then local, in the sequential order, and one
// collective per iteration remains:
//   upc_all_gather_all_in_place_priv(x_d): every row to every thread;
// the eigenvalue estimate (the largest |x_d[i]|) is then read from the whole
// vector on every thread, with no reduction. Only Fixman's accuracy check
// sums over threads once per step (upc_all_reduceD_all_priv). The positions
// are the sequential version's, bit for bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "decomposition.hpp"
#include "fixman.hpp"
#include "kernels.hpp"
#include "parallel_common.hpp"
#include "physics.hpp"
#include "upc.h"
#include "upc_collective_ext.h"

namespace brownian {

class fixman_minimum_upc {
 public:
  // sloc brownian/fixman_minimum decl begin
  explicit fixman_minimum_upc(const problem& p) : p_(p), n_(p.rows()), blocks_(p.particles, THREADS) {
    lo_ = 3 * blocks_.first(MYTHREAD);
    hi_ = 3 * blocks_.last(MYTHREAD);
    rows_.resize(static_cast<std::size_t>(hi_ - lo_) * static_cast<std::size_t>(n_));
    F_.assign(blocks_.padded_rows(), 0.0);
    g_.assign(blocks_.padded_rows(), 0.0);
    y_.assign(blocks_.padded_rows(), 0.0);
  }
  // sloc brownian/fixman_minimum decl end

  int lo() const { return lo_; }
  int hi() const { return hi_; }
  std::size_t length() const { return blocks_.padded_rows(); }

  void build(const double* pos) {
    parallel_forces(p_, blocks_, pos, F_, g_);
    // sloc brownian/fixman_minimum comp begin
    double b[9];
    const int first = lo_ / 3, last = hi_ / 3;
    for (int ip = first; ip < last; ++ip)
      for (int jp = 0; jp < p_.particles; ++jp) {
        const bool mirrored = jp < ip && jp >= first;  // computed already, as the block (jp, ip)
        for (int a = 0; a < 3 && mirrored; ++a)
          for (int c = 0; c < 3; ++c) at(3 * ip + a, 3 * jp + c) = at(3 * jp + c, 3 * ip + a);
        if (mirrored) continue;
        if (jp == ip) self_block(b);
        else rpy_block(pos, ip, jp, b);
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c) at(3 * ip + a, 3 * jp + c) = b[3 * a + c];
      }
    // sloc brownian/fixman_minimum comp end
  }

  // The operator of fixman.hpp.
  // sloc brownian/fixman_minimum comp begin
  void multiply(const double* x, double* y) const {
    for (int r = lo_; r < hi_; ++r) y[r] = row_times(&rows_[static_cast<std::size_t>(r - lo_) * static_cast<std::size_t>(n_)], x, n_);
  }
  int rows() const { return n_; }
  double max_all(const double* v, double) const {
    double m = 0;
    for (int i = 0; i < n_; ++i) m = std::fmax(m, std::fabs(v[i]));
    return m;
  }
  // sloc brownian/fixman_minimum comp end
  // sloc brownian/fixman_minimum comm begin
  void share(double* v) {
    upc_all_gather_all_in_place_priv(v, static_cast<size_t>(blocks_.piece_rows()) * sizeof(double), priv_sync);
  }
  double sum_all(double mine) const { return allreduce(mine, UPC_ADD); }
  // sloc brownian/fixman_minimum comm end

  void displacement(const double* xi, double* dr) {
    // sloc brownian/fixman_minimum comp begin
    multiply(g_.data(), dr);
    fixman_sqrt_times(*this, state_, xi, y_.data(), stats_);
    const double c = std::sqrt(2.0 * p_.dt);
    for (int r = lo_; r < hi_; ++r) dr[r] += c * y_[static_cast<std::size_t>(r)];
    // sloc brownian/fixman_minimum comp end
  }

  const fixman_stats& stats() const { return stats_; }

 private:
  double& at(int i, int j) { return rows_[static_cast<std::size_t>(i - lo_) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j)]; }

  problem p_;
  int n_;
  particle_blocks blocks_;
  int lo_ = 0, hi_ = 0;
  std::vector<double> rows_, F_, g_, y_;
  fixman_state state_;
  fixman_stats stats_;
};

}  // namespace brownian
