// The 2-D Stencil: the classroom Stencil (seed 003 §2.2.1) on a grid, the form
// of examples/stencil.cpp. Every iteration replaces each interior point by the
// average of its four neighbours; the outer frame stays fixed (Jacobi: the new
// values go to a second grid, then the grids swap roles).
//
//   u'[r][c] = (u[r-1][c] + u[r+1][c] + u[r][c-1] + u[r][c+1]) / 4
//
// The parallel stages distribute the grid by blocks of whole rows: a thread
// needs, besides its own rows, the last row of the thread above and the first
// row of the thread below (ghost rows).
//
// This header is what every stage shares: the problem, the row distribution,
// and the check against the sequential computation (same expression, same
// order: the results must be identical bit for bit).
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../common/classroom.hpp"

namespace stencil2d {

struct options {
  std::int64_t rows = 1000;       // 10^6 points, as the 1-D Stencil's vector
  std::int64_t cols = 1000;
  std::int64_t iterations = 100;  // as the 1-D Stencil
};

inline std::optional<int> parse(int argc, char** argv, const char* stage, options& o) {
  bench::cli cli(classroom::program_name("stencil2d", stage),
                 "The 2-D Stencil (the classroom Stencil of seed 003, section 2.2, on a grid), stage '" +
                     std::string(stage) + "'.\nChecks itself against the sequential computation.");
  cli.add_int("rows", "rows of the grid (at least 3)", &o.rows, 3);
  cli.add_int("cols", "columns of the grid (at least 3)", &o.cols, 3);
  cli.add_int("iterations", "times the stencil is applied", &o.iterations, 0);
  return classroom::parse(cli, argc, argv);
}

// Shared heap per thread for any stage: two grids, thread 0's whole copy, rows.
inline std::size_t heap_bytes(const options& o) {
  return static_cast<std::size_t>(4 * o.rows * o.cols) * sizeof(double) + (16u << 20);
}

inline constexpr classroom::code<options> code{"stencil2d", parse, heap_bytes};

// The starting value of point (r, c): any fixed pattern will do.
inline double initial_value(std::int64_t r, std::int64_t c) { return static_cast<double>((r * 31 + c * 17) % 97) / 97.0; }

// The stencil itself, the same in every stage.
inline double update(double up, double down, double left, double right) { return 0.25 * (up + down + left + right); }

// The sequential computation (the teacher's answer key).
inline std::vector<double> reference(const options& o) {
  const std::size_t R = static_cast<std::size_t>(o.rows), C = static_cast<std::size_t>(o.cols);
  std::vector<double> u(R * C), v;
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c) u[r * C + c] = initial_value(static_cast<std::int64_t>(r), static_cast<std::int64_t>(c));
  v = u;
  for (std::int64_t it = 0; it < o.iterations; ++it) {
    for (std::size_t r = 1; r + 1 < R; ++r)
      for (std::size_t c = 1; c + 1 < C; ++c)
        v[r * C + c] = update(u[(r - 1) * C + c], u[(r + 1) * C + c], u[r * C + c - 1], u[r * C + c + 1]);
    std::swap(u, v);
  }
  return u;
}

// Compares a stage's final grid with the sequential one, prints the result and
// the result line; 0 when every point is identical, else 1. Thread 0 only.
inline int check(const char* stage, const options& o, const std::vector<double>& result, double seconds) {
  const std::vector<double> expected = reference(o);
  const std::size_t C = static_cast<std::size_t>(o.cols);
  double checksum = 0;
  const std::int64_t wrong = classroom::count_mismatches(
      stage, result, expected, "points",
      [C](std::size_t i) { std::printf("(%zu, %zu)", i / C, i % C); },
      [&](double got) { checksum += got; });
  std::printf("stencil2d (%s): %lld x %lld grid, %lld iterations, %d threads, %.3g s, checksum %.12f: %s\n", stage,
              static_cast<long long>(o.rows), static_cast<long long>(o.cols), static_cast<long long>(o.iterations), THREADS,
              seconds, checksum, wrong == 0 ? "identical to the sequential computation" : "WRONG");
  if (wrong) std::printf("%lld points differ from the sequential computation\n", static_cast<long long>(wrong));
  const double updates = static_cast<double>(o.rows - 2) * static_cast<double>(o.cols - 2) * static_cast<double>(o.iterations);
  return classroom::finish("stencil2d", stage, o.rows * o.cols, seconds, updates, wrong == 0,
                           {{"rows", o.rows}, {"cols", o.cols}, {"iterations", o.iterations}});
}

// Thread 0's copy of a grid distributed by blocks of rows (how the parallel
// stages hand their result to check()).
template <class Array>
std::vector<double> collect(const Array& a, const options& o) {
  return classroom::collect_rows<double>(a, o.rows, o.cols);
}

}  // namespace stencil2d
