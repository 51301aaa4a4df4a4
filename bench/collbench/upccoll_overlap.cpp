// upccoll_overlap: how much of a non-blocking UPC Collectives 2.0 call (<upccoll.h>)
// is hidden behind computation. Peer: bench/peers/mpi/overlap_mpi.c (MPI_Iallreduce,
// MPI_Ialltoall), measured the same way. docs/benchmarks.md, "Overlap";
// tools/bench/run_upccoll.sh runs it with the library's default progress (inline)
// and with UPCEMU_UPCCOLL_PROGRESS=thread.
//
//   UPCEMU_THREADS=4 upccoll_overlap --coll=allreduce --sizes=1K,1M
//
// Per collective (allreduce: UPC_ADD on double, count = nbytes / 8; alltoall:
// nbytes per pair, UPC_BYTE) and size, on UPC_TEAM_ALL with flags 0 (MYSYNC):
//
//   t_coll     start (handle) + upccoll_wait, nothing in between
//   t_comp     the computation alone, calibrated so that t_comp ≈ f × t_coll for each
//              factor f of --factors (1 and 2 by default)
//   t_overlap  start; the computation; upccoll_wait
//   hidden     (t_coll + t_comp - t_overlap) / t_coll, in percent: 100 when the whole
//              collective disappears behind the computation, 0 when nothing overlaps,
//              negative when overlapping costs more than doing one after the other
//
// Two kinds of computation (overlap_work.h, shared with the peer): "cpu", a
// dependent floating-point loop of a calibrated number of iterations (a fixed
// amount of work: when another thread, a progress thread for instance, shares the
// core it takes longer); and "offload", the thread sleeps until a deadline
// (clock_nanosleep, timer slack set to 1 ns), as when it waits for a device or for
// I/O, leaving its core free. Each is run plain and with a call of upccoll_test
// every --test-us microseconds (cpu: between chunks of iterations that last about
// that long; offload: the sleep is cut into such slices), stopping the tests once
// one returns 1; upccoll_wait follows in every case (immediate when the test saw
// completion).
//
// Timing is collbench's: every body runs `iters` times back to back between a
// barrier and the per-thread clocks; a round's value is (latest end - earliest
// start across threads) / iters; iters is calibrated on t_coll to about --min-time
// per round and kept for the other bodies. Each of --reps rounds measures t_coll,
// t_comp, t_overlap and t_overlap with tests one after the other; rows give the
// medians, hidden from the medians (hidden_pct) and the median of the per-round
// values (hidden_pct_rounds). Calibration: measured t_comp within 5% of the target
// or four corrections, whichever comes first; comp_ratio = t_comp / t_coll says
// how close it came (a sleep cannot be shorter than the timer's wake-up latency).
// Every collective is verified once per size after an overlapped call.
#include <sys/prctl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../common/blocks.hpp"
#include "../../harness/cli.hpp"
#include "../../harness/launch.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "../common/upccoll_run.hpp"
#include "overlap_work.h"
#include "upc.h"
#include "upccoll.h"
#include "upccoll_model.h"

namespace {

struct params {
  std::string coll = "allreduce,alltoall", sizes = "1K,64K,1M", compute = "cpu,offload", factors = "1,2", fmt = "text";
  std::int64_t reps = 7;
  double min_time = 0.01, test_us = 10;
  bool no_test = false, no_verify = false;
  std::vector<int> colls;
  std::vector<std::uint64_t> nbytes;
  std::vector<double> fs;
  std::vector<std::string> kinds;
};

std::string progress_mode() { return bench::upccoll_progress("inline"); }

// A computation of overlap_work.h, cpu or offload, with tests test_ns apart; its
// length is set by ov_calibrate.
ov_work make_work(bool cpu, double test_ns) {
  return ov_work{.cpu = cpu, .iters = 0, .chunk = 1, .sleep_ns = 0, .test_ns = test_ns};
}

struct state {
  const params* p = nullptr;
  std::size_t block = 0;
  upc::sptr<void> src_base, dst_base, src, dst;
  std::vector<unsigned char> scratch;
  int c = UC_ALLREDUCE;
  std::uint64_t nbytes = 0;
  upccoll_return_t rc = UPCCOLL_SUCCESS;  // the first failure seen
  int bad_test = 0;                       // upccoll_test returned something other than 0 or 1
  double sink = 1.0;
  unsigned char* my_src() const { return static_cast<unsigned char*>(src.local()); }
  unsigned char* my_dst() const { return static_cast<unsigned char*>(dst.local()); }
};

upccoll_handle_t start(state& s) {
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  upccoll_return_t r;
  if (s.c == UC_ALLREDUCE)
    r = upccoll_allreduce(s.src, s.dst, static_cast<std::size_t>(s.nbytes / sizeof(double)), UPC_DOUBLE, UPC_ADD, UPC_TEAM_ALL, 0, &h);
  else
    r = upccoll_alltoall(s.src, static_cast<std::size_t>(s.nbytes), UPC_BYTE, s.dst, static_cast<std::size_t>(s.nbytes), UPC_BYTE,
                         UPC_TEAM_ALL, 0, &h);
  if (r != UPCCOLL_SUCCESS && s.rc == UPCCOLL_SUCCESS) s.rc = r;
  return h;
}
// upccoll_wait, also after upccoll_test has returned 1: a successful test does
// not free the handle (docs/teams-and-collectives-2.md), the wait does.
void finish(state& s, upccoll_handle_t h) {
  const upccoll_return_t r = upccoll_wait_status(h);
  if (r != UPCCOLL_SUCCESS && s.rc == UPCCOLL_SUCCESS) s.rc = r;
}

// The collective in flight that the computation tests.
struct in_flight {
  state& s;
  upccoll_handle_t h;
};
// upccoll_test: 1 once it is complete; a value other than 0 or 1 is noted.
int test_handle(void* flight) {
  in_flight& f = *static_cast<in_flight*>(flight);
  const int t = upccoll_test(f.h);
  if (t != 0 && t != 1) f.s.bad_test = t;
  return t == 1;
}

// The computation; with h, upccoll_test every w.test_ns until it returns 1.
// Returns whether the collective is known complete.
bool compute(state& s, const ov_work& w, upccoll_handle_t h) {
  in_flight f{s, h};
  return ov_compute(&w, &s.sink, h == UPCCOLL_INVALID_HANDLE ? nullptr : test_handle, &f) != 0;
}

double median(std::vector<double> v) { return bench::summarize(std::move(v)).median; }

// The bodies, each n times.
void body_coll(state& s, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) finish(s, start(s));
}
void body_comp(state& s, const ov_work& w, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) compute(s, w, UPCCOLL_INVALID_HANDLE);
}
void body_overlap(state& s, const ov_work& w, bool with_test, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    upccoll_handle_t h = start(s);
    if (with_test) compute(s, w, h);
    else compute(s, w, UPCCOLL_INVALID_HANDLE);
    finish(s, h);
  }
}

// Seconds per computation, measured as the collective is (for ov_calibrate).
double measure_comp(void* ctx, const ov_work* w, long n) {
  state& s = *static_cast<state*>(ctx);
  return bench::span_per_call([&](std::int64_t k) { body_comp(s, *w, k); }, n);
}

std::uint64_t verify(state& s, std::uint64_t seed, const ov_work& w) {
  const int T = THREADS, me = MYTHREAD;
  std::memset(s.my_dst(), COLL_POISON_BYTE, uc_dst_bytes(s.c, T, s.nbytes));
  uc_fill_source(s.c, s.my_src(), uc_src_bytes(s.c, T, s.nbytes), seed, me);
  upc::barrier();
  body_overlap(s, w, true, 1);
  upc::barrier();
  const std::uint64_t mine = uc_count_wrong(s.c, T, me, 0, seed, s.nbytes, s.my_dst(), s.scratch.data(), 1);
  if (mine)
    std::fprintf(stderr, "upccoll_overlap: %s nbytes=%llu THREADS=%d: thread %d: %llu %s wrong\n", uc_names[s.c],
                 static_cast<unsigned long long>(s.nbytes), T, me, static_cast<unsigned long long>(mine),
                 s.c == UC_ALLREDUCE ? "elements" : "bytes");
  return static_cast<std::uint64_t>(bench::sum_over_threads(static_cast<double>(mine)));
}

// Every collective, size, computation and factor.
int measure(const params& p) {
  const int T = THREADS, me = MYTHREAD;
  state s;
  s.p = &p;
  std::uint64_t max_n = 16;
  for (const int c : p.colls)
    for (const std::uint64_t n : p.nbytes) {
      s.block = std::max<std::size_t>(s.block, std::max(uc_src_bytes(c, T, n), uc_dst_bytes(c, T, n)));
      max_n = std::max(max_n, n);
    }
  s.src_base = upc_all_alloc(static_cast<std::size_t>(T), s.block);
  s.dst_base = upc_all_alloc(static_cast<std::size_t>(T), s.block);
  s.src = bench::on_thread(s.src_base, me, s.block);
  s.dst = bench::on_thread(s.dst_base, me, s.block);
  s.scratch.assign(max_n, 3);
  std::memset(s.my_src(), 4, s.block);
  std::memset(s.my_dst(), 5, s.block);
  upc::barrier();

  std::uint64_t total_wrong = 0, seed = 1;
  for (const int c : p.colls) {
    s.c = c;
    bench::report out(bench::parse_format(p.fmt),
                      {{"bench", "upccoll_overlap"}, {"backend", bench::backend_name()}, {"threads", T}, {"coll", uc_names[c]}},
                      {{"impl", "upccoll"},
                       {"progress", progress_mode()},
                       {"flags", "mysync"},
                       {"type", c == UC_ALLREDUCE ? "double" : "byte"},
                       {"sizes", p.sizes},
                       {"compute", p.compute},
                       {"factors", p.factors},
                       {"test_us", p.no_test ? 0.0 : p.test_us},
                       {"reps", p.reps},
                       {"min_time_s", p.min_time},
                       {"timer_slack_ns", 1},
                       {"statistic", "per call: (latest end - earliest start across threads)/iters; medians over reps; "
                                     "hidden = (t_coll + t_comp - t_overlap) / t_coll"},
                       {"verify", !p.no_verify}});
    if (me == 0) out.header();
    for (const std::uint64_t n0 : p.nbytes) {
      const std::uint64_t nbytes = c == UC_ALLREDUCE ? std::max<std::uint64_t>(1, n0 / 8) * 8 : n0;
      s.nbytes = nbytes;
      ++seed;
      // Warm-up (and the first check that the calls succeed).
      s.rc = UPCCOLL_SUCCESS;
      body_coll(s, 3);
      if (!bench::all_threads(s.rc == UPCCOLL_SUCCESS)) {
        if (s.rc != UPCCOLL_SUCCESS)
          std::fprintf(stderr, "upccoll_overlap: %s nbytes=%llu: thread %d got %s\n", uc_names[c],
                       static_cast<unsigned long long>(nbytes), me, upccoll_error_name(s.rc));
        ++total_wrong;
        continue;
      }
      const std::int64_t iters =
          bench::calibrate_iterations([&](std::int64_t n) { body_coll(s, n); }, p.min_time, 1, std::int64_t{1} << 30);
      std::vector<double> coll0;
      for (int r = 0; r < 5; ++r) coll0.push_back(bench::span_per_call([&](std::int64_t n) { body_coll(s, n); }, iters));
      const double t_coll0 = median(coll0);

      for (const std::string& kind : p.kinds) {
        for (const double f : p.fs) {
          ov_work w = make_work(kind == "cpu", p.test_us * 1e3);
          ov_calibrate(&w, f * t_coll0, iters, measure_comp, &s);
          std::vector<double> tc, tp, to, tt, hid, hid_t;
          for (std::int64_t r = 0; r < p.reps; ++r) {
            const double a = bench::span_per_call([&](std::int64_t n) { body_coll(s, n); }, iters);
            const double b = bench::span_per_call([&](std::int64_t n) { body_comp(s, w, n); }, iters);
            const double o = bench::span_per_call([&](std::int64_t n) { body_overlap(s, w, false, n); }, iters);
            tc.push_back(a);
            tp.push_back(b);
            to.push_back(o);
            hid.push_back((a + b - o) / a * 100);
            if (!p.no_test) {
              const double ot = bench::span_per_call([&](std::int64_t n) { body_overlap(s, w, true, n); }, iters);
              tt.push_back(ot);
              hid_t.push_back((a + b - ot) / a * 100);
            }
          }
          const double mc = median(tc), mp = median(tp);
          for (int with_test = 0; with_test <= (p.no_test ? 0 : 1); ++with_test) {
            const std::vector<double>& ov = with_test ? tt : to;
            const bench::summary so = bench::summarize(ov);
            if (me == 0)
              out.row({{"impl", "upccoll"},
                       {"progress", progress_mode()},
                       {"nbytes", nbytes},
                       {"compute", kind},
                       {"factor", f},
                       {"test", with_test != 0},
                       {"test_us", with_test ? p.test_us : 0.0},
                       {"iters", iters},
                       {"work", w.cpu ? static_cast<double>(w.iters) : w.sleep_ns * 1e-3},
                       {"t_coll_us", mc * 1e6},
                       {"t_comp_us", mp * 1e6},
                       {"t_overlap_us", so.median * 1e6},
                       {"t_overlap_min_us", so.min * 1e6},
                       {"t_overlap_max_us", so.max * 1e6},
                       {"comp_ratio", mp / mc},
                       {"hidden_pct", (mc + mp - so.median) / mc * 100},
                       {"hidden_pct_rounds", median(with_test ? hid_t : hid)}});
          }
        }
      }
      std::uint64_t wrong = 0;
      if (!p.no_verify) {
        ov_work w = make_work(true, 10000);
        w.iters = 1000;
        w.chunk = 100;
        wrong = verify(s, seed, w);
      }
      const bool failed = !bench::all_threads(s.rc == UPCCOLL_SUCCESS && s.bad_test == 0);
      if (s.rc != UPCCOLL_SUCCESS)
        std::fprintf(stderr, "upccoll_overlap: %s nbytes=%llu: thread %d got %s\n", uc_names[c],
                     static_cast<unsigned long long>(nbytes), me, upccoll_error_name(s.rc));
      if (s.bad_test)
        std::fprintf(stderr, "upccoll_overlap: %s nbytes=%llu: thread %d: upccoll_test returned %d\n", uc_names[c],
                     static_cast<unsigned long long>(nbytes), me, s.bad_test);
      if (me == 0) {
        out.note("verified " + std::string(uc_names[c]) + " nbytes=" + std::to_string(nbytes) + ": " +
                 (p.no_verify ? "skipped" : std::to_string(wrong) + " wrong") + (failed ? "; calls FAILED" : ""));
        if (wrong || failed)
          std::fprintf(stderr, "upccoll_overlap: %s nbytes=%llu THREADS=%d: %llu wrong%s\n", uc_names[c],
                       static_cast<unsigned long long>(nbytes), T, static_cast<unsigned long long>(wrong),
                       failed ? ", calls failed" : "");
      }
      total_wrong += wrong + (failed ? 1 : 0);
    }
  }
  bench::use(s.sink);
  upc::barrier();
  upc_all_free(s.dst_base);
  upc_all_free(s.src_base);
  return total_wrong ? 1 : 0;
}

int spmd(const params& p) {
  // Sleeps end when asked, not up to 50 µs later; set before upccoll_initialize,
  // so that a progress thread it starts inherits it.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  return bench::with_upccoll("upccoll_overlap", [&p] { return measure(p); });
}

}  // namespace

int main(int argc, char** argv) {
  params p;
  bench::cli cli("upccoll_overlap",
                 "Overlap of non-blocking upccoll_allreduce / upccoll_alltoall (handle, upccoll_wait) with\n"
                 "computation: t_coll, t_comp (calibrated to --factors x t_coll), t_overlap and hidden =\n"
                 "(t_coll + t_comp - t_overlap) / t_coll, for a busy loop (cpu) and a sleep (offload), each\n"
                 "plain and with upccoll_test every --test-us. The library's progress mode comes from\n"
                 "UPCEMU_UPCCOLL_PROGRESS (inline by default, or thread).");
  cli.add_choice("coll", "the collectives", &p.coll, {"allreduce", "alltoall"}, true);
  cli.add_choice("sizes", "blocks per thread (bytes, K/M suffixes), comma-separated", &p.sizes, {}, true);
  cli.add_choice("compute", "kinds of computation", &p.compute, {"cpu", "offload"}, true);
  cli.add_choice("factors", "t_comp targets as multiples of t_coll, comma-separated", &p.factors, {}, true);
  cli.add_real("test-us", "microseconds of computation between two upccoll_test calls", &p.test_us);
  cli.add_flag("no-test", "skip the variant with upccoll_test calls", &p.no_test);
  cli.add_int("reps", "rounds; rows give medians", &p.reps, 1);
  cli.add_real("min-time", "seconds per t_coll round (sets the calls per round)", &p.min_time);
  cli.add_flag("no-verify", "skip verification", &p.no_verify);
  cli.add_choice("format", "rows as aligned text or one JSON object per line", &p.fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, true)) return *status;
  for (const std::string& c : bench::split_list(p.coll)) p.colls.push_back(uc_from_name(c.c_str()));
  for (const std::string& k : bench::split_list(p.compute)) p.kinds.push_back(k);
  for (const std::string& v : bench::split_list(p.sizes)) {
    std::uint64_t n = 0;
    if (!bench::parse_size(v, n) || n < 8) {
      std::fprintf(stderr, "upccoll_overlap: --sizes: '%s' is not a size of at least 8 bytes\n", v.c_str());
      return 2;
    }
    p.nbytes.push_back(n);
  }
  for (const std::string& v : bench::split_list(p.factors)) {
    char* end = nullptr;
    const double f = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end || !(f > 0)) {
      std::fprintf(stderr, "upccoll_overlap: --factors: '%s' is not a positive number\n", v.c_str());
      return 2;
    }
    p.fs.push_back(f);
  }
  try {
    upc::launch_options opt = bench::launch_options();
    std::uint64_t block = 16;
    for (const int c : p.colls)
      for (const std::uint64_t n : p.nbytes)
        block = std::max(block, std::max(uc_src_bytes(c, opt.threads, n), uc_dst_bytes(c, opt.threads, n)));
    const std::uint64_t need = 4 * block + (16ULL << 20);  // two buffers, as much again for the library, 16 MiB
    if (opt.heap_per_thread == 0) opt.heap_per_thread = need;
    return bench::run_spmd(opt, "upccoll_overlap:", [&p] { return spmd(p); });
  } catch (const upc::error& e) {
    std::fprintf(stderr, "upccoll_overlap: %s\n", e.what());
    return 2;
  }
}
