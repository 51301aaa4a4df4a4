// The failure record of a run (failure.hpp): the first failure in the control
// block, so that the processes backend's launcher and every host can read it,
// the abort that stops everyone, and the report printed once.
#include "failure.hpp"

#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <cstring>

#include "control.hpp"
#include "exit_codes.hpp"
#include "futex.hpp"

namespace upc::detail {

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
}  // namespace

void write_str(const char* s) noexcept { ssize_t r = ::write(2, s, strlen(s)); (void)r; }

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

}  // namespace upc::detail
