#include "futex.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <climits>
#include <thread>

namespace upc::detail {

namespace {
long futex(const std::atomic<std::uint32_t>* word, int op, std::uint32_t val, const timespec* ts) {
  return syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(word), op, val, ts, nullptr, 0);
}
wait_policy g_policy{4000, 64};
}  // namespace

void futex_wait(const std::atomic<std::uint32_t>* word, std::uint32_t expected, long timeout_ns) {
  timespec ts{timeout_ns / 1000000000L, timeout_ns % 1000000000L};
  futex(word, FUTEX_WAIT, expected, &ts);
}
void futex_wake_all(const std::atomic<std::uint32_t>* word) { futex(word, FUTEX_WAKE, INT_MAX, nullptr); }
void futex_wake_one(const std::atomic<std::uint32_t>* word) { futex(word, FUTEX_WAKE, 1, nullptr); }

const wait_policy& current_wait_policy() noexcept { return g_policy; }

void set_wait_policy(int threads) noexcept {
  unsigned cpus = std::thread::hardware_concurrency();
  if (cpus == 0) cpus = 1;
  if (static_cast<unsigned>(threads) <= cpus)
    g_policy = {20000, 256};   // everyone has a core: spinning is cheapest
  else
    g_policy = {50, 2000};     // oversubscribed: hand the core to the thread we wait for
}

}  // namespace upc::detail
