// The processes backend: one forked process per UPC thread, all sharing the
// segment mapped before fork (same address everywhere, so pointers into it are
// valid in every process, and private globals really are private). The launcher
// reaps the workers, reports the first abnormal end, and kills the rest.
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "control.hpp"
#include "interrupt.hpp"
#include "launcher.hpp"

namespace upc::detail {

namespace {
void kill_all(const std::vector<pid_t>& pids) {
  for (pid_t p : pids)
    if (p > 0) ::kill(p, SIGKILL);
}

void note_end(int t, pid_t pid, int wstatus) {
  control_block& c = control();
  auto state = static_cast<thread_state>(c.slots[t].state.load());
  if (WIFEXITED(wstatus)) {
    int code = WEXITSTATUS(wstatus);
    set_exit_code(t, code);
    if (state == thread_state::running && !c.abort.load() && !c.global_exit_called.load()) {
      // The run ends with the status the thread passed to exit() (1 for exit(0)),
      // as on the threads backend, where exit() ends the one process.
      set_launcher_exit_code(code != 0 ? code : 1);
      std::string text = "upcemu: thread " + std::to_string(t) + " (pid " + std::to_string(pid) +
                         ") exited with status " + std::to_string(code) +
                         " without returning from main (call upc_global_exit to end every thread)\n";
      record_failure(t, text.c_str());
    }
  } else if (WIFSIGNALED(wstatus)) {
    int sig = WTERMSIG(wstatus);
    set_exit_code(t, 128 + sig);
    // The status is the signal's when this crash is the failure being reported.
    if (!c.abort.load() || (state == thread_state::failed && c.error_thread.load() == t)) set_launcher_exit_code(128 + sig);
    if (state != thread_state::failed && !c.abort.load()) {
      const char* abbrev = sigabbrev_np(sig);
      const char* descr = sigdescr_np(sig);
      std::string text = "upcemu: thread " + std::to_string(t) + " (pid " + std::to_string(pid) +
                         ") was killed by signal SIG" + (abbrev ? abbrev : "?") + " (" + (descr ? descr : "?") + ")\n";
      record_failure(t, text.c_str());
    }
  }
}
}  // namespace

void run_processes_backend(const launch_options& opt, const std::function<int()>& body) {
  interrupt_guard interrupts(/*exit_immediately=*/false);
  monitor mon(opt);
  const pid_t parent = ::getpid();
  std::fflush(nullptr);  // buffered output must not be duplicated in every child

  std::vector<pid_t> pids(opt.threads, 0);
  int started = 0;
  for (int t = 0; t < opt.threads; ++t) {
    pid_t pid = ::fork();
    if (pid < 0) {
      record_failure(-1, (std::string("upcemu: fork failed for thread ") + std::to_string(t) + ": " + strerror(errno) + "\n").c_str());
      break;
    }
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) _exit(1);
      ::signal(SIGINT, SIG_IGN);
      ::signal(SIGTERM, SIG_DFL);
      ::signal(SIGHUP, SIG_DFL);
      // Line-buffer stdout as one process does on the threads backend's terminal:
      // lines appear in the order they are printed across threads, and a worker
      // stopped by SIGKILL (upc_global_exit, a failure elsewhere) loses no line.
      if (!::isatty(1)) std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
      install_crash_handlers();
      control().slots[t].pid = ::getpid();
      int status = run_upc_thread(t, body);
      std::fflush(nullptr);
      _exit(status & 0xff);
    }
    pids[t] = pid;
    ++started;
  }

  int remaining = started;
  long pause_us = 50;
  bool killed = false;
  while (remaining > 0) {
    bool reaped = false;
    for (int t = 0; t < opt.threads; ++t) {
      if (pids[t] <= 0) continue;
      int wstatus = 0;
      pid_t r = ::waitpid(pids[t], &wstatus, WNOHANG);
      if (r == pids[t]) {
        note_end(t, pids[t], wstatus);
        pids[t] = 0;
        --remaining;
        reaped = true;
      }
    }
    if (g_interrupt_signal && !killed) {
      const char* abbrev = sigabbrev_np(g_interrupt_signal);
      std::string text = std::string("upcemu: interrupted by SIG") + (abbrev ? abbrev : "?") + "; stopped all " +
                         std::to_string(opt.threads) + " threads\n";
      set_launcher_exit_code(128 + g_interrupt_signal);
      record_failure(-1, text.c_str());
      kill_all(pids);
      killed = true;
    }
    mon.poll();
    if (!killed && (mon.must_force_stop() || (control().abort.load() && control().global_exit_called.load()))) {
      kill_all(pids);
      killed = true;
    }
    if (reaped) { pause_us = 50; continue; }
    ::usleep(static_cast<useconds_t>(pause_us));
    if (pause_us < 5000) pause_us *= 2;
  }
}

}  // namespace upc::detail
