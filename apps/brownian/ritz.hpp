// The smallest eigenvalue of the Lanczos tridiagonal matrix T_k (diagonal
// alpha, off-diagonal beta): its smallest Ritz value, an estimate of λmin(D)
// from above. Bisection with Sturm counts, a scalar computation that every
// thread repeats with the same numbers.
#pragma once
#include <cmath>
#include <vector>

namespace brownian {

// sloc brownian/sequential comp begin
// sloc brownian/fixman_balanced comp begin
// sloc brownian/fixman_minimum comp begin
// How many eigenvalues of T lie below x (the negative pivots of T - x I = L D Lᵀ).
inline int eigenvalues_below(const std::vector<double>& alpha, const std::vector<double>& beta, double x) {
  int count = 0;
  double d = 1;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    const double b2 = i == 0 ? 0.0 : beta[i - 1] * beta[i - 1];
    d = alpha[i] - x - (i == 0 ? 0.0 : b2 / d);
    if (d == 0) d = -1e-300;  // x is an eigenvalue: count it below, keep going
    if (d < 0) ++count;
  }
  return count;
}

inline double smallest_ritz_value(const std::vector<double>& alpha, const std::vector<double>& beta) {
  double lo = alpha[0], hi = alpha[0];  // Gershgorin
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    const double r = (i > 0 ? std::fabs(beta[i - 1]) : 0.0) + (i + 1 < alpha.size() ? std::fabs(beta[i]) : 0.0);
    lo = std::fmin(lo, alpha[i] - r);
    hi = std::fmax(hi, alpha[i] + r);
  }
  for (int it = 0; it < 200 && hi - lo > 1e-14 * std::fmax(std::fabs(lo), std::fabs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    if (eigenvalues_below(alpha, beta, mid) >= 1) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}
// sloc brownian/fixman_minimum comp end
// sloc brownian/fixman_balanced comp end
// sloc brownian/sequential comp end

}  // namespace brownian
