// Fixman's algorithm (§5.3, §5.4.2, Listing 5.4): the random displacement
// Sξ ≈ √D ξ without building S, in three iterative parts that each need the
// whole previous vector on every process:
//   1. λmax, by the power method of Listings 5.2 and 5.4 (x_d = D x / eigmax,
//      eigmax = max |x_d|, until eigmax settles), warm-started from the last
//      step's vector;
//   2. λmin, by the Lanczos iteration. The seed computes it "analogously",
//      by the power method on (s I - D); at N = 256 that estimate was still
//      1.9 times the true λmin after 100 iterations (the low end of D's
//      spectrum is a dense cluster), while Lanczos has it to 3% in about 40
//      (README.md has the numbers);
//   then the interval [0.90 λmin, 1.05 λmax], its ends rounded outward, and
//   the degree M of the series that is accurate on it;
//   3. the Chebyshev recurrence z_0 = ξ, z_1 = A ξ, z_{m+1} = 2 A z_m - z_{m-1}
//      with A = da D - db I (Eq. 5.7; the seed's "+ db I" maps the spectrum to
//      [-1, 1] only with db negated, so the sign is written out here), and
//      Sξ ≈ Σ a_m z_m (Eq. 5.6b);
// followed by Fixman's own accuracy check, E = |‖Sξ‖² - ξᵀDξ| / ξᵀDξ.
//
// The versions differ only in how a product with D is split between processes
// and which collectives join the pieces; that is the operator `Op`:
//   std::size_t length()        the length of a full vector on this thread
//   int lo(), hi()              the rows this thread computes
//   void multiply(x, y)         y[lo..hi) = (D x)[lo..hi), x whole
//   void share(v)               v[lo..hi) of every thread -> the whole v everywhere
//   int rows()                  n = 3N, the rows of D
//   double max_all(v, mine)     the largest |v_i| (mine: over my rows; v shared)
//   double sum_all(mine)        the sum over all threads of `mine`
// The vectors are double-buffered (x/x_d, z_{m-1}/z_m swap roles), as §5.3 says.
#pragma once
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "chebyshev.hpp"
#include "ritz.hpp"

namespace brownian {

struct fixman_settings {
  static constexpr double power_tolerance = 1e-4;    // relative change of eigmax that ends Listing 5.4's loop
  static constexpr int power_iterations = 1000;      // ... or this many iterations
  static constexpr double lanczos_tolerance = 5e-2;  // the smallest Ritz value moved less than 5% in ...
  static constexpr int lanczos_window = 10;          // ... the last 10 iterations
  static constexpr int lanczos_iterations = 1000;    // ... or this many iterations
  static constexpr double upper_margin = 1.05;       // λmax used = 1.05 × estimate
  static constexpr double lower_margin = 0.90;       // λmin used = 0.90 × estimate
  static constexpr double sqrt_tolerance = 1e-3;     // |p(λ) - √λ| <= 1e-3 √λmin on the interval
  // The bound E must respect when the spectrum lies in the interval:
  // ‖(S_M - S)ξ‖ <= tol √λmin ‖ξ‖ and ξᵀDξ >= λmin ‖ξ‖² give E <= 2 tol + tol².
  static constexpr double error_bound = 2 * sqrt_tolerance + sqrt_tolerance * sqrt_tolerance;
};

// What Fixman keeps from one step to the next: the power method's vector and
// estimate (a warm start: D changes little in one step), and work vectors.
struct fixman_state {
  std::vector<double> vmax, x_d, Dx, z_prev, z;
  std::vector<double> basis;  // the Lanczos vectors, one after the other (whole, on every thread)
  double eigmax = 1;
  double lmin = 0, lmax = 0;  // the last interval and its series
  std::vector<double> c;
  bool started = false;
};

// Per run: what the iterations did (the same on every thread, single-valued).
struct fixman_stats {
  long iterations_max = 0, iterations_min = 0, degree_sum = 0;
  int steps = 0, largest_degree = 0;
  double lambda_min = 0, lambda_max = 0, worst_error = 0;  // the last step's estimates, the worst E
  bool within_bound = true;
};

// The interval's ends are rounded outward to the grid 2^(k/8): the interval
// only has to hold the spectrum, and rounded ends do not carry the rounding
// differences of the eigenvalue estimates between versions (Lanczos amplifies
// them, to 1e-8 here) into the displacements. The series is kept while the
// interval does not change.
inline double grid_below(double x) { return std::exp2(std::floor(8 * std::log2(x)) / 8); }
inline double grid_above(double x) { return std::exp2(std::ceil(8 * std::log2(x)) / 8); }

// y[lo..hi) = Sξ (rows of this thread); xi is whole on every thread.
// sloc brownian/sequential comp begin
// sloc brownian/fixman_balanced comp begin
// sloc brownian/fixman_minimum comp begin
template <class Op>
void fixman_sqrt_times(Op& op, fixman_state& st, const double* xi, double* y, fixman_stats& stats) {
  using S = fixman_settings;
  const int lo = op.lo(), hi = op.hi();
  const std::size_t length = op.length();
  if (!st.started) {
    st.vmax.assign(length, 1.0);
    for (auto* v : {&st.x_d, &st.Dx, &st.z_prev, &st.z}) v->assign(length, 0.0);
    st.started = true;
  }

  // 1. λmax: Listing 5.4.
  for (int it = 1;; ++it) {
    op.multiply(st.vmax.data(), st.Dx.data());
    double mine = 0;
    for (int r = lo; r < hi; ++r) {
      st.x_d[r] = st.Dx[r] / st.eigmax;
      mine = std::fmax(mine, std::fabs(st.x_d[r]));
    }
    op.share(st.x_d.data());
    const double next = op.max_all(st.x_d.data(), mine);
    std::swap(st.vmax, st.x_d);
    const bool settled = std::fabs(next - st.eigmax) <= S::power_tolerance * next;
    st.eigmax = next;
    if (settled || it == S::power_iterations) {
      stats.iterations_max += it;
      break;
    }
  }
  const double lmax = grid_above(S::upper_margin * st.eigmax);

  // 2. λmin: Lanczos, q_{k+1} β_k = D q_k - α_k q_k - β_{k-1} q_{k-1}, from a
  // fixed start. The versions' products D q differ in rounding, and Lanczos
  // magnifies such differences: without reorthogonalisation the Ritz values
  // of two versions parted by 1e-3, and even with it they part once the
  // smallest has converged. So the basis is fully reorthogonalised and the
  // loop stops as soon as the smallest Ritz value moved less than 5% over
  // the last 10 iterations, where (measured) the versions still agree to
  // about 1e-12. Each thread shares its rows of D q and runs the rest on
  // whole vectors (the basis is every thread's), so Lanczos needs no reduction.
  const int n = op.rows();
  st.basis.assign(static_cast<std::size_t>(n), 0.0);
  double norm = 0;
  for (int r = 0; r < n; ++r) {
    st.basis[static_cast<std::size_t>(r)] = std::sin(1.0 + r);
    norm += st.basis[static_cast<std::size_t>(r)] * st.basis[static_cast<std::size_t>(r)];
  }
  norm = std::sqrt(norm);
  for (int r = 0; r < n; ++r) st.basis[static_cast<std::size_t>(r)] /= norm;
  std::vector<double> alpha, beta, ritz;
  for (int k = 1;; ++k) {
    const double* q = &st.basis[static_cast<std::size_t>(k - 1) * static_cast<std::size_t>(n)];
    double* w = st.Dx.data();
    op.multiply(q, w);
    op.share(w);
    double qw = 0;
    for (int r = 0; r < n; ++r) qw += q[r] * w[r];
    alpha.push_back(qw);
    for (int j = 0; j < k; ++j) {  // w -= (q_j · w) q_j for every basis vector (α_k q_k and β_{k-1} q_{k-1} among them)
      const double* qj = &st.basis[static_cast<std::size_t>(j) * static_cast<std::size_t>(n)];
      double d = 0;
      for (int r = 0; r < n; ++r) d += qj[r] * w[r];
      for (int r = 0; r < n; ++r) w[r] -= d * qj[r];
    }
    double ww = 0;
    for (int r = 0; r < n; ++r) ww += w[r] * w[r];
    ritz.push_back(smallest_ritz_value(alpha, beta));
    const bool settled = k > S::lanczos_window &&
                         ritz[ritz.size() - 1 - S::lanczos_window] - ritz.back() <= S::lanczos_tolerance * ritz.back();
    const bool exhausted = ww <= 1e-24 * alpha.back() * alpha.back();  // an invariant subspace: T_k holds its eigenvalues
    if (settled || exhausted || k == S::lanczos_iterations || k == n) {
      stats.iterations_min += k;
      break;
    }
    beta.push_back(std::sqrt(ww));
    st.basis.resize(st.basis.size() + static_cast<std::size_t>(n));
    double* next = &st.basis[static_cast<std::size_t>(k) * static_cast<std::size_t>(n)];
    for (int r = 0; r < n; ++r) next[r] = st.Dx[static_cast<std::size_t>(r)] / beta.back();
  }
  const double lmin = grid_below(S::lower_margin * ritz.back());

  // 3. The Chebyshev series.
  if (lmin != st.lmin || lmax != st.lmax) {  // a new interval
    st.lmin = lmin;
    st.lmax = lmax;
    st.c = sqrt_coefficients(lmin, lmax, sqrt_degree(lmin, lmax, S::sqrt_tolerance));
  }
  const std::vector<double>& c = st.c;
  const int degree = static_cast<int>(c.size()) - 1;
  const double da = 2.0 / (lmax - lmin), db = (lmax + lmin) / (lmax - lmin);
  // z_0 = ξ, z_1 = A ξ; ξᵀDξ for the check comes with the first product.
  op.multiply(xi, st.Dx.data());
  double xDx = 0;
  for (int r = lo; r < hi; ++r) {
    st.z_prev[r] = xi[r];
    st.z[r] = da * st.Dx[r] - db * xi[r];
    y[r] = c[0] * xi[r] + c[1] * st.z[r];
    xDx += xi[r] * st.Dx[r];
  }
  if (degree > 1) op.share(st.z.data());
  for (int m = 2; m <= degree; ++m) {
    op.multiply(st.z.data(), st.Dx.data());
    for (int r = lo; r < hi; ++r) {
      st.z_prev[r] = 2.0 * (da * st.Dx[r] - db * st.z[r]) - st.z_prev[r];  // z_m over z_{m-2}
      y[r] += c[static_cast<std::size_t>(m)] * st.z_prev[r];
    }
    if (m < degree) op.share(st.z_prev.data());
    std::swap(st.z_prev, st.z);
  }
  double yy = 0;
  for (int r = lo; r < hi; ++r) yy += y[r] * y[r];
  yy = op.sum_all(yy);
  xDx = op.sum_all(xDx);
  const double error = std::fabs(yy - xDx) / xDx;

  stats.steps += 1;
  stats.degree_sum += degree;
  stats.largest_degree = std::max(stats.largest_degree, degree);
  stats.lambda_min = ritz.back();
  stats.lambda_max = st.eigmax;
  stats.worst_error = std::fmax(stats.worst_error, error);
  if (!(error <= S::error_bound)) stats.within_bound = false;
}
// sloc brownian/fixman_minimum comp end
// sloc brownian/fixman_balanced comp end
// sloc brownian/sequential comp end

}  // namespace brownian
