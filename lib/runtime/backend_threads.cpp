// The threads backend: THREADS Boost.Threads in one process, the launcher thread
// supervising. A thread cannot be killed, so when an abort is not honoured within
// the grace period (a thread computing without ever synchronising) the process
// reports and exits.
#include <unistd.h>

#include <atomic>
#include <boost/thread/thread.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <memory>
#include <vector>

#include "control.hpp"
#include "futex.hpp"
#include "interrupt.hpp"
#include "launcher.hpp"

namespace upc::detail {

namespace {
std::atomic<bool> g_run_active{false};
bool g_quiet = false;

// exit() called by a UPC thread would run the static destructors under the feet of
// the threads still running (and crash). End the process here instead, with the
// status exit() was given, and report it as the processes backend does.
void on_process_exit(int status, void*) {
  if (!g_run_active.load() || tl_mythread < 0 || !g_control) return;
  const int t = tl_mythread;
  std::string text = "upcemu: thread " + std::to_string(t) + " called exit(" + std::to_string(status) +
                     ") without returning from main (call upc_global_exit to end every thread)\n";
  record_failure(t, text.c_str());
  std::fflush(stdout);
  if (!g_quiet) std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  _exit(status != 0 ? status : 1);
}
}  // namespace

void run_threads_backend(const launch_options& opt, const std::function<int()>& body) {
  install_crash_handlers();
  static bool exit_hook_installed = false;
  if (!exit_hook_installed) exit_hook_installed = ::on_exit(on_process_exit, nullptr) == 0;
  g_quiet = opt.quiet;
  g_run_active.store(true);
  struct run_scope {
    ~run_scope() { g_run_active.store(false); }
  } active;
  interrupt_guard interrupts(/*exit_immediately=*/true);
  monitor mon(opt);
  boost::thread::attributes attrs;
  attrs.set_stack_size(opt.stack_bytes ? opt.stack_bytes : (8u << 20));

  std::atomic<std::uint32_t> finished{0};
  std::vector<std::unique_ptr<boost::thread>> workers;
  workers.reserve(opt.threads);
  try {
    for (int t = 0; t < opt.threads; ++t)
      workers.push_back(std::make_unique<boost::thread>(attrs, [t, &body, &finished] {
        set_exit_code(t, run_upc_thread(t, body));
        finished.fetch_add(1);
        futex_wake_all(&finished);
      }));
  } catch (const std::exception& e) {
    record_failure(-1, (std::string("upcemu: could not start thread ") + std::to_string(workers.size()) + ": " +
                        e.what() + " (try fewer threads or a smaller UPCEMU_STACK)\n").c_str());
  }

  for (std::uint32_t done = finished.load(); done < workers.size(); done = finished.load()) {
    futex_wait(&finished, done, 5'000'000);
    {
      mon.poll();
      if (mon.must_force_stop()) {
        // Some thread ignores the stop (it never calls into the runtime): end the process.
        // After upc_global_exit that is the expected way to end: say nothing.
        std::fflush(stdout);
        const bool global_exit = control().global_exit_called.load();
        if (!opt.quiet && !global_exit) {
          const std::string report = control().error_text;
          std::fprintf(stderr, "%s%supcemu: a thread did not stop within 2 s; ending the process\n", report.c_str(),
                       report.empty() || report.back() == '\n' ? "" : "\n");
        }
        std::fflush(stderr);
        _exit(global_exit ? control().global_exit_status.load() : (launcher_exit_code() ? launcher_exit_code() : 1));
      }
    }
  }
  for (auto& w : workers) w->join();
}

}  // namespace upc::detail
