// What the two Monte Carlo codes of the kit (pi and the Buffon-Laplace needle)
// share: each thread's own random stream, how the trials are shared out, and
// the exact check that goes with them.
//
// Every thread draws from its own stream, seeded from its thread number (the
// students' srand(MYTHREAD), with a generator that is fully specified, so a run
// gives the same digits on every machine and on both backends). Thread t runs
// trials_of(t) trials, one after the other, from stream t: the trials of
// `upc_forall (i = 0; i < N; i++; i)` (i % THREADS == t) or a plain loop of
// trials_of(t), which is the same count. The total number of hits is then
// exactly the sum, over t, of what stream t gives for trials_of(t) trials: a
// sequential replay of the same streams (replay()) must give the same count,
// to the last hit. A different THREADS gives different streams, and so another
// (equally good) estimate.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

namespace montecarlo {

using stream = std::mt19937_64;

// Thread t's stream.
inline stream stream_of(int thread, std::uint64_t seed) { return stream(seed + 7919u * static_cast<std::uint64_t>(thread)); }

// A double uniformly distributed in [0, 1), from the top 53 bits of one draw.
inline double uniform01(stream& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// How many of `trials` thread t runs: the first trials % threads threads run one more.
inline std::int64_t trials_of(std::int64_t trials, int threads, int thread) {
  return trials / threads + (thread < trials % threads ? 1 : 0);
}

// The hits of `streams` streams replayed one after the other (the sequential
// computation of a run on `streams` threads). `trial` is one trial: bool(stream&).
template <class Trial>
std::int64_t replay(std::int64_t trials, int streams, std::uint64_t seed, Trial trial) {
  std::int64_t hits = 0;
  for (int t = 0; t < streams; ++t) {
    stream rng = stream_of(t, seed);
    for (std::int64_t i = trials_of(trials, streams, t); i > 0; --i) hits += trial(rng) ? 1 : 0;
  }
  return hits;
}

// The standard deviation of a hit fraction with probability p over n trials.
inline double sigma(double p, std::int64_t n) { return std::sqrt(p * (1 - p) / static_cast<double>(n)); }

// The verdict on a run's count of hits, said on stdout: right when it equals
// the sequential replay of the `streams` streams (`expected`) and the estimate
// of pi is within six standard deviations (`sigma`) of pi (`error` off).
inline bool judge(std::int64_t hits, std::int64_t expected, int streams, double error, double sigma) {
  const bool same_count = hits == expected, close = error <= 6 * sigma;
  if (same_count)
    std::printf("the same count as the sequential replay of the %d stream%s\n", streams, streams == 1 ? "" : "s");
  else
    std::printf("WRONG: the sequential replay of the %d stream%s counts %lld hits, this run %lld\n", streams,
                streams == 1 ? "" : "s", static_cast<long long>(expected), static_cast<long long>(hits));
  if (!close) std::printf("WRONG: the estimate is more than 6 standard deviations (%.2g) from pi\n", sigma);
  return same_count && close;
}

}  // namespace montecarlo
