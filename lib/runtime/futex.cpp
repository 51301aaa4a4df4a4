#include "futex.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <sched.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <thread>

namespace upc::detail {

namespace {
long futex(const std::atomic<std::uint32_t>* word, int op, std::uint32_t val, const timespec* ts) {
  return syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(word), op, val, ts, nullptr, 0);
}
wait_policy g_policy{4000, 64, 50'000'000};
}  // namespace

void futex_wait(const std::atomic<std::uint32_t>* word, std::uint32_t expected, long timeout_ns) {
  timespec ts{timeout_ns / 1000000000L, timeout_ns % 1000000000L};
  futex(word, FUTEX_WAIT, expected, timeout_ns > 0 ? &ts : nullptr);
}
void futex_wake_all(const std::atomic<std::uint32_t>* word) { futex(word, FUTEX_WAKE, INT_MAX, nullptr); }
void futex_wake_one(const std::atomic<std::uint32_t>* word) { futex(word, FUTEX_WAKE, 1, nullptr); }

const wait_policy& current_wait_policy() noexcept { return g_policy; }

// CPUs this process may run on (taskset and cpusets included), not the machine's.
unsigned usable_cpus() noexcept {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

// Measured on 2 cores (docs/benchmarks.md): yielding at once beats any pause-spin
// in both regimes. With a core to itself a waiter's sched_yield returns in ~0.1 us,
// so it polls about as fast as a spin (2-thread barrier 0.17 us vs 0.30 us with
// 16-512 pauses); oversubscribed, every pause steals time from the thread being
// waited for (16 threads: 4.7 us vs 8.8 us with 50 pauses), and sleeping at once
// is slower still (4 threads: 50 us against 3.9 us on a slower machine, a futex
// wake-up per waiter).
// After the yields the waiter sleeps on the futex so long waits cost no CPU. The
// waiters of one wait share a budget of about 64k yields (2000 each up to 32
// THREADS, 16 each at 4096): every yield of a waiter is a context switch the
// threads still computing must wait through, and at hundreds of THREADS on 2
// cores thousands of yields each would keep the latecomers off the CPU.
// A sleeper wakes every 50 ms to look for an abort or an ended thread, up to 64
// THREADS; beyond that the interval grows with THREADS (to 1 s at 1280) so that
// all sleepers together wake about 1300 times a second at most: at a fixed 50 ms,
// 4096 processes sleeping in their first barrier woke 82 000 times a second and
// each looked at every thread, and the latecomers they waited for got so little of
// the CPU that 2048 processes took minutes to start.
// UPCEMU_TUNE_SPIN / UPCEMU_TUNE_YIELD override the first two numbers for experiments.
void set_wait_policy(int threads) noexcept {
  constexpr int max_yields = 2000, shared_yield_budget = 65536, min_yields = 16;
  constexpr long base_sleep_ns = 50'000'000, max_sleep_ns = 1'000'000'000;
  const long sleep_ns = std::min(max_sleep_ns, base_sleep_ns * std::max(1, threads / 64));
  if (static_cast<unsigned>(threads) <= usable_cpus())
    g_policy = {0, 1024, sleep_ns};
  else
    g_policy = {0, std::clamp(shared_yield_budget / std::max(threads, 1), min_yields, max_yields), sleep_ns};
  if (const char* v = std::getenv("UPCEMU_TUNE_SPIN")) g_policy.spin_iterations = std::max(0, std::atoi(v));
  if (const char* v = std::getenv("UPCEMU_TUNE_YIELD")) g_policy.yield_iterations = std::max(0, std::atoi(v));
}

}  // namespace upc::detail
