// Internal interface between run() and the two backends.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "upc/runtime.hpp"

namespace upc::detail {

struct thread_slot;

// Runs the body as UPC thread t inside the calling OS thread or process; catches
// every way the body can end and records failures. Returns the body's status.
int run_upc_thread(int t, const std::function<int()>& body);

// Each backend starts opt.threads workers, supervises them with the monitor, and
// fills per-thread exit codes into the control block's slots.
void run_threads_backend(const launch_options& opt, const std::function<int()>& body);
void run_processes_backend(const launch_options& opt, const std::function<int()>& body);

// Supervision shared by both backends: the timeout, deadlock detection (every
// live thread waiting in the runtime and none of them moving), the
// wait warning (threads waiting long for one that computes), and the grace
// period after an abort. Call poll() every few milliseconds.
class monitor {
 public:
  explicit monitor(const launch_options& opt);
  void poll();
  // True once an abort has been pending for longer than the grace period.
  bool must_force_stop() const;

 private:
  void check_deadlock(double now);
  void check_long_waits(double now);
  double timeout_, deadlock_delay_, wait_warning_;
  bool quiet_;
  double start_;
  double abort_seen_ = -1;
  double last_look_ = 0;
  // Deadlock detection: what every thread was waiting in at the last look.
  std::vector<std::uint32_t> blocked_seqs_;
  std::uint64_t last_progress_ = 0;
  double unchanged_since_ = 0;
  // Wait warnings: per thread, the wait last seen and since when (the
  // monitor's clock, so waiting costs the thread no clock read), and the wait
  // already warned about.
  std::vector<std::uint32_t> seen_seq_, warned_seq_;
  std::vector<double> seen_since_;
};

double now_seconds();
void install_crash_handlers();          // SIGSEGV & co: report thread, signal, backtrace
void set_exit_code(int thread, int code);  // stored for the launcher
void set_launcher_exit_code(int code);     // 124 timeout, 130 interrupted
int launcher_exit_code();                  // 0 when none was set
std::string describe_blocked_threads(); // where each thread waits (runs of threads share a line)
std::string last_call_text(const thread_slot& s);  // " (last runtime call: f at file:line)" or ""

}  // namespace upc::detail
