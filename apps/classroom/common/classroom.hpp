// What every stage of every classroom code shares and no student writes: the
// option parser, the stopwatch, the block distribution, and the end of a run
// (the human line, the upcemu-result line, the exit status). Each code's own
// header (stencil.hpp, buffon.hpp, ...) adds its problem and its verification.
//
// Every program has the same main():
//
//   int main(int argc, char** argv) {
//     code::options opt;                                           // the problem size
//     if (auto status = code::parse(argc, argv, "naive", opt)) return *status;  // --help: 0, bad: 2
//     return apps::launch("classroom/code/naive", code::heap_bytes(opt), [&] { return run(opt); });
//   }
//
// and run() returns 0 on every thread, or 1 on thread 0 when the answer is wrong.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "../../../harness/cli.hpp"
#include "../../../harness/app_result.hpp"
#include "launch.hpp"
#include "upc.h"

namespace classroom {

// The stages a student goes through, in order (the `variant` of the result line).
inline constexpr const char* stages[] = {"sequential", "naive", "optimised", "collectives", "extended"};

// Wall time of the timed part, read on one thread.
class stopwatch {
 public:
  stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Parses argv with `cli` (options already added); nothing when the program
// should run, else the exit status: 0 after --help, 2 after a bad option (the
// message, "<program>: <what is wrong>", is on stderr).
inline std::optional<int> parse(bench::cli& cli, int argc, char** argv) { return cli.exit_status(argc, argv, true); }

// "classroom/<code>/<stage>", the program's name in messages.
inline std::string program_name(const char* code, const char* stage) {
  return std::string("classroom/") + code + "/" + stage;
}

// A block distribution of `n` items (elements, rows) over `threads`: blocks of
// ceil(n / threads), so the last threads may own fewer, or none.
struct part {
  std::int64_t first = 0;  // the first item this thread owns
  std::int64_t count = 0;  // how many it owns (0 for a thread past the end)
};
inline std::int64_t block_of(std::int64_t n, int threads) { return std::max<std::int64_t>(1, (n + threads - 1) / threads); }
inline part part_of(std::int64_t n, int threads, int thread) {
  const std::int64_t b = block_of(n, threads), first = std::min<std::int64_t>(n, b * thread);
  return {first, std::min<std::int64_t>(n, first + b) - first};
}

// The end of a run, on the thread that verified: the result line
// (app "classroom/<code>", variant = stage) and the exit status, 1 when wrong.
// `operations` counts the kernel's basic steps (updates, trials, relaxations)
// for the mops field.
inline int finish(const char* code, const char* stage, std::int64_t size, double seconds, double operations,
                  bool verified, bench::record extra = {}) {
  bench::record fields{{"app", std::string("classroom/") + code},
                       {"variant", std::string(stage)},
                       {"size", size},
                       {"time_s", seconds},
                       {"mops", seconds > 0 ? operations / seconds / 1e6 : 0.0},
                       {"verified", verified}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  apps::result_line(fields);
  return verified ? 0 : 1;
}

}  // namespace classroom
