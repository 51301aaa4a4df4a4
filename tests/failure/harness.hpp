// What every failure test needs: run `upcrun ... victim MODE` (or the victim
// alone) as a child process, collect its stdout and stderr, its status or the
// signal that ended it, and what it left in /dev/shm.
#pragma once
#include <doctest/doctest.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#ifndef UPCRUN
#error "UPCRUN must name the built upcrun (set by tests/failure/meson.build)"
#endif
#ifndef VICTIM
#error "VICTIM must name the built victim program (set by tests/failure/meson.build)"
#endif

namespace failure_harness {

inline double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// ---- /dev/shm ---------------------------------------------------------------

inline std::set<std::string> shm_segments() {
  std::set<std::string> names;
  if (DIR* d = ::opendir("/dev/shm")) {
    while (dirent* e = ::readdir(d))
      if (std::strncmp(e->d_name, "upcemu-", 7) == 0) names.insert(e->d_name);
    ::closedir(d);
  }
  return names;
}

// Segments named after `pid` (the launcher's), or new since `before` and still
// there a moment later (other test runs on the machine create and unlink theirs
// within microseconds, so only a lasting one is a leak).
inline std::vector<std::string> leaked_segments(const std::set<std::string>& before, pid_t pid) {
  const std::string mine = "upcemu-" + std::to_string(pid) + "-";
  std::vector<std::string> leaked;
  for (int attempt = 0; attempt < 2; ++attempt) {
    leaked.clear();
    for (const std::string& n : shm_segments())
      if (!before.count(n) || n.rfind(mine, 0) == 0) leaked.push_back(n);
    if (leaked.empty()) break;
    ::usleep(300000);
  }
  return leaked;
}

// ---- a child process with captured stdout and stderr ------------------------

struct outcome {
  int exit_code = -1;  // the exit status, or 128+N when killed by signal N (as a shell says)
  int signal = 0;      // the signal that ended it, 0 if it exited
  bool timed_out = false;
  std::string out, err;
};

class child {
 public:
  explicit child(std::vector<std::string> args, std::vector<std::pair<std::string, std::string>> env = {})
      : before_(shm_segments()) {
    int out[2], err[2];
    REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
    REQUIRE(::pipe2(err, O_CLOEXEC) == 0);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // A signal sent at once must not reach the test's own handlers (doctest's) in
    // the child before exec: hold the signals until the child has default actions.
    sigset_t all, previous;
    sigfillset(&all);
    ::sigprocmask(SIG_BLOCK, &all, &previous);
    pid_ = ::fork();
    if (pid_ == 0) {
      for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, SIG_DFL);
      ::sigprocmask(SIG_SETMASK, &previous, nullptr);
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      for (const char* v : {"UPCEMU_THREADS", "UPCEMU_BACKEND", "UPCEMU_HEAP", "UPCEMU_NODES", "UPCEMU_CHECK",
                            "UPCEMU_TIMEOUT", "UPCEMU_WATCHDOG", "UPCEMU_STACK", "UPCEMU_QUIET"})
        ::unsetenv(v);
      for (auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      ::execv(argv[0], argv.data());
      _exit(127);
    }
    ::sigprocmask(SIG_SETMASK, &previous, nullptr);
    REQUIRE(pid_ >= 0);
    ::close(out[1]);
    ::close(err[1]);
    fd_[0] = out[0];
    fd_[1] = err[0];
    command_ = args[0];
    for (std::size_t i = 1; i < args.size(); ++i) command_ += " " + args[i];
  }
  ~child() {
    if (!reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    for (int fd : fd_)
      if (fd >= 0) ::close(fd);
  }
  child(const child&) = delete;
  child& operator=(const child&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& out() const { return out_; }
  const std::string& command() const { return command_; }

  // Collects output until pred(stdout) holds; false after `timeout` seconds or EOF.
  bool wait_for_output(const std::function<bool(const std::string&)>& pred, double timeout) {
    const double end = now() + timeout;
    while (!pred(out_)) {
      if (now() > end || !pump(50)) return pred(out_);
    }
    return true;
  }

  void send(int sig) { REQUIRE(::kill(pid_, sig) == 0); }

  // Collects everything until both pipes close (so every process holding them,
  // forked workers included, is gone), then reaps the child.
  outcome finish(double timeout = 30) {
    outcome o;
    const double end = now() + timeout;
    while (pump(100)) {
      if (!o.timed_out && now() > end) {
        o.timed_out = true;
        ::kill(pid_, SIGKILL);
      }
      if (o.timed_out && now() > end + 5) break;
    }
    int status = 0;
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
    if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
      o.signal = WTERMSIG(status);
      o.exit_code = 128 + o.signal;
    }
    o.out = out_;
    o.err = err_;
    return o;
  }

  std::vector<std::string> leaked() const { return leaked_segments(before_, pid_); }

 private:
  // Reads what is available within `ms`; false once both pipes are at EOF.
  bool pump(int ms) {
    pollfd p[2];
    int n = 0;
    for (int i = 0; i < 2; ++i)
      if (fd_[i] >= 0) p[n++] = {fd_[i], POLLIN, 0};
    if (n == 0) return false;
    int r = ::poll(p, n, ms);
    if (r < 0 && errno != EINTR) return false;
    for (int i = 0; i < n; ++i) {
      if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      ssize_t got = ::read(p[i].fd, buf, sizeof buf);
      int which = p[i].fd == fd_[0] ? 0 : 1;
      if (got > 0) {
        (which == 0 ? out_ : err_).append(buf, static_cast<std::size_t>(got));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        ::close(fd_[which]);
        fd_[which] = -1;
      }
    }
    return fd_[0] >= 0 || fd_[1] >= 0;
  }

  std::set<std::string> before_;
  pid_t pid_ = -1;
  int fd_[2] = {-1, -1};
  bool reaped_ = false;
  std::string out_, err_, command_;
};

inline std::vector<std::string> upcrun_args(std::vector<std::string> options, std::vector<std::string> program_args) {
  std::vector<std::string> a{UPCRUN};
  a.insert(a.end(), options.begin(), options.end());
  a.push_back(VICTIM);
  a.insert(a.end(), program_args.begin(), program_args.end());
  return a;
}

// Runs `upcrun OPTIONS victim ARGS` to the end and checks that nothing is left in /dev/shm.
inline outcome run_victim(std::vector<std::string> options, std::vector<std::string> program_args, double timeout = 30) {
  child c(upcrun_args(std::move(options), std::move(program_args)));
  outcome o = c.finish(timeout);
  INFO("command: ", c.command());
  INFO("stdout:\n", o.out);
  INFO("stderr:\n", o.err);
  CHECK_FALSE(o.timed_out);
  CHECK(c.leaked().empty());
  return o;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Dead: no such process, or a zombie waiting for init to reap it (orphaned
// workers are reparented). Gives a dying process up to a second.
// The start time of process `pid` (field 22 of /proc/PID/stat, clock ticks since
// boot), 0 when there is none. With pid_max at 32768 and other tests forking
// thousands of processes, a worker's pid can belong to another process a second
// after the worker ended: the start time tells them apart.
inline unsigned long long process_start_time(pid_t pid) {
  std::string stat_path = "/proc/" + std::to_string(pid) + "/stat";
  FILE* f = std::fopen(stat_path.c_str(), "r");
  if (!f) return 0;
  char line[1024] = {};
  std::size_t n = std::fread(line, 1, sizeof line - 1, f);
  std::fclose(f);
  const char* p = n > 0 ? std::strrchr(line, ')') : nullptr;
  if (!p) return 0;
  // after ") ": field 3 (state) .. field 22 (starttime)
  std::istringstream in(p + 2);
  std::string field;
  for (int i = 3; i < 22 && in >> field; ++i) {}
  unsigned long long start = 0;
  in >> start;
  return start;
}

// The start times of the workers worker_pids() read, while they were running.
inline std::map<pid_t, unsigned long long>& known_start_times() {
  static std::map<pid_t, unsigned long long> times;
  return times;
}

// A worker killed by PR_SET_PDEATHSIG dies only after its launcher's memory is
// torn down, and then tears down its own: on two cores shared with a parallel
// test run that took more than a second, so the look lasts up to 5 s.
inline bool process_gone(pid_t pid) {
  const auto known = known_start_times().find(pid);
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::string stat_path = "/proc/" + std::to_string(pid) + "/stat";
    if (FILE* f = std::fopen(stat_path.c_str(), "r")) {
      char line[512] = {};
      std::size_t n = std::fread(line, 1, sizeof line - 1, f);
      std::fclose(f);
      const char* close_paren = std::strrchr(line, ')');
      if (n > 0 && close_paren && (close_paren[2] == 'Z' || close_paren[2] == 'X')) return true;
    }
    // another process has the pid now: the worker is gone
    if (known != known_start_times().end() && known->second != 0 && process_start_time(pid) != known->second)
      return true;
    ::usleep(50000);
  }
  return false;
}

inline std::vector<pid_t> worker_pids(const std::string& out, int threads) {
  std::vector<pid_t> pids(threads, 0);
  std::istringstream in(out);
  std::string word;
  while (in >> word)
    if (word == "pid") {
      int t = -1;
      long p = 0;
      in >> t >> p;
      if (t >= 0 && t < threads) pids[t] = static_cast<pid_t>(p);
    }
  for (pid_t p : pids)
    if (p > 0) known_start_times()[p] = process_start_time(p);
  return pids;
}

// The mpi backend joins every test written for all backends when it is built
// (tests/failure/meson.build defines HAVE_MPI_BACKEND).
#ifdef HAVE_MPI_BACKEND
inline const char* const backends[] = {"threads", "processes", "mpi"};
#else
inline const char* const backends[] = {"threads", "processes"};
#endif

#define REPORT(o) INFO("stdout:\n", (o).out); INFO("stderr:\n", (o).err)

}  // namespace failure_harness

using namespace failure_harness;
