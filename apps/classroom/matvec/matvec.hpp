// The matrix-vector product, the third sample code of the study's UPC seminar
// (seed 003 §2.2.1: "the students were asked to test some sample codes ("Hello
// World", Pi computation using the Monte Carlo approach and matrix-vector
// multiplication)"), as in the Berkeley UPC seminar's slides: a square matrix a
// blocked by whole rows, vectors b and c, and
//
//   c[i] = a[i][0] * b[0] + a[i][1] * b[1] + ... + a[i][N-1] * b[N-1]
//
// so that the thread that owns row i computes c[i], and every thread needs all
// of b.
//
// This header is what every stage shares: the problem (size, the matrix and
// vector), the distribution of the rows, and the check against the sequential
// product. The matrix and the vector hold small whole numbers, so that every
// product and every partial sum is exact in a double (|c[i]| <= 45 N, far
// below 2^53): the stages' results must equal the sequential one exactly,
// whatever order a stage adds in.
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "../common/classroom.hpp"

namespace matvec {

struct options {
  std::int64_t n = 2000;  // rows and columns (the thesis gives no size for the seminar's samples)
};

inline std::optional<int> parse(int argc, char** argv, const char* stage, options& o) {
  bench::cli cli(classroom::program_name("matvec", stage),
                 "The matrix-vector product c = a b (seed 003, section 2.2: the seminar's sample), stage '" +
                     std::string(stage) + "'.\nChecks every element of c against the sequential product.");
  cli.add_int("n", "rows and columns of the matrix (the vectors' length)", &o.n, 1);
  return classroom::parse(cli, argc, argv);
}

// Shared heap per thread for any stage: the matrix twice (the collectives
// stage's distributed copy and thread 0's whole one, padded), the vectors.
inline std::size_t heap_bytes(const options& o) {
  return static_cast<std::size_t>(2 * o.n * o.n + 8 * o.n) * sizeof(double) + (16u << 20);
}

inline constexpr classroom::code<options> code{"matvec", parse, heap_bytes};

// The elements: whole numbers from -9 to 9 (the matrix) and -5 to 5 (the vector).
inline double a_element(std::int64_t i, std::int64_t j) { return static_cast<double>((i * 7 + j * 13) % 19 - 9); }
inline double b_element(std::int64_t j) { return static_cast<double>(j % 11 - 5); }

// The sequential product (the teacher's answer key).
inline std::vector<double> reference(std::int64_t n) {
  std::vector<double> c(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::int64_t j = 0; j < n; ++j) sum += a_element(i, j) * b_element(j);
    c[static_cast<std::size_t>(i)] = sum;
  }
  return c;
}

// Compares a stage's c with the sequential one, prints the result and the
// result line; 0 when every element is equal, else 1. Thread 0 only.
inline int check(const char* stage, const options& o, const std::vector<double>& result, double seconds) {
  const std::vector<double> expected = reference(o.n);
  double checksum = 0;
  const std::int64_t wrong = classroom::count_mismatches(
      stage, result, expected, "elements", [](std::size_t i) { std::printf("c[%zu]", i); },
      [&](double got) { checksum += got; });
  std::printf("matvec (%s): %lld x %lld, %d threads, %.3g s, c adds up to %.17g: %s\n", stage,
              static_cast<long long>(o.n), static_cast<long long>(o.n), THREADS, seconds, checksum,
              wrong == 0 ? "equal to the sequential product" : "WRONG");
  if (wrong) std::printf("%lld elements differ from the sequential product\n", static_cast<long long>(wrong));
  const double n = static_cast<double>(o.n);
  return classroom::finish("matvec", stage, o.n, seconds, n * n, wrong == 0);
}

// Thread 0's copy of c distributed by blocks (how the parallel stages hand their result to check()).
template <class Array>
std::vector<double> collect(const Array& c, std::int64_t n) {
  return classroom::collect_rows<double>(c, n, 1);
}

}  // namespace matvec
