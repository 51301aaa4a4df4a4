// The inner loops that the sequential code and a parallel version both run on
// the same numbers: written once, so that both do the same operations in the
// same order and get the same bits.
#pragma once
#include <cmath>

namespace brownian {

// sloc brownian/sequential comp begin
// sloc brownian/cholesky comp begin
// sloc brownian/fixman_minimum comp begin
// Σ_j row[j] x[j], j = 0, 1, ..., n-1 (a row of D times a vector).
inline double row_times(const double* row, const double* x, int n) {
  double s = 0;
  for (int j = 0; j < n; ++j) s += row[j] * x[j];
  return s;
}
// sloc brownian/fixman_minimum comp end
// sloc brownian/cholesky comp end
// sloc brownian/sequential comp end

// sloc brownian/sequential comp begin
// sloc brownian/cholesky comp begin
// One row of the right-looking Cholesky (Listings 5.1 and 5.3):
// u[i] -= l · pivot[i] for the `count` elements of row j from column j on.
inline void eliminate(double* u, double l, const double* pivot, int count) {
  for (int i = 0; i < count; ++i) u[i] -= l * pivot[i];
}

// The pivot row: its diagonal becomes √u[0], the rest is divided by it.
// False when D is not positive definite (a pivot <= 0).
inline bool scale_pivot(double* u, int count) {
  if (!(u[0] > 0)) return false;
  u[0] = std::sqrt(u[0]);
  for (int i = 1; i < count; ++i) u[i] /= u[0];
  return true;
}
// sloc brownian/cholesky comp end
// sloc brownian/sequential comp end

}  // namespace brownian
