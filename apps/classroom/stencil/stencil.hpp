// The classroom Stencil of seed 003 §2.2.1: "a simple Stencil operation on a
// 10^6-element vector ... performed 100 times (an external 100-iteration loop)".
// Every iteration replaces each inner element by the average of itself and its
// two neighbours; the two end elements stay fixed (Jacobi: the new values go to
// a second vector, then the vectors swap roles).
//
//   u'[i] = (u[i-1] + u[i] + u[i+1]) / 3      for 1 <= i <= n-2
//
// This header is the part a teacher hands out with every stage: the problem
// (sizes, starting values, the update), the distribution used by the parallel
// stages, and the verification against the sequential computation. The stages
// compute every element with the same expression in the same order, so their
// results must equal the sequential ones bit for bit.
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "../common/classroom.hpp"

namespace stencil {

struct options {
  std::int64_t n = 1'000'000;    // elements (the study's 10^6)
  std::int64_t iterations = 100;  // the external loop (the study's 100)
};

inline std::optional<int> parse(int argc, char** argv, const char* stage, options& o) {
  bench::cli cli(classroom::program_name("stencil", stage),
                 "The classroom Stencil (seed 003, section 2.2): a 3-point average over a vector, repeated;\n"
                 "stage '" + std::string(stage) + "'. Checks itself against the sequential computation.");
  cli.add_int("n", "elements of the vector (at least 3)", &o.n, 3);
  cli.add_int("iterations", "times the stencil is applied", &o.iterations, 0);
  return classroom::parse(cli, argc, argv);
}

// Shared heap per thread for any stage: two vectors, thread 0's whole copy and
// the edges, with room to spare.
inline std::size_t heap_bytes(const options& o) { return static_cast<std::size_t>(4 * o.n) * sizeof(double) + (16u << 20); }

inline constexpr classroom::code<options> code{"stencil", parse, heap_bytes};

// The starting value of element i: any fixed pattern will do.
inline double initial_value(std::int64_t i) { return static_cast<double>((i * 37) % 101) / 101.0; }

// The stencil itself, the same in every stage.
inline double update(double left, double centre, double right) { return (left + centre + right) / 3.0; }

// The sequential computation (the teacher's answer key).
inline std::vector<double> reference(const options& o) {
  std::vector<double> u(static_cast<std::size_t>(o.n)), v;
  for (std::int64_t i = 0; i < o.n; ++i) u[static_cast<std::size_t>(i)] = initial_value(i);
  v = u;
  for (std::int64_t it = 0; it < o.iterations; ++it) {
    for (std::size_t i = 1; i + 1 < u.size(); ++i) v[i] = update(u[i - 1], u[i], u[i + 1]);
    std::swap(u, v);
  }
  return u;
}

// Compares a stage's final vector with the sequential one, prints the result
// and the result line; 0 when every element is identical, else 1. Thread 0 only.
inline int check(const char* stage, const options& o, const std::vector<double>& result, double seconds) {
  const std::vector<double> expected = reference(o);
  double checksum = 0;
  const std::int64_t wrong = classroom::count_mismatches(
      stage, result, expected, "elements", [](std::size_t i) { std::printf("element %zu", i); },
      [&](double got) { checksum += got; });
  std::printf("stencil (%s): %lld elements, %lld iterations, %d threads, %.3g s, checksum %.12f: %s\n", stage,
              static_cast<long long>(o.n), static_cast<long long>(o.iterations), THREADS, seconds, checksum,
              wrong == 0 ? "identical to the sequential computation" : "WRONG");
  if (wrong) std::printf("%lld elements differ from the sequential computation\n", static_cast<long long>(wrong));
  return classroom::finish("stencil", stage, o.n, seconds, static_cast<double>(o.n - 2) * static_cast<double>(o.iterations),
                           wrong == 0, {{"iterations", o.iterations}});
}

// Thread 0's copy of a distributed vector (how the parallel stages hand their result to check()).
template <class Array>
std::vector<double> collect(const Array& a, std::int64_t n) {
  return classroom::collect_rows<double>(a, n, 1);
}

}  // namespace stencil
