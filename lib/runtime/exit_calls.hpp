// exit() and the wrapped _exit(), _Exit(), quick_exit() called by a UPC thread
// (exit_calls.cpp): reported as the run's failure, then the end of the process
// or of the mpi job.
#pragma once

namespace upc::detail {

// exit(), _exit(), _Exit() or quick_exit() called by a UPC thread: records
// "thread T called F(S) without returning from main" and ends the process (threads
// backend: after printing it; processes backend: the launcher prints it). Returns
// when the caller is not a UPC thread of a running program, to let the call go on.
void report_exit_call(const char* function, int status) noexcept;
void install_exit_hook() noexcept;  // exit(): once per process, before the workers start
void set_run_active(bool active) noexcept;

}  // namespace upc::detail
