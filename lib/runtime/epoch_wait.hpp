// Waiting for a 32-bit epoch word to reach a target, the primitive under every
// collective flag and team barrier: poll with sched_yield (the wait policy of
// futex.hpp), then sleep on the process-shared futex. Epochs only grow, compared
// modulo 2^32. A waker calls publish_epoch(), which wakes sleepers only when some
// waiter has registered in `sleepers`.
#pragma once
#include <atomic>
#include <cstdint>

#include "control.hpp"

namespace upc::detail {

inline bool epoch_reached(std::uint32_t value, std::uint32_t target) noexcept {
  return static_cast<std::int32_t>(value - target) >= 0;
}

// What the watchdog shows while the caller sleeps.
struct wait_site {
  const char* function;
  std::int64_t arg;
  int peer_thread = -1;   // the thread that must move the word; -2: any thread; -1: unknown
};

void wait_epoch_slow(const std::atomic<std::uint32_t>& word, std::uint32_t target,
                     std::atomic<std::uint32_t>& sleepers, const wait_site& site);

inline void wait_epoch(const std::atomic<std::uint32_t>& word, std::uint32_t target,
                       std::atomic<std::uint32_t>& sleepers, const wait_site& site) {
  if (epoch_reached(word.load(std::memory_order_acquire), target)) return;
  wait_epoch_slow(word, target, sleepers, site);
}

void wake_sleepers(const std::atomic<std::uint32_t>& word);

// Fails clearly when the thread that must move a word has returned from main.
void check_peer_alive(const wait_site& site);

inline void publish_epoch(std::atomic<std::uint32_t>& word, std::uint32_t value,
                          const std::atomic<std::uint32_t>& sleepers) {
  word.store(value, std::memory_order_seq_cst);
  if (sleepers.load(std::memory_order_seq_cst) > 0) wake_sleepers(word);
}

}  // namespace upc::detail
