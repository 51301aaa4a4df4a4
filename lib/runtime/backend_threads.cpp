// The threads backend: THREADS Boost.Threads in one process, the launcher thread
// supervising. A thread cannot be killed, so when an abort is not honoured within
// the grace period (a thread computing without ever synchronising) the process
// reports and exits. Threads wait at the start gate until all of them exist.
#include <link.h>
#include <unistd.h>

#include <atomic>
#include <boost/thread/thread.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <memory>
#include <vector>

#include "control.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "fatal_signals.hpp"
#include "futex.hpp"
#include "interrupt.hpp"
#include "launcher.hpp"
#include "process_end.hpp"

namespace upc::detail {

// glibc carves a thread's static TLS (every loaded object's PT_TLS block: the
// thread_local variables, and a translated UPC program's private globals) out of
// the stack it allocates for the thread, so a program with large private arrays
// could not start a thread at all (or kept too little stack). The stack asked for
// is what the UPC thread gets for its calls: the TLS blocks are added to it
// (threads and mpi backends; a process's main thread has its TLS elsewhere).
namespace {
std::size_t static_tls_bytes() {
  std::size_t total = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        std::size_t& sum = *static_cast<std::size_t*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          const std::size_t align = ph.p_align ? ph.p_align : 1;
          if (ph.p_type == PT_TLS) sum += (ph.p_memsz + align - 1) / align * align;
        }
        return 0;
      },
      &total);
  return total;
}
}  // namespace

std::size_t upc_thread_stack_size(std::size_t wanted) {
  // 64 KiB more for glibc's own part (thread descriptor, TLS surplus), page-rounded.
  static const std::size_t tls = static_tls_bytes();
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return (wanted + tls + (64u << 10) + page - 1) / page * page;
}

void run_threads_backend(const launch_options& opt, const std::function<int()>& body) {
  install_crash_handlers();
  interrupt_guard interrupts(/*exit_immediately=*/true);
  monitor mon(opt);
  boost::thread::attributes attrs;
  attrs.set_stack_size(upc_thread_stack_size(opt.stack_bytes ? opt.stack_bytes : (8u << 20)));

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
  open_start_gate();

  for (std::uint32_t done = finished.load(); done < workers.size(); done = finished.load()) {
    futex_wait(&finished, done, 5'000'000);
    {
      mon.poll();
      if (mon.must_force_stop()) {
        // Some thread ignores the stop (it never calls into the runtime): end the process.
        // After upc_global_exit that is the expected way to end: say nothing.
        std::fflush(stdout);
        const bool global_exit = control().global_exit_called.load();
        if (!global_exit) {
          // A crash handler already printing the report ends the process itself.
          if (!print_report_once() && control().error_claimed.load()) for (;;) ::pause();
          if (!opt.quiet) std::fputs("upcemu: a thread did not stop within 2 s; ending the process\n", stderr);
        }
        std::fflush(stderr);
        end_process(global_exit ? control().global_exit_status.load() : failure_exit_status());
      }
    }
  }
  for (auto& w : workers) w->join();
}

}  // namespace upc::detail
