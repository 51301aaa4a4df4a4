// The launcher: options from the environment, run() validation, exit codes,
// upc_global_exit, virtual nodes, identity outside a run.
#include <cstdlib>

#include <ctime>

#include "../../lib/runtime/control.hpp"
#include "../../lib/runtime/futex.hpp"
#include "../../lib/runtime/shared_names.hpp"
#include "../support/spmd.hpp"
#include "upc_tick.h"

namespace {
struct env_guard {
  const char* name;
  explicit env_guard(const char* n, const char* v) : name(n) { setenv(n, v, 1); }
  ~env_guard() { unsetenv(name); }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const upc::error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("launch options are read from UPCEMU_* variables") {
  env_guard a("UPCEMU_THREADS", "6"), b("UPCEMU_BACKEND", "processes"), c("UPCEMU_HEAP", "2M"), d("UPCEMU_NODES", "3"),
      e("UPCEMU_CHECK", "1"), f("UPCEMU_TIMEOUT", "2.5");
  upc::launch_options o = upc::launch_options::from_environment();
  CHECK(o.threads == 6);
  CHECK(o.backend == upc::backend_kind::processes);
  CHECK(o.heap_per_thread == 2u << 20);
  CHECK(o.nodes == 3);
  CHECK(o.check);
  CHECK(o.timeout_seconds == doctest::Approx(2.5));
}

TEST_CASE("bad UPCEMU_* values get a message naming the variable and the value") {
  struct bad_case { const char* var; const char* value; const char* expect; };
  for (const bad_case& bc : {bad_case{"UPCEMU_THREADS", "0", "UPCEMU_THREADS='0'"},
                             bad_case{"UPCEMU_THREADS", "abc", "UPCEMU_THREADS='abc'"},
                             bad_case{"UPCEMU_THREADS", "5000", "from 1 to 4096"},
                             bad_case{"UPCEMU_BACKEND", "fibers", "'threads', 'processes' or 'mpi'"},
                             bad_case{"UPCEMU_HEAP", "12Q", "UPCEMU_HEAP='12Q'"},
                             bad_case{"UPCEMU_HEAP", "1K", "at least 64K"},
                             bad_case{"UPCEMU_CHECK", "maybe", "1, 0, races or all-races"},
                             bad_case{"UPCEMU_TIMEOUT", "-1", "seconds"}}) {
    env_guard g(bc.var, bc.value);
    std::string msg = error_of([] { (void)upc::launch_options::from_environment(); });
    INFO(bc.var, "=", bc.value, " -> ", msg);
    CHECK(msg.find(bc.expect) != std::string::npos);
  }
}

// Refused before anything starts, alike on every backend. Under mpirun these are
// made on the threads backend: an mpi run's THREADS must be the number of ranks,
// which it refuses first.
TEST_CASE("run() rejects impossible configurations before starting anything") {
  upc::launch_options o = spmd::options(0, upc::backend_kind::threads);
  o.backend = upc::backend_kind::threads;
  o.threads = 5000;
  CHECK(error_of([&] { upc::run(o, [] {}); }).find("THREADS must be between 1 and 4096, got 5000") != std::string::npos);
  o.threads = 4;
  o.nodes = 5;
  CHECK(error_of([&] { upc::run(o, [] {}); }).find("--nodes must be between 1 and THREADS (4), got 5") != std::string::npos);
  o.nodes = 1;
  o.heap_per_thread = 1000;
  CHECK(error_of([&] { upc::run(o, [] {}); }).find("--heap") != std::string::npos);
}

TEST_CASE("run() reports --heap × THREADS that wraps or exceeds 64 TiB instead of crashing (issue 8.8)") {
  upc::launch_options o = spmd::options(4096, upc::backend_kind::threads);
  o.backend = upc::backend_kind::threads;
  o.heap_per_thread = std::size_t{1} << 52;  // × 4096 = 2^64: wrapped to 0 before the fix
  bool ran = false;
  CHECK(error_of([&] { upc::run(o, [&] { ran = true; }); }) ==
        "upcrun: --heap 4 PiB × THREADS 4096 = more than 16 EiB exceeds the largest shared segment upcemu maps (64 TiB): "
        "use a smaller --heap or fewer threads");
  o.heap_per_thread = ~std::size_t{0};  // rounding up to a page wraps too
  o.threads = 1;
  CHECK(error_of([&] { upc::run(o, [&] { ran = true; }); }).find("= more than 16 EiB exceeds") != std::string::npos);
  o.heap_per_thread = std::size_t{64} << 30;
  o.threads = 1025;
  CHECK(error_of([&] { upc::run(o, [&] { ran = true; }); }).find("--heap 64 GiB × THREADS 1025 = 64.1 TiB exceeds") !=
        std::string::npos);
  CHECK_FALSE(ran);
  CHECK(upc::threads() == 0);
}

// 4096 waiters yielding 2000 times each kept the threads they waited for off 2
// cores; the waiters of one wait now share about 65536 yields.
TEST_CASE("the wait policy: oversubscribed waiters share a budget of yields (issue 8.13)") {
  using upc::detail::current_wait_policy;
  using upc::detail::set_wait_policy;
  const int cpus = static_cast<int>(upc::detail::usable_cpus());
  auto yields_at = [](int threads) {
    set_wait_policy(threads);
    return current_wait_policy().yield_iterations;
  };
  CHECK(yields_at(cpus) == 1024);  // a core each
  if (cpus < 32) CHECK(yields_at(32) == 2000);
  if (cpus < 256) CHECK(yields_at(256) == 256);
  if (cpus < 1024) CHECK(yields_at(1024) == 64);
  if (cpus < 4096) CHECK(yields_at(4096) == 16);
  CHECK(current_wait_policy().spin_iterations == 0);
  set_wait_policy(1);
}

TEST_CASE("MYTHREAD outside a UPC program is an error, THREADS is 0") {
  CHECK(error_of([] { (void)upc::mythread(); }).find("MYTHREAD") != std::string::npos);
  CHECK(upc::threads() == 0);
}

TEST_CASE("the exit code is the first non-zero status in thread order") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(5, b)) continue;
    upc::run_result r = upc::run(spmd::options(5, b), std::function<int()>([] {
                                   return MYTHREAD == 3 ? 9 : MYTHREAD == 4 ? 11 : 0;
                                 }));
    CHECK_MESSAGE(r.exit_code == 9, spmd::name(b));
    CHECK_FALSE(r.failed);
  }
}

TEST_CASE("upc_global_exit from any thread ends every thread with its status") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(4, b)) continue;
    for (int caller : {0, 2}) {
      upc::run_result r = upc::run(spmd::options(4, b), [caller] {
        if (MYTHREAD == caller) upc_global_exit(7);
        upc_barrier;  // the others wait here until they are stopped
        upc_barrier;
      });
      INFO(spmd::name(b), " caller ", caller, " error: ", r.error);
      CHECK(r.exit_code == 7);
      CHECK_FALSE(r.failed);
    }
  }
}

TEST_CASE("THREADS and MYTHREAD inside a run, and several runs in one process") {
  for (int round = 0; round < 3; ++round)
    spmd::run_everywhere([] {
      SPMD_CHECK(MYTHREAD >= 0 && MYTHREAD < THREADS);
      SPMD_CHECK(upc::check_enabled() == (std::getenv("UPCEMU_TEST_RACES") != nullptr));  // off unless asked
    }, {1, 3, 8});
}

namespace {
// Thread 1 marks itself as waiting in a barrier but computes (the kernel lists it
// as running), for `seconds` or until the run is stopped; then it takes the barrier.
void waiting_but_running(double seconds) {
  if (MYTHREAD == 1) {
    upc::detail::blocked_scope marked(upc::detail::blocked_kind::barrier_wait, 0, "upc_wait", __FILE__, __LINE__);
    const double end = upc_ticks_to_ns(upc_ticks_now()) * 1e-9 + seconds;
    while (upc_ticks_to_ns(upc_ticks_now()) * 1e-9 < end) upc::detail::check_abort();
  }
  upc_barrier;
}
}  // namespace

// Every thread waiting and nothing moving looks like a deadlock, but a thread
// woken by a barrier that has not had a core yet (seconds, on a loaded machine)
// is still waiting by its slot: the watchdog asks the kernel, and a runnable
// waiter puts the report off, within a bound (a CI run reported a deadlock that
// was not one at 1024 processes under load).
TEST_CASE("the deadlock watchdog puts its report off while a waiting thread is runnable, within a bound") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    INFO(spmd::name(b));
    upc::launch_options o = spmd::options(2, b);
    o.watchdog_seconds = 0.25;
    upc::run_result r = upc::run(o, [] { waiting_but_running(1.0); });  // four delays
    CHECK_MESSAGE(r.ok(), r.error);
    const double start = upc_ticks_to_ns(upc_ticks_now()) * 1e-9;
    r = upc::run(o, [] { waiting_but_running(1e9); });  // never arrives: reported after the bound
    CHECK(r.failed);
    CHECK(r.error.find("upcemu: deadlock: every thread is waiting") != std::string::npos);
    CHECK(upc_ticks_to_ns(upc_ticks_now()) * 1e-9 - start < 60);
  }
}

TEST_CASE("virtual nodes group threads in contiguous, balanced blocks") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(7, b)) continue;
    upc::launch_options o = spmd::options(7, b);
    o.nodes = 3;  // 7 threads on 3 nodes: {0,1,2} {3,4} {5,6}
    upc::run_result r = upc::run(o, [] {
      const int expected[7] = {0, 0, 0, 1, 1, 2, 2};
      SPMD_CHECK_EQ(upc::nodes(), 3);
      for (int t = 0; t < THREADS; ++t) SPMD_CHECK_EQ(upc::node_of(t), expected[t]);
    });
    INFO(r.error);
    CHECK(r.ok());
  }
  // Every node is populated, contiguously, sizes within one of each other.
  for (int T : {1, 2, 5, 7, 16}) {
    for (int K = 1; K <= T; ++K) {
      if (spmd::skip_run(T, upc::backend_kind::threads)) continue;
      upc::launch_options o = spmd::options(T, upc::backend_kind::threads);
      o.nodes = K;
      upc::run_result r = upc::run(o, [] {
        if (MYTHREAD != 0) return;
        std::vector<int> size(upc::nodes(), 0);
        int prev = 0;
        for (int t = 0; t < THREADS; ++t) {
          int n = upc::node_of(t);
          SPMD_CHECK(n == prev || n == prev + 1);
          prev = n;
          ++size[n];
        }
        for (int s : size) SPMD_CHECK(s >= 1 && s <= THREADS / upc::nodes() + 1);
      });
      INFO("T=", T, " K=", K, " ", r.error);
      CHECK(r.ok());
    }
  }
}

TEST_CASE("a failure report names the thread and the cause") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    upc::run_result r = upc::run(spmd::options(3, b), [] {
      if (MYTHREAD == 1) throw std::runtime_error("no more widgets");
      upc_barrier;
    });
    CHECK(r.failed);
    CHECK(r.failed_thread == 1);
    CHECK(r.exit_code == 1);
    CHECK(r.error.find("thread 1") != std::string::npos);
    CHECK(r.error.find("no more widgets") != std::string::npos);
  }
}

TEST_CASE("upc_tick: monotonic, nanoseconds, comparable across threads") {
  const upc_tick_t a = upc_ticks_now();
  struct timespec pause{0, 2'000'000};  // 2 ms
  nanosleep(&pause, nullptr);
  const upc_tick_t b = upc_ticks_now();
  CHECK(b > a);
  CHECK(upc_ticks_to_ns(b - a) >= 2'000'000u);
  CHECK(upc_ticks_to_ns(b - a) < 2'000'000'000u);
  CHECK(UPC_TICK_MIN < UPC_TICK_MAX);
  // One clock for every thread and process: a tick taken before the run is
  // earlier than every tick taken inside it.
  for (upc::backend_kind bk : spmd::backends) {
    const upc_tick_t before = upc_ticks_now();
    spmd::run_ok(3, bk, [before] {
      SPMD_CHECK(upc_ticks_now() >= before);
      upc_tick_t t0 = upc_ticks_now();
      upc_barrier;
      SPMD_CHECK(upc_ticks_now() >= t0);
    });
  }
}

// The names table (shared_names.hpp) is read without its lock for a name
// already there (issue 27.4): threads interning the same names at once, in
// different orders, must all get the one copy, and different names different ones.
TEST_CASE("shared names: every thread gets the same copy of a name, interned concurrently") {
  constexpr int threads = 6, names = 40;
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(threads, b)) continue;
    upc::run_result r = upc::run(spmd::options(threads, b), std::function<int()>([] {
      upc::shared_array<std::uint64_t> seen{upc::per_thread(names)};
      upc_barrier;
      int bad = 0;
      for (int i = 0; i < names; ++i) {
        const int k = (i + 7 * MYTHREAD) % names;  // each thread its own order
        const std::string text = "shared names test " + std::to_string(k);
        const char* s = upc::detail::shared_name(text, "fallback");
        bad += text != s;
        seen[k * THREADS + MYTHREAD] = reinterpret_cast<std::uintptr_t>(s);
      }
      upc_barrier;
      if (MYTHREAD == 0)
        for (int k = 0; k < names; ++k) {
          for (int t = 1; t < THREADS; ++t) bad += seen[k * THREADS + t] != seen[k * THREADS];
          if (k > 0) bad += seen[k * THREADS] == seen[(k - 1) * THREADS];
        }
      return bad;
    }));
    CHECK_MESSAGE(r.exit_code == 0, spmd::name(b));
    CHECK_FALSE(r.failed);
  }
}
