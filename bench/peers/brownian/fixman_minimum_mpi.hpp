// Fixman's algorithm with minimum communications, "min-comms", with MPI
// (§5.4.4, Figure 5.5): each rank computes the whole rows of D of its own
// particles, using the symmetry only between its own particles (about twice
// the work of the other versions). Every row sum of D x is local, in the
// sequential order; one in-place MPI_Allgather per iteration remains, and the
// eigenvalue estimate is read from the whole vector on every rank. Only
// Fixman's accuracy check reduces (MPI_Allreduce, twice per step). The
// positions are the sequential version's, bit for bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "decomposition.hpp"
#include "fixman.hpp"
#include "kernels.hpp"
#include "mpi_team.hpp"
#include "physics.hpp"

namespace brownian {

class fixman_minimum_mpi {
 public:
  explicit fixman_minimum_mpi(const problem& p) : p_(p), n_(p.rows()), blocks_(p.particles, team_.size) {
    lo_ = 3 * blocks_.first(team_.rank);
    hi_ = 3 * blocks_.last(team_.rank);
    rows_.resize(static_cast<std::size_t>(hi_ - lo_) * static_cast<std::size_t>(n_));
    F_.assign(blocks_.padded_rows(), 0.0);
    g_.assign(blocks_.padded_rows(), 0.0);
    y_.assign(blocks_.padded_rows(), 0.0);
  }

  int lo() const { return lo_; }
  int hi() const { return hi_; }
  std::size_t length() const { return blocks_.padded_rows(); }

  void build(const double* pos) {
    mpi_forces(p_, blocks_, team_.rank, pos, F_, g_);
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
  }

  // The operator of fixman.hpp.
  void multiply(const double* x, double* y) const {
    for (int r = lo_; r < hi_; ++r) y[r] = row_times(&rows_[static_cast<std::size_t>(r - lo_) * static_cast<std::size_t>(n_)], x, n_);
  }
  int rows() const { return n_; }
  double max_all(const double* v, double) const {
    double m = 0;
    for (int i = 0; i < n_; ++i) m = std::fmax(m, std::fabs(v[i]));
    return m;
  }
  void share(double* v) { allgather_in_place(v, blocks_.piece_rows()); }
  double sum_all(double mine) const { return allreduce(mine, MPI_SUM); }

  void displacement(const double* xi, double* dr) {
    multiply(g_.data(), dr);
    fixman_sqrt_times(*this, state_, xi, y_.data(), stats_);
    const double c = std::sqrt(2.0 * p_.dt);
    for (int r = lo_; r < hi_; ++r) dr[r] += c * y_[static_cast<std::size_t>(r)];
  }

  const fixman_stats& stats() const { return stats_; }

 private:
  double& at(int i, int j) { return rows_[static_cast<std::size_t>(i - lo_) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j)]; }

  mpi_team team_;
  problem p_;
  int n_;
  particle_blocks blocks_;
  int lo_ = 0, hi_ = 0;
  std::vector<double> rows_, F_, g_, y_;
  fixman_state state_;
  fixman_stats stats_;
};

}  // namespace brownian
