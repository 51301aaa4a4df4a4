// calc_force() of the OpenMP version (§5.4.2): the forces and the whole
// symmetric D, as the sequential code builds them (sequential.hpp), with the
// loop over particles split between the threads by `omp for`. Each element is
// computed by the same functions as everywhere else, so D has the sequential
// code's bits.
#pragma once
#include <cstddef>
#include <vector>

#include "kernels.hpp"
#include "physics.hpp"

namespace brownian {

class omp_system {
 public:
  explicit omp_system(const problem& p)
      : p_(p), n_(p.rows()), D_(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_)), g_(static_cast<std::size_t>(n_)) {}

  void calc_force(const double* pos) {
    const int N = p_.particles;
#pragma omp parallel for schedule(dynamic, 4)
    for (int ip = 0; ip < N; ++ip) {
      double f[3], b[9];
      lj_force(pos, N, ip, f);
      for (int a = 0; a < 3; ++a) g_[static_cast<std::size_t>(3 * ip + a)] = drift_weight(p_) * f[a];
      for (int jp = ip; jp < N; ++jp) {  // the upper triangle's block row, mirrored into the lower one
        if (jp == ip) self_block(b);
        else rpy_block(pos, ip, jp, b);
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c) {
            at(3 * ip + a, 3 * jp + c) = b[3 * a + c];
            at(3 * jp + c, 3 * ip + a) = b[3 * a + c];
          }
      }
    }
  }

  // D g, rows split between the threads.
  void drift(double* out) const {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n_; ++i) out[i] = row_times(row(i), g_.data(), n_);
  }

  const double* row(int i) const { return &D_[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_)]; }
  const std::vector<double>& D() const { return D_; }

 private:
  double& at(int i, int j) { return D_[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j)]; }

  problem p_;
  int n_;
  std::vector<double> D_, g_;
};

}  // namespace brownian
