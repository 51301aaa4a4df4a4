// The failure paths of a run (issue 2, item 9), each exercised the way a user meets
// it: `upcrun ... victim MODE` in a subprocess (victim.cpp misbehaves on request).
// Every test asserts the exit status, what stderr says (thread, function, signal),
// and that no upcemu-* segment is left in /dev/shm.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
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

namespace {

double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// ---- /dev/shm ---------------------------------------------------------------

std::set<std::string> shm_segments() {
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
std::vector<std::string> leaked_segments(const std::set<std::string>& before, pid_t pid) {
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
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      for (const char* v : {"UPCEMU_THREADS", "UPCEMU_BACKEND", "UPCEMU_HEAP", "UPCEMU_NODES", "UPCEMU_CHECK",
                            "UPCEMU_TIMEOUT", "UPCEMU_WATCHDOG", "UPCEMU_STACK", "UPCEMU_QUIET"})
        ::unsetenv(v);
      for (auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      ::signal(SIGINT, SIG_DFL);
      ::execv(argv[0], argv.data());
      _exit(127);
    }
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

std::vector<std::string> upcrun_args(std::vector<std::string> options, std::vector<std::string> program_args) {
  std::vector<std::string> a{UPCRUN};
  a.insert(a.end(), options.begin(), options.end());
  a.push_back(VICTIM);
  a.insert(a.end(), program_args.begin(), program_args.end());
  return a;
}

// Runs `upcrun OPTIONS victim ARGS` to the end and checks that nothing is left in /dev/shm.
outcome run_victim(std::vector<std::string> options, std::vector<std::string> program_args, double timeout = 30) {
  child c(upcrun_args(std::move(options), std::move(program_args)));
  outcome o = c.finish(timeout);
  INFO("command: ", c.command());
  INFO("stdout:\n", o.out);
  INFO("stderr:\n", o.err);
  CHECK_FALSE(o.timed_out);
  CHECK(c.leaked().empty());
  return o;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Dead: no such process, or a zombie waiting for init to reap it (orphaned
// workers are reparented). Gives a dying process up to a second.
bool process_gone(pid_t pid) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::string stat_path = "/proc/" + std::to_string(pid) + "/stat";
    if (FILE* f = std::fopen(stat_path.c_str(), "r")) {
      char line[512] = {};
      std::size_t n = std::fread(line, 1, sizeof line - 1, f);
      std::fclose(f);
      const char* close_paren = std::strrchr(line, ')');
      if (n > 0 && close_paren && (close_paren[2] == 'Z' || close_paren[2] == 'X')) return true;
    }
    ::usleep(50000);
  }
  return false;
}

// "pid T PID" lines printed by `victim pids`.
std::vector<pid_t> worker_pids(const std::string& out, int threads) {
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
  return pids;
}

const char* const backends[] = {"threads", "processes"};

#define REPORT(o) INFO("stdout:\n", (o).out); INFO("stderr:\n", (o).err)

}  // namespace

// ---- upcrun itself ----------------------------------------------------------

TEST_CASE("upcrun rejects bad options with a clear message and status 2") {
  struct bad_case {
    std::vector<std::string> args;
    const char* message;
  };
  const std::vector<bad_case> cases = {
      {{"-n", "x", VICTIM}, "upcrun: -n must be an integer from 1 to 4096, got 'x'"},
      {{"-n", "0", VICTIM}, "-n must be an integer from 1 to 4096, got '0'"},
      {{"-n", "5000", VICTIM}, "got '5000'"},
      {{"-n", "4x", VICTIM}, "got '4x'"},
      {{"--threads=-3", VICTIM}, "got '-3'"},
      {{"-n"}, "-n needs a value"},
      {{"-n", "2", "--backend", "fibers", VICTIM}, "--backend must be 'threads' or 'processes', got 'fibers'"},
      {{"-n", "2", "--heap", "10", VICTIM}, "--heap must be a size of at least 64K"},
      {{"-n", "2", "--heap=12Q", VICTIM}, "got '12Q'"},
      {{"-n", "2", "--stack", "1k", VICTIM}, "--stack must be a size of at least 64K"},
      {{"-n", "2", "--nodes", "0", VICTIM}, "--nodes must be an integer from 1 to THREADS"},
      {{"-n", "2", "--nodes", "3", VICTIM}, "--nodes must be an integer from 1 to THREADS (2), got '3'"},
      {{"-n", "2", "--timeout", "-1", VICTIM}, "--timeout must be a number of seconds >= 0"},
      {{"-n", "2", "--timeout", "soon", VICTIM}, "got 'soon'"},
      {{"-n", "2", "--watchdog", "0", VICTIM}, "--watchdog must be a number of seconds > 0"},
      {{"-n", "2", "--watchdog"}, "--watchdog needs a value"},
      {{"-n", "2", "--frobnicate", VICTIM}, "unknown option '--frobnicate'"},
      {{"-n", "2", "--coll", "broadcast:pul", VICTIM}, "--coll: unknown algorithm 'pul' for broadcast; valid: pull, push"},
      {{"-n", "2", "--coll=shuffle:pull", VICTIM}, "--coll: unknown collective 'shuffle'; valid: broadcast, scatter"},
      {{"-n", "2", "--coll", "exchange:pairwise:9-1", VICTIM}, "is empty (lo > hi)"},
      {{"-n", "2", "--coll", "exchange", VICTIM}, "'exchange' is not collective:algorithm[:lo-hi]"},
      {{"-n", "2", "--upccoll-progress", "fast", VICTIM}, "--upccoll-progress must be 'inline' or 'thread', got 'fast'"},
      {{"-n", "2"}, "no program given"},
      {{}, "no program given"},
  };
  for (const bad_case& bc : cases) {
    std::vector<std::string> args{UPCRUN};
    args.insert(args.end(), bc.args.begin(), bc.args.end());
    child c(args);
    outcome o = c.finish();
    INFO("command: ", c.command());
    REPORT(o);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, bc.message));
    CHECK(contains(o.err, "upcrun --help"));
    CHECK(o.out.empty());
  }
}

TEST_CASE("upcrun --list-algorithms lists every collective's algorithms and the automatic choice") {
  child c({UPCRUN, "--list-algorithms"});
  outcome o = c.finish();
  REPORT(o);
  CHECK(o.exit_code == 0);
  for (const char* line : {"broadcast (auto: push when THREADS >= 16 and nbytes <= 4 KiB, else pull)", "  push [UPC_PUSH]:",
                           "exchange (auto: pull when nbytes <= 4 KiB, else pairwise)", "reduce (auto: flat)", "  ring:"})
    CHECK_MESSAGE(contains(o.out, line), line);
}

TEST_CASE("upcrun: a program that cannot be run is reported") {
  child c({UPCRUN, "-n", "2", "/nonexistent/upcemu-program"});
  outcome o = c.finish();
  REPORT(o);
  CHECK(o.exit_code == 127);
  CHECK(contains(o.err, "upcrun: cannot run '/nonexistent/upcemu-program'"));
}

TEST_CASE("upcrun --help documents every option, the environment and the exit codes; --version") {
  child c({UPCRUN, "--help"});
  outcome o = c.finish();
  REPORT(o);
  CHECK(o.exit_code == 0);
  for (const char* word : {"-n", "--backend", "--heap", "--nodes", "--check", "--watchdog", "--timeout", "--stack",
                           "--coll", "--verbose-coll", "--list-algorithms", "UPCEMU_COLL", "UPCEMU_VERBOSE_COLL",
                           "--quiet", "--help", "--version", "UPCEMU_THREADS", "UPCEMU_BACKEND", "UPCEMU_HEAP",
                           "UPCEMU_NODES", "UPCEMU_CHECK", "UPCEMU_TIMEOUT", "UPCEMU_WATCHDOG", "UPCEMU_STACK",
                           "UPCEMU_QUIET", "--upccoll-progress", "UPCEMU_UPCCOLL_PROGRESS", "124", "130", "128+N", "upc_global_exit", "Example"})
    CHECK_MESSAGE(contains(o.out, word), "--help does not mention ", word);

  child v({UPCRUN, "--version"});
  outcome ov = v.finish();
  CHECK(ov.exit_code == 0);
  CHECK(contains(ov.out, "upcrun (upcemu) "));
}

TEST_CASE("a bad UPCEMU_* variable stops a program started without upcrun (status 2)") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"UPCEMU_THREADS", "lots"}, {"UPCEMU_BACKEND", "fibers"}, {"UPCEMU_HEAP", "1"},
      {"UPCEMU_CHECK", "maybe"},  {"UPCEMU_WATCHDOG", "0"},     {"UPCEMU_TIMEOUT", "-2"},
      {"UPCEMU_NODES", "0"},      {"UPCEMU_STACK", "12"},      {"UPCEMU_QUIET", "2"},
  };
  for (const auto& [var, value] : cases) {
    child c({VICTIM, "hello"}, {{var, value}});
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, var + "='" + value + "' is invalid"));
    CHECK(c.leaked().empty());
  }
  // UPCEMU_COLL is checked at start too, whether or not a collective is called.
  child coll({VICTIM, "hello"}, {{"UPCEMU_COLL", "exchange:pairwise:1-abc"}});
  outcome oc = coll.finish();
  REPORT(oc);
  CHECK(oc.exit_code == 2);
  CHECK(contains(oc.err, "UPCEMU_COLL: size range '1-abc' in 'exchange:pairwise:1-abc' is not lo-hi"));
  // Set by hand, the variables work like upcrun's options.
  child ok({VICTIM, "hello"}, {{"UPCEMU_THREADS", "3"}, {"UPCEMU_BACKEND", "processes"}});
  outcome o = ok.finish();
  REPORT(o);
  CHECK(o.exit_code == 0);
  CHECK(contains(o.out, "3 of 3 threads said hello"));
}

TEST_CASE("upcrun passes options and arguments through; the program's status propagates") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b, "--heap", "1M", "--nodes", "3", "--check"}, {"hello"});
    REPORT(o);
    CHECK(o.exit_code == 0);
    CHECK(contains(o.out, "3 of 3 threads said hello"));
    CHECK(count_of(o.out, "Hello from thread") == 3);

    outcome s = run_victim({"-n4", "--backend=" + std::string(b)}, {"return_status", "2", "5"});
    REPORT(s);
    CHECK(s.exit_code == 5);
    CHECK(s.err.empty());
  }
  outcome d = run_victim({"-n", "2", "--"}, {"hello"});
  CHECK(d.exit_code == 0);
  CHECK(contains(d.out, "2 of 2 threads said hello"));
}

TEST_CASE("THREADS 1024 on the threads backend runs hello correctly") {
  outcome o = run_victim({"-n", "1024", "--stack", "256K"}, {"hello"}, 60);
  REPORT(o);
  CHECK(o.exit_code == 0);
  CHECK(contains(o.out, "1024 of 1024 threads said hello"));
  CHECK(count_of(o.out, "Hello from thread") == 1024);
  CHECK(contains(o.out, "Hello from thread 1023 of 1024"));
}

TEST_CASE("64 processes run hello correctly") {
  outcome o = run_victim({"-n", "64", "--backend", "processes", "--heap", "256K"}, {"hello"}, 60);
  REPORT(o);
  CHECK(o.exit_code == 0);
  CHECK(contains(o.out, "64 of 64 threads said hello"));
}

// ---- a thread fails ---------------------------------------------------------

TEST_CASE("an uncaught exception stops every thread and names the thread and the text") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "4", "--backend", b}, {"throw", "2"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "thread 2 failed: uncaught exception: victim deliberately threw"));
  }
}

TEST_CASE("a upc::error from bad input names the function, the problem and the thread") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b}, {"bad_unlock", "1"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "upc_unlock: this thread does not hold lock"));
    CHECK(contains(o.err, "(it is not held) (thread 1)"));
  }
}

TEST_CASE("SIGSEGV in one thread: status 139, the thread, the signal name and a backtrace") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "4", "--backend", b}, {"segv", "3"});
    REPORT(o);
    CHECK(o.exit_code == 139);
    CHECK(contains(o.err, "thread 3 was killed by signal SIGSEGV (Segmentation fault) at address"));
    CHECK(contains(o.err, "backtrace of thread 3"));
  }
}

TEST_CASE("abort() in one thread: status 134 and SIGABRT named") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b}, {"abort", "1"});
    REPORT(o);
    CHECK(o.exit_code == 134);
    CHECK(contains(o.err, "thread 1 was killed by signal SIGABRT"));
  }
}

TEST_CASE("exit(3) behind the runtime's back ends the run with status 3") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b}, {"exit3", "1"});
    REPORT(o);
    CHECK(o.exit_code == 3);
    if (std::string(b) == "processes")
      CHECK(contains(o.err, "thread 1 (pid "));
    CHECK(contains(o.err, std::string(b) == "processes" ? "exited with status 3 without returning from main"
                                                        : "thread 1 called exit(3) without returning from main"));
  }
}

TEST_CASE("a worker process killed with SIGKILL stops the run (status 137) and leaves nothing behind") {
  const int threads = 4;
  child c(upcrun_args({"-n", std::to_string(threads), "--backend", "processes"}, {"pids", "3"}));
  REQUIRE(c.wait_for_output([](const std::string& out) { return contains(out, "ready"); }, 20));
  std::vector<pid_t> pids = worker_pids(c.out(), threads);
  for (pid_t p : pids) REQUIRE(p > 0);
  REQUIRE(pids[1] != c.pid());
  ::kill(pids[1], SIGKILL);
  outcome o = c.finish();
  REPORT(o);
  CHECK_FALSE(o.timed_out);
  CHECK(o.exit_code == 137);
  CHECK(contains(o.err, "thread 1 (pid " + std::to_string(pids[1]) + ") was killed by signal SIGKILL"));
  for (pid_t p : pids) CHECK(process_gone(p));
  CHECK(c.leaked().empty());
}

TEST_CASE("SIGKILL of the whole program leaves no segment and no worker behind") {
  for (const char* b : backends) {
    CAPTURE(b);
    const int threads = 3;
    child c(upcrun_args({"-n", std::to_string(threads), "--backend", b}, {"pids", "2"}));
    REQUIRE(c.wait_for_output([](const std::string& out) { return contains(out, "ready"); }, 20));
    std::vector<pid_t> pids = worker_pids(c.out(), threads);
    c.send(SIGKILL);
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.signal == SIGKILL);
    for (pid_t p : pids) CHECK(process_gone(p));
    CHECK(c.leaked().empty());
  }
}

TEST_CASE("SIGINT to upcrun's process stops every thread with status 130") {
  for (const char* b : backends) {
    CAPTURE(b);
    const int threads = 4;
    child c(upcrun_args({"-n", std::to_string(threads), "--backend", b}, {"pids", "0"}));
    REQUIRE(c.wait_for_output([](const std::string& out) { return contains(out, "ready"); }, 20));
    std::vector<pid_t> pids = worker_pids(c.out(), threads);
    c.send(SIGINT);
    outcome o = c.finish();
    REPORT(o);
    CHECK_FALSE(o.timed_out);
    CHECK(o.exit_code == 130);
    CHECK(contains(o.err, "interrupted by SIGINT"));
    CHECK(contains(o.err, "all 4 threads"));
    for (pid_t p : pids) CHECK(process_gone(p));
    CHECK(c.leaked().empty());
  }
}

TEST_CASE("SIGTERM stops the run with status 143") {
  for (const char* b : backends) {
    CAPTURE(b);
    child c(upcrun_args({"-n", "2", "--backend", b}, {"sleep"}));
    REQUIRE(c.wait_for_output([](const std::string& out) { return count_of(out, "ready") == 2; }, 20));
    c.send(SIGTERM);
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.exit_code == 143);
    CHECK(contains(o.err, "interrupted by SIGTERM"));
    CHECK(c.leaked().empty());
  }
}

// ---- ending on purpose ------------------------------------------------------

TEST_CASE("upc_global_exit(7) from any thread ends every thread with status 7") {
  const int threads = 4;
  for (const char* b : backends)
    for (int who : {0, threads - 1}) {
      CAPTURE(b);
      CAPTURE(who);
      outcome o = run_victim({"-n", std::to_string(threads), "--backend", b}, {"global_exit", std::to_string(who), "7"});
      REPORT(o);
      CHECK(o.exit_code == 7);
      CHECK(o.err.empty());
      // Output written before the exit is not lost on either backend.
      CHECK(count_of(o.out, "before global exit") == threads);
      CHECK_FALSE(contains(o.out, "passed the barrier"));
    }
}

TEST_CASE("upc_global_exit ends threads that never call the runtime again") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b}, {"global_exit_busy", "1", "9"});
    REPORT(o);
    CHECK(o.exit_code == 9);
    CHECK(count_of(o.out, "before global exit") == 3);
  }
}

TEST_CASE("--timeout stops a run that takes too long with status 124") {
  for (const char* b : backends) {
    CAPTURE(b);
    // Threads computing (sleeping) without calling the runtime.
    outcome o = run_victim({"-n", "2", "--backend", b, "--timeout", "0.5"}, {"sleep"});
    REPORT(o);
    CHECK(o.exit_code == 124);
    CHECK(contains(o.err, "exceeded its time limit of 0.5 s (--timeout)"));
    CHECK(contains(o.err, "threads 0-1: running"));
    // Threads blocked in the runtime: the report says where.
    outcome w = run_victim({"-n", "3", "--backend", b, "--timeout", "0.5"}, {"barrier_skip", "1"});
    REPORT(w);
    CHECK(w.exit_code == 124);
    CHECK(contains(w.err, "thread 0: waiting in upc_barrier (id 42) at "));
    CHECK(contains(w.err, "thread 1: waiting in upc_lock (lock 0x"));
  }
}

// ---- deadlocks --------------------------------------------------------------

TEST_CASE("a lock-order deadlock is found without --check and each thread's wait is printed (issue 8.5)") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b, "--watchdog", "0.5"}, {"lock_deadlock"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "deadlock: every thread is waiting and none can go on (no progress for 0.5 s; --watchdog sets the delay)"));
    CHECK(contains(o.err, "thread 0: waiting in upc_lock (lock 0x"));
    CHECK(contains(o.err, "thread 1: waiting in upc_lock (lock 0x"));
    CHECK(contains(o.err, ", held by thread 1) at "));
    CHECK(contains(o.err, ", held by thread 0) at "));
    CHECK(contains(o.err, "thread 2: waiting in upc_barrier at "));
    CHECK(contains(o.err, "victim.cpp:"));
  }
}

TEST_CASE("--check: a barrier that one thread never reaches is found") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "4", "--backend", b, "--check", "--watchdog", "0.5"}, {"barrier_skip", "2"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "deadlock"));
    CHECK(contains(o.err, "threads 0-1: waiting in upc_barrier (id 42) at "));
    CHECK(contains(o.err, "thread 2: waiting in upc_lock (lock 0x"));
    CHECK(contains(o.err, ", held by thread 0) at "));
    CHECK(contains(o.err, "thread 3: waiting in upc_barrier (id 42) at "));
  }
}

TEST_CASE("--check: the deadlock report of a large run groups threads that wait in the same place") {
  for (const char* b : backends) {
    CAPTURE(b);
    const int threads = std::string(b) == "threads" ? 256 : 32;
    const std::string last = std::to_string(threads - 1);
    outcome o = run_victim({"-n", std::to_string(threads), "--backend", b, "--heap", "256K", "--check", "--watchdog", "0.5"},
                           {"barrier_skip", "5"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "threads 0-4: waiting in upc_barrier (id 42) at "));
    CHECK(contains(o.err, "thread 5: waiting in upc_lock (lock 0x"));
    CHECK(contains(o.err, "threads 6-" + last + ": waiting in upc_barrier (id 42) at "));
    CHECK(count_of(o.err, "\n  thread") == 3);
  }
}

// The line of a victim.cpp statement, found by its text (so the test follows edits).
int victim_line(const std::string& text) {
  std::FILE* f = std::fopen(VICTIM_SOURCE, "r");
  REQUIRE(f);
  char buf[512];
  int n = 0, found = -1;
  while (std::fgets(buf, sizeof buf, f)) {
    ++n;
    if (std::string(buf).find(text) != std::string::npos) { found = n; break; }
  }
  std::fclose(f);
  REQUIRE(found > 0);
  return found;
}

TEST_CASE("a collective on some threads and upc_barrier on others: a deadlock report naming both user lines (issue 8.5)") {
  const std::string coll_line = "victim.cpp:" + std::to_string(victim_line("line reported for odd threads"));
  const std::string barrier_line = "victim.cpp:" + std::to_string(victim_line("line reported for even threads"));
  for (const char* b : backends)
    for (const char* earlier : {"0", "1"}) {
      CAPTURE(b);
      CAPTURE(earlier);
      outcome o = run_victim({"-n", "4", "--backend", b, "--watchdog", "0.5"}, {"coll_vs_barrier", earlier});
      REPORT(o);
      CHECK(o.exit_code == 1);
      CHECK(contains(o.err, "deadlock: every thread is waiting and none can go on"));
      CHECK(contains(o.err, "thread 1: waiting in upc_all_broadcast at "));
      CHECK(contains(o.err, coll_line));
      CHECK(contains(o.err, "thread 0: waiting in upc_barrier at "));
      CHECK(contains(o.err, barrier_line));
      CHECK(contains(o.err, "the threads wait in different synchronisation calls"));
      CHECK(!contains(o.err, "lib/coll"));
      CHECK(!contains(o.err, "lib/runtime"));
      CHECK(!contains(o.err, "single-valued"));
    }
}

TEST_CASE("--check: threads waiting for one that computes are warned about, with its last runtime call (issue 8.10)") {
  const std::string coll_line = "victim.cpp:" + std::to_string(victim_line("thread 0's last runtime call"));
  const std::string wait_line = "victim.cpp:" + std::to_string(victim_line("where the others wait"));
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "4", "--backend", b, "--check", "--wait-warning", "0.5", "--timeout", "2"},
                           {"spin_after_coll"});
    REPORT(o);
    CHECK(o.exit_code == 124);
    CHECK(contains(o.err, "upcemu: warning: threads 1-3 have waited 0.5 s in upc_barrier at "));
    CHECK(contains(o.err, wait_line));
    CHECK(contains(o.err, "thread 0 has not arrived (last runtime call: upc_all_broadcast at "));
    CHECK(contains(o.err, coll_line + ") (--wait-warning)"));
    CHECK(count_of(o.err, "upcemu: warning:") == 1);  // once per wait
  }
}

TEST_CASE("a thread returning from main while others wait at a barrier is an error") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "4", "--backend", b}, {"return_early", "3"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "upc_barrier: thread 3 has already returned from main, so this barrier can never complete"));
  }
}

// ---- declared objects -----------------------------------------------------------

TEST_CASE("a namespace-scope array with a negative element count stops the run before it starts (issue 8.7a)") {
  for (const char* b : backends) {
    CAPTURE(b);
    child c(upcrun_args({"-n", "3", "--backend", b}, {"hello"}), {{"VICTIM_ARRAY_COUNT", "-5"}});
    outcome o = c.finish(30);
    REPORT(o);
    CHECK_FALSE(o.timed_out);
    CHECK(c.leaked().empty());
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "shared_array<int> (declared at "));
    CHECK(contains(o.err, "victim.cpp:"));
    CHECK(contains(o.err, "the element count 18446744073709551611 is too large (is it a negative number converted to size_t?)"));
    CHECK_FALSE(contains(o.out, "Hello"));  // no thread ran
  }
}
