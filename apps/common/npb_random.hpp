// The NAS Parallel Benchmarks' pseudo-random generator: the linear congruential
// sequence x_{k+1} = a * x_k mod 2^46, returned as x_{k+1} / 2^46 in (0, 1).
// NPB writes it with split 23-bit halves in double arithmetic so that Fortran
// could do it exactly; the product of two 46-bit integers fits in 128 bits, so
// we do it exactly in integers instead. Same sequence, bit for bit.
#pragma once
#include <cstdint>

namespace npb {

inline constexpr double two_pow_46 = 70368744177664.0;  // 2^46
inline constexpr double default_multiplier = 1220703125.0;  // 5^13, NPB's `a`
inline constexpr double default_seed = 314159265.0;

// One step: advances x and returns the new value divided by 2^46.
inline double randlc(double& x, double a) {
  const auto xi = static_cast<std::uint64_t>(x), ai = static_cast<std::uint64_t>(a);
  const unsigned __int128 product = static_cast<unsigned __int128>(xi) * ai;
  const std::uint64_t next = static_cast<std::uint64_t>(product & ((static_cast<unsigned __int128>(1) << 46) - 1));
  x = static_cast<double>(next);
  return x / two_pow_46;
}

// n steps, the values into y[0..n-1].
inline void vranlc(long n, double& x, double a, double* y) {
  for (long i = 0; i < n; ++i) y[i] = randlc(x, a);
}

// a^k mod 2^46 as a double (for jumping a stream ahead k steps: x_k = a^k x_0).
inline double power_mod(double a, std::uint64_t k) {
  double result = 1, base = a;
  while (k != 0) {
    if (k & 1) randlc(result, base);  // result = result * base mod 2^46
    double b2 = base;
    randlc(b2, base);  // base = base^2 mod 2^46
    base = b2;
    k >>= 1;
  }
  return result;
}

}  // namespace npb
