// The Minimum Distance computation, the third exercise of the classroom study
// (seed 003 §2.2.1: "the Computation of the Minimum Distance among different
// nodes in a graph (a version of the Floyd-Warshall algorithm) ... The size of
// the source distance matrix is 500 x 500"). d[i][j] starts as the length of
// the edge from node i to node j (`infinity` when there is none, 0 on the
// diagonal); after
//
//   for k: for i: for j: if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
//
// it is the length of the shortest path. In step k, row k and column k do not
// change (d[k][k] = 0), so the rows of a step can be updated in any order, by
// any thread, as long as every thread has row k as step k-1 left it.
//
// This header is what every stage shares: the graph, the distribution of the
// rows, and the check against the sequential computation (integers: the
// results must be identical).
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "../common/classroom.hpp"

namespace min_distance {

struct options {
  std::int64_t nodes = 500;  // the study's 500 x 500 matrix
};

inline std::optional<int> parse(int argc, char** argv, const char* stage, options& o) {
  bench::cli cli(classroom::program_name("min_distance", stage),
                 "The Minimum Distance computation (Floyd-Warshall; seed 003, section 2.2), stage '" + std::string(stage) +
                     "'.\nChecks every distance against the sequential computation.");
  cli.add_int("nodes", "nodes of the graph (the matrix is nodes x nodes)", &o.nodes, 1);
  return classroom::parse(cli, argc, argv);
}

// Shared heap per thread for any stage: the matrix, thread 0's copy, the rows of k.
inline std::size_t heap_bytes(const options& o) {
  return static_cast<std::size_t>(3 * o.nodes * o.nodes) * sizeof(int) + (16u << 20);
}

inline constexpr classroom::code<options> code{"min_distance", parse, heap_bytes};

constexpr int infinity = 1 << 29;  // no edge; infinity + infinity still fits in an int

// The edge from i to j: about one pair in eight has one, of length 1 to 100.
inline int initial_distance(std::int64_t i, std::int64_t j, std::int64_t nodes) {
  if (i == j) return 0;
  std::uint64_t x = static_cast<std::uint64_t>(i * nodes + j) + 0x9e3779b97f4a7c15ull;  // splitmix64
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x % 8 == 0 ? static_cast<int>(1 + (x >> 8) % 100) : infinity;
}

// The sequential computation (the teacher's answer key).
inline std::vector<int> reference(std::int64_t n) {
  const std::size_t N = static_cast<std::size_t>(n);
  std::vector<int> d(N * N);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j) d[i * N + j] = initial_distance(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j), n);
  for (std::size_t k = 0; k < N; ++k)
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j)
        if (d[i * N + k] + d[k * N + j] < d[i * N + j]) d[i * N + j] = d[i * N + k] + d[k * N + j];
  return d;
}

// Compares a stage's final matrix with the sequential one, prints the result and
// the result line; 0 when identical, else 1. Thread 0 only.
inline int check(const char* stage, const options& o, const std::vector<int>& result, double seconds) {
  const std::vector<int> expected = reference(o.nodes);
  const std::size_t N = static_cast<std::size_t>(o.nodes);
  std::int64_t reachable = 0, total = 0;
  const std::int64_t wrong = classroom::count_mismatches(
      stage, result, expected, "distances",
      [N](std::size_t i) { std::printf("d[%zu][%zu]", i / N, i % N); },
      [&](int got) {
        if (got < infinity) ++reachable, total += got;
      });
  std::printf("min_distance (%s): %lld nodes, %d threads, %.3g s: %lld pairs connected, distances add up to %lld: %s\n",
              stage, static_cast<long long>(o.nodes), THREADS, seconds, static_cast<long long>(reachable),
              static_cast<long long>(total), wrong == 0 ? "identical to the sequential computation" : "WRONG");
  if (wrong) std::printf("%lld distances differ from the sequential computation\n", static_cast<long long>(wrong));
  const double n = static_cast<double>(o.nodes);
  return classroom::finish("min_distance", stage, o.nodes, seconds, n * n * n, wrong == 0);
}

// Thread 0's copy of a matrix distributed by blocks of rows (how the parallel
// stages hand their result to check()).
template <class Array>
std::vector<int> collect(const Array& d, std::int64_t n) {
  return classroom::collect_rows<int>(d, n, n);
}

}  // namespace min_distance
