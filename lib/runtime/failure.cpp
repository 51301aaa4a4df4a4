// Failure reporting: the upc::error type, recording the first failure of a run in
// the control block (so the processes backend's launcher can read it), stopping
// everyone, and crash reports for fatal signals.
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "control.hpp"
#include "futex.hpp"
#include "launcher.hpp"

namespace upc {

namespace {
std::string capture_backtrace() {
  void* frames[48];
  int n = ::backtrace(frames, 48);
  char** names = ::backtrace_symbols(frames, n);
  std::string out;
  if (!names) return out;
  for (int i = 2; i < n; ++i) {  // skip capture_backtrace and error::error
    out += "    ";
    out += names[i];
    out += '\n';
  }
  std::free(names);
  return out;
}

std::string format(const std::string& function, const std::string& message, int thread) {
  std::string s = function + ": " + message;
  if (thread >= 0) s += " (thread " + std::to_string(thread) + ")";
  return s;
}
}  // namespace

error::error(std::string function, std::string message, int thread)
    : std::runtime_error(format(function, message, thread)),
      function_(std::move(function)),
      message_(std::move(message)),
      backtrace_(capture_backtrace()),
      thread_(thread) {}

namespace detail {

void fail(const char* function, const std::string& message) {
  throw upc::error(function, message, tl_mythread);
}

void request_abort() noexcept {
  if (!g_control) return;
  g_control->abort.store(1);
  futex_wake_all(&g_control->barrier.generation);
}

void record_failure(int thread, const char* text) noexcept {
  if (!g_control) return;
  control_block& c = *g_control;
  if (c.error_claimed.exchange(1) == 0) {
    c.error_thread.store(thread);
    std::size_t n = strnlen(text, error_text_bytes - 1);
    memcpy(c.error_text, text, n);
    c.error_text[n] = '\0';
    c.error_ready.store(1);
  }
  if (thread >= 0) c.slots[thread].state.store(static_cast<std::uint32_t>(thread_state::failed));
  request_abort();
}

void futex_mutex::lock() noexcept {
  std::uint32_t c = 0;
  if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  for (int i = 0; i < 100; ++i) {
    cpu_relax();
    c = 0;
    if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  }
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
  s.blocked.store(static_cast<std::uint32_t>(kind), std::memory_order_release);
}

blocked_scope::~blocked_scope() {
  my_slot().blocked.store(static_cast<std::uint32_t>(blocked_kind::none), std::memory_order_release);
}

namespace {
// Where one thread is: "waiting in upc_lock (lock 0x..., held by thread 1) at f.cpp:12".
std::string where_is(const thread_slot& s) {
  auto state = static_cast<thread_state>(s.state.load());
  auto kind = static_cast<blocked_kind>(s.blocked.load());
  if (state == thread_state::finished) return "returned from main";
  if (state == thread_state::failed) return "failed";
  if (state == thread_state::not_started) return "not started";
  if (kind == blocked_kind::none) return "running";
  const char* fn = s.blocked_function.load();
  std::string out = "waiting in ";
  out += fn ? fn : "?";
  std::int64_t arg = s.blocked_arg.load();
  if (kind == blocked_kind::barrier_wait && arg != INT64_MIN) out += " (id " + std::to_string(arg) + ")";
  if (kind == blocked_kind::lock) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (lock %#llx", static_cast<unsigned long long>(arg));
    out += buf;
    const int holder = lock_holder(arg);
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
  std::string out;
  control_block& c = control();
  const std::size_t room = error_text_bytes - 1024;  // leave space for the report's headline
  int first = 0;
  std::string current = c.threads > 0 ? where_is(c.slots[0]) : std::string();
  for (int t = 1; t <= c.threads; ++t) {
    std::string next = t < c.threads ? where_is(c.slots[t]) : std::string();
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

// ---- fatal signals -------------------------------------------------------

namespace {
void write_str(const char* s) { ssize_t r = ::write(2, s, strlen(s)); (void)r; }

void crash_handler(int sig, siginfo_t* info, void*) {
  char buf[256];
  int t = tl_mythread;
  const char* name = sigdescr_np(sig);
  const char* abbrev = sigabbrev_np(sig);
  if (info && (sig == SIGSEGV || sig == SIGBUS))
    snprintf(buf, sizeof buf, "upcemu: thread %d was killed by signal SIG%s (%s) at address %p\n", t,
             abbrev ? abbrev : "?", name ? name : "?", info->si_addr);
  else
    snprintf(buf, sizeof buf, "upcemu: thread %d was killed by signal SIG%s (%s)\n", t, abbrev ? abbrev : "?",
             name ? name : "?");
  if (sig == SIGBUS) strncat(buf, "  (SIGBUS in the shared heap usually means memory ran out)\n", sizeof buf - strlen(buf) - 1);
  record_failure(t, buf);
  const bool threads_backend = g_control && static_cast<backend_kind>(g_control->backend) == backend_kind::threads;
  if (threads_backend) write_str(buf);  // the processes launcher prints it for us
  void* frames[48];
  int n = ::backtrace(frames, 48);
  char head[96];
  snprintf(head, sizeof head, "  backtrace of thread %d:\n", t);
  write_str(head);
  ::backtrace_symbols_fd(frames, n, 2);
  if (threads_backend) {
    // One process: nobody is left to report for us.
    std::fflush(stdout);
    _exit(128 + sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}
}  // namespace

void install_crash_handlers() {
  static bool done = false;
  if (done) return;
  done = true;
  static char altstack[1 << 16];
  stack_t ss{};
  ss.ss_sp = altstack;
  ss.ss_size = sizeof altstack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_sigaction = crash_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace detail
}  // namespace upc
