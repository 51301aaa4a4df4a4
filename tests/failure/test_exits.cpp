// Ways a run ends that used to go unexplained or differ between the backends
// (issue 8, item 15): exit functions called by a UPC thread, a size expression
// that throws, crashes in threads the program started, several crashes at once,
// the order of headline and backtrace, and a stopped worker in the report.
#include "harness.hpp"

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Runs `upcrun OPTIONS victim ARGS` with extra environment, to the end.
outcome run_victim_env(std::vector<std::string> options, std::vector<std::string> program_args,
                       std::vector<std::pair<std::string, std::string>> env) {
  child c(upcrun_args(std::move(options), std::move(program_args)), std::move(env));
  outcome o = c.finish();
  INFO("command: ", c.command());
  CHECK_FALSE(o.timed_out);
  CHECK(c.leaked().empty());
  return o;
}

}  // namespace

// On the threads backend _exit and _Exit ended the whole run with their status and
// no word, and quick_exit likewise: now each is reported the same way on every
// backend, and the status is the one passed (1 for 0).
TEST_CASE("_exit, _Exit and quick_exit in one UPC thread are reported on every backend (issue 8.15)") {
  for (const char* b : backends)
    for (const char* function : {"_exit", "_Exit", "quick_exit"})
      for (int status : {4, 0}) {
        CAPTURE(b);
        CAPTURE(function);
        CAPTURE(status);
        outcome o = run_victim({"-n", "3", "--backend", b}, {function, "1", std::to_string(status)});
        REPORT(o);
        CHECK(o.exit_code == (status ? status : 1));
        CHECK(o.err == "upcemu: thread 1 called " + std::string(function) + "(" + std::to_string(status) +
                           ") without returning from main (call upc_global_exit to end every thread)\n");
      }
}

// exit() ends the calling UPC thread as a return from main would (UPC 1.3
// §5.1.2.2.3; lib/runtime/libc_exit.cpp): here the others wait for it at a
// barrier it never reaches, and that barrier says why.
TEST_CASE("exit in one UPC thread ends that thread: a barrier it never reaches is reported (issue 26.9)") {
  for (const char* b : backends)
    for (int status : {4, 0}) {
      CAPTURE(b);
      CAPTURE(status);
      outcome o = run_victim({"-n", "3", "--backend", b}, {"exit", "1", std::to_string(status)});
      REPORT(o);
      CHECK(o.exit_code == 1);
      CHECK(contains(first_line(o.err), "upcemu: upc_barrier: thread 1 has already ended by calling exit(" +
                                            std::to_string(status) + "), so this barrier can never complete at "));
      CHECK_FALSE(contains(o.err, "without returning from main"));
    }
}

TEST_CASE("a namespace-scope shared_array whose size expression throws: a report and status 1 (issue 8.15)") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim_env({"-n", "3", "--backend", b}, {"hello"}, {{"VICTIM_SIZE_THROWS", "1"}});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(contains(first_line(o.err), "upcemu: shared_array<int> (declared at "));
    CHECK(contains(first_line(o.err), "victim.cpp:"));
    CHECK(contains(first_line(o.err), "): its size expression threw: victim: no size today"));
    CHECK_FALSE(contains(o.err, "terminate"));
    CHECK(o.out.empty());  // no thread ran
  }
}

// Was "thread -1 was killed ...", status 134 on one backend and 1 on the other.
TEST_CASE("a crash in a thread the program started is named as such, status 128+signal on both backends (issue 8.15)") {
  for (const char* b : backends) {
    CAPTURE(b);
    const bool processes = std::string(b) != "threads";  // a process per UPC thread
    outcome o = run_victim({"-n", "3", "--backend", b}, {"thread_segv", "2"});
    REPORT(o);
    CHECK(o.exit_code == 139);
    CHECK(first_line(o.err).rfind(std::string("upcemu: a thread that is not a UPC thread (started by the program") +
                                      (processes ? " inside UPC thread 2's process)" : ")") +
                                      " was killed by signal SIGSEGV (Segmentation fault) at address",
                                  0) == 0);
    CHECK_FALSE(contains(o.err, "thread -1"));

    outcome t = run_victim({"-n", "3", "--backend", b}, {"thread_throw", "1"});
    REPORT(t);
    CHECK(t.exit_code == 134);
    CHECK(contains(first_line(t.err), "was killed by signal SIGABRT (Aborted) after an uncaught exception: victim helper thread threw"));
    CHECK_FALSE(contains(t.err, "terminate called"));
  }
}

// A thread the program started dies of std::terminate after the run has already
// failed (as when it calls the runtime, which refuses it): the failure already
// recorded is the report, and the status is its own.
TEST_CASE("a program thread's std::terminate after a recorded failure: that failure is the headline, status 1 (issue 8.15)") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "3", "--backend", b}, {"thread_throw_after_failure"});
    REPORT(o);
    CHECK(o.exit_code == 1);
    CHECK(first_line(o.err).rfind("upcemu: upc_unlock: this thread does not hold lock", 0) == 0);
    CHECK_FALSE(contains(o.err, "SIGABRT"));
    CHECK_FALSE(contains(o.err, "terminate called"));
  }
}

TEST_CASE("simultaneous crashes print exactly one headline, the first line of the report (issue 8.15)") {
  for (const char* b : backends)
    for (int round = 0; round < 5; ++round) {
      CAPTURE(b);
      CAPTURE(round);
      outcome o = run_victim({"-n", "4", "--backend", b}, {"segv_all"});
      REPORT(o);
      CHECK(o.exit_code == 139);
      CHECK(count_of(o.err, "was killed by signal") == 1);
      CHECK(o.err.rfind("upcemu: thread ", 0) == 0);
    }
}

// On the processes backend the worker wrote its backtrace at once and the launcher
// the headline at the end.
TEST_CASE("the headline comes before the backtrace on both backends (issue 8.15)") {
  for (const char* b : backends) {
    CAPTURE(b);
    outcome o = run_victim({"-n", "4", "--backend", b}, {"segv", "3"});
    REPORT(o);
    CHECK(o.exit_code == 139);
    CHECK(o.err.rfind("upcemu: thread 3 was killed by signal SIGSEGV", 0) == 0);
    CHECK(contains(o.err, "\n  backtrace of thread 3:\n"));
    CHECK(count_of(o.err, "was killed by signal") == 1);
  }
}

TEST_CASE("a worker stopped by SIGSTOP shows as stopped, not running, in the report (issue 8.15)") {
  const int threads = 3;
  child c(upcrun_args({"-n", std::to_string(threads), "--backend", "processes", "--timeout", "2"}, {"pids", "1"}));
  REQUIRE(c.wait_for_output([](const std::string& out) { return contains(out, "asleep 1"); }, 20));
  const std::vector<pid_t> pids = worker_pids(c.out(), threads);
  REQUIRE(pids[1] > 0);
  REQUIRE(::kill(pids[1], SIGSTOP) == 0);
  outcome o = c.finish();
  REPORT(o);
  CHECK_FALSE(o.timed_out);
  CHECK(o.exit_code == 124);
  CHECK(contains(o.err, "  thread 1: stopped (SIGSTOP) (last runtime call: upc_barrier at "));
  CHECK(contains(o.err, "  thread 0: waiting in upc_barrier (id 2) at "));
  for (pid_t p : pids) CHECK(process_gone(p));
  CHECK(c.leaked().empty());
}
