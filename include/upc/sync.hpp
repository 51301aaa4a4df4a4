// upc_barrier, split-phase upc_notify/upc_wait with optional ids, upc_fence.
// The UPC statement forms (`upc_barrier;`, `upc_barrier(7);`) are in <upc.h>.
#pragma once
#include <atomic>
#include <optional>
#include <source_location>

namespace upc {

using src = std::source_location;

void notify(std::optional<int> id = std::nullopt, const src& where = src::current());
void wait(std::optional<int> id = std::nullopt, const src& where = src::current());
void barrier(std::optional<int> id = std::nullopt, const src& where = src::current());
// A full memory fence: strict accesses before it complete before those after it.
inline void fence() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (detail::g_several_hosts) [[unlikely]] detail::strict_sync();
}

namespace detail {
// Makes `upc_barrier;` and `upc_barrier(id);` both statements: the temporary runs
// the operation with an id when called, or without one when it dies unused.
template <void (*Op)(std::optional<int>, const src&)>
class statement {
 public:
  explicit statement(const src& where) : where_(where) {}
  void operator()(int id) {
    done_ = true;
    Op(id, where_);
  }
  ~statement() noexcept(false) {
    if (!done_) Op(std::nullopt, where_);
  }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

 private:
  src where_;
  bool done_ = false;
};
inline void barrier_op(std::optional<int> id, const src& w) { barrier(id, w); }
inline void notify_op(std::optional<int> id, const src& w) { notify(id, w); }
inline void wait_op(std::optional<int> id, const src& w) { wait(id, w); }
}  // namespace detail
}  // namespace upc
