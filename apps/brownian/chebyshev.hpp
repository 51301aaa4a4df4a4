// The scalar side of Fixman's method (§5.3, Eqs. 5.6–5.7): the Chebyshev
// series of √λ on the interval [λmin, λmax] that holds D's eigenvalues, and the
// degree that makes it accurate enough there. The matrix side (the vectors z_m)
// is in fixman.hpp.
#pragma once
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "physics.hpp"

namespace brownian {

// sloc brownian/sequential comp begin
// sloc brownian/fixman_balanced comp begin
// sloc brownian/fixman_minimum comp begin
// The interpolant of √λ at the M+1 Chebyshev nodes of [lo, hi], as
// Σ_{m=0..M} a_m T_m(t) with t = da λ - db (a_0 already halved).
inline std::vector<double> sqrt_coefficients(double lo, double hi, int degree) {
  const int nodes = degree + 1;
  std::vector<double> f(static_cast<std::size_t>(nodes)), a(static_cast<std::size_t>(nodes));
  for (int k = 0; k < nodes; ++k) {
    const double theta = pi * (k + 0.5) / nodes;
    f[static_cast<std::size_t>(k)] = std::sqrt(0.5 * (std::cos(theta) * (hi - lo) + (hi + lo)));
  }
  for (int m = 0; m < nodes; ++m) {
    double s = 0;
    for (int k = 0; k < nodes; ++k) s += f[static_cast<std::size_t>(k)] * std::cos(m * pi * (k + 0.5) / nodes);
    a[static_cast<std::size_t>(m)] = 2.0 * s / nodes;
  }
  a[0] *= 0.5;
  return a;
}

// Σ a_m T_m(t) (Clenshaw).
inline double chebyshev_value(const std::vector<double>& a, double t) {
  double b1 = 0, b2 = 0;
  for (std::size_t m = a.size() - 1; m >= 1; --m) {
    const double b0 = 2.0 * t * b1 - b2 + a[m];
    b2 = b1;
    b1 = b0;
  }
  return t * b1 - b2 + a[0];
}

// The smallest degree whose interpolant is within tolerance·√lo of √λ all over
// [lo, hi] (checked on a grid of Chebyshev extrema, dense where √ bends most).
// Then ‖(S_M - S)ξ‖ <= tolerance·√λmin·‖ξ‖ whenever D's spectrum lies in [lo, hi].
inline int sqrt_degree(double lo, double hi, double tolerance) {
  constexpr int largest = 4000;
  const double allowed = tolerance * std::sqrt(lo);
  for (int degree = 1; degree <= largest; degree = degree < 16 ? degree + 1 : degree + degree / 8) {
    const std::vector<double> a = sqrt_coefficients(lo, hi, degree);
    const int grid = 8 * (degree + 1);
    double worst = 0;
    for (int g = 0; g <= grid; ++g) {
      const double t = std::cos(pi * g / grid);
      const double lambda = 0.5 * (t * (hi - lo) + (hi + lo));
      worst = std::fmax(worst, std::fabs(chebyshev_value(a, t) - std::sqrt(lambda)));
    }
    if (worst <= allowed) return degree;
  }
  throw std::runtime_error("Fixman: no Chebyshev degree up to 4000 approximates the square root on [" +
                           std::to_string(lo) + ", " + std::to_string(hi) + "]");
}
// sloc brownian/fixman_minimum comp end
// sloc brownian/fixman_balanced comp end
// sloc brownian/sequential comp end

}  // namespace brownian
