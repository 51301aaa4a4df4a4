#include "ft_kernel.hpp"

#include <cmath>
#include <cstdint>

#include "npb_random.hpp"

namespace ft {

void initial_conditions(const shape& s, cplx* slab) {
  const std::uint64_t per_plane = 2ULL * static_cast<std::uint64_t>(s.nx) * static_cast<std::uint64_t>(s.ny);
  double start = npb::default_seed;
  npb::randlc(start, npb::power_mod(npb::default_multiplier, per_plane * static_cast<std::uint64_t>(s.me * s.nzl)));
  const double plane_jump = npb::power_mod(npb::default_multiplier, per_plane);
  for (long k = 0; k < s.nzl; ++k) {
    double x0 = start;
    npb::vranlc(static_cast<long>(per_plane), x0, npb::default_multiplier,
                reinterpret_cast<double*>(slab + k * static_cast<long>(s.nx) * s.ny));
    npb::randlc(start, plane_jump);
  }
}

void evolution_factors(const shape& s, double* factor) {
  constexpr double alpha = 1e-6, pi = 3.141592653589793238;
  const double ap = -4.0 * alpha * pi * pi;
  auto freq = [](long i, long n) { return (i + n / 2) % n - n / 2; };  // 0 1 ... n/2-1 -n/2 ... -1
  long at = 0;
  for (long yl = 0; yl < s.nyl; ++yl) {
    const long jj = freq(s.me * s.nyl + yl, s.ny);
    for (long x = 0; x < s.nx; ++x) {
      const long ii = freq(x, s.nx);
      for (long z = 0; z < s.nz; ++z) {
        const long kk = freq(z, s.nz);
        factor[at++] = std::exp(ap * static_cast<double>(ii * ii + jj * jj + kk * kk));
      }
    }
  }
}

void evolve(const shape& s, cplx* u0, const double* factor, cplx* pencil) {
  for (long i = 0; i < s.local; ++i) {
    u0[i] *= factor[i];
    pencil[i] = u0[i];
  }
}

}  // namespace ft
