// The NPB CG problem classes (NPB 3.x): the matrix order na, the nonzeros per
// generated row vector, the outer (inverse power) iterations, the eigenvalue
// shift and the verification value of zeta. rcond and the 25 inner CG
// iterations are the same for every class.
#pragma once
#include <string>

namespace cg {

struct problem_class {
  char name;
  long na;
  int nonzer;
  int niter;
  double shift;
  double zeta_verify;
};

inline constexpr problem_class classes[] = {
    {'S', 1400, 7, 15, 10.0, 8.5971775078648},
    {'W', 7000, 8, 15, 12.0, 10.362595087124},
    {'A', 14000, 11, 15, 20.0, 17.130235054029},
    {'B', 75000, 13, 75, 60.0, 22.712745482631},
};

inline constexpr double rcond = 0.1;        // the smallest eigenvalue is bounded below by rcond
inline constexpr int cg_iterations = 25;    // NPB's cgitmax: inner iterations per outer one
inline constexpr double epsilon = 1.0e-10;  // |zeta - zeta_verify| allowed

inline const problem_class* find_class(const std::string& name) {
  for (const problem_class& c : classes)
    if (name.size() == 1 && name[0] == c.name) return &c;
  return nullptr;
}

// NPB's operation count for CG (Mop/s = this / seconds / 1e6).
inline double operations(const problem_class& c) {
  const double nz = static_cast<double>(c.nonzer) * (c.nonzer + 1);
  return 2.0 * c.niter * static_cast<double>(c.na) * (3.0 + nz + 25.0 * (5.0 + nz) + 3.0);
}

}  // namespace cg
