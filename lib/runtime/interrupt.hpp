// SIGINT/SIGTERM/SIGHUP while a run is going: the threads backend reports and
// exits at once (one process, the segment is already unlinked); the processes
// backend's launcher kills its workers, reports and returns 130.
#pragma once
#include <csignal>

namespace upc::detail {
extern volatile std::sig_atomic_t g_interrupt_signal;
class interrupt_guard {
 public:
  explicit interrupt_guard(bool exit_immediately);
  ~interrupt_guard();
 private:
  struct sigaction old_[3];
};
}  // namespace upc::detail
