// The failure paths of a run (issue 2, item 9), each exercised the way a user meets
// it: `upcrun ... victim MODE` in a subprocess (victim.cpp misbehaves on request).
// Every test asserts the exit status, what stderr says (thread, function, signal),
// and that no upcemu-* segment is left in /dev/shm.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include "harness.hpp"

#include <tuple>

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
      {{"-n", "2", "--report=bytes", VICTIM}, "--report must be 'traffic', got 'bytes'"},
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
  for (const char* line : {"broadcast (auto: binomial_flat when the team spans >= 8 nodes and size >= 64 KiB; binomial_flat when the team spans >= 4 nodes and size >= 1 MiB; multicore when the team spans several nodes; push when THREADS >= 16 and size <= 4 KiB, else pull)",
                           "  push [UPC_PUSH]:", "  multicore [UPC_MULTICORE]:",
                           "exchange (auto: pairwise when the team spans >= 2 nodes and size > 2 KiB; multicore when the team spans several nodes; pull when size <= 4 KiB, else pairwise)", "reduce (auto: binomial_flat when the team spans >= 8 nodes; multicore when the team spans several nodes; flat)", "  ring:",
                           "gather_all (auto: multicore when the team spans several nodes; push when THREADS >= 4 and size > 4 KiB, else pull)",
                           "prefix_reduce (auto: multicore when the team spans several nodes; binomial when THREADS == 2 and size <= 256 KiB, else flat)",
                           "upccoll_allreduce (auto: redundant when size <= 4 KiB, else chunked)",
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

// exit(3) ends thread 1 alone (UPC 1.3 §5.1.2.2.3, issue 26.9); the others then
// wait at a barrier it never reaches, which is reported.
TEST_CASE("exit(3) in one thread ends that thread; the barrier it never reaches is reported") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b}, {"exit3", "1"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "thread 1 has already ended by calling exit(3), so this barrier can never complete"));
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
    // Thread 0 exits, the others compute: on mpi, rank 0 (the supervisor)
    // must still end the job once its own thread has gone (issue 27.3).
    outcome z = run_victim({"-n", "2", "--backend", b}, {"global_exit_busy", "0", "9"});
    REPORT(z);
    CHECK(z.exit_code == 9);
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
    // Thread 0 stopped by the limit while thread 1 sleeps outside the runtime:
    // on mpi, rank 0's thread is gone but the job must still end (issue 27.3).
    outcome s = run_victim({"-n", "2", "--backend", b, "--timeout", "0.5"}, {"pids", "1"});
    REPORT(s);
    CHECK(s.exit_code == 124);
    CHECK(contains(s.err, "exceeded its time limit of 0.5 s (--timeout)"));
    CHECK(contains(s.err, "thread 1: running"));
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

// The end-of-scope free names its array with a name built at run time; the
// monitor (another process on the processes backend) and the timeout report read
// it, so it must not point into one worker's private memory.
TEST_CASE("threads waiting where a block-scope array is freed are reported with the array's name") {
  const std::string decl = "shared_array<int> (declared at ";
  const std::string decl_line = "victim.cpp:" + std::to_string(victim_line("the scoped array")) + ") (end of scope)";
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "4", "--backend", b, "--wait-warning", "0.5", "--timeout", "2"}, {"spin_in_scope"});
    REPORT(o);
    CHECK(o.exit_code == 124);
    CHECK(contains(o.err, "upcemu: warning: threads 1-3 have waited 0.5 s in " + decl));
    CHECK(contains(o.err, decl_line + ";"));
    CHECK(count_of(o.err, decl_line) >= 2);  // the warning and the timeout report
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
