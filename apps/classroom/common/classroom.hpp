// What every stage of every classroom code shares and no student writes: the
// option parser, the stopwatch, the block distribution, main(), the check of a
// result against the sequential one, and the end of a run (the human line, the
// upcemu-result line, the exit status). Each code's own header (stencil.hpp,
// buffon.hpp, ...) adds its problem and its verification, and names itself to
// the kit:
//
//   inline constexpr classroom::code<options> code{"stencil", parse, heap_bytes};
//
// Every stage has the same main(), which parses the options (--help: 0, bad: 2)
// and starts the UPC threads with apps::launch (which sizes the shared heap):
//
//   int main(int argc, char** argv) { return classroom::stage_main(stencil::code, "naive", run, argc, argv); }
//
// and run() returns 0 on every thread, or 1 on thread 0 when the answer is wrong.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

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

// The end of a parallel stage: every thread stops the clock, thread 0 checks
// the result and reports it (check(seconds) gives the exit status); the
// others return 0.
template <class Check>
int on_thread0(const stopwatch& clock, Check check) {
  const double seconds = clock.seconds();
  return MYTHREAD == 0 ? check(seconds) : 0;
}

// Parses argv with `cli` (options already added); nothing when the program
// should run, else the exit status: 0 after --help, 2 after a bad option (the
// message, "<program>: <what is wrong>", is on stderr).
inline std::optional<int> parse(bench::cli& cli, int argc, char** argv) { return cli.exit_status(argc, argv, true); }

// "classroom/<code>/<stage>", the program's name in messages.
inline std::string program_name(const char* code, const char* stage) {
  return std::string("classroom/") + code + "/" + stage;
}

// What a code's header tells the kit: its name (the folder, and the app of the
// result line) and how to read and size its options.
template <class Options>
struct code {
  const char* name;
  std::optional<int> (*parse)(int argc, char** argv, const char* stage, Options& o);
  std::size_t (*heap_bytes)(const Options& o);  // the shared heap per thread any stage needs
};

// The main() of every stage: the options (nothing runs after --help or a bad
// option), then run(options) on every UPC thread; the exit status.
template <class Options, class Run>
int stage_main(const code<Options>& c, const char* stage, Run run, int argc, char** argv) {
  Options opt;
  if (auto status = c.parse(argc, argv, stage, opt)) return *status;
  return apps::launch(program_name(c.name, stage).c_str(), c.heap_bytes(opt), [&] { return run(opt); });
}

// The sequential stage's main(): its run() is the plain code, on thread 0
// alone (the others return at once): start it with -n 1.
template <class Options>
int sequential_main(const code<Options>& c, int (*run)(const Options&), int argc, char** argv) {
  return stage_main(c, "sequential", [run](const Options& o) { return MYTHREAD == 0 ? run(o) : 0; }, argc, argv);
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

// Thread 0's copy of an array distributed by blocks of `rows` rows of `width`
// elements (a vector: width 1), one upc_memget per thread's block: how the
// parallel stages hand their result to check().
template <class T, class Array>
std::vector<T> collect_rows(const Array& a, std::int64_t rows, std::int64_t width) {
  std::vector<T> out(static_cast<std::size_t>(rows * width));
  for (int t = 0; t < THREADS; ++t) {
    const part p = part_of(rows, THREADS, t);
    if (p.count > 0)
      upc_memget(&out[static_cast<std::size_t>(p.first * width)], &a[static_cast<std::size_t>(p.first * width)],
                 static_cast<std::size_t>(p.count * width) * sizeof(T));
  }
  return out;
}

inline void print_value(double v) { std::printf("%.17g", v); }
inline void print_value(int v) { std::printf("%d", v); }

// Compares a stage's result with the sequential one, element by element and
// exactly (a missing element reads as -1), printing the first five that differ
// ("MISMATCH at <where>: <stage> <got>, sequential <expected>", where(i)
// printing element i's place) and a wrong length ("MISMATCH: <n> <items>
// instead of <m>"); how many are wrong, the wrong length counting one.
// seen(got) sees every element, for the summary.
template <class T, class Where, class Seen>
std::int64_t count_mismatches(const char* stage, const std::vector<T>& result, const std::vector<T>& expected,
                              const char* items, Where where, Seen seen) {
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const T got = i < result.size() ? result[i] : T(-1);
    seen(got);
    if (got != expected[i] && wrong++ < 5) {
      std::printf("MISMATCH at ");
      where(i);
      std::printf(": %s ", stage);
      print_value(got);
      std::printf(", sequential ");
      print_value(expected[i]);
      std::printf("\n");
    }
  }
  if (result.size() != expected.size())
    std::printf("MISMATCH: %zu %s instead of %zu\n", result.size(), items, expected.size()), ++wrong;
  return wrong;
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
