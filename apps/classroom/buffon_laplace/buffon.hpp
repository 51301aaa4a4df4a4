// The Buffon-Laplace needle, the second exercise of the classroom study (seed
// 003 §2.2.1: "a Monte Carlo simulation that gives an accurate approximation
// of Pi based on the probability that a needle of length l that is dropped in
// a grid of equally spaced parallel lines will touch at least one line. The
// number of predefined trials is 10^7").
//
// The plane is tiled with cells of width a and height b. The needle's eye falls
// uniformly in a cell, at (x1, y1), and the needle points in a uniform random
// direction; it crosses a line when its point (x2, y2) is outside that cell.
// For l <= min(a, b) that happens with probability
//
//   P = (2 l (a + b) - l^2) / (pi a b),    so    pi ~= (2 l (a + b) - l^2) / (a b hits / trials).
//
// This header is what every stage shares: the problem, one trial, and the check
// (the count of hits must equal, exactly, a sequential replay of the streams
// the run used: common/montecarlo.hpp; the estimate must be within six
// standard deviations of pi).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>

#include "../common/classroom.hpp"
#include "../common/montecarlo.hpp"

namespace buffon {

// The problem: the grid and the needle, and how many times it is dropped.
struct problem {
  double a = 1.0;  // cell width
  double b = 1.0;  // cell height
  double l = 1.0;  // needle length, at most min(a, b)
  long trials = 10'000'000;  // the study's 10^7
};

struct options {
  problem p;
};

inline std::optional<int> parse(int argc, char** argv, const char* stage, options& o) {
  const std::string program = classroom::program_name("buffon_laplace", stage);
  bench::cli cli(program, "The Buffon-Laplace needle (seed 003, section 2.2), stage '" + std::string(stage) +
                              "'.\nChecks its count of hits against a sequential replay of the same random streams.");
  std::int64_t trials = o.p.trials;
  cli.add_int("trials", "needles dropped, in all", &trials, 1);
  cli.add_real("a", "cell width", &o.p.a);
  cli.add_real("b", "cell height", &o.p.b);
  cli.add_real("length", "needle length (at most the smaller side of a cell)", &o.p.l);
  if (auto status = classroom::parse(cli, argc, argv)) return status;
  o.p.trials = static_cast<long>(trials);
  if (o.p.l > std::min(o.p.a, o.p.b)) {
    std::fprintf(stderr, "%s: --length=%g is longer than the smaller side of a cell (%g)\n", program.c_str(), o.p.l,
                 std::min(o.p.a, o.p.b));
    return 2;
  }
  return std::nullopt;
}

inline std::size_t heap_bytes(const options&) { return 4u << 20; }

inline constexpr classroom::code<options> code{"buffon_laplace", parse, heap_bytes};

constexpr std::uint64_t seed = 123456789;  // the seed of Burkardt's Buffon-Laplace example

// One trial from a thread's stream: true when the needle crosses a line.
inline bool drop_needle(montecarlo::stream& rng, const problem& p) {
  const double x1 = p.a * montecarlo::uniform01(rng), y1 = p.b * montecarlo::uniform01(rng);
  const double angle = 2 * std::numbers::pi * montecarlo::uniform01(rng);
  const double x2 = x1 + p.l * std::cos(angle), y2 = y1 + p.l * std::sin(angle);
  return x2 <= 0 || p.a <= x2 || y2 <= 0 || p.b <= y2;
}

// The probability of a crossing, and pi from a count of hits.
inline double crossing_probability(const problem& p) {
  return (2 * p.l * (p.a + p.b) - p.l * p.l) / (std::numbers::pi * p.a * p.b);
}
inline double estimate_pi(const problem& p, std::int64_t hits) {
  return (2 * p.l * (p.a + p.b) - p.l * p.l) / (p.a * p.b * static_cast<double>(hits) / static_cast<double>(p.trials));
}

// Checks `hits`, counted by `streams` threads' streams (1 for the sequential
// stage, THREADS for the others), prints the result and the result line; 0 when
// right. Thread 0 only.
inline int check(const char* stage, const options& o, std::int64_t hits, int streams, double seconds) {
  const problem& p = o.p;
  const std::int64_t expected =
      montecarlo::replay(p.trials, streams, seed, [&](montecarlo::stream& rng) { return drop_needle(rng, p); });
  const double P = crossing_probability(p), estimate = hits > 0 ? estimate_pi(p, hits) : 0.0;
  const double sigma = std::numbers::pi / P * montecarlo::sigma(P, p.trials);  // of the estimate (delta method)
  const double error = std::fabs(estimate - std::numbers::pi);
  std::printf("buffon_laplace (%s): %ld needles of length %g on %g x %g cells, %d threads, %.3g s: %lld hits, "
              "pi ~= %.8f (off by %.2g, %.2f sigma)\n",
              stage, p.trials, p.l, p.a, p.b, THREADS, seconds, static_cast<long long>(hits), estimate, error, error / sigma);
  const bool right = montecarlo::judge(hits, expected, streams, error, sigma);
  return classroom::finish("buffon_laplace", stage, p.trials, seconds, static_cast<double>(p.trials), right,
                           {{"hits", hits}, {"pi", estimate}});
}

}  // namespace buffon
