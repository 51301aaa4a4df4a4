// Fatal signals and std::terminate during a run: the crash report (which
// thread, which signal, where in the shared segment, the backtrace), recorded as
// the run's failure, and the end of the process or, on the mpi backend, of the
// job. High in the runtime: installed by the backends and the launcher.
#pragma once

namespace upc::detail {

void install_crash_handlers();          // SIGSEGV & co: report thread, signal, backtrace
// While a run is going: std::terminate notes the uncaught exception for the
// SIGABRT report instead of printing its own message.
void install_terminate_handler() noexcept;
void restore_terminate_handler() noexcept;

}  // namespace upc::detail
