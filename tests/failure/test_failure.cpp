// The failure paths of a run (issue 2, item 9), each exercised the way a user meets
// it: `upcrun ... victim MODE` in a subprocess (victim.cpp misbehaves on request).
// Every test asserts the exit status, what stderr says (thread, function, signal),
// and that no upcemu-* segment is left in /dev/shm. Most are rows of one table at
// the end (a run and what it ends with); the tests before it check upcrun's own
// messages, or send a signal while the run is on.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include "harness.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

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
      {{"-n", "2", "--backend", "fibers", VICTIM}, "--backend must be 'threads', 'processes' or 'mpi', got 'fibers'"},
      {{"-n", "2", "--heap", "10", VICTIM}, "--heap must be a size of at least 64K"},
      {{"-n", "2", "--heap=12Q", VICTIM}, "got '12Q'"},
      {{"-n", "2", "--stack", "1k", VICTIM}, "--stack must be a size of at least 64K"},
      {{"-n", "2", "--nodes", "0", VICTIM}, "--nodes must be an integer from 1 to THREADS"},
      {{"-n", "2", "--nodes", "3", VICTIM}, "--nodes must be between 1 and THREADS (2), got 3"},
      {{"-n", "2", "--report=bytes", VICTIM},
       "--report must be 'traffic', 'locality' or both separated by a comma, got 'bytes'"},
      {{"-n", "2", "--net=fast", VICTIM}, "--net must be LATENCY_US,GBPS"},
      {{"-n", "2", "--net=0,0", VICTIM}, "--net must be LATENCY_US,GBPS"},
      // non-finite or overflowing numbers are refused, not read as 0 (issue 27.7)
      {{"-n", "2", "--net=inf,10", VICTIM}, "--net must be LATENCY_US,GBPS (finite numbers"},
      {{"-n", "2", "--net=1,nan", VICTIM}, "got '1,nan'"},
      {{"-n", "2", "--net=1e300,1", VICTIM}, "got '1e300,1'"},
      {{"-n", "2", "--net=1,1e-300", VICTIM}, "got '1,1e-300'"},
      {{"-n", "2", "--timeout", "inf", VICTIM}, "--timeout must be a number of seconds >= 0 (0: no limit), got 'inf'"},
      {{"-n", "2", "--watchdog", "infinity", VICTIM}, "--watchdog must be a number of seconds > 0, got 'infinity'"},
      {{"-n", "2", "--wait-warning", "nan", VICTIM}, "--wait-warning must be a number of seconds >= 0 (0: off), got 'nan'"},
      // a report file that cannot be written is found before the run (issue 27.9)
      {{"-n", "2", "--report-file", "/nonexistent-upcemu/r.jsonl", VICTIM},
       "--report-file: cannot write '/nonexistent-upcemu/r.jsonl': No such file or directory"},
      {{"-n", "2", "--report-file=/tmp", VICTIM}, "--report-file: cannot write '/tmp': Is a directory"},
      {{"-n", "2", "--node-map", "/nonexistent/map", VICTIM}, "--node-map: cannot read the node map file '/nonexistent/map'"},
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
  for (const char* line : {"broadcast (auto: mpi when the team spans several hosts; binomial_flat when the team spans >= 8 nodes and size >= 64 KiB; binomial_flat when the team spans >= 4 nodes and size >= 1 MiB; multicore when the team spans several nodes; push when THREADS >= 16 and size <= 4 KiB, else pull)",
                           "  push [UPC_PUSH]:", "  multicore [UPC_MULTICORE]:",
                           "exchange (auto: mpi when the team spans several hosts; pairwise when the team spans >= 2 nodes and size > 2 KiB; multicore when the team spans several nodes; pull when size <= 4 KiB, else pairwise)", "reduce (auto: binomial_flat when the team spans >= 8 nodes; multicore when the team spans several nodes; flat)", "  ring:",
                           "gather_all (auto: mpi when the team spans several hosts; multicore when the team spans several nodes; push when THREADS >= 4 and size > 4 KiB, else pull)",
                           "prefix_reduce (auto: multicore when the team spans several nodes; binomial when THREADS == 2 and size <= 256 KiB, else flat)",
                           "iallreduce (auto: redundant when size <= 4 KiB, else chunked)",
                           "[not for: private src, private dst, in place, suffix scans]"})
    CHECK_MESSAGE(contains(o.out, line), line);
}

TEST_CASE("upcrun: a program that cannot be run is reported") {
  // Alike on every backend: on mpi, upcrun looks before it starts mpirun
  // (issue 27.5); a source file is there but not executable.
  for (const char* b : backends) {
    CAPTURE(b);
    for (const auto& [program, status, why] :
         {std::tuple{"/nonexistent/upcemu-program", 127, "No such file or directory"},
          std::tuple{"upcemu-program-not-in-path", 127, "No such file or directory"},
          std::tuple{VICTIM_SOURCE, 126, "Permission denied"}}) {
      child c({UPCRUN, "-n", "2", "--backend", b, program});
      outcome o = c.finish();
      REPORT(o);
      CHECK(o.exit_code == status);
      CHECK(contains(o.err, std::string("upcrun: cannot run '") + program + "': " + why));
    }
  }
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
                           "UPCEMU_QUIET", "--threads-per-node", "--node-map", "--report=traffic", "--report-file",
                           "--net=LAT_US,GBPS", "UPCEMU_THREADS_PER_NODE", "UPCEMU_NODE_MAP", "UPCEMU_REPORT",
                           "UPCEMU_REPORT_FILE", "UPCEMU_NET", "--upccoll-progress", "UPCEMU_UPCCOLL_PROGRESS", "124", "130", "128+N", "upc_global_exit", "Example"})
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
  // Non-finite numbers are refused as upcrun refuses them (issue 27.7).
  for (const auto& [var, value] : std::vector<std::pair<std::string, std::string>>{
           {"UPCEMU_TIMEOUT", "inf"}, {"UPCEMU_WAIT_WARNING", "nan"}, {"UPCEMU_NET", "inf,10"}}) {
    child c({VICTIM, "hello"}, {{var, value}});
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, var + "='" + value + "' is invalid"));
  }
  // A report file that cannot be written is found at the start (issue 27.9).
  child report({VICTIM, "hello"}, {{"UPCEMU_REPORT_FILE", "/nonexistent-upcemu/r.jsonl"}});
  outcome orp = report.finish();
  REPORT(orp);
  CHECK(orp.exit_code == 2);
  CHECK(contains(orp.err, "UPCEMU_REPORT_FILE='/nonexistent-upcemu/r.jsonl' cannot be written: No such file or directory"));
  CHECK_FALSE(contains(orp.out, "said hello"));
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

// ---- signals sent while the run is on ---------------------------------------

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

// ---- a run and what it ends with: one table ---------------------------------
//
// Each row runs `upcrun OPTIONS victim ARGS`, once on each backend when an
// option names {backend}, and checks what every run checks (it ended within its
// time and left nothing in /dev/shm), the exit status, and what stdout and
// stderr say. A row is a subcase of its own: -sc='*text*' runs the rows whose
// description has that text.

// How often a text stands in an output: `times`, or at least that (or_more).
struct occurrences {
  std::string text;
  std::size_t times;
  bool or_more = false;
};

struct victim_run {
  std::string what;                  // what the run shows
  std::vector<std::string> options;  // upcrun's; "{backend}" in one: a run per backend
  std::vector<std::string> args;     // the victim's mode and its arguments
  int status;                        // the exit status
  std::vector<std::string> err_has = {}, err_lacks = {}, out_has = {}, out_lacks = {};
  std::vector<occurrences> err_counts = {}, out_counts = {};
  bool err_empty = false;
  const char* skip_backend = nullptr;  // a backend the row does not run on
  double timeout = 30;                 // seconds before the run is killed (and fails)
  std::vector<std::pair<std::string, std::string>> env = {};  // set for upcrun
};

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

std::string victim_at(const std::string& text) { return "victim.cpp:" + std::to_string(victim_line(text)); }

// Built once: the subcases run the test case again, one row each time.
const std::vector<victim_run>& victim_runs() {
  static const std::string coll_line = victim_at("line reported for odd threads");
  static const std::string barrier_line = victim_at("line reported for even threads");
  static const std::string last_call_line = victim_at("thread 0's last runtime call");
  static const std::string wait_line = victim_at("where the others wait");
  static const std::string scoped_array = "shared_array<int> (declared at ";
  static const std::string scoped_array_line = victim_at("the scoped array") + ") (end of scope)";
  static const std::string barrier_wait = "waiting in upc_barrier (id 42) at ";
  static const std::vector<victim_run> runs = {
      // upcrun itself
      {.what = "upcrun passes options and arguments through",
       .options = {"-n", "3", "--backend", "{backend}", "--heap", "1M", "--nodes", "3", "--check"}, .args = {"hello"},
       .status = 0, .out_has = {"3 of 3 threads said hello"}, .out_counts = {{"Hello from thread", 3}}},
      {.what = "the program's status propagates", .options = {"-n4", "--backend={backend}"},
       .args = {"return_status", "2", "5"}, .status = 5, .err_empty = true},
      {.what = "upcrun's options end at --", .options = {"-n", "2", "--"}, .args = {"hello"}, .status = 0,
       .out_has = {"2 of 2 threads said hello"}},
      {.what = "THREADS 1024 on the threads backend runs hello correctly", .options = {"-n", "1024", "--stack", "256K"},
       .args = {"hello"}, .status = 0,
       .out_has = {"1024 of 1024 threads said hello", "Hello from thread 1023 of 1024"},
       .out_counts = {{"Hello from thread", 1024}}, .timeout = 60},
      {.what = "64 processes run hello correctly", .options = {"-n", "64", "--backend", "processes", "--heap", "256K"},
       .args = {"hello"}, .status = 0, .out_has = {"64 of 64 threads said hello"}, .timeout = 60},

      // a thread fails
      {.what = "an uncaught exception stops every thread and names the thread and the text",
       .options = {"-n", "4", "--backend", "{backend}"}, .args = {"throw", "2"}, .status = 1,
       .err_has = {"thread 2 failed: uncaught exception: victim deliberately threw"}},
      {.what = "a upc::error from bad input names the function, the problem and the thread",
       .options = {"-n", "3", "--backend", "{backend}"}, .args = {"bad_unlock", "1"}, .status = 1,
       .err_has = {"upc_unlock: this thread does not hold lock", "(it is not held) (thread 1)"}},
      {.what = "SIGSEGV in one thread: status 139, the thread, the signal name and a backtrace",
       .options = {"-n", "4", "--backend", "{backend}"}, .args = {"segv", "3"}, .status = 139,
       .err_has = {"thread 3 was killed by signal SIGSEGV (Segmentation fault) at address", "backtrace of thread 3"}},
      // The report of a stack overflow is written on the alternate signal stack:
      // a thread of the threads backend makes its own, a worker process keeps the
      // launcher's (issue 27.4: the workers inherit it instead of making one).
      {.what = "a stack overflow in one thread is reported like any SIGSEGV, with the thread and its frames",
       .options = {"-n", "3", "--backend", "{backend}", "--stack", "256K"}, .args = {"stack_overflow", "1"}, .status = 139,
       .err_has = {"thread 1 was killed by signal SIGSEGV (Segmentation fault) at address", "backtrace of thread 1"}},
      {.what = "abort() in one thread: status 134 and SIGABRT named", .options = {"-n", "3", "--backend", "{backend}"},
       .args = {"abort", "1"}, .status = 134, .err_has = {"thread 1 was killed by signal SIGABRT"}},
      // exit(3) ends thread 1 alone (UPC 1.3 §5.1.2.2.3, issue 26.9); the others
      // then wait at a barrier it never reaches, which is reported.
      {.what = "exit(3) in one thread ends that thread; the barrier it never reaches is reported",
       .options = {"-n", "3", "--backend", "{backend}"}, .args = {"exit3", "1"}, .status = 1,
       .err_has = {"thread 1 has already ended by calling exit(3), so this barrier can never complete"}},
      {.what = "a thread returning from main while others wait at a barrier is an error",
       .options = {"-n", "4", "--backend", "{backend}"}, .args = {"return_early", "3"}, .status = 1,
       .err_has = {"upc_barrier: thread 3 has already returned from main, so this barrier can never complete"}},

      // ending on purpose; output written before the exit is not lost on any backend
      {.what = "upc_global_exit(7) from thread 0 ends every thread with status 7",
       .options = {"-n", "4", "--backend", "{backend}"}, .args = {"global_exit", "0", "7"}, .status = 7,
       .out_lacks = {"passed the barrier"}, .out_counts = {{"before global exit", 4}}, .err_empty = true},
      {.what = "upc_global_exit(7) from thread 3 ends every thread with status 7",
       .options = {"-n", "4", "--backend", "{backend}"}, .args = {"global_exit", "3", "7"}, .status = 7,
       .out_lacks = {"passed the barrier"}, .out_counts = {{"before global exit", 4}}, .err_empty = true},
      {.what = "upc_global_exit ends threads that never call the runtime again",
       .options = {"-n", "3", "--backend", "{backend}"}, .args = {"global_exit_busy", "1", "9"}, .status = 9,
       .out_counts = {{"before global exit", 3}}},
      // Thread 0 exits, the others compute: on mpi, rank 0 (the supervisor) must
      // still end the job once its own thread has gone (issue 27.3).
      {.what = "upc_global_exit from thread 0 ends threads that never call the runtime again",
       .options = {"-n", "2", "--backend", "{backend}"}, .args = {"global_exit_busy", "0", "9"}, .status = 9},
      {.what = "--timeout stops a run that takes too long with status 124 (threads computing)",
       .options = {"-n", "2", "--backend", "{backend}", "--timeout", "0.5"}, .args = {"sleep"}, .status = 124,
       .err_has = {"exceeded its time limit of 0.5 s (--timeout)", "threads 0-1: running"}},
      {.what = "--timeout stops a run that takes too long with status 124 (threads blocked in the runtime: where)",
       .options = {"-n", "3", "--backend", "{backend}", "--timeout", "0.5"}, .args = {"barrier_skip", "1"},
       .status = 124, .err_has = {"thread 0: " + barrier_wait, "thread 1: waiting in upc_lock (lock 0x"}},
      // on mpi, rank 0's thread is gone but the job must still end (issue 27.3)
      {.what = "--timeout stops a run that takes too long with status 124 (thread 0 stopped, thread 1 asleep)",
       .options = {"-n", "2", "--backend", "{backend}", "--timeout", "0.5"}, .args = {"pids", "1"}, .status = 124,
       .err_has = {"exceeded its time limit of 0.5 s (--timeout)", "thread 1: running"}},

      // deadlocks
      {.what = "a lock-order deadlock is found without --check and each thread's wait is printed (issue 8.5)",
       .options = {"-n", "3", "--backend", "{backend}", "--watchdog", "0.5"}, .args = {"lock_deadlock"}, .status = 1,
       .err_has = {"deadlock: every thread is waiting and none can go on (no progress for 0.5 s; --watchdog sets the delay)",
                   "thread 0: waiting in upc_lock (lock 0x", "thread 1: waiting in upc_lock (lock 0x",
                   ", held by thread 1) at ", ", held by thread 0) at ", "thread 2: waiting in upc_barrier at ",
                   "victim.cpp:"}},
      {.what = "--check: a barrier that one thread never reaches is found",
       .options = {"-n", "4", "--backend", "{backend}", "--check", "--watchdog", "0.5"}, .args = {"barrier_skip", "2"},
       .status = 1,
       .err_has = {"deadlock", "threads 0-1: " + barrier_wait, "thread 2: waiting in upc_lock (lock 0x",
                   ", held by thread 0) at ", "thread 3: " + barrier_wait}},
      {.what = "--check: the deadlock report of a large run groups threads that wait in the same place (256 threads)",
       .options = {"-n", "256", "--backend", "threads", "--heap", "256K", "--check", "--watchdog", "0.5"},
       .args = {"barrier_skip", "5"}, .status = 1,
       .err_has = {"threads 0-4: " + barrier_wait, "thread 5: waiting in upc_lock (lock 0x", "threads 6-255: " + barrier_wait},
       .err_counts = {{"\n  thread", 3}}},
      {.what = "--check: the deadlock report of a large run groups threads that wait in the same place (32 processes)",
       .options = {"-n", "32", "--backend", "{backend}", "--heap", "256K", "--check", "--watchdog", "0.5"},
       .args = {"barrier_skip", "5"}, .status = 1,
       .err_has = {"threads 0-4: " + barrier_wait, "thread 5: waiting in upc_lock (lock 0x", "threads 6-31: " + barrier_wait},
       .err_counts = {{"\n  thread", 3}}, .skip_backend = "threads"},
      {.what = "a collective on some threads and upc_barrier on others: a deadlock report naming both user lines "
               "(issue 8.5; the collective first)",
       .options = {"-n", "4", "--backend", "{backend}", "--watchdog", "0.5"}, .args = {"coll_vs_barrier", "0"},
       .status = 1,
       .err_has = {"deadlock: every thread is waiting and none can go on", "thread 1: waiting in upc_all_broadcast at ",
                   coll_line, "thread 0: waiting in upc_barrier at ", barrier_line,
                   "the threads wait in different synchronisation calls"},
       .err_lacks = {"lib/coll", "lib/runtime", "single-valued"}},
      {.what = "a collective on some threads and upc_barrier on others: a deadlock report naming both user lines "
               "(issue 8.5; the barrier first)",
       .options = {"-n", "4", "--backend", "{backend}", "--watchdog", "0.5"}, .args = {"coll_vs_barrier", "1"},
       .status = 1,
       .err_has = {"deadlock: every thread is waiting and none can go on", "thread 1: waiting in upc_all_broadcast at ",
                   coll_line, "thread 0: waiting in upc_barrier at ", barrier_line,
                   "the threads wait in different synchronisation calls"},
       .err_lacks = {"lib/coll", "lib/runtime", "single-valued"}},
      {.what = "--check: threads waiting for one that computes are warned about, with its last runtime call (issue 8.10)",
       .options = {"-n", "4", "--backend", "{backend}", "--check", "--wait-warning", "0.5", "--timeout", "2"},
       .args = {"spin_after_coll"}, .status = 124,
       .err_has = {"upcemu: warning: threads 1-3 have waited 0.5 s in upc_barrier at ", wait_line,
                   "thread 0 has not arrived (last runtime call: upc_all_broadcast at ",
                   last_call_line + ") (--wait-warning)"},
       .err_counts = {{"upcemu: warning:", 1}}},  // once per wait
      // The end-of-scope free names its array with a name built at run time; the
      // monitor (another process on the processes backend) and the timeout
      // report read it, so it must not point into one worker's private memory.
      {.what = "threads waiting where a block-scope array is freed are reported with the array's name",
       .options = {"-n", "4", "--backend", "{backend}", "--wait-warning", "0.5", "--timeout", "2"},
       .args = {"spin_in_scope"}, .status = 124,
       .err_has = {"upcemu: warning: threads 1-3 have waited 0.5 s in " + scoped_array, scoped_array_line + ";"},
       .err_counts = {{scoped_array_line, 2, true}}},  // the warning and the timeout report

      // declared objects
      {.what = "a namespace-scope array with a negative element count stops the run before it starts (issue 8.7a)",
       .options = {"-n", "3", "--backend", "{backend}"}, .args = {"hello"}, .status = 1,
       .err_has = {"shared_array<int> (declared at ", "victim.cpp:",
                   "the element count 18446744073709551611 is too large (is it a negative number converted to size_t?)"},
       .out_lacks = {"Hello"},  // no thread ran
       .env = {{"VICTIM_ARRAY_COUNT", "-5"}}},
  };
  return runs;
}

void check_counts(const std::string& output, const std::vector<occurrences>& counts, const char* name) {
  for (const occurrences& n : counts) {
    const std::size_t got = count_of(output, n.text);
    CHECK_MESSAGE((n.or_more ? got >= n.times : got == n.times), name, " holds '", n.text, "' ", got, " times, not ",
                  n.times, n.or_more ? " or more" : "");
  }
}

// `upcrun OPTIONS victim ARGS` and the checks of its row.
void check_run(const victim_run& r, const std::vector<std::string>& options) {
  child c(upcrun_args(options, r.args), r.env);
  const outcome o = c.finish(r.timeout);
  INFO("command: ", c.command());
  REPORT(o);
  CHECK_FALSE(o.timed_out);
  CHECK(c.leaked().empty());
  CHECK(o.exit_code == r.status);
  for (const std::string& s : r.err_has) CHECK_MESSAGE(contains(o.err, s), "stderr lacks: ", s);
  for (const std::string& s : r.err_lacks) CHECK_MESSAGE(!contains(o.err, s), "stderr has: ", s);
  for (const std::string& s : r.out_has) CHECK_MESSAGE(contains(o.out, s), "stdout lacks: ", s);
  for (const std::string& s : r.out_lacks) CHECK_MESSAGE(!contains(o.out, s), "stdout has: ", s);
  check_counts(o.err, r.err_counts, "stderr");
  check_counts(o.out, r.out_counts, "stdout");
  if (r.err_empty) CHECK(o.err.empty());
}

// The options with {backend} replaced.
std::vector<std::string> on_backend(std::vector<std::string> options, const std::string& backend) {
  for (std::string& o : options)
    if (const std::size_t at = o.find("{backend}"); at != std::string::npos) o.replace(at, 9, backend);
  return options;
}

TEST_CASE("runs that fail or end on purpose: the exit status and what the output says (one table, a row a subcase)") {
  for (const victim_run& r : victim_runs())
    SUBCASE(r.what.c_str()) {
      const bool per_backend = std::any_of(r.options.begin(), r.options.end(), [](const std::string& o) {
        return contains(o, "{backend}");
      });
      if (!per_backend) {
        check_run(r, r.options);
      } else {
        for (const char* b : backends) {
          if (r.skip_backend && std::string(b) == r.skip_backend) continue;
          CAPTURE(b);
          check_run(r, on_backend(r.options, b));
        }
      }
    }
}
