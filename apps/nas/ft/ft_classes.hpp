// NPB FT's problem classes (NPB 3.x): the grid, the iterations and the official
// checksum after each iteration, the verification rule and the Mop/s formula.
#pragma once
#include <cmath>
#include <complex>
#include <vector>

namespace ft {

using cplx = std::complex<double>;

struct problem_class {
  char name;
  int nx, ny, nz, niter;
  std::vector<cplx> reference;  // NPB's checksum after iteration 1, 2, ...

  long total() const { return static_cast<long>(nx) * ny * nz; }
};

inline const std::vector<problem_class>& classes() {
  static const std::vector<problem_class> all{
      {'S',
       64,
       64,
       64,
       6,
       {{5.546087004964e+02, 4.845363331978e+02},
        {5.546385409189e+02, 4.865304269511e+02},
        {5.546148406171e+02, 4.883910722336e+02},
        {5.545423607415e+02, 4.901273169046e+02},
        {5.544255039624e+02, 4.917475857993e+02},
        {5.542683411902e+02, 4.932597244941e+02}}},
      {'W',
       128,
       128,
       32,
       6,
       {{5.673612178944e+02, 5.293246849175e+02},
        {5.631436885271e+02, 5.282149986629e+02},
        {5.594024089970e+02, 5.270996558037e+02},
        {5.560698047020e+02, 5.260027904925e+02},
        {5.530898991250e+02, 5.249400845633e+02},
        {5.504159734538e+02, 5.239212247086e+02}}},
      {'A',
       256,
       256,
       128,
       6,
       {{5.046735008193e+02, 5.114047905510e+02},
        {5.059412319734e+02, 5.098809666433e+02},
        {5.069376896287e+02, 5.098144042213e+02},
        {5.077892868474e+02, 5.101336130759e+02},
        {5.085233095391e+02, 5.104914655194e+02},
        {5.091487099959e+02, 5.107917842803e+02}}},
      {'B', 512, 256, 256, 20, {{5.177643571579e+02, 5.077803458597e+02}, {5.154521291263e+02, 5.088249431599e+02},
                                {5.146409228649e+02, 5.096208912659e+02}, {5.142378756213e+02, 5.101023387619e+02},
                                {5.139626667737e+02, 5.103976610617e+02}, {5.137423460082e+02, 5.105948019802e+02},
                                {5.135547056878e+02, 5.107404165783e+02}, {5.133910925466e+02, 5.108576573661e+02},
                                {5.132470705390e+02, 5.109577278523e+02}, {5.131197729984e+02, 5.110460304483e+02},
                                {5.130070319283e+02, 5.111252433800e+02}, {5.129070537032e+02, 5.111968077718e+02},
                                {5.128182883502e+02, 5.112616233064e+02}, {5.127393733383e+02, 5.113203605551e+02},
                                {5.126691062020e+02, 5.113735928093e+02}, {5.126064276004e+02, 5.114218460548e+02},
                                {5.125504076570e+02, 5.114656139760e+02}, {5.125002331720e+02, 5.115053595966e+02},
                                {5.124551951846e+02, 5.115415130407e+02}, {5.124146770029e+02, 5.115744692211e+02}}},
  };
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
