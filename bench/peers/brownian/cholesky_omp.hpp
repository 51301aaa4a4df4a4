// covar() by Cholesky with OpenMP (§5.4.2, Listing 5.1): the right-looking
// factorisation, one column at a time. Each step k scales the pivot row (one
// thread: `omp single`, which ends with the barrier the next loop needs), then
// the later rows are updated by `omp for schedule(dynamic)` (their lengths
// differ). R_j gathers L_jk ξ_k as soon as L_jk is known, as the sequential code
// does (sequential.hpp): the same operations in the same order per element,
// so the positions are the sequential run's, bit for bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "kernels.hpp"
#include "omp_system.hpp"
#include "physics.hpp"

namespace brownian {

class cholesky_omp {
 public:
  explicit cholesky_omp(const problem& p)
      : p_(p), n_(p.rows()), sys_(p), U_(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_)), R_(static_cast<std::size_t>(n_)) {}

  std::size_t length() const { return static_cast<std::size_t>(n_); }
  void build(const double* pos) { sys_.calc_force(pos); }
  void share(double*) {}

  void displacement(const double* xi, double* dr) {
    sys_.drift(dr);
    U_ = sys_.D();
    std::fill(R_.begin(), R_.end(), 0.0);
    bool definite = true;
    const std::size_t n = static_cast<std::size_t>(n_);
#pragma omp parallel
    for (int k = 0; k < n_; ++k) {
      double* pivot = &U_[static_cast<std::size_t>(k) * n + static_cast<std::size_t>(k)];
#pragma omp single
      {
        if (!scale_pivot(pivot, n_ - k)) definite = false;
        R_[static_cast<std::size_t>(k)] += pivot[0] * xi[k];
      }
#pragma omp for schedule(dynamic, 8)
      for (int j = k + 1; j < n_; ++j) {
        const double ljk = pivot[j - k];
        eliminate(&U_[static_cast<std::size_t>(j) * n + static_cast<std::size_t>(j)], ljk, pivot + (j - k), n_ - j);
        R_[static_cast<std::size_t>(j)] += ljk * xi[k];
      }
    }
    if (!definite) positive_definite_ = false;
    const double c = std::sqrt(2.0 * p_.dt);
    for (int i = 0; i < n_; ++i) dr[i] += c * R_[static_cast<std::size_t>(i)];
  }

  bool positive_definite() const { return positive_definite_; }

 private:
  problem p_;
  int n_;
  omp_system sys_;
  std::vector<double> U_, R_;
  bool positive_definite_ = true;
};

}  // namespace brownian
