// Crash reports for fatal signals, and std::terminate's note for the SIGABRT
// report (fatal_signals.hpp).
#include "fatal_signals.hpp"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>

#include "backtrace.hpp"
#include "control.hpp"
#include "dsm.hpp"
#include "failure.hpp"
#include "mpi_session.hpp"
#include "process_end.hpp"
#include "run_globals.hpp"
#include "segment.hpp"

namespace upc::detail {

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
  if (!quiet_reports() && !(g_control && g_control->error_claimed.load())) {
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
  if ((printer || !g_control) && !quiet_reports() && trace_bytes > 0) {
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

}  // namespace upc::detail
