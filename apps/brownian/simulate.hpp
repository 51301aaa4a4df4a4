// The time loop of §5.3, the same for every version: each iteration is one
// step of Eq. 5.3, Δr = D F Δt / kT + √(2Δt) S ξ, computed by a version's
//   build(pos)            calc_force(): forces and its part of D
//   displacement(ξ, Δr)   covar() and move(): Δr of its rows
//   share(Δr)             every row of Δr on every thread
// after which every thread moves every particle (each holds all coordinates).
#pragma once
#include <vector>

#include "physics.hpp"

namespace brownian {

template <class Version>
std::vector<double> simulate(Version& v, const problem& p) {
  std::vector<double> pos = initial_positions(p);
  std::vector<double> xi(static_cast<std::size_t>(p.rows())), dr(v.length());
  for (int step = 0; step < p.steps; ++step) {
    v.build(pos.data());
    draw_gaussians(p, step, xi.data());
    v.displacement(xi.data(), dr.data());
    v.share(dr.data());
    for (int i = 0; i < p.rows(); ++i) pos[static_cast<std::size_t>(i)] += dr[static_cast<std::size_t>(i)];
  }
  return pos;
}

}  // namespace brownian
