// NPB CG's kernel on a 2-D processor grid: cgitmax = 25 conjugate gradient
// iterations on A z = x, then ||x - A z||. Every vector is my column block
// (replicated down my processor column); A * v is the product of my matrix
// block, its partial sums added across my processor row, and the row sums
// transposed back into column blocks by the Exchange (remap or hand).
#pragma once
#include <cmath>
#include <cstring>
#include <vector>

#include "cg_class.hpp"
#include "make_matrix.hpp"
#include "row_sums.hpp"

namespace cg {

inline double local_dot(const double* a, const double* b, std::size_t n) {
  double s = 0.0;
  for (std::size_t j = 0; j < n; ++j) s += a[j] * b[j];
  return s;
}

template <class Exchange>
class solver {
 public:
  solver(const block_matrix& A, std::size_t ncols, row_sums& rows, Exchange& exchange)
      : A_(A), n_(ncols), rows_(rows), ex_(exchange), r_(ncols), p_(ncols) {}

  // Collective: (A * v) for my column block; valid until the next product.
  const double* multiply(const double* v) {
    double* w = rows_.partial();
    const std::size_t nrows = A_.rowstr.size() - 1;
    for (std::size_t j = 0; j < nrows; ++j) {
      double sum = 0.0;
      for (long k = A_.rowstr[j]; k < A_.rowstr[j + 1]; ++k)
        sum += A_.a[static_cast<std::size_t>(k)] * v[A_.colidx[static_cast<std::size_t>(k)]];
      w[j] = sum;
    }
    rows_.reduce_into(ex_.row_sum());
    return ex_.transpose();
  }

  double dot(const double* a, const double* b) { return rows_.across_row(local_dot(a, b, n_)); }

  // Collective: z solves A z = x approximately (25 CG iterations from z = 0);
  // returns ||x - A z||.
  double conj_grad(const double* x, double* z) {
    for (std::size_t j = 0; j < n_; ++j) {
      z[j] = 0.0;
      r_[j] = x[j];
      p_[j] = x[j];
    }
    double rho = dot(r_.data(), r_.data());
    for (int it = 0; it < cg_iterations; ++it) {
      const double* q = multiply(p_.data());
      const double d = dot(p_.data(), q);
      const double rho0 = rho;
      const double alpha = rho0 / d;
      for (std::size_t j = 0; j < n_; ++j) {
        z[j] += alpha * p_[j];
        r_[j] -= alpha * q[j];
      }
      rho = dot(r_.data(), r_.data());
      const double beta = rho / rho0;
      for (std::size_t j = 0; j < n_; ++j) p_[j] = r_[j] + beta * p_[j];
    }
    const double* Az = multiply(z);
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) {
      const double d = x[j] - Az[j];
      sum += d * d;
    }
    return std::sqrt(rows_.across_row(sum));
  }

 private:
  const block_matrix& A_;
  std::size_t n_;
  row_sums& rows_;
  Exchange& ex_;
  std::vector<double> r_, p_;
};

}  // namespace cg
