// What the four UPC-MR applications (seed 003 §4.3: Hist, LinReg, WordC,
// SpamC) share and a user of the framework would not write: the options, which
// elements a thread maps (to check a UPC_MR_NOCOMM
// portion), the timer, and the verdict and result line. The user code (input
// list, map and reduce functions, the two framework calls) is in each app's
// file, between its `sloc mapreduce/<app>` markers.
#pragma once
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/app_result.hpp"
#include "launch.hpp"
#include "upc.h"
#include "upc_mr.h"
#include "upc_tick.h"

namespace mrapp {

// ---- options ----------------------------------------------------------------

struct options {
  std::int64_t size = 0;      // elements: pixels, points, documents, e-mails
  std::int64_t seed = 2012;
  std::string distribution = "block";  // block | cyclic | balanced | best_fit
  std::string gather = "all";          // all | none | a thread number
  std::string map = "element";         // element (ApplyMap distributes) | array (mapfunc does)
  std::string collectives = "on";      // on: extended collectives; off: one by one
  std::int64_t threshold = -1;         // BEST_FIT's weights[0]; -1: the largest element weight

  int algorithm() const {
    if (distribution == "cyclic") return UPC_MR_CYCLIC;
    if (distribution == "balanced") return UPC_MR_BALANCED;
    if (distribution == "best_fit") return UPC_MR_BEST_FIT;
    return UPC_MR_BLOCK;
  }
  bool array_map() const { return map == "array"; }
  int gath_flag() const {
    if (gather == "all") return UPC_MR_ALLCOMM;
    if (gather == "none") return UPC_MR_NOCOMM;
    return std::atoi(gather.c_str());
  }
  int coll_flag() const { return collectives == "on" ? UPC_MR_COLL : UPC_MR_NOCOLL; }
  // distribution+gather, e.g. "block+all"; "array+all" for the array-based
  // map; "+nocoll" when the pairs move one by one
  std::string variant() const {
    return (array_map() ? std::string("array") : distribution) + "+" + gather + (collectives == "off" ? "+nocoll" : "");
  }
};

// Parses the options every app takes (plus the app's own, added to `cli`
// before); nothing when the app should run, else the exit status (0 after
// --help, 2 after a bad option, said as "<program>: <what is wrong>").
inline std::optional<int> parse(bench::cli& cli, options& o, int argc, char** argv, const char* program,
                                std::int64_t max_size) {
  cli.add_int("seed", "seed of the generated input", &o.seed, 0);
  cli.add_choice("distribution", "ApplyMap's algorithm (element-by-element map)", &o.distribution,
                 {"block", "cyclic", "balanced", "best_fit"});
  cli.add_choice("gather", "ApplyReduce's gathFlag: all (UPC_MR_ALLCOMM), none (UPC_MR_NOCOMM) or a thread number",
                 &o.gather, {});
  cli.add_choice("map", "element: ApplyMap distributes the elements; array: the map function divides the whole input",
                 &o.map, {"element", "array"});
  cli.add_choice("collectives", "ApplyReduce's collFlag: on (extended collectives) or off (one element at a time)",
                 &o.collectives, {"on", "off"});
  cli.add_int("threshold", "BEST_FIT's threshold (weights[0]); -1: the largest element weight", &o.threshold, -1);
  if (auto status = cli.exit_status(argc, argv, true)) return status;
  auto bad = [&](const std::string& what) {
    std::fprintf(stderr, "%s: %s\n", program, what.c_str());
    return std::optional<int>(2);
  };
  if (o.size > max_size) return bad("--size=" + std::to_string(o.size) + ": at most " + std::to_string(max_size));
  if (o.gather != "all" && o.gather != "none") {
    char* end = nullptr;
    errno = 0;
    const long t = std::strtol(o.gather.c_str(), &end, 10);
    if (o.gather.empty() || *end != '\0' || errno != 0 || t < 0)
      return bad("--gather=" + o.gather + ": not all, none or a thread number");
    int threads = 0;
    try {
      threads = bench::launch_options().threads;
    } catch (const upc::error&) {
      return std::nullopt;  // apps::launch says what is wrong with the settings
    }
    if (t >= threads)
      return bad("--gather=" + o.gather + ": there are only " + std::to_string(threads) + " threads (0.." +
                 std::to_string(threads - 1) + ")");
  }
  return std::nullopt;
}

// A heap per thread for `pair_bytes` of intermediate pairs in all: a thread's
// share published or staged twice over, with room for imbalance.
inline std::size_t heap_for(std::uint64_t pair_bytes) {
  const std::uint64_t share = pair_bytes / static_cast<std::uint64_t>(apps::planned_threads());
  return static_cast<std::size_t>(32ULL << 20) + static_cast<std::size_t>(4 * share);
}

// ---- which elements a thread maps (to check a UPC_MR_NOCOMM portion) ---------------

// Every element, 0 to n - 1 (what the whole answer is computed from).
inline std::vector<int> every_element(std::int64_t n) {
  std::vector<int> all(static_cast<std::size_t>(n));
  for (int i = 0; i < static_cast<int>(n); ++i) all[static_cast<std::size_t>(i)] = i;
  return all;
}

// The elements the calling thread mapped: ApplyMap's distribution for the
// element-by-element map, or the block [t*n/T, (t+1)*n/T) every app's
// array-based map takes.
inline std::vector<int> my_elements(const options& o, int nelems, const std::vector<int>& weights) {
  std::vector<int> mine;
  if (o.array_map()) {
    const long long T = THREADS, t = MYTHREAD;
    for (long long i = t * nelems / T; i < (t + 1) * nelems / T; ++i) mine.push_back(static_cast<int>(i));
    return mine;
  }
  std::vector<int> owner(static_cast<std::size_t>(nelems));
  upc_mr_distribute(THREADS, nelems, o.algorithm(), o.algorithm() == UPC_MR_BEST_FIT ? weights.data() : weights.data() + 1,
                    owner.data());
  for (int i = 0; i < nelems; ++i)
    if (owner[static_cast<std::size_t>(i)] == MYTHREAD) mine.push_back(i);
  return mine;
}

// The weights array ApplyMap takes for the chosen algorithm: [threshold,
// w0, w1, ...]; pass .data() for BEST_FIT, .data() + 1 otherwise.
inline std::vector<int> weights_with_threshold(const options& o, const std::vector<int>& w) {
  std::vector<int> all{o.threshold >= 0 ? static_cast<int>(o.threshold) : (w.empty() ? 0 : *std::max_element(w.begin(), w.end()))};
  all.insert(all.end(), w.begin(), w.end());
  return all;
}
inline int* weights_for(const options& o, std::vector<int>& all) {
  return o.algorithm() == UPC_MR_BEST_FIT ? all.data() : all.data() + 1;
}

// ---- timing and the verdict ----------------------------------------------------------

inline double now_s() { return static_cast<double>(upc_ticks_now()) * 1e-9; }

// True on every thread when every thread's `ok` is true.
inline bool everyone(bool ok) {
  upc::shared_array<int> verdict{upc::per_thread(1)};
  verdict[MYTHREAD] = ok ? 1 : 0;
  upc_barrier;
  bool all = true;
  for (int t = 0; t < THREADS; ++t) all = all && verdict[t] == 1;
  upc_barrier;
  return all;
}

// The verdict on ApplyReduce's result `got`, the same on every thread: what
// the gathering flag promises is there (with UPC_MR_NOCOMM every thread's own
// portion, portion() computing what its elements give; the whole answer on the
// threads that gather, `whole`; nothing elsewhere). same(got, expected, what)
// compares and says what differs.
template <class T, class Portion, class Whole, class Same>
bool verify_reduced(const options& o, const T* got, Portion portion, const Whole& whole, const char* whole_what, Same same) {
  bool ok = true;
  const int g = o.gath_flag();
  if (g == UPC_MR_NOCOMM) ok = same(got, portion(), "portion:");
  else if (g == UPC_MR_ALLCOMM || g == MYTHREAD) ok = same(got, whole, whole_what);
  else ok = got == nullptr;
  return everyone(ok);
}

// Whether this thread is the one that prints the whole answer's digest
// (thread 0 when it gathered the whole answer).
inline bool prints_answer(const options& o) {
  return MYTHREAD == 0 && (o.gath_flag() == UPC_MR_ALLCOMM || o.gath_flag() == 0);
}

inline const char* algorithm_text(int a) {
  switch (a) {
    case UPC_MR_BLOCK: return "block";
    case UPC_MR_CYCLIC: return "cyclic";
    case UPC_MR_BALANCED: return "balanced";
    case UPC_MR_BEST_FIT: return "best_fit";
    default: return "array";
  }
}

// The end of a run: thread 0 prints the summary and the result line (with the
// distribution ApplyMap used and thread 0's number of pairs before the app's
// own fields); the exit status, 1 when not verified.
inline int report(const char* app, const options& o, double seconds, bool verified, int pairs, bench::record extra = {}) {
  if (MYTHREAD != 0) return verified ? 0 : 1;
  std::printf("%s: %lld elements, %s, %d threads (%s): %.6f s, %s\n", app, static_cast<long long>(o.size),
              o.variant().c_str(), THREADS, apps::backend_name(), seconds, verified ? "VERIFIED" : "NOT VERIFIED");
  bench::record fields{{"app", std::string(app)},
                       {"variant", o.variant()},
                       {"size", static_cast<std::int64_t>(o.size)},
                       {"seed", static_cast<std::int64_t>(o.seed)},
                       {"map", o.map},
                       {"collectives", o.collectives},
                       {"time_s", seconds},
                       {"verified", verified},
                       {"algorithm", std::string(algorithm_text(upc_mr_last_algorithm()))},
                       {"pairs_thread0", pairs}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  apps::result_line(fields);
  return verified ? 0 : 1;
}

}  // namespace mrapp
