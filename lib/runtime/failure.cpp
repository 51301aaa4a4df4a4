// Failure reporting: the upc::error type, recording the first failure of a run in
// the control block (so the processes backend's launcher can read it), stopping
// everyone, and crash reports for fatal signals.
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "backtrace.hpp"
#include "control.hpp"
#include "dsm.hpp"
#include "futex.hpp"
#include "hosts.hpp"
#include "backend_mpi.hpp"
#include "launcher.hpp"
#include "segment.hpp"

namespace upc {

namespace {
// Only addresses here: many errors are caught by the program, and reading the
// symbols waits until a report needs them (error::backtrace, upc_thread.cpp).
__attribute__((noinline)) std::vector<void*> capture_error_frames() {
  if (detail::backtrace_setting() == backtrace_detail::off) return {};
  void* pcs[detail::max_backtrace_frames];
  const int n = detail::capture_frames(pcs, detail::max_backtrace_frames, 1);  // from error::error on
  return std::vector<void*>(pcs, pcs + n);
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
      frames_(capture_error_frames()),
      thread_(thread) {}

std::string error::backtrace() const { return detail::describe_frames(frames_.data(), static_cast<int>(frames_.size())); }

namespace detail {

void fail(const char* function, const std::string& message) {
  throw upc::error(function, message, tl_mythread);
}

void request_abort() noexcept {
  if (!g_control) return;
  g_control->abort.store(1);
  // The two waits every thread makes; sleepers elsewhere see the abort when their
  // sleep slice ends (futex.cpp's wait policy).
  futex_wake_all(&g_control->barrier.generation);
  futex_wake_all(&g_control->world_barrier.generation);
}

bool record_failure_status(int thread, const char* text, int status) noexcept {
  if (!g_control) return false;
  control_block& c = *g_control;
  const bool first = c.error_claimed.exchange(1) == 0;
  if (first) {
    c.error_thread.store(thread);
    c.failure_status.store(status);
    std::size_t n = strnlen(text, error_text_bytes - 1);
    memcpy(c.error_text, text, n);
    c.error_text[n] = '\0';
    c.error_ready.store(1);
  }
  if (thread >= 0) c.slots[thread].state.store(static_cast<std::uint32_t>(thread_state::failed));
  request_abort();
  return first;
}

void record_failure(int thread, const char* text) noexcept { record_failure_status(thread, text, 0); }

int failure_exit_status() noexcept {
  const int status = g_control ? g_control->failure_status.load() : 0;
  if (status) return status;
  return launcher_exit_code() ? launcher_exit_code() : 1;
}

namespace {
bool g_quiet_reports = false;
void write_str(const char* s) { ssize_t r = ::write(2, s, strlen(s)); (void)r; }
}  // namespace

void set_quiet_reports(bool quiet) noexcept { g_quiet_reports = quiet; }
bool quiet_reports() noexcept { return g_quiet_reports; }

// Async-signal-safe: crash handlers call it. The claim is in the segment, so a
// worker process that prints its own crash keeps the launcher from repeating it.
bool print_report_once() noexcept {
  if (!g_control || !g_control->error_claimed.load()) return false;
  control_block& c = *g_control;
  if (c.report_printed.exchange(1) != 0) return false;
  // The claimer may still be copying its text in.
  for (int i = 0; i < 100000 && !c.error_ready.load(); ++i) sched_yield();
  if (g_quiet_reports) return true;
  write_str(c.error_text);
  const std::size_t n = strnlen(c.error_text, error_text_bytes);
  if (n == 0 || c.error_text[n - 1] != '\n') write_str("\n");
  return true;
}

void futex_mutex::lock() {
  std::uint32_t c = 0;
  if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  for (int i = 0; i < 100; ++i) {
    cpu_relax();
    c = 0;
    if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  }
  if (tl_no_cache) throw lock_busy{};  // a server thread: its caller asks again
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
  // Only this thread writes it: no read-modify-write needed.
  s.blocked_seq.store(s.blocked_seq.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  s.blocked.store(static_cast<std::uint32_t>(kind), std::memory_order_release);
}

blocked_scope::~blocked_scope() {
  my_slot().blocked.store(static_cast<std::uint32_t>(blocked_kind::none), std::memory_order_release);
}

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

// ---- fatal signals -------------------------------------------------------

namespace {
// Why std::terminate was called on this thread (set by on_terminate just before
// abort), for the SIGABRT report.
thread_local char tl_terminate_reason[256];
std::terminate_handler g_previous_terminate = nullptr;

void on_terminate() {
  const char* prefix = "after an uncaught exception";
  if (std::exception_ptr p = std::current_exception()) {
    try {
      std::rethrow_exception(p);
    } catch (const std::exception& e) {
      snprintf(tl_terminate_reason, sizeof tl_terminate_reason, " %s: %s", prefix, e.what());
    } catch (...) {
      snprintf(tl_terminate_reason, sizeof tl_terminate_reason, " %s of unknown type", prefix);
    }
  } else {
    snprintf(tl_terminate_reason, sizeof tl_terminate_reason, " after std::terminate was called");
  }
  std::abort();
}

// Who crashed: a UPC thread, or a thread the program started itself (which has
// no MYTHREAD; on the processes backend we know whose process it is in).
void describe_crashed_thread(char* out, std::size_t size) {
  if (tl_mythread >= 0)
    snprintf(out, size, "thread %d", tl_mythread);
  else if (g_process_upc_thread >= 0)
    snprintf(out, size, "a thread that is not a UPC thread (started by the program inside UPC thread %d's process)",
             g_process_upc_thread);
  else
    snprintf(out, size, "a thread that is not a UPC thread (started by the program)");
}

// One headline per run, the first failure's: a crash that comes second (another
// thread crashing at the same moment, or a thread that dies of the failure being
// reported) is not reported on either backend. The status is the first failure's.
// A SIGSEGV at an address in the shared segment's partitions, or in the page
// past the last one, is almost always a shared access out of an object's
// bounds (a loop one element too far, a pointer stepped past its block): say
// where it is and what names the access. Async-signal-safe (snprintf of
// integers only).
int describe_segment_address(const void* address, char* out, std::size_t size) {
  if (!g_control || !g_partitions || g_partition_bytes == 0) return 0;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  const auto begin = reinterpret_cast<std::uintptr_t>(g_partitions);
  const std::uint64_t threads = static_cast<std::uint64_t>(g_control->threads);
  const std::uintptr_t end = begin + threads * g_partition_bytes;
  if (a < begin || a >= end + segment_guard_bytes) return 0;
  const char* hint = g_control->check ? "" : "; upcrun --check names the access and the object";
  int n;
  if (a >= end)
    n = snprintf(out, size, "  (%lu bytes past the end of the shared segment, after thread %lu's partition: most likely "
                 "a shared access out of an object's bounds%s)\n",
                 static_cast<unsigned long>(a - end), static_cast<unsigned long>(threads - 1), hint);
  else
    n = snprintf(out, size, "  (in the shared segment, thread %lu's partition at offset %lu: most likely a shared access "
                 "out of an object's bounds%s)\n",
                 static_cast<unsigned long>((a - begin) / g_partition_bytes),
                 static_cast<unsigned long>((a - begin) % g_partition_bytes), hint);
  return n < 0 ? 0 : std::min(n, static_cast<int>(size) - 1);
}

void crash_handler(int sig, siginfo_t* info, void*) {
  // A touch of another host's partition (dsm.hpp) is no crash.
  if (sig == SIGSEGV && info && dsm_fault(info->si_addr)) return;
  // The backtrace is read before the failure is recorded: recording it stops the
  // run, and the processes backend's launcher kills a worker still busy 2 s
  // later. One thread of the process reads it, and only for a first failure.
  static char trace[16384];
  static std::atomic<int> tracing{0};
  std::size_t trace_bytes = 0;
  if (!g_quiet_reports && !(g_control && g_control->error_claimed.load())) {
    if (tracing.exchange(1) == 0) {
      void* frames[max_backtrace_frames];
      const int depth = capture_frames(frames, max_backtrace_frames, 0);
      trace_bytes = crash_backtrace_text(frames, depth, trace, sizeof trace);
    } else if (g_control) {
      // Another thread of this process crashed at the same moment and is
      // reading its backtrace: the report is its, with the backtrace.
      const timespec pause{0, 10'000'000};
      for (int i = 0; i < 600 && !g_control->error_claimed.load(); ++i) ::nanosleep(&pause, nullptr);
    }
  }
  char who[160], buf[640];
  describe_crashed_thread(who, sizeof who);
  const char* name = sigdescr_np(sig);
  const char* abbrev = sigabbrev_np(sig);
  int n = snprintf(buf, sizeof buf, "upcemu: %s was killed by signal SIG%s (%s)", who, abbrev ? abbrev : "?", name ? name : "?");
  if (info && (sig == SIGSEGV || sig == SIGBUS) && n < static_cast<int>(sizeof buf))
    n += snprintf(buf + n, sizeof buf - n, " at address %p", info->si_addr);
  if (sig == SIGABRT && tl_terminate_reason[0] && n < static_cast<int>(sizeof buf))
    n += snprintf(buf + n, sizeof buf - n, "%s", tl_terminate_reason);
  if (n < static_cast<int>(sizeof buf)) n += snprintf(buf + n, sizeof buf - n, "\n");
  if (info && sig == SIGSEGV && n < static_cast<int>(sizeof buf)) n += describe_segment_address(info->si_addr, buf + n, sizeof buf - n);
  if (sig == SIGBUS) strncat(buf, "  (SIGBUS in the shared heap usually means memory ran out)\n", sizeof buf - strlen(buf) - 1);

  const int status = 128 + sig;
  const bool first = record_failure_status(tl_mythread, buf, status);
  const bool printer = first ? print_report_once() : false;
  if (!g_control) write_str(buf);  // not inside a run
  if ((printer || !g_control) && !g_quiet_reports && trace_bytes > 0) {
    char head[64];
    if (tl_mythread >= 0) snprintf(head, sizeof head, "  backtrace of thread %d:\n", tl_mythread);
    else snprintf(head, sizeof head, "  backtrace:\n");
    write_str(head);
    ssize_t r = ::write(2, trace, trace_bytes);
    (void)r;
  }
  const bool threads_backend = g_control && static_cast<backend_kind>(g_control->backend) == backend_kind::threads;
  if (threads_backend) {
    // One process: nobody is left to report for us. Whoever prints the report ends
    // the process once it is written; a second crash prints the first failure's
    // report if nobody has yet. Everyone else waits for the end.
    if (!printer && (first || !print_report_once()))
      for (;;) ::pause();
    std::fflush(stdout);
    end_process(first ? status : failure_exit_status());
  }
  if (g_control && static_cast<backend_kind>(g_control->backend) == backend_kind::mpi) {
    // No launcher outlives the rank to print the report: print it, end the job.
    print_report_once();
    std::fflush(stdout);
    mpi_end_job(first ? status : failure_exit_status());
  }
  signal(sig, SIG_DFL);
  raise(sig);
}
}  // namespace

void install_crash_handlers() {
  warm_up_backtraces();  // the unwinder's first call, made here rather than in a handler
  static bool stack_made = false;
  if (!stack_made) {
    stack_made = true;
    static char altstack[1 << 16];
    stack_t ss{};
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    sigaltstack(&ss, nullptr);
  }
  // Again at every run: a test framework may have put its own handlers back
  // since the last (doctest does around each test case), and on the mpi
  // backend across hosts the page cache (dsm.cpp) works through this handler.
  struct sigaction sa{};
  sa.sa_sigaction = crash_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

void install_terminate_handler() noexcept { g_previous_terminate = std::set_terminate(on_terminate); }
void restore_terminate_handler() noexcept {
  if (g_previous_terminate) std::set_terminate(g_previous_terminate);
  g_previous_terminate = nullptr;
}

}  // namespace detail
}  // namespace upc
