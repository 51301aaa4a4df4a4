// covar() by Fixman's method with OpenMP (§5.4.2, Listing 5.2): D whole in
// shared memory, and every product with it (the power method for λmax, Lanczos
// for λmin, the Chebyshev recurrence) split by rows with `omp for`. It is the
// operator of the shared driver (apps/brownian/fixman.hpp) with every row on
// "this thread" and nothing to share: the driver's O(n) vector updates run on
// one thread, the O(n²) products on all. Each row sum is the sequential code's,
// so the positions are the sequential run's, bit for bit.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

#include "fixman.hpp"
#include "kernels.hpp"
#include "omp_system.hpp"
#include "physics.hpp"

namespace brownian {

class fixman_omp {
 public:
  explicit fixman_omp(const problem& p) : p_(p), n_(p.rows()), sys_(p), y_(static_cast<std::size_t>(n_)) {}

  std::size_t length() const { return static_cast<std::size_t>(n_); }
  void build(const double* pos) { sys_.calc_force(pos); }
  void share(double*) {}

  // The operator of fixman.hpp.
  int lo() const { return 0; }
  int hi() const { return n_; }
  int rows() const { return n_; }
  void multiply(const double* x, double* y) const {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n_; ++i) y[i] = row_times(sys_.row(i), x, n_);
  }
  double max_all(const double*, double mine) const { return mine; }
  double sum_all(double mine) const { return mine; }

  void displacement(const double* xi, double* dr) {
    sys_.drift(dr);
    fixman_sqrt_times(*this, state_, xi, y_.data(), stats_);
    const double c = std::sqrt(2.0 * p_.dt);
    for (int i = 0; i < n_; ++i) dr[i] += c * y_[static_cast<std::size_t>(i)];
  }

  const fixman_stats& stats() const { return stats_; }

 private:
  problem p_;
  int n_;
  omp_system sys_;
  std::vector<double> y_;
  fixman_state state_;
  fixman_stats stats_;
};

}  // namespace brownian
