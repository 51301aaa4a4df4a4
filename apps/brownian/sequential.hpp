// The sequential code of §5.3, the reference of every parallel version:
// calc_force() computes every force and the whole symmetric D (its upper
// triangle, copied into the lower one); covar() builds the random displacements
// by Cholesky (Eq. 5.5, in the right-looking order of Listing 5.1) or by
// Fixman's method (fixman.hpp); move() adds D·FΔt/kT and the displacements.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "fixman.hpp"
#include "kernels.hpp"
#include "physics.hpp"

namespace brownian {

// The forces and the full matrix D, n x n with n = 3N (pNDIM).
class sequential_system {
 public:
  // sloc brownian/sequential decl begin
  explicit sequential_system(const problem& p)
      : p_(p), n_(p.rows()), D_(static_cast<std::size_t>(n_) * n_), F_(static_cast<std::size_t>(n_)), g_(F_.size()) {}
  // sloc brownian/sequential decl end

  // sloc brownian/sequential comp begin
  void calc_force(const double* pos) {
    for (int i = 0; i < p_.particles; ++i) lj_force(pos, p_.particles, i, &F_[static_cast<std::size_t>(3 * i)]);
    for (int i = 0; i < n_; ++i) g_[static_cast<std::size_t>(i)] = drift_weight(p_) * F_[static_cast<std::size_t>(i)];
    double b[9];
    for (int ip = 0; ip < p_.particles; ++ip)
      for (int jp = ip; jp < p_.particles; ++jp) {
        if (jp == ip) self_block(b);
        else rpy_block(pos, ip, jp, b);
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c) {
            at(3 * ip + a, 3 * jp + c) = b[3 * a + c];
            at(3 * jp + c, 3 * ip + a) = b[3 * a + c];  // the lower triangle, a copy
          }
      }
  }

  // D g, row by row.
  void drift(double* out) const {
    for (int i = 0; i < n_; ++i) out[i] = row_times(&D_[static_cast<std::size_t>(i) * n_], g_.data(), n_);
  }
  // sloc brownian/sequential comp end

  double& at(int i, int j) { return D_[static_cast<std::size_t>(i) * n_ + j]; }
  const std::vector<double>& D() const { return D_; }
  int rows() const { return n_; }

 private:
  problem p_;
  int n_;
  std::vector<double> D_, F_, g_;
};

// covar() by Cholesky: D = L Lᵀ, R = √(2Δt) L ξ. The factor is built in U = Lᵀ
// (row k of U is column k of L), the right-looking way: row k is scaled by its
// pivot, then removed from every later row, and R_j gathers L_jk ξ_k as soon as
// L_jk is known. Listing 5.3 does the same per process.
class sequential_cholesky {
 public:
  // sloc brownian/sequential decl begin
  explicit sequential_cholesky(const problem& p)
      : p_(p), n_(p.rows()), sys_(p), U_(static_cast<std::size_t>(n_) * n_), R_(static_cast<std::size_t>(n_)) {}
  // sloc brownian/sequential decl end

  int lo() const { return 0; }
  int hi() const { return n_; }
  std::size_t length() const { return static_cast<std::size_t>(n_); }
  void build(const double* pos) { sys_.calc_force(pos); }
  void share(double*) {}

  // sloc brownian/sequential comp begin
  void displacement(const double* xi, double* dr) {
    sys_.drift(dr);
    U_ = sys_.D();
    std::fill(R_.begin(), R_.end(), 0.0);
    for (int k = 0; k < n_; ++k) {
      double* pivot = &U_[static_cast<std::size_t>(k) * n_ + k];
      if (!scale_pivot(pivot, n_ - k)) positive_definite_ = false;
      R_[static_cast<std::size_t>(k)] += pivot[0] * xi[k];
      for (int j = k + 1; j < n_; ++j) {
        const double ljk = pivot[j - k];
        eliminate(&U_[static_cast<std::size_t>(j) * n_ + j], ljk, pivot + (j - k), n_ - j);
        R_[static_cast<std::size_t>(j)] += ljk * xi[k];
      }
    }
    const double c = std::sqrt(2.0 * p_.dt);
    for (int i = 0; i < n_; ++i) dr[i] += c * R_[static_cast<std::size_t>(i)];
    if (factor_error_ < 0) factor_error_ = factor_residual();
  }
  // sloc brownian/sequential comp end

  bool positive_definite() const { return positive_definite_; }
  // max |(L Lᵀ - D)_ij| / max |D_ij| at the first step.
  double factor_error() const { return factor_error_; }

 private:
  // (Uᵀ U)_ij = Σ_k U_ki U_kj, accumulated row k of U at a time (contiguous).
  double factor_residual() const {
    const std::vector<double>& D = sys_.D();
    std::vector<double> product(D.size(), 0.0);
    for (int k = 0; k < n_; ++k) {
      const double* u = &U_[static_cast<std::size_t>(k) * n_];
      for (int i = k; i < n_; ++i) {
        double* row = &product[static_cast<std::size_t>(i) * n_];
        for (int j = i; j < n_; ++j) row[j] += u[i] * u[j];
      }
    }
    double worst = 0, scale = 0;
    for (int i = 0; i < n_; ++i)
      for (int j = i; j < n_; ++j) {
        worst = std::fmax(worst, std::fabs(product[static_cast<std::size_t>(i) * n_ + j] - D[static_cast<std::size_t>(i) * n_ + j]));
        scale = std::fmax(scale, std::fabs(D[static_cast<std::size_t>(i) * n_ + j]));
      }
    return worst / scale;
  }

  problem p_;
  int n_;
  sequential_system sys_;
  std::vector<double> U_, R_;
  bool positive_definite_ = true;
  double factor_error_ = -1;
};

// covar() by Fixman's method, with D whole on the one process.
class sequential_fixman {
 public:
  // sloc brownian/sequential decl begin
  explicit sequential_fixman(const problem& p) : p_(p), n_(p.rows()), sys_(p), y_(static_cast<std::size_t>(n_)) {}
  // sloc brownian/sequential decl end

  int lo() const { return 0; }
  int hi() const { return n_; }
  std::size_t length() const { return static_cast<std::size_t>(n_); }
  void build(const double* pos) { sys_.calc_force(pos); }
  void share(double*) {}

  // The operator of fixman.hpp: one process holds every row.
  // sloc brownian/sequential comp begin
  void multiply(const double* x, double* y) const {
    for (int i = 0; i < n_; ++i) y[i] = row_times(&sys_.D()[static_cast<std::size_t>(i) * n_], x, n_);
  }
  int rows() const { return n_; }
  double max_all(const double*, double mine) const { return mine; }
  double sum_all(double mine) const { return mine; }

  void displacement(const double* xi, double* dr) {
    sys_.drift(dr);
    fixman_sqrt_times(*this, state_, xi, y_.data(), stats_);
    const double c = std::sqrt(2.0 * p_.dt);
    for (int i = 0; i < n_; ++i) dr[i] += c * y_[static_cast<std::size_t>(i)];
    if (interval_checked_ == 0 && n_ <= largest_checked_rows)
      interval_checked_ = holds_spectrum(state_.lmin, state_.lmax) ? 1 : -1;
  }
  // sloc brownian/sequential comp end

  const fixman_stats& stats() const { return stats_; }
  // Whether the Chebyshev interval of the first step held D's spectrum: 1 yes,
  // -1 no, 0 not checked (n > largest_checked_rows: two O(n³) factorisations).
  int interval_checked() const { return interval_checked_; }
  double interval_low() const { return state_.lmin; }
  double interval_high() const { return state_.lmax; }
  static constexpr int largest_checked_rows = 1536;

 private:
  problem p_;
  int n_;
  sequential_system sys_;
  // λmin(D) > lo and λmax(D) < hi exactly when D - lo I and hi I - D are
  // positive definite, i.e. when their Cholesky factorisations succeed.
  bool holds_spectrum(double lo, double hi) const {
    for (int side = 0; side < 2; ++side) {
      std::vector<double> M(sys_.D());
      for (double& m : M)
        if (side == 1) m = -m;
      for (int i = 0; i < n_; ++i) M[static_cast<std::size_t>(i) * n_ + i] += side == 0 ? -lo : hi;
      for (int k = 0; k < n_; ++k) {
        double* pivot = &M[static_cast<std::size_t>(k) * n_ + k];
        if (!scale_pivot(pivot, n_ - k)) return false;
        for (int j = k + 1; j < n_; ++j) eliminate(&M[static_cast<std::size_t>(j) * n_ + j], pivot[j - k], pivot + (j - k), n_ - j);
      }
    }
    return true;
  }

  std::vector<double> y_;
  int interval_checked_ = 0;
  fixman_state state_;
  fixman_stats stats_;
};

}  // namespace brownian
