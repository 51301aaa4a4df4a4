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

}  // namespace upc::detail
