// Internal interface between run() and the two backends.
#pragma once
#include <functional>

#include "upc/runtime.hpp"

namespace upc::detail {

// Runs the body as UPC thread t inside the calling OS thread or process; catches
// every way the body can end and records failures. Returns the body's status.
int run_upc_thread(int t, const std::function<int()>& body);

// Each backend starts opt.threads workers, supervises them with the monitor, and
// fills per-thread exit codes into the control block's slots.
void run_threads_backend(const launch_options& opt, const std::function<int()>& body);
void run_processes_backend(const launch_options& opt, const std::function<int()>& body);

// Supervision shared by both backends: timeout, deadlock watchdog under --check,
// and the grace period after an abort. Call poll() every few milliseconds.
class monitor {
 public:
  explicit monitor(const launch_options& opt);
  void poll();
  // True once an abort has been pending for longer than the grace period.
  bool must_force_stop() const;

 private:
  void check_deadlock();
  double timeout_, watchdog_;
  bool check_;
  double start_;
  double abort_seen_ = -1;
  std::uint64_t last_progress_ = 0;
  double progress_since_ = 0;
};

double now_seconds();
void install_crash_handlers();          // SIGSEGV & co: report thread, signal, backtrace
void set_exit_code(int thread, int code);  // stored for the launcher
void set_launcher_exit_code(int code);     // 124 timeout, 130 interrupted
int launcher_exit_code();                  // 0 when none was set
std::string describe_blocked_threads(); // where each thread waits (runs of threads share a line)

}  // namespace upc::detail
