// _exit(), _Exit() and quick_exit() called by a UPC thread, an exit() that
// libc_exit.cpp did not see (the runtime's own way to end a process is
// process_end.cpp).
//
// exit() called by a UPC thread ends that thread (libc_exit.cpp replaces it for
// the program). The other three are not a way to end one UPC thread (return
// from upc_main, call exit, or call upc_global_exit to end them all). On the
// threads backend they would end the whole process with no word; on the
// processes backend the launcher only sees an exit status. So each is reported
// the same on every backend — "thread 3 called _exit(4) without returning from
// main" — and the run ends with that status (1 for 0). They are caught by the
// wrappers in exit_wrappers.cpp (libupcemu_main, linked with -Wl,--wrap), which
// call report_exit_call first; glibc's own exit reached from a UPC thread (a
// shared library bound to it directly) by an on_exit hook. What neither catches
// (a raw exit_group system call, or _exit called from inside another shared
// library) ends the process with its status: the processes backend still says
// "exited with status N", the threads backend cannot say anything.
#include "exit_calls.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mpi_session.hpp"
#include "control.hpp"
#include "failure.hpp"
#include "process_end.hpp"

namespace upc::detail {

namespace {
std::atomic<bool> g_run_active{false};

void on_process_exit(int status, void*) { report_exit_call("exit", status); }
}  // namespace

void set_run_active(bool active) noexcept { g_run_active.store(active); }

void report_exit_call(const char* function, int status) noexcept {
  if (!g_run_active.load() || tl_mythread < 0 || !g_control) return;
  const int t = tl_mythread;
  const int run_status = (status & 0xff) != 0 ? (status & 0xff) : 1;  // what a shell would see, never 0
  std::string text = "upcemu: thread " + std::to_string(t) + " called " + function + "(" + std::to_string(status) +
                     ") without returning from main (call upc_global_exit to end every thread)\n";
  const bool first = record_failure_status(t, text.c_str(), run_status);
  // exit() flushes every stream before it ends the process; the others do not.
  if (std::string(function) == "exit") std::fflush(nullptr);
  const auto backend = static_cast<backend_kind>(control().backend);
  // Threads backend: this is the end of the process, so print here (the first
  // failure's report, which may be another thread's); wait if someone else is
  // printing it, they end the process. Processes backend: the launcher prints it.
  // Mpi backend: no launcher outlives the rank; print, then end the job.
  if (backend == backend_kind::threads && !print_report_once())
    for (;;) ::pause();
  if (backend == backend_kind::mpi) {
    print_report_once();
    mpi_end_job(first ? run_status : failure_exit_status());
  }
  end_process(first ? run_status : failure_exit_status());
}

void install_exit_hook() noexcept {
  static bool installed = false;
  if (!installed) installed = ::on_exit(on_process_exit, nullptr) == 0;
}

}  // namespace upc::detail
