// The launcher's supervision loop: the --timeout limit, deadlock detection,
// the wait warning, and the grace period after which an abort is enforced by
// force.
//
// A deadlock is detected exactly, not guessed from elapsed time: every live
// thread is waiting inside the runtime (a thread that returned from main waits
// forever) and no thread has started or finished a wait, and no barrier or
// lock has moved, for the --watchdog delay. Each wait bumps its thread's
// blocked_seq, so threads that keep waking and waiting again (a healthy run
// whose threads all sleep at every collective) never look stuck. The check is
// cheap and on by default; only the delay is a setting.
#include <time.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <map>
#include <string>

#include "blocked_report.hpp"
#include "control.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "hosts.hpp"
#include "hosts_slots.hpp"
#include "launcher.hpp"

namespace upc::detail {

namespace {
constexpr double abort_grace_seconds = 2.0;
constexpr double look_interval_seconds = 0.02;  // O(THREADS) per look
std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

bool is_waiting(const thread_slot& s) {
  return static_cast<blocked_kind>(s.blocked.load(std::memory_order_acquire)) != blocked_kind::none;
}
thread_state state_of(const thread_slot& s) { return static_cast<thread_state>(s.state.load()); }

// "threads 1-3" / "thread 4" / "threads 1, 3, 5-7".
std::string thread_list(const std::vector<int>& ts) {
  std::string out;
  for (std::size_t i = 0; i < ts.size();) {
    std::size_t j = i;
    while (j + 1 < ts.size() && ts[j + 1] == ts[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ts[i]);
    if (j > i) {
      out += '-';  // appended piecewise: "-" + string trips GCC 12's false -Wrestrict
      out += std::to_string(ts[j]);
    }
    i = j + 1;
  }
  return std::string(ts.size() == 1 ? "thread " : "threads ").append(out);
}

std::string place(const thread_slot& s) {
  const char* fn = s.blocked_function.load();
  const char* file = s.blocked_file.load();
  std::string out = fn ? fn : "?";
  if (file) out += std::string(" at ") + file + ":" + std::to_string(s.blocked_line.load());
  return out;
}

// Why the threads cannot go on, when their waits say it: some wait in
// upc_barrier (or upc_wait) and others in a collective call or allocation.
std::string diagnosis(const control_block& c, const std::function<const thread_slot&(int)>& slot_of) {
  bool in_barrier = false, in_collective = false, returned = false;
  for (int t = 0; t < c.threads; ++t) {
    const thread_slot& s = slot_of(t);
    if (state_of(s) == thread_state::finished) { returned = true; continue; }
    const auto k = static_cast<blocked_kind>(s.blocked.load());
    in_barrier |= k == blocked_kind::barrier_wait;
    in_collective |= k == blocked_kind::collective;
  }
  if (in_barrier && in_collective)
    return "  the threads wait in different synchronisation calls: a thread in a collective call never pairs with "
           "one in upc_barrier or upc_wait; every thread must reach the same barriers and collective calls in the "
           "same order\n";
  if (returned) return "  a thread that has returned from main will never arrive\n";
  return "";
}
}  // namespace

namespace {
constexpr int max_deferrals = 8;

// True when a live thread's kernel state is R (running or runnable): read from
// /proc/TID/stat, whose third field follows the ')' that ends the name.
bool some_waiter_runnable(const control_block& c) {
  for (int t = 0; t < c.threads; ++t) {
    const thread_slot& s = c.slots[t];
    if (state_of(s) == thread_state::finished) continue;
    const std::int32_t tid = s.tid.load(std::memory_order_relaxed);
    if (tid <= 0) continue;
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(tid));
    FILE* f = std::fopen(path, "re");
    if (!f) continue;
    char buf[512];
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = 0;
    const char* close = std::strrchr(buf, ')');
    if (close && close[1] == ' ' && close[2] == 'R') return true;
  }
  return false;
}
}  // namespace

double now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

monitor::monitor(const launch_options& opt)
    : timeout_(opt.timeout_seconds),
      deadlock_delay_(opt.watchdog_seconds),
      wait_warning_(opt.wait_warning_seconds),
      quiet_(opt.quiet),
      start_(now_seconds()) {
  unchanged_since_ = start_;
}

void monitor::poll() {
  const double now = now_seconds();
  control_block& c = control();
  if (c.abort.load()) {
    if (abort_seen_ < 0) abort_seen_ = now;
    return;
  }
  if (timeout_ > 0 && now - start_ > timeout_) {
    std::string where;
    if (several_hosts()) {  // every host's threads, through their servers
      if (!hosts_) hosts_ = std::make_shared<hosts_slots>();
      hosts_->refresh();
      where = describe_blocked_threads([this](int t) -> const thread_slot& { return hosts_->slot(t); });
    } else {
      where = describe_blocked_threads();
    }
    std::string text = "upcemu: the run exceeded its time limit of " + seconds_text(timeout_) +
                       " (--timeout) and was stopped; where each thread was:\n" + where;
    set_launcher_exit_code(124);
    // In the control block too: on the mpi backend every rank ends with it.
    record_failure_status(-1, text.c_str(), 124);
    return;
  }
  if (now - last_look_ < look_interval_seconds) return;
  last_look_ = now;
  check_deadlock(now);
  if (wait_warning_ > 0) check_long_waits(now);
}

void monitor::check_deadlock(double now) {
  control_block& c = control();
  // Across hosts every thread's slot and every host's progress, through the
  // servers: a few requests per host, so a look every 0.2 s.
  const bool across = several_hosts();
  if (across) {
    if (now - last_hosts_look_ < 0.2) return;
    last_hosts_look_ = now;
    if (!hosts_) hosts_ = std::make_shared<hosts_slots>();
    hosts_->refresh();
  }
  auto slot_of = [&](int t) -> const thread_slot& { return across ? hosts_->slot(t) : c.slots[t]; };
  const std::uint64_t progress = across ? hosts_->progress() : c.progress.load();
  blocked_seqs_.resize(static_cast<std::size_t>(c.threads));
  bool all_waiting = true, changed = progress != last_progress_;
  int live = 0;
  for (int t = 0; t < c.threads; ++t) {
    const thread_slot& s = slot_of(t);
    const thread_state st = state_of(s);
    if (st == thread_state::finished) continue;
    if (st != thread_state::running || !is_waiting(s)) { all_waiting = false; break; }
    ++live;
    const std::uint32_t seq = s.blocked_seq.load(std::memory_order_relaxed);
    changed |= seq != blocked_seqs_[t];
    blocked_seqs_[t] = seq;
  }
  last_progress_ = progress;
  if (!all_waiting || live == 0 || changed) {
    unchanged_since_ = now;
    deferrals_ = 0;
    return;
  }
  if (now - unchanged_since_ < deadlock_delay_) return;
  // A thread the kernel lists as runnable has been woken (its barrier completed,
  // its lock came free) and not yet given a CPU: on an oversubscribed machine
  // that can take seconds. Not a deadlock yet: look again after another delay.
  // A real deadlock's waiters sleep after their short spin; the deferrals are
  // bounded all the same, for a wait that only ever yields.
  if (!across && deferrals_ < max_deferrals && some_waiter_runnable(c)) {
    ++deferrals_;
    unchanged_since_ = now;
    return;
  }
  std::string text = "upcemu: deadlock: every thread is waiting and none can go on (no progress for " +
                     seconds_text(deadlock_delay_) + "; --watchdog sets the delay):\n" + describe_blocked_threads(slot_of) +
                     diagnosis(c, slot_of);
  record_failure(-1, text.c_str());
}

// Threads that have waited longer than the warning delay for threads that are
// running (computing, or stuck in a loop) instead of arriving: say who waits
// where and what the others last did. Once per wait.
void monitor::check_long_waits(double now) {
  control_block& c = control();
  warned_seq_.resize(static_cast<std::size_t>(c.threads), ~0u);
  seen_seq_.resize(static_cast<std::size_t>(c.threads), ~0u);
  seen_since_.resize(static_cast<std::size_t>(c.threads), now);
  std::vector<int> waiting_threads;  // not warned about yet
  std::vector<int> running;
  bool overdue = false;  // some wait has passed the delay
  for (int t = 0; t < c.threads; ++t) {
    const thread_slot& s = c.slots[t];
    if (state_of(s) != thread_state::running) continue;
    if (!is_waiting(s)) {
      running.push_back(t);
      continue;
    }
    const std::uint32_t seq = s.blocked_seq.load(std::memory_order_relaxed);
    if (seq != seen_seq_[t]) {
      seen_seq_[t] = seq;
      seen_since_[t] = now;
    }
    if (warned_seq_[t] == seq) continue;
    overdue |= now - seen_since_[t] >= wait_warning_;
    waiting_threads.push_back(t);
  }
  if (!overdue || running.empty()) return;
  // The places are read only now, when a warning is due: they are names the
  // waiting threads published, not worth reading on every look.
  std::map<std::string, std::vector<int>> waiting;  // place -> threads
  for (int t : waiting_threads) waiting[place(c.slots[t])].push_back(t);
  // One warning for everyone waiting now (they usually wait for the same thing).
  for (const auto& [where, ts] : waiting)
    for (int t : ts) warned_seq_[t] = c.slots[t].blocked_seq.load(std::memory_order_relaxed);
  if (quiet_) return;
  std::string text;
  for (const auto& [where, ts] : waiting)
    text += "upcemu: warning: " + thread_list(ts) + (ts.size() == 1 ? " has" : " have") + " waited " +
            seconds_text(wait_warning_) + " in " + where + ";";
  for (std::size_t i = 0; i < running.size() && i < 8; ++i)
    text += std::string(i ? ";" : "") + " thread " + std::to_string(running[i]) + " has not arrived" +
            last_call_text(c.slots[running[i]]);
  if (running.size() > 8) text += "; and " + std::to_string(running.size() - 8) + " more threads are running";
  text += " (--wait-warning)\n";
  std::fflush(stdout);
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

bool monitor::must_force_stop() const {
  return abort_seen_ >= 0 && now_seconds() - abort_seen_ > abort_grace_seconds;
}

}  // namespace upc::detail
