// The failure of a run, as every thread and process sees it: the first failure
// recorded in the control block (who, the report's text, the exit status it asks
// for), the abort flag that stops everyone, and the one printing of the report.
// Low in the runtime (control block and futex only), so that any part may record
// a failure; ending a process or the job is left to the layers above
// (fatal_signals.cpp, exit_calls.cpp, the backends).
#pragma once

namespace upc::detail {

// Records the first failure of the run (thread -1: the launcher) and stops everyone.
void record_failure(int thread, const char* text) noexcept;
// record_failure that also says which exit status the run should end with (0:
// the default, 1); true when this was the run's first failure.
bool record_failure_status(int thread, const char* text, int status) noexcept;
// Sets the abort flag and wakes the waits every thread makes.
void request_abort() noexcept;
// The status of the recorded failure: its own, else the launcher's, else 1.
int failure_exit_status() noexcept;
// Writes the recorded failure report to stderr unless some thread or process has
// already done so (or is doing so); true when this call claimed it. Async-signal-safe.
bool print_report_once() noexcept;
void set_quiet_reports(bool quiet) noexcept;  // --quiet: claim, but write nothing
bool quiet_reports() noexcept;
// Writes s to stderr with one write(2): async-signal-safe, for crash handlers.
void write_str(const char* s) noexcept;

}  // namespace upc::detail
