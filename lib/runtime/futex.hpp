// Process-shared futex wait/wake (not the _PRIVATE kind: the word may live in a
// segment mapped by several processes) and the spin → yield → sleep wait loop that
// keeps oversubscribed runs (THREADS > cores) from collapsing.
#pragma once
#include <atomic>
#include <cstdint>

namespace upc::detail {

// Sleeps while *word == expected, at most timeout_ns (no limit when timeout_ns <= 0).
// Returns on wake, timeout, signal, or when the value already differs.
void futex_wait(const std::atomic<std::uint32_t>* word, std::uint32_t expected, long timeout_ns);
void futex_wake_all(const std::atomic<std::uint32_t>* word);
void futex_wake_one(const std::atomic<std::uint32_t>* word);

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// How long a waiter spins and yields before it sleeps; chosen at start-up from
// THREADS and the number of CPUs (spinning only pays when nobody is oversubscribed).
struct wait_policy {
  int spin_iterations;
  int yield_iterations;
  // How long a sleeper sleeps before it looks again for an abort or a thread that
  // has ended (the events that matter wake it at once; this is the safety net).
  long sleep_ns;
};
const wait_policy& current_wait_policy() noexcept;
void set_wait_policy(int threads) noexcept;
unsigned usable_cpus() noexcept;

}  // namespace upc::detail
