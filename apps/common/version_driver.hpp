// What the drivers of the apps with several versions of one kernel
// (dense_matmul, sparse_matmul, image_filter) share: the --variant choices and
// the versions one run runs, one timed run of a version, and the exact
// comparison with the sequential answer.
// Every version starts with its operands in thread 0's private memory and ends
// with the result there.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "upc.h"

namespace apps {

// What --variant accepts: every version's name, then "all".
inline std::vector<std::string> variant_choices(std::vector<std::string> names) {
  names.push_back("all");
  return names;
}

// The versions a run runs: every one for "all", else the one chosen.
inline std::vector<std::string> chosen_variants(const std::string& chosen, const std::vector<std::string>& names) {
  return chosen == "all" ? names : std::vector<std::string>{chosen};
}

// One timed run of a version, on every thread: run() once untimed (first
// touches of the buffers and of the library's staging space), then spoil with
// NaN what the timed run must deliver (thread 0's `result`, the other threads'
// copy of the `operand` that must arrive from thread 0), and time run() between
// two barriers; this thread's seconds.
template <class Run>
double timed_run(Run run, std::vector<double>& result, std::vector<double>& operand) {
  run();
  std::vector<double>& spoilt = MYTHREAD == 0 ? result : operand;
  std::fill(spoilt.begin(), spoilt.end(), std::numeric_limits<double>::quiet_NaN());
  upc_barrier;
  const auto start = std::chrono::steady_clock::now();
  run();
  upc_barrier;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Thread 0: how many entries of `got` differ from the sequential `expected`
// (exactly), printing the first five as "  <where> = <got>, sequential
// <expected>", where(i) printing entry i's place.
template <class Where>
std::size_t count_differences(const double* got, const std::vector<double>& expected, Where where) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (got[i] == expected[i]) continue;
    if (wrong++ < 5) {
      std::printf("  ");
      where(i);
      std::printf(" = %.17g, sequential %.17g\n", got[i], expected[i]);
    }
  }
  return wrong;
}

}  // namespace apps
