// Summing a 1 M-element shared int array three ways, each thread over the block it
// owns (the array is blocked so each thread has one contiguous block):
//
//   shared      s += x[i]          for i in my block: element access through the
//                                   pointer-to-shared proxy
//   privatised  int* p = static_cast<int*>(&x[first]);  s += p[j]   (a plain loop)
//   plain       s += v[j]          over a std::vector<int> with the same values
//
// A repetition times `passes` sums on every thread (all threads at once, each over
// its block); its cost is the slowest thread's time per pass, i.e. the time to sum
// the whole array in parallel. The --reps rounds run every method once each, in
// rotating order. Rows give median/min/max microseconds per sum, ns_per_elem
// (median / 2^20 elements) and ratio_vs_plain: the median over rounds of (this
// method / the plain loop, same round); 1.0 = as fast as plain C++. Every pass's
// sum is checked against the answer computed when the data was written.
//
// The block size is a template argument (as in UPC, where it is part of the type),
// so THREADS must divide 2^20: a power of two up to 1024.
#include <cstdio>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "upc.h"

namespace {

constexpr std::size_t elements = std::size_t{1} << 20;

inline int value_of(std::size_t i) { return static_cast<int>((i * 7 + 3) % 1000); }

struct options {
  std::int64_t passes = 0, reps = 7;
  double min_time = 0.2;
  std::string methods = "shared,privatised,plain", fmt = "text";
};

template <std::size_t B>
int measure(const options& opt) {
  upc::shared_array<int, B> x(elements);  // shared [B] int x[1<<20]; B = 2^20/THREADS
  const std::size_t first = static_cast<std::size_t>(MYTHREAD) * B;

  int* mine = static_cast<int*>(&x[first]);  // privatised: my block as a plain int*
  std::vector<int> plain(B);
  std::int64_t expected = 0;
  for (std::size_t j = 0; j < B; ++j) {
    mine[j] = value_of(first + j);
    plain[j] = value_of(first + j);
    expected += value_of(first + j);
  }
  upc::barrier();

  bench::report out(bench::parse_format(opt.fmt),
                    {{"bench", "privatised_sum"}, {"backend", bench::backend_name()}, {"threads", THREADS}},
                    {{"elements", static_cast<std::uint64_t>(elements)},
                     {"block", static_cast<std::uint64_t>(B)},
                     {"passes", opt.passes},
                     {"min_time_s", opt.min_time},
                     {"reps", opt.reps},
                     {"methods", opt.methods},
                     {"unit", "microseconds per parallel sum of the whole array, slowest thread"}});
  if (MYTHREAD == 0) out.header();

  std::int64_t wrong_passes = 0;
  auto check = [&](std::int64_t sum) {
    bench::use(sum);
    wrong_passes += sum != expected;
  };
  auto shared_sum = [&](std::int64_t n) {
    for (std::int64_t k = 0; k < n; ++k) {
      std::int64_t s = 0;
      for (std::size_t i = first; i < first + B; ++i) s += x[i];
      check(s);
    }
  };
  auto privatised_sum = [&](std::int64_t n) {
    for (std::int64_t k = 0; k < n; ++k) {
      const int* p = static_cast<int*>(&x[first]);
      bench::use(p);
      std::int64_t s = 0;
      for (std::size_t j = 0; j < B; ++j) s += p[j];
      check(s);
    }
  };
  auto plain_sum = [&](std::int64_t n) {
    for (std::int64_t k = 0; k < n; ++k) {
      const int* v = plain.data();
      bench::use(v);
      std::int64_t s = 0;
      for (std::size_t j = 0; j < B; ++j) s += v[j];
      check(s);
    }
  };

  const std::vector<std::string> methods = bench::split_list(opt.methods);
  const std::size_t nm = methods.size();
  auto run = [&](std::size_t k, std::int64_t n) {
    if (methods[k] == "shared") shared_sum(n);
    else if (methods[k] == "privatised") privatised_sum(n);
    else plain_sum(n);
  };
  // Passes per repetition, per method (calibration doubles as warm-up).
  std::vector<std::int64_t> passes(nm);
  for (std::size_t k = 0; k < nm; ++k)
    passes[k] = opt.passes ? opt.passes
                           : bench::calibrate_iterations([&](std::int64_t n) { run(k, n); }, opt.min_time, 1, 1'000'000);
  if (opt.passes)
    for (std::size_t k = 0; k < nm; ++k) bench::timed_on_slowest([&](std::int64_t n) { run(k, n); }, passes[k]);  // warm-up
  std::size_t plain_index = nm;
  for (std::size_t k = 0; k < nm; ++k)
    if (methods[k] == "plain") plain_index = k;

  // Rounds: every method once per round, the starting method rotating; the ratio
  // to the plain loop is taken within each round.
  std::vector<std::vector<double>> us(nm), ratio(nm);
  for (std::int64_t r = 0; r < opt.reps; ++r) {
    std::vector<double> round(nm);
    for (std::size_t j = 0; j < nm; ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % nm;
      round[k] = bench::timed_on_slowest([&](std::int64_t n) { run(k, n); }, passes[k]) * 1e6 /
                 static_cast<double>(passes[k]);
    }
    for (std::size_t k = 0; k < nm; ++k) {
      us[k].push_back(round[k]);
      if (plain_index < nm) ratio[k].push_back(round[k] / round[plain_index]);
    }
  }
  const auto wrong = static_cast<std::int64_t>(bench::sum_over_threads(static_cast<double>(wrong_passes)));

  if (MYTHREAD == 0)
    for (std::size_t k = 0; k < nm; ++k) {
      const bench::summary s = bench::summarize(us[k]);
      out.row({{"method", methods[k]},
               {"passes", passes[k]},
               {"median_us", s.median},
               {"min_us", s.min},
               {"max_us", s.max},
               {"ns_per_elem", s.median * 1e3 / static_cast<double>(elements)},
               {"ratio_vs_plain", plain_index < nm ? bench::summarize(ratio[k]).median : 0.0},
               {"wrong", wrong}});
    }
  if (wrong && MYTHREAD == 0) std::fprintf(stderr, "privatised_sum: %lld passes gave a wrong sum\n", static_cast<long long>(wrong));
  return wrong ? 1 : 0;
}

template <std::size_t Threads = 1>
int dispatch(const options& opt) {
  if constexpr (Threads > 1024) {
    if (MYTHREAD == 0)
      std::fprintf(stderr, "privatised_sum: THREADS must be a power of two up to 1024 (it is %d)\n", THREADS);
    return 2;
  } else {
    if (THREADS == static_cast<int>(Threads)) return measure<elements / Threads>(opt);
    return dispatch<Threads * 2>(opt);
  }
}

}  // namespace

int upc_main(int argc, char** argv) {
  options opt;
  bench::cli cli("privatised_sum",
                 "Sum of a 1 M-element shared int array, each thread over its own block: shared element\n"
                 "access x[i], a privatised int* loop, and a plain std::vector loop; ns per element and\n"
                 "ratios to the plain loop. THREADS must be a power of two up to 1024.");
  cli.add_int("passes", "sums per repetition (0: calibrate to --min-time)", &opt.passes);
  cli.add_real("min-time", "seconds per repetition when calibrating", &opt.min_time);
  cli.add_int("reps", "repetitions; rows report their median, min and max", &opt.reps, 1);
  cli.add_choice("methods", "what to measure", &opt.methods, {"shared", "privatised", "plain"}, true);
  cli.add_choice("format", "output rows as aligned text or one JSON object per line", &opt.fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, MYTHREAD == 0)) return *status;
  return dispatch(opt);
}
