#include "blocked_report.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "control.hpp"
#include "hosts.hpp"

namespace upc::detail {

// " (last runtime call: upc_all_broadcast at prog.cpp:31)", or "" when unknown.
std::string last_call_text(const thread_slot& s) {
  const char* fn = s.last_function.load(std::memory_order_relaxed);
  if (!fn) return "";
  const char* file = s.last_file.load(std::memory_order_relaxed);
  std::string out = std::string(" (last runtime call: ") + fn;
  if (file) out += std::string(" at ") + file + ":" + std::to_string(s.last_line.load(std::memory_order_relaxed));
  return out + ")";
}

namespace {
// A worker process stopped by SIGSTOP (or the terminal's SIGTSTP): state T in
// /proc/PID/stat. Only the processes backend has a process per thread.
bool stopped_by_signal(const thread_slot& s) {
  if (s.pid <= 0 || static_cast<backend_kind>(control().backend) == backend_kind::threads) return false;
  char path[64], line[512] = {};
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(s.pid));
  FILE* f = std::fopen(path, "r");
  if (!f) return false;
  const std::size_t n = std::fread(line, 1, sizeof line - 1, f);
  std::fclose(f);
  const char* close_paren = std::strrchr(line, ')');  // the name may hold spaces and parentheses
  return n > 0 && close_paren && close_paren[1] == ' ' && close_paren[2] == 'T';
}

// Where one thread is: "waiting in upc_lock (lock 0x..., held by thread 1) at f.cpp:12".
std::string where_is(const thread_slot& s) {
  auto state = static_cast<thread_state>(s.state.load());
  auto kind = static_cast<blocked_kind>(s.blocked.load());
  if (state == thread_state::finished) return "returned from main";
  if (state == thread_state::failed) return "failed";
  if (state == thread_state::not_started) return "not started";
  if (kind == blocked_kind::none) return stopped_by_signal(s) ? "stopped (SIGSTOP)" + last_call_text(s) : "running" + last_call_text(s);
  const char* fn = s.blocked_function.load();
  std::string out = "waiting in ";
  out += fn ? fn : "?";
  std::int64_t arg = s.blocked_arg.load();
  if (kind == blocked_kind::barrier_wait && arg != INT64_MIN) out += " (id " + std::to_string(arg) + ")";
  if (kind == blocked_kind::lock) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (lock %#llx", static_cast<unsigned long long>(arg));
    out += buf;
    // A lock on another host is not looked into from here (its page is the
    // UPC thread's cache, if anything).
    const int holder = remote_address(reinterpret_cast<const void*>(arg)) ? -1 : lock_holder(arg);
    out += holder >= 0 ? ", held by thread " + std::to_string(holder) + ")" : std::string(")");
  }
  const char* file = s.blocked_file.load();
  if (file) out += std::string(" at ") + file + ":" + std::to_string(s.blocked_line.load());
  return out;
}
}  // namespace

// One line per thread, consecutive threads in the same place sharing a line
// ("threads 2-63: waiting in upc_barrier at ..."), so that the report of a large
// run fits in the control block's error text.
std::string describe_blocked_threads() {
  return describe_blocked_threads([](int t) -> const thread_slot& { return control().slots[t]; });
}

std::string describe_blocked_threads(const std::function<const thread_slot&(int)>& slot_of) {
  std::string out;
  control_block& c = control();
  const std::size_t room = error_text_bytes - 1024;  // leave space for the report's headline
  int first = 0;
  std::string current = c.threads > 0 ? where_is(slot_of(0)) : std::string();
  for (int t = 1; t <= c.threads; ++t) {
    std::string next = t < c.threads ? where_is(slot_of(t)) : std::string();
    if (t < c.threads && next == current) continue;
    std::string line = first == t - 1 ? "  thread " + std::to_string(first) + ": "
                                      : "  threads " + std::to_string(first) + "-" + std::to_string(t - 1) + ": ";
    line += current + "\n";
    if (out.size() + line.size() > room) {
      out += "  ... (threads " + std::to_string(first) + "-" + std::to_string(c.threads - 1) + " not shown)\n";
      break;
    }
    out += line;
    first = t;
    current = std::move(next);
  }
  return out;
}

}  // namespace upc::detail
