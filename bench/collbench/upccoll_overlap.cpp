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
// Two kinds of computation: "cpu", a dependent floating-point loop of a calibrated
// number of iterations (a fixed amount of work: when another thread, a progress
// thread for instance, shares the core it takes longer); and "offload", the thread
// sleeps until a deadline (clock_nanosleep, timer slack set to 1 ns), as when it
// waits for a device or for I/O, leaving its core free. Each is run plain and with
// a call of upccoll_test every --test-us microseconds (cpu: between chunks of
// iterations that last about that long; offload: the sleep is cut into such
// slices), stopping the tests once one returns 1; upccoll_wait follows in every
// case (immediate when the test saw completion).
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
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../common/cli.hpp"
#include "../common/report.hpp"
#include "../common/stats.hpp"
#include "../common/team.hpp"
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

int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string progress_mode() {
  const char* p = std::getenv("UPCEMU_UPCCOLL_PROGRESS");
  return p && *p ? p : "inline";
}

double mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}
void sleep_until_ns(double t) {
  timespec ts;
  ts.tv_sec = static_cast<time_t>(t / 1e9);
  ts.tv_nsec = static_cast<long>(t - static_cast<double>(ts.tv_sec) * 1e9);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

// A dependent chain of multiply-adds: k iterations of work that cannot be skipped.
double spin(std::int64_t k, double x) {
  for (std::int64_t i = 0; i < k; ++i) {
    x = x * 0.999999999 + 1e-9;
    bench::use(x);
  }
  return x;
}

upc::sptr<void> on_thread(upc::sptr<void> base, int t, std::size_t block) {
  return upc::sptr<void>(upc::layout::advance(base.address(), static_cast<std::ptrdiff_t>(t) * static_cast<std::ptrdiff_t>(block), 1, block, THREADS));
}

struct work {
  bool cpu = true;
  std::int64_t iters = 0, chunk = 1;  // cpu: iterations, and per test interval
  double sleep_ns = 0;                // offload
  double test_ns = 10000;
};

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

// The computation; with h, upccoll_test every w.test_ns until it returns 1.
// Returns whether the collective is known complete.
bool compute(state& s, const work& w, upccoll_handle_t h) {
  bool done = false;
  const auto test = [&] {
    if (done || h == UPCCOLL_INVALID_HANDLE) return;
    const int t = upccoll_test(h);
    if (t == 1) done = true;
    else if (t != 0) s.bad_test = t;
  };
  if (w.cpu) {
    if (h == UPCCOLL_INVALID_HANDLE) {
      s.sink = spin(w.iters, s.sink);
    } else {
      for (std::int64_t k = 0; k < w.iters; k += w.chunk) {
        s.sink = spin(std::min(w.chunk, w.iters - k), s.sink);
        test();
      }
    }
  } else {
    const double deadline = mono_ns() + w.sleep_ns;
    if (h == UPCCOLL_INVALID_HANDLE) {
      sleep_until_ns(deadline);
    } else {
      double now = mono_ns();
      do {  // at least one sleep, as without tests
        sleep_until_ns(std::min(now + w.test_ns, deadline));
        test();
        now = mono_ns();
      } while (now < deadline);
    }
  }
  return done;
}

template <class Body>
double span_per_call(Body&& body, std::int64_t n) {
  upc::barrier();
  const double t0 = bench::seconds_now();
  body(n);
  const double t1 = bench::seconds_now();
  const double start = bench::reduce_over_threads(t0, [](double a, double b) { return std::min(a, b); });
  const double end = bench::max_over_threads(t1);
  return (end - start) / static_cast<double>(n);
}

double median(std::vector<double> v) { return bench::summarize(std::move(v)).median; }

// The bodies, each n times.
void body_coll(state& s, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) finish(s, start(s));
}
void body_comp(state& s, const work& w, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) compute(s, w, UPCCOLL_INVALID_HANDLE);
}
void body_overlap(state& s, const work& w, bool with_test, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    upccoll_handle_t h = start(s);
    if (with_test) compute(s, w, h);
    else compute(s, w, UPCCOLL_INVALID_HANDLE);
    finish(s, h);
  }
}

// Sets w (iterations or sleep) so that the computation alone takes about target
// seconds per call, measured as the collective is; returns the last measurement.
double calibrate_work(state& s, work& w, double target, std::int64_t iters) {
  const auto measure = [&] { return span_per_call([&](std::int64_t n) { body_comp(s, w, n); }, iters); };
  if (w.cpu) {
    // Seconds per iteration with every thread computing at once, from a run of a
    // few milliseconds; then corrections on the real measurement.
    std::int64_t k = 1000;
    double t = 0;
    for (;;) {
      work probe = w;
      probe.iters = k;
      t = span_per_call([&](std::int64_t n) { body_comp(s, probe, n); }, 1);
      if (t >= 2e-3 || k >= (std::int64_t{1} << 40)) break;
      k *= 4;
    }
    const double per_iter = t / static_cast<double>(k);
    w.iters = std::max<std::int64_t>(1, static_cast<std::int64_t>(target / per_iter));
    w.chunk = std::max<std::int64_t>(1, static_cast<std::int64_t>(w.test_ns * 1e-9 / per_iter));
    double m = measure();
    for (int i = 0; i < 4 && std::fabs(m / target - 1) > 0.05; ++i) {
      w.iters = std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(w.iters) * target / m));
      m = measure();
    }
    return m;
  }
  w.sleep_ns = target * 1e9;
  double m = measure();
  for (int i = 0; i < 4 && std::fabs(m / target - 1) > 0.05; ++i) {
    w.sleep_ns = std::max(0.0, w.sleep_ns - (m - target) * 1e9);  // the overshoot is a fixed cost
    m = measure();
    if (w.sleep_ns == 0) break;
  }
  return m;
}

std::uint64_t verify(state& s, std::uint64_t seed, const work& w) {
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

int spmd(const params& p) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // sleeps end when asked, not up to 50 µs later
  const upccoll_return_t init = upccoll_initialize(nullptr, nullptr);
  if (init != UPCCOLL_SUCCESS) {
    std::fprintf(stderr, "upccoll_overlap: upccoll_initialize: %s\n", upccoll_error_name(init));
    return 1;
  }
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
  s.src = on_thread(s.src_base, me, s.block);
  s.dst = on_thread(s.dst_base, me, s.block);
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
      for (int r = 0; r < 5; ++r) coll0.push_back(span_per_call([&](std::int64_t n) { body_coll(s, n); }, iters));
      const double t_coll0 = median(coll0);

      for (const std::string& kind : p.kinds) {
        for (const double f : p.fs) {
          work w;
          w.cpu = kind == "cpu";
          w.test_ns = p.test_us * 1e3;
          calibrate_work(s, w, f * t_coll0, iters);
          std::vector<double> tc, tp, to, tt, hid, hid_t;
          for (std::int64_t r = 0; r < p.reps; ++r) {
            const double a = span_per_call([&](std::int64_t n) { body_coll(s, n); }, iters);
            const double b = span_per_call([&](std::int64_t n) { body_comp(s, w, n); }, iters);
            const double o = span_per_call([&](std::int64_t n) { body_overlap(s, w, false, n); }, iters);
            tc.push_back(a);
            tp.push_back(b);
            to.push_back(o);
            hid.push_back((a + b - o) / a * 100);
            if (!p.no_test) {
              const double ot = span_per_call([&](std::int64_t n) { body_overlap(s, w, true, n); }, iters);
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
        work w;
        w.cpu = true;
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
  const upccoll_return_t fin = upccoll_finalize();
  if (fin != UPCCOLL_SUCCESS) {
    std::fprintf(stderr, "upccoll_overlap: upccoll_finalize: %s\n", upccoll_error_name(fin));
    return 1;
  }
  return total_wrong ? 1 : 0;
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
  switch (cli.parse(argc, argv, true)) {
    case bench::cli::outcome::help: return 0;
    case bench::cli::outcome::error: return 2;
    case bench::cli::outcome::run: break;
  }
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
    upc::launch_options opt = upc::launch_options::from_environment();
    if (opt.threads == 0) opt.threads = usable_cpus();
    std::uint64_t block = 16;
    for (const int c : p.colls)
      for (const std::uint64_t n : p.nbytes)
        block = std::max(block, std::max(uc_src_bytes(c, opt.threads, n), uc_dst_bytes(c, opt.threads, n)));
    const std::uint64_t need = 4 * block + (16ULL << 20);  // two buffers, as much again for the library, 16 MiB
    if (opt.heap_per_thread == 0) opt.heap_per_thread = need;
    std::fflush(stdout);
    const upc::run_result r = upc::run(opt, std::function<int()>([&p] { return spmd(p); }));
    if (r.failed) {
      std::fprintf(stderr, "upccoll_overlap: failed%s%s\n", r.error.empty() ? "" : ": ", r.error.c_str());
      return 1;
    }
    return r.exit_code != 0 ? 1 : 0;
  } catch (const upc::error& e) {
    std::fprintf(stderr, "upccoll_overlap: %s\n", e.what());
    return 2;
  }
}
