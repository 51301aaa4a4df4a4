// The processes backend: one forked process per UPC thread, all sharing the
// segment mapped before fork (same address everywhere, so pointers into it are
// valid in every process, and private globals really are private). The launcher
// reaps the workers, reports the first abnormal end, and kills the rest.
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "control.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "fatal_signals.hpp"
#include "futex.hpp"
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

// Memory of the launcher's own that no worker inherits (MADV_DONTFORK), or that
// every worker shares (MAP_SHARED): after each fork every private page the
// launcher writes is copied first, since the new child shares it, and at this
// machine's tens of microseconds a copied page the launcher's bookkeeping (a
// malloc'd node and a vector entry per fork) cost 3-4 copies per fork.
void* map_pages(std::size_t bytes, bool shared) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw upc::error("upcrun", std::string("cannot map the launcher's pages for its workers: ") + strerror(errno), -1);
  if (!shared) ::madvise(p, bytes, MADV_DONTFORK);
  return p;
}

// Every worker's pid, and the thread of a pid (open addressing, no allocation
// per fork), in pages the workers do not inherit.
class worker_table {
 public:
  explicit worker_table(int threads) : threads_(threads) {
    while (capacity_ < 2 * static_cast<std::size_t>(threads)) capacity_ *= 2;
    bytes_ = threads_ * sizeof(pid_t) + capacity_ * sizeof(std::int32_t);
    pids_ = static_cast<pid_t*>(map_pages(bytes_, false));
    index_ = reinterpret_cast<std::int32_t*>(pids_ + threads_);
  }
  ~worker_table() { ::munmap(pids_, bytes_); }
  worker_table(const worker_table&) = delete;
  worker_table& operator=(const worker_table&) = delete;

  // 0 once reaped (or never started).
  std::span<pid_t> pids() const { return {pids_, threads_}; }
  void add(int t, pid_t pid) {
    pids_[t] = pid;
    std::size_t i = hash(pid);
    while (index_[i] != 0) i = (i + 1) & (capacity_ - 1);
    index_[i] = t + 1;
  }
  // The thread whose live worker has this pid, or -1.
  int thread_of(pid_t pid) const {
    for (std::size_t i = hash(pid); index_[i] != 0; i = (i + 1) & (capacity_ - 1))
      if (pids_[index_[i] - 1] == pid) return index_[i] - 1;
    return -1;
  }

 private:
  std::size_t hash(pid_t pid) const { return (static_cast<std::size_t>(pid) * 0x9E3779B97F4A7C15ULL >> 20) & (capacity_ - 1); }
  std::size_t threads_;
  std::size_t capacity_ = 64;
  std::size_t bytes_ = 0;
  pid_t* pids_ = nullptr;
  std::int32_t* index_ = nullptr;
};

// The start gate, opened as a tree: worker t sleeps on a word of its own and,
// once woken, wakes workers 2t+1 and 2t+2 before it runs. One wake of every
// sleeper at once kept the launcher inside that futex call for seconds (each
// worker it woke could preempt it, and it then waited its turn among thousands
// of runnable processes while the workers it had not woken yet slept); with
// 4096 workers all runnable together each also ran in more, shorter slices.
// The launcher opens the control block's gate first, so run_upc_thread passes
// it at once.
class wake_tree {
 public:
  explicit wake_tree(int threads) : bytes_((static_cast<std::size_t>(threads) + 1) * sizeof(std::atomic<std::uint32_t>)) {
    words_ = static_cast<std::atomic<std::uint32_t>*>(map_pages(bytes_, true));
  }
  ~wake_tree() { ::munmap(words_, bytes_); }
  wake_tree(const wake_tree&) = delete;
  wake_tree& operator=(const wake_tree&) = delete;

  // In worker t: sleeps until its turn, then wakes its two children in the tree.
  void wait_turn(int t) const noexcept {
    std::atomic<std::uint32_t>& mine = word(t);
    while (mine.load(std::memory_order_acquire) == 0) futex_wait(&mine, 0, 0);
    const int size = static_cast<int>(words_[0].load(std::memory_order_acquire));
    for (int child : {2 * t + 1, 2 * t + 2})
      if (child < size) wake(child);
  }
  // In the launcher, once `started` workers exist: wakes the root.
  void open(int started) noexcept {
    words_[0].store(static_cast<std::uint32_t>(started), std::memory_order_release);
    if (started > 0) wake(0);
  }
  // Every started worker's turn, each woken by the launcher: for an abort, when a
  // worker that died before its turn would leave its part of the tree asleep.
  void open_all() noexcept {
    const int size = static_cast<int>(words_[0].load(std::memory_order_acquire));
    for (int t = 0; t < size; ++t) wake(t);
  }

 private:
  std::atomic<std::uint32_t>& word(int t) const noexcept { return words_[t + 1]; }
  void wake(int t) const noexcept {
    if (word(t).exchange(1, std::memory_order_acq_rel) == 0) futex_wake_all(&word(t));
  }
  std::size_t bytes_;
  std::atomic<std::uint32_t>* words_;  // [0]: workers started; [t + 1]: worker t's turn
};

void kill_all(std::span<const pid_t> pids) {
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
void stop_on_interrupt(std::span<const pid_t> pids, int started, int threads) {
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
int reap_ended(worker_table& workers, const start_progress& progress) {
  const std::span<pid_t> pids = workers.pids();
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
    const int t = workers.thread_of(info.si_pid);
    if (t < 0) break;
    reap(t);
  }
  for (int t = 0; t < static_cast<int>(pids.size()); ++t)
    if (pids[t] > 0) reap(t);
  return reaped;
}

// Reaps when SIGCHLD said some child ended (the flag is cleared first, so an end
// during the walk is looked at next time).
int reap_if_ended(worker_table& workers, const start_progress& progress) {
  if (!g_child_ended) return 0;
  g_child_ended = 0;
  return reap_ended(workers, progress);
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

  worker_table workers(opt.threads);
  wake_tree turns(opt.threads);
  // Whether the child's stdout is a terminal: asked once here, not by every worker.
  const bool stdout_is_terminal = ::isatty(1);
  start_progress progress{0, opt.threads};
  int& started = progress.started;
  int remaining = 0;  // started and not yet reaped
  // Whatever ends the fork loop, even an exception, the gate opens: the workers
  // that exist must run, or see the abort and end.
  struct gate_opener {
    wake_tree& turns;
    const int& started;
    ~gate_opener() {
      open_start_gate();
      turns.open(started);
    }
  };
  bool killed = false;
  {
    gate_opener opens_the_gate{turns, started};
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
        if (!stdout_is_terminal) std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
        g_process_upc_thread = t;
        turns.wait_turn(t);
        int status = run_upc_thread(t, body);
        std::fflush(nullptr);
        end_process(status);
      }
      control().slots[t].pid = pid;
      workers.add(t, pid);
      ++started;
      ++remaining;
      remaining -= reap_if_ended(workers, progress);
      mon.poll();
    }
    // Ctrl-C while forking: stop here, before the gate lets anyone run.
    if (g_interrupt_signal) {
      stop_on_interrupt(workers.pids(), started, opt.threads);
      killed = true;
    }
  }  // the gate opens here

  long pause_us = 50;
  bool all_turns_given = false;
  while (remaining > 0) {
    const int reaped = reap_if_ended(workers, progress);
    remaining -= reaped;
    if (g_interrupt_signal && !killed) {
      stop_on_interrupt(workers.pids(), started, opt.threads);
      killed = true;
    }
    // An abort: every worker must see it, also those below one that died
    // before waking them.
    if (!all_turns_given && control().abort.load()) {
      turns.open_all();
      all_turns_given = true;
    }
    mon.poll();
    if (!killed && (mon.must_force_stop() || (control().abort.load() && control().global_exit_called.load()))) {
      kill_all(workers.pids());
      killed = true;
    }
    if (reaped) { pause_us = 50; continue; }
    ::usleep(static_cast<useconds_t>(pause_us));
    if (pause_us < 5000) pause_us *= 2;
  }
}

}  // namespace upc::detail
