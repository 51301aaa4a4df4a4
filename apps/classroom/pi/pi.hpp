// Pi by Monte Carlo, the sample code of the study's UPC seminar (seed 003
// §2.2.1: "Pi computation using the Monte Carlo approach"), which the
// Buffon-Laplace exercise resembles. A dart thrown uniformly into the unit
// square lands inside the quarter circle x^2 + y^2 < 1 with probability pi/4,
// so pi ~= 4 * hits / trials.
//
// This header is what every stage shares: the problem (trials, one trial), and
// the check: the count of hits must equal, exactly, a sequential replay of the
// streams the run used (common/montecarlo.hpp), and the estimate must be within
// six standard deviations of pi.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>

#include "../common/classroom.hpp"
#include "../common/montecarlo.hpp"

namespace pi {

struct options {
  std::int64_t trials = 10'000'000;  // as the study's Buffon-Laplace exercise (10^7)
};

inline std::optional<int> parse(int argc, char** argv, const char* stage, options& o) {
  bench::cli cli(classroom::program_name("pi", stage),
                 "Pi by Monte Carlo (seed 003, section 2.2: the seminar's example), stage '" + std::string(stage) +
                     "'.\nChecks its count of hits against a sequential replay of the same random streams.");
  cli.add_int("trials", "darts thrown, in all", &o.trials, 1);
  return classroom::parse(cli, argc, argv);
}

inline std::size_t heap_bytes(const options&) { return 4u << 20; }

inline constexpr classroom::code<options> code{"pi", parse, heap_bytes};

constexpr std::uint64_t seed = 20090212;  // the first classroom session's month

// One trial from a thread's stream: true when the dart lands inside the quarter circle.
inline bool throw_dart(montecarlo::stream& rng) {
  const double x = montecarlo::uniform01(rng), y = montecarlo::uniform01(rng);
  return x * x + y * y < 1.0;
}

// Checks `hits`, counted by `streams` threads' streams (1 for the sequential
// stage, THREADS for the others), prints the result and the result line; 0 when
// right. Thread 0 only.
inline int check(const char* stage, const options& o, std::int64_t hits, int streams, double seconds) {
  const std::int64_t expected = montecarlo::replay(o.trials, streams, seed, throw_dart);
  const double estimate = 4.0 * static_cast<double>(hits) / static_cast<double>(o.trials);
  const double sigma = 4.0 * montecarlo::sigma(std::numbers::pi / 4, o.trials);
  const double error = std::fabs(estimate - std::numbers::pi);
  std::printf("pi (%s): %lld trials, %d threads, %.3g s: %lld hits, pi ~= %.8f (off by %.2g, %.2f sigma)\n", stage,
              static_cast<long long>(o.trials), THREADS, seconds, static_cast<long long>(hits), estimate, error,
              error / sigma);
  const bool right = montecarlo::judge(hits, expected, streams, error, sigma);
  return classroom::finish("pi", stage, o.trials, seconds, static_cast<double>(o.trials), right,
                           {{"hits", hits}, {"pi", estimate}});
}

}  // namespace pi
