// Internal interface between run() and the two backends.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "upc/runtime.hpp"

namespace upc::detail {

struct thread_slot;
class hosts_slots;

// Runs the body as UPC thread t inside the calling OS thread or process; catches
// every way the body can end and records failures. Returns the body's status.
// Waits at the start gate first: see open_start_gate.
int run_upc_thread(int t, const std::function<int()>& body);
// Lets the workers run: the backend calls it once every worker exists (or the
// start has failed, so that those that exist can see the abort and end).
void open_start_gate() noexcept;

// Each backend starts opt.threads workers, supervises them with the monitor, and
// fills per-thread exit codes into the control block's slots.
void run_threads_backend(const launch_options& opt, const std::function<int()>& body);
// The stack size to ask for a UPC thread's OS thread: `wanted` (what the UPC
// thread may use for its calls) plus the program's static TLS, which glibc takes
// from the same mapping (backend_threads.cpp).
std::size_t upc_thread_stack_size(std::size_t wanted);
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
  // Reports put off because a waiting thread was runnable (woken, not yet run).
  int deferrals_ = 0;
  // Wait warnings: per thread, the wait last seen and since when (the
  // monitor's clock, so waiting costs the thread no clock read), and the wait
  // already warned about.
  std::vector<std::uint32_t> seen_seq_, warned_seq_;
  std::vector<double> seen_since_;
  // Across hosts: the other hosts' slots, copied at each look (hosts_slots.hpp).
  std::shared_ptr<hosts_slots> hosts_;
  double last_hosts_look_ = -1;
};

double now_seconds();
void install_crash_handlers();          // SIGSEGV & co: report thread, signal, backtrace
// While a run is going: std::terminate notes the uncaught exception for the
// SIGABRT report instead of printing its own message.
void install_terminate_handler() noexcept;
void restore_terminate_handler() noexcept;

// record_failure (control.hpp) that also says which exit status the run should end
// with (0: the default, 1); true when this was the run's first failure.
bool record_failure_status(int thread, const char* text, int status) noexcept;
// The status of the recorded failure: its own, else the launcher's, else 1.
int failure_exit_status() noexcept;
// Writes the recorded failure report to stderr unless some thread or process has
// already done so (or is doing so); true when this call claimed it. Async-signal-safe.
bool print_report_once() noexcept;
void set_quiet_reports(bool quiet) noexcept;  // --quiet: claim, but write nothing
bool quiet_reports() noexcept;

// Ends the process at once with `status` (exit_group), bypassing the checks on
// _exit/_Exit/quick_exit that report a UPC thread calling them (exit_calls.cpp).
[[noreturn]] void end_process(int status) noexcept;
// exit(), _exit(), _Exit() or quick_exit() called by a UPC thread: records
// "thread T called F(S) without returning from main" and ends the process (threads
// backend: after printing it; processes backend: the launcher prints it). Returns
// when the caller is not a UPC thread of a running program, to let the call go on.
void report_exit_call(const char* function, int status) noexcept;
void install_exit_hook() noexcept;  // exit(): once per process, before the workers start
void set_run_active(bool active) noexcept;

// On the processes backend, the UPC thread whose process this is (-1 elsewhere):
// a crash in a thread the program started names it.
extern int g_process_upc_thread;
void set_exit_code(int thread, int code);  // stored for the launcher
void set_launcher_exit_code(int code);     // 124 timeout, 130 interrupted
int launcher_exit_code();                  // 0 when none was set
std::string describe_blocked_threads(); // where each thread waits (runs of threads share a line)
// The same from slots given per thread (across hosts: hosts_slots.hpp's copies).
std::string describe_blocked_threads(const std::function<const thread_slot&(int)>& slot_of);
std::string last_call_text(const thread_slot& s);  // " (last runtime call: f at file:line)" or ""

}  // namespace upc::detail
