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
#include <unordered_map>
#include <vector>

#include "control.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "fatal_signals.hpp"
#include "interrupt.hpp"
#include "launcher.hpp"
#include "process_end.hpp"
#include "run_globals.hpp"

namespace upc::detail {

namespace {
// Set by SIGCHLD: some worker has ended. Looking for ended workers costs a
// waitid that walks every child; at every fork of 4096 that walk was an eighth
// of the start-up's CPU, so the loops look only when a child has ended.
volatile std::sig_atomic_t g_child_ended = 0;
void on_child_ended(int) { g_child_ended = 1; }

struct sigchld_flag {
  struct sigaction old {};
  sigchld_flag() {
    struct sigaction sa {};
    sa.sa_handler = on_child_ended;
    sa.sa_flags = SA_NOCLDSTOP;  // no SA_RESTART: the launcher's pause ends when a worker does
    sigemptyset(&sa.sa_mask);
    g_child_ended = 1;  // one look at the start: a child may have ended before this
    ::sigaction(SIGCHLD, &sa, &old);
  }
  ~sigchld_flag() { ::sigaction(SIGCHLD, &old, nullptr); }
};

void kill_all(const std::vector<pid_t>& pids) {
  for (pid_t p : pids)
    if (p > 0) ::kill(p, SIGKILL);
}

// How far the fork loop got: a worker that ends before the start gate opens is
// reported with it.
struct start_progress {
  int started = 0;
  int threads = 0;
};

// A worker that ended while it was still running main and nothing had stopped the
// run reports itself (a crash handler, exit_calls.cpp); one that could not is
// reported here from its status: the run ends with it (1 for exit(0)). So is one
// that ended before it started (killed while the launcher was still forking): the
// launcher stops forking at once (run_processes_backend).
void note_end(int t, pid_t pid, int wstatus, const start_progress& progress) {
  control_block& c = control();
  auto state = static_cast<thread_state>(c.slots[t].state.load());
  const bool stopping = c.abort.load() || c.global_exit_called.load();
  const bool unexpected = (state == thread_state::running || state == thread_state::not_started) && !stopping;
  std::string when;
  if (state == thread_state::not_started) {
    when = " before it started";
    if (progress.started < progress.threads)
      when += "; stopped starting the threads (" + std::to_string(progress.started) + " of " +
              std::to_string(progress.threads) + " started)";
  }
  if (WIFEXITED(wstatus)) {
    int code = WEXITSTATUS(wstatus);
    set_exit_code(t, code);
    if (unexpected) {
      std::string text = "upcemu: thread " + std::to_string(t) + " (pid " + std::to_string(pid) +
                         ") exited with status " + std::to_string(code) +
                         (when.empty() ? " without returning from main (call upc_global_exit to end every thread)" : when) +
                         "\n";
      record_failure_status(t, text.c_str(), code != 0 ? code : 1);
    }
  } else if (WIFSIGNALED(wstatus)) {
    int sig = WTERMSIG(wstatus);
    set_exit_code(t, 128 + sig);
    if (unexpected) {
      const char* abbrev = sigabbrev_np(sig);
      const char* descr = sigdescr_np(sig);
      std::string text = "upcemu: thread " + std::to_string(t) + " (pid " + std::to_string(pid) +
                         ") was killed by signal SIG" + (abbrev ? abbrev : "?") + " (" + (descr ? descr : "?") + ")" +
                         when + "\n";
      record_failure_status(t, text.c_str(), 128 + sig);
    }
  }
}

// Kills every started worker and records why the run stopped.
void stop_on_interrupt(std::vector<pid_t>& pids, int started, int threads) {
  const int sig = g_interrupt_signal;
  const char* abbrev = sigabbrev_np(sig);
  std::string text = std::string("upcemu: interrupted by SIG") + (abbrev ? abbrev : "?");
  if (started < threads)
    text += " while starting the threads (" + std::to_string(started) + " of " + std::to_string(threads) +
            " started); stopped them all\n";
  else
    text += "; stopped all " + std::to_string(threads) + " threads\n";
  set_launcher_exit_code(128 + sig);  // also when an earlier failure is being reported
  record_failure_status(-1, text.c_str(), 128 + sig);
  kill_all(pids);
}

// Reaps every worker that has ended, without blocking. waitid(P_ALL, WNOWAIT)
// names one ended child without reaping it, so each round costs one call per
// ended worker rather than one per worker; a child that is not a worker (the
// program may have its own) is left for its owner, and that round falls back to
// asking for each worker by pid.
int reap_ended(std::vector<pid_t>& pids, const std::unordered_map<pid_t, int>& thread_of,
               const start_progress& progress) {
  int reaped = 0;
  auto reap = [&](int t) {
    int wstatus = 0;
    if (::waitpid(pids[t], &wstatus, WNOHANG) != pids[t]) return false;
    note_end(t, pids[t], wstatus, progress);
    pids[t] = 0;
    ++reaped;
    return true;
  };
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return reaped;
    auto it = thread_of.find(info.si_pid);
    if (it == thread_of.end() || pids[it->second] != info.si_pid) break;
    reap(it->second);
  }
  for (int t = 0; t < static_cast<int>(pids.size()); ++t)
    if (pids[t] > 0) reap(t);
  return reaped;
}

// Reaps when SIGCHLD said some child ended (the flag is cleared first, so an end
// during the walk is looked at next time).
int reap_if_ended(std::vector<pid_t>& pids, const std::unordered_map<pid_t, int>& thread_of,
                  const start_progress& progress) {
  if (!g_child_ended) return 0;
  g_child_ended = 0;
  return reap_ended(pids, thread_of, progress);
}
}  // namespace

void run_processes_backend(const launch_options& opt, const std::function<int()>& body) {
  interrupt_guard interrupts(/*exit_immediately=*/false);
  monitor mon(opt);
  sigchld_flag child_ends;
  const pid_t parent = ::getpid();
  std::fflush(nullptr);  // buffered output must not be duplicated in every child
  // Installed here, once, as the threads backend does: every worker inherits the
  // handlers, the alternate signal stack and the unwinder already set up. Each of
  // those first touches copied pages in every worker, and at this machine's
  // ~20 us a copied page they were a tenth of a worker's start.
  install_crash_handlers();

  std::vector<pid_t> pids(opt.threads, 0);
  std::unordered_map<pid_t, int> thread_of;
  thread_of.reserve(static_cast<std::size_t>(opt.threads));
  start_progress progress{0, opt.threads};
  int& started = progress.started;
  int remaining = 0;  // started and not yet reaped
  // Whatever ends the fork loop, even an exception, the gate opens: the workers
  // that exist must run, or see the abort and end.
  struct gate_opener {
    ~gate_opener() { open_start_gate(); }
  };
  bool killed = false;
  {
    gate_opener opens_the_gate;
    // A failure while forking (a worker killed before it started, --timeout, a
    // fork that fails) stops the loop at once: forking thousands takes seconds.
    for (int t = 0; t < opt.threads && !g_interrupt_signal && !control().abort.load(); ++t) {
      pid_t pid = ::fork();
      if (pid < 0) {
        record_failure(-1, (std::string("upcemu: fork failed for thread ") + std::to_string(t) + ": " + strerror(errno) + "\n").c_str());
        break;
      }
      if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) end_process(1);
        ::signal(SIGINT, SIG_IGN);
        ::signal(SIGTERM, SIG_DFL);
        ::signal(SIGHUP, SIG_DFL);
        ::signal(SIGCHLD, SIG_DFL);  // the program's own children are its business
        // Line-buffer stdout as one process does on the threads backend's terminal:
        // lines appear in the order they are printed across threads, and a worker
        // stopped by SIGKILL (upc_global_exit, a failure elsewhere) loses no line.
        if (!::isatty(1)) std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
        g_process_upc_thread = t;
        control().slots[t].pid = ::getpid();
        int status = run_upc_thread(t, body);
        std::fflush(nullptr);
        end_process(status);
      }
      pids[t] = pid;
      thread_of.emplace(pid, t);
      ++started;
      ++remaining;
      remaining -= reap_if_ended(pids, thread_of, progress);
      mon.poll();
    }
    // Ctrl-C while forking: stop here, before the gate lets anyone run.
    if (g_interrupt_signal) {
      stop_on_interrupt(pids, started, opt.threads);
      killed = true;
    }
  }  // the gate opens here

  long pause_us = 50;
  while (remaining > 0) {
    const int reaped = reap_if_ended(pids, thread_of, progress);
    remaining -= reaped;
    if (g_interrupt_signal && !killed) {
      stop_on_interrupt(pids, started, opt.threads);
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
