// The control block's own operations (control.hpp): its size, its mutex, and the
// marks of what a thread is blocked in.
#include "control.hpp"

#include "dsm.hpp"
#include "futex.hpp"

namespace upc::detail {

control_block* g_control = nullptr;

std::size_t control_block_bytes(int threads) {
  return sizeof(control_block) + sizeof(thread_slot) * static_cast<std::size_t>(threads);
}

void futex_mutex::lock() {
  std::uint32_t c = 0;
  if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  for (int i = 0; i < 100; ++i) {
    cpu_relax();
    c = 0;
    if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  }
  if (tl_no_cache) throw lock_busy{};  // a server thread: its caller asks again
  if (c != 2) c = word.exchange(2, std::memory_order_acquire);
  while (c != 0) {
    futex_wait(&word, 2, 50'000'000);
    c = word.exchange(2, std::memory_order_acquire);
  }
}

void futex_mutex::unlock() noexcept {
  if (word.exchange(0, std::memory_order_release) == 2) futex_wake_one(&word);
}

blocked_scope::blocked_scope(blocked_kind kind, std::int64_t arg, const char* function,
                             const char* file, std::uint32_t line) noexcept {
  thread_slot& s = my_slot();
  s.blocked_arg.store(arg, std::memory_order_relaxed);
  s.blocked_function.store(function, std::memory_order_relaxed);
  s.blocked_file.store(file, std::memory_order_relaxed);
  s.blocked_line.store(line, std::memory_order_relaxed);
  // Only this thread writes it: no read-modify-write needed.
  s.blocked_seq.store(s.blocked_seq.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  s.blocked.store(static_cast<std::uint32_t>(kind), std::memory_order_release);
}

blocked_scope::~blocked_scope() {
  my_slot().blocked.store(static_cast<std::uint32_t>(blocked_kind::none), std::memory_order_release);
}

}  // namespace upc::detail
