// Microseconds per upc_barrier.
//
// Each repetition starts all threads together (a barrier), times `iters` back-to-
// back barriers on every thread, and keeps the slowest thread's time divided by
// iters. The row gives the median, minimum and maximum over the repetitions. A
// warm-up runs first; without --iters the count is calibrated so one repetition
// lasts about --min-time seconds. Verification (on by default) checks before timing
// that no thread leaves a barrier before every thread has entered it.
#include <cstdio>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "upc.h"

namespace {

upc::shared_array<std::int64_t> arrived_round(upc::per_thread(1));

// `rounds` times: every thread publishes the round number, passes a barrier, and
// checks that every other thread had published it. Returns the mismatches seen.
std::int64_t verify_barrier(std::int64_t rounds) {
  std::int64_t wrong = 0;
  for (std::int64_t r = 1; r <= rounds; ++r) {
    arrived_round[MYTHREAD] = r;
    upc::barrier();
    for (int t = 0; t < THREADS; ++t)
      if (arrived_round[t] < r) ++wrong;
    upc::barrier();
  }
  return wrong;
}

void barriers(std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) upc::barrier();
}

}  // namespace

int upc_main(int argc, char** argv) {
  std::int64_t iters = 0, reps = 7, warmup = 200, verify_rounds = 100;
  double min_time = 0.2;
  std::string fmt = "text";
  bool no_verify = false;
  bench::cli cli("barrier_latency",
                 "Latency of upc_barrier in microseconds: median, min and max over repetitions of the\n"
                 "slowest thread's time per barrier.");
  cli.add_int("iters", "barriers per repetition (0: calibrate to --min-time)", &iters);
  cli.add_real("min-time", "seconds per repetition when calibrating", &min_time);
  cli.add_int("reps", "repetitions; the row reports their median, min and max", &reps, 1);
  cli.add_int("warmup", "barriers before measuring", &warmup);
  cli.add_int("verify-rounds", "barrier rounds checked for correct synchronisation", &verify_rounds);
  cli.add_flag("no-verify", "skip verification", &no_verify);
  cli.add_choice("format", "output rows as aligned text or one JSON object per line", &fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, MYTHREAD == 0)) return *status;

  std::int64_t wrong = 0;
  if (!no_verify) wrong = static_cast<std::int64_t>(bench::sum_over_threads(static_cast<double>(verify_barrier(verify_rounds))));

  barriers(warmup);
  const bool calibrated = iters == 0;
  if (calibrated) iters = bench::calibrate_iterations(barriers, min_time, 64, 10'000'000);

  std::vector<double> us_per_barrier;
  for (std::int64_t r = 0; r < reps; ++r)
    us_per_barrier.push_back(bench::timed_on_slowest(barriers, iters) * 1e6 / static_cast<double>(iters));
  const bench::summary s = bench::summarize(us_per_barrier);

  if (MYTHREAD == 0) {
    bench::report out(bench::parse_format(fmt),
                      {{"bench", "barrier_latency"}, {"backend", bench::backend_name()}, {"threads", THREADS}},
                      {{"iters", iters},
                       {"iters_calibrated", calibrated},
                       {"min_time_s", min_time},
                       {"reps", reps},
                       {"warmup", warmup},
                       {"verify_rounds", no_verify ? std::int64_t{0} : verify_rounds},
                       {"statistic", "slowest thread per repetition; median/min/max over repetitions"}});
    out.header();
    out.row({{"iters", iters},
             {"median_us", s.median},
             {"min_us", s.min},
             {"max_us", s.max},
             {"verified", !no_verify},
             {"wrong", wrong}});
    if (wrong) std::fprintf(stderr, "barrier_latency: %lld threads left a barrier early\n", static_cast<long long>(wrong));
  }
  return wrong ? 1 : 0;
}
