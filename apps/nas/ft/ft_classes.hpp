// NPB FT's problem classes (NPB 3.x): the grid, the iterations and the official
// checksum after each iteration, the verification rule and the Mop/s formula.
#pragma once
#include <cmath>
#include <complex>
#include <vector>

#include "../../../harness/npb_classes.h"

namespace ft {

using cplx = std::complex<double>;

struct problem_class {
  char name;
  int nx, ny, nz, niter;
  std::vector<cplx> reference;  // NPB's checksum after iteration 1, 2, ...

  long total() const { return static_cast<long>(nx) * ny * nz; }
};

// The official table (npb_classes.h, shared with the MPI peer) as C++ values.
inline const std::vector<problem_class>& classes() {
  static const std::vector<problem_class> all = [] {
    std::vector<problem_class> v;
    for (const npb_ft_class& c : npb_ft_classes) {
      problem_class p{c.name, c.nx, c.ny, c.nz, c.niter, {}};
      for (int i = 0; i < c.niter; ++i) p.reference.emplace_back(c.ref[i][0], c.ref[i][1]);
      v.push_back(p);
    }
    return v;
  }();
  return all;
}

inline const problem_class* find_class(char name) {
  for (const problem_class& c : classes())
    if (c.name == name) return &c;
  return nullptr;
}

// NPB 3.x's test: |(sum - ref) / ref| <= 1e-12 for every iteration.
inline constexpr double epsilon = 1e-12;
inline double relative_error(cplx sum, cplx ref) { return std::abs((sum - ref) / ref); }

// NPB's operation count for FT (natural logarithms, as NPB's Fortran `log`).
inline double mops(const problem_class& c, double seconds) {
  const double n = static_cast<double>(c.total());
  return seconds > 0
             ? 1e-6 * n * (14.8157 + 7.19641 * std::log(n) + (5.23518 + 7.21113 * std::log(n)) * c.niter) / seconds
             : 0.0;
}

}  // namespace ft
