// Collective helpers the benchmarks and applications share: every UPC thread
// contributes a value and every thread gets the same reduced result, so
// decisions taken from it (iteration counts, pass/fail) are single-valued. Each
// call is collective.
#pragma once
#include <algorithm>
#include <cstdint>

#include "upc.h"
#include "upc_tick.h"

namespace bench {

inline upc::shared_array<double> g_team_values(upc::per_thread(1));  // one slot per thread

inline double seconds_now() { return static_cast<double>(upc_ticks_to_ns(upc_ticks_now())) * 1e-9; }

// Every thread gets the maximum (or sum) of the values passed by all threads. The
// slots are read in thread order, so every thread computes the identical result.
template <class Combine>
inline double reduce_over_threads(double mine, Combine combine) {
  g_team_values[MYTHREAD] = mine;
  upc::barrier();
  double r = g_team_values[0];
  for (int t = 1; t < THREADS; ++t) r = combine(r, static_cast<double>(g_team_values[t]));
  upc::barrier();  // nobody overwrites a slot before everyone has read it
  return r;
}
inline double max_over_threads(double mine) {
  return reduce_over_threads(mine, [](double a, double b) { return std::max(a, b); });
}
inline double min_over_threads(double mine) {
  return reduce_over_threads(mine, [](double a, double b) { return std::min(a, b); });
}
inline double sum_over_threads(double mine) {
  return reduce_over_threads(mine, [](double a, double b) { return a + b; });
}
inline bool all_threads(bool mine) { return max_over_threads(mine ? 0.0 : 1.0) == 0.0; }

// Seconds the slowest thread needs for body(n), started together after a barrier.
template <class Body>
inline double timed_on_slowest(Body&& body, std::int64_t n) {
  upc::barrier();
  const double t0 = seconds_now();
  body(n);
  return max_over_threads(seconds_now() - t0);
}

// Seconds per call of body(n) for the collectives: all threads start together
// after a barrier, and the time is the latest end minus the earliest start across
// threads, divided by n.
template <class Body>
inline double span_per_call(Body&& body, std::int64_t n) {
  upc::barrier();
  const double t0 = seconds_now();
  body(n);
  const double t1 = seconds_now();
  const double start = min_over_threads(t0);
  const double end = max_over_threads(t1);
  return (end - start) / static_cast<double>(n);
}

// How many iterations make body(n) last about `target` seconds on the slowest
// thread: grows n from `start` until a run takes an eighth of the target, then
// scales. Every thread returns the same n, within [1, cap]. Warm-up first,
// untimed, for about `target` seconds: a run's first calls build plans, touch
// pages and wake sleeping threads, and measured cold they made the first size
// of a run one call per round (its rounds then timed single cold calls).
template <class Body>
inline std::int64_t calibrate_iterations(Body&& body, double target, std::int64_t start, std::int64_t cap) {
  double warm = 0;  // the slowest thread's time: the same decision everywhere
  for (std::int64_t k = 1; warm < target && k <= cap; k *= 2) warm += timed_on_slowest(body, k);
  std::int64_t n = std::max<std::int64_t>(1, std::min(start, cap));
  while (true) {
    const double t = timed_on_slowest(body, n);
    if (t >= target / 8 || n >= cap) {
      const double scaled = static_cast<double>(n) * target / std::max(t, 1e-9);
      return std::clamp<std::int64_t>(static_cast<std::int64_t>(scaled), 1, cap);
    }
    n = std::min(cap, n * 8);
  }
}

inline const char* backend_name() {
  return upc::current_backend() == upc::backend_kind::processes ? "processes"
         // "mpi" in benchmark rows is the Open MPI peer; upcemu's own mpi backend is "mpi_backend"
         : upc::current_backend() == upc::backend_kind::mpi     ? "mpi_backend"
                                                                : "threads";
}

}  // namespace bench
