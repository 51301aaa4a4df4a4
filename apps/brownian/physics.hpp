// The model of seed 003 §5.2, in reduced units (σ = ε = kT = 1, bead radius
// a = σ/2, D0 = kT/(6πηa) = 1): Lennard-Jones forces (Eq. 5.2b, cut off at
// Rc = 2.5σ), the regularised Rotne–Prager–Yamakawa diffusion tensor, the
// starting configuration and the Gaussian numbers ξ of Eq. 5.3.
//
// Every version calls these functions, so every version computes the same bits
// for the same forces, tensor blocks and random numbers.
//
// The particles form a cluster in an unbounded solvent: the thesis sums the
// tensor over periodic images (an Ewald sum); the free-space tensor used here
// is positive definite for every configuration, which is what Cholesky and
// Fixman need, and costs the same O(N^2) per step (README.md says more).
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace brownian {

constexpr double kT = 1.0;
constexpr double sigma = 1.0;    // particle diameter
constexpr double epsilon = 1.0;  // depth of the Lennard-Jones well
constexpr double radius = 0.5;   // hydrodynamic radius a = σ/2
constexpr double D0 = 1.0;       // kT / (6 π η a): the self-diffusion coefficient
constexpr double cutoff = 2.5 * sigma;
constexpr double lattice_spacing = 1.5 * sigma;  // near the well, mildly attractive
constexpr double pi = 3.14159265358979323846;

struct problem {
  int particles = 128;
  int steps = 20;
  std::uint64_t seed = 2013;
  double dt = 1e-3;
  int rows() const { return 3 * particles; }  // pNDIM: a row of D per particle and dimension
};

// A counter-based generator (splitmix64's mixer): number k of stream s is a
// function of (seed, s, k) alone, so any thread draws any ξ_i of any step.
inline std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// In (0, 1).
inline double uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t k) {
  const std::uint64_t h = mix(mix(mix(seed) ^ stream) ^ k);
  return (static_cast<double>(h >> 11) + 0.5) * 0x1.0p-53;
}

// ξ_i of time step `step` (Box–Muller, one of the pair).
inline double gaussian(std::uint64_t seed, int step, int i) {
  const std::uint64_t stream = static_cast<std::uint64_t>(step) + 1;  // stream 0 places the particles
  const double u1 = uniform(seed, stream, 2 * static_cast<std::uint64_t>(i));
  const double u2 = uniform(seed, stream, 2 * static_cast<std::uint64_t>(i) + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * pi * u2);
}

// Every ξ_i of a step: each thread draws the whole vector (O(N), as every
// process of the thesis holds every coordinate).
inline void draw_gaussians(const problem& p, int step, double* xi) {
  for (int i = 0; i < p.rows(); ++i) xi[i] = gaussian(p.seed, step, i);
}

// A simple cubic lattice, jittered by ±0.05σ.
inline std::vector<double> initial_positions(const problem& p) {
  int side = 1;
  while (side * side * side < p.particles) ++side;
  std::vector<double> r(static_cast<std::size_t>(p.rows()));
  for (int i = 0; i < p.particles; ++i) {
    const int cell[3] = {i % side, (i / side) % side, i / (side * side)};
    for (int d = 0; d < 3; ++d) {
      const double jitter = 0.1 * (uniform(p.seed, 0, 3 * static_cast<std::uint64_t>(i) + d) - 0.5);
      r[static_cast<std::size_t>(3 * i + d)] = lattice_spacing * cell[d] + jitter;
    }
  }
  return r;
}

// F_i = Σ_j F_ij (Eq. 5.2b) over every other particle j in index order; the
// same loop in every version, so F_i has the same bits everywhere.
inline void lj_force(const double* pos, int particles, int i, double* f) {
  double fx = 0, fy = 0, fz = 0;
  const double* ri = pos + 3 * i;
  for (int j = 0; j < particles; ++j) {
    if (j == i) continue;
    const double* rj = pos + 3 * j;
    const double dx = ri[0] - rj[0], dy = ri[1] - rj[1], dz = ri[2] - rj[2];
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= cutoff * cutoff) continue;
    const double s2 = sigma * sigma / r2, s6 = s2 * s2 * s2;
    const double coef = 24.0 * epsilon * (2.0 * s6 * s6 - s6) / r2;
    fx += coef * dx;
    fy += coef * dy;
    fz += coef * dz;
  }
  f[0] = fx;
  f[1] = fy;
  f[2] = fz;
}

// The 3x3 block D_ij (row-major) of the regularised Rotne–Prager–Yamakawa
// tensor for particles i != j:
//   r >= 2a: D0 (3a/4r) [(1 + 2a²/3r²) I + (1 - 2a²/r²) r̂r̂ᵀ]
//   r <  2a: D0 [(1 - 9r/32a) I + (3r/32a) r̂r̂ᵀ]
// Each element is c2·(dα·dβ) + c1·δαβ: the block is symmetric bit for bit, and
// D_ji (from d = rj - ri = -d exactly) has the same bits as D_ij.
inline void rpy_block(const double* pos, int i, int j, double* b) {
  const double d[3] = {pos[3 * i] - pos[3 * j], pos[3 * i + 1] - pos[3 * j + 1], pos[3 * i + 2] - pos[3 * j + 2]};
  const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const double r = std::sqrt(r2);
  double c1, c2;
  if (r >= 2.0 * radius) {
    const double c = D0 * 3.0 * radius / (4.0 * r);
    c1 = c * (1.0 + 2.0 * radius * radius / (3.0 * r2));
    c2 = c * (1.0 - 2.0 * radius * radius / r2) / r2;
  } else {
    c1 = D0 * (1.0 - 9.0 * r / (32.0 * radius));
    c2 = r > 0 ? D0 * 3.0 / (32.0 * radius * r) : 0.0;
  }
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c) b[3 * a + c] = c2 * (d[a] * d[c]) + (a == c ? c1 : 0.0);
}

// The diagonal block D_ii = D0 I.
inline void self_block(double* b) {
  for (int k = 0; k < 9; ++k) b[k] = k % 4 == 0 ? D0 : 0.0;
}

// g = Δt F / kT: the force term of Eq. 5.3 is D g.
inline double drift_weight(const problem& p) { return p.dt / kT; }

}  // namespace brownian
