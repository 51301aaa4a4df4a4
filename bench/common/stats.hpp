// Median, minimum and maximum of repeated measurements.
#pragma once
#include <algorithm>
#include <vector>

namespace bench {

struct summary {
  double median = 0, min = 0, max = 0;
};

inline summary summarize(std::vector<double> v) {
  summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v.front();
  s.max = v.back();
  return s;
}

// Keeps the optimiser from deleting or hoisting work whose result is unused:
// `use(x)` makes x observable; `clobber()` makes all memory possibly changed.
template <class T>
inline void use(const T& x) {
  asm volatile("" : : "r,m"(x) : "memory");
}
inline void clobber() { asm volatile("" : : : "memory"); }

}  // namespace bench
