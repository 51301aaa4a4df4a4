// The launcher's supervision loop: the --timeout limit, the deadlock watchdog of
// --check, and the grace period after which an abort is enforced by force.
#include <time.h>

#include <cstdio>
#include <string>

#include "control.hpp"
#include "launcher.hpp"

namespace upc::detail {

namespace {
constexpr double abort_grace_seconds = 2.0;
std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}
}

double now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

monitor::monitor(const launch_options& opt)
    : timeout_(opt.timeout_seconds), watchdog_(opt.watchdog_seconds), check_(opt.check), start_(now_seconds()) {
  progress_since_ = start_;
}

void monitor::poll() {
  double now = now_seconds();
  control_block& c = control();
  if (c.abort.load()) {
    if (abort_seen_ < 0) abort_seen_ = now;
    return;
  }
  if (timeout_ > 0 && now - start_ > timeout_) {
    std::string text = "upcemu: the run exceeded its time limit of " + seconds_text(timeout_) +
                       " (--timeout) and was stopped; where each thread was:\n" + describe_blocked_threads();
    set_launcher_exit_code(124);
    record_failure(-1, text.c_str());
    return;
  }
  if (check_) check_deadlock();
}

// Deadlock: every live thread is blocked and nothing has progressed for the
// watchdog delay. Threads that returned from main count as blocked forever.
void monitor::check_deadlock() {
  control_block& c = control();
  double now = now_seconds();
  std::uint64_t p = c.progress.load();
  bool all_blocked = true;
  int live = 0;
  for (int t = 0; t < c.threads; ++t) {
    auto state = static_cast<thread_state>(c.slots[t].state.load());
    if (state == thread_state::finished) continue;
    if (state != thread_state::running) { all_blocked = false; break; }
    ++live;
    if (static_cast<blocked_kind>(c.slots[t].blocked.load()) == blocked_kind::none) { all_blocked = false; break; }
  }
  if (!all_blocked || live == 0 || p != last_progress_) {
    last_progress_ = p;
    progress_since_ = now;
    return;
  }
  if (now - progress_since_ >= watchdog_) {
    std::string text = "upcemu: deadlock: every thread has been waiting for " + seconds_text(watchdog_) +
                       " with no progress (--check watchdog):\n" + describe_blocked_threads();
    record_failure(-1, text.c_str());
  }
}

bool monitor::must_force_stop() const {
  return abort_seen_ >= 0 && now_seconds() - abort_seen_ > abort_grace_seconds;
}

}  // namespace upc::detail
