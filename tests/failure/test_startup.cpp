// Start-up: signals that arrive while a run is being set up, the size of the
// segment, and large THREADS on both backends (issue 8, items 8, 12 and 13).
#include <dirent.h>

#include <cstdio>
#include <fstream>
#include <random>

#include "harness.hpp"

namespace {

// Processes whose command line holds `token` (the victim is given it as an
// argument it ignores), so a test can tell that none of its workers outlived it.
std::vector<pid_t> processes_with(const std::string& token) {
  std::vector<pid_t> found;
  DIR* d = ::opendir("/proc");
  if (!d) return found;
  while (dirent* e = ::readdir(d)) {
    const pid_t pid = static_cast<pid_t>(std::atol(e->d_name));
    if (pid <= 0) continue;
    std::string path = std::string("/proc/") + e->d_name + "/cmdline";
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) continue;
    char buf[4096];
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    std::fclose(f);
    if (std::string(buf, n).find(token) != std::string::npos) found.push_back(pid);
  }
  ::closedir(d);
  return found;
}

// Waits up to `seconds` for every process holding `token` to end (or be a zombie).
bool all_gone(const std::string& token, double seconds) {
  const double end = now() + seconds;
  for (;;) {
    bool any = false;
    for (pid_t p : processes_with(token))
      if (!process_gone(p)) any = true;
    if (!any) return true;
    if (now() > end) return false;
    ::usleep(50000);
  }
}

// The children of `pid` (Linux lists them in /proc/PID/task/PID/children).
std::size_t children_of(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children";
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return 0;
  std::size_t n = 0;
  long child_pid = 0;
  while (std::fscanf(f, "%ld", &child_pid) == 1) ++n;
  std::fclose(f);
  return n;
}

// The first child listed for `pid` (0 when none is, or the kernel lists none).
pid_t first_child_of(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children";
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return 0;
  long child_pid = 0;
  if (std::fscanf(f, "%ld", &child_pid) != 1) child_pid = 0;
  std::fclose(f);
  return static_cast<pid_t>(child_pid);
}

bool has_children_list(pid_t pid) {
  return ::access(("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children").c_str(), R_OK) == 0;
}

std::string unique_token(const char* what) { return std::string(what) + "-" + std::to_string(::getpid()) + "-" + std::to_string(now()); }

}  // namespace

// Before the fix the segment was a named /dev/shm object for the few microseconds
// between its creation and its unlink, with no signal handler installed yet: 9 of
// 2000 launches hit there left 512 MiB segments behind. Now the segment has no name.
// The test sweeps the whole start-up twice (0-6 ms after the launch in 50 us steps,
// both signals, both backends: 480 launches, about 2 s) and checks that nothing is
// left and every run ended as it should: interrupted (130), killed, or finished
// before the signal came. Against the old segment it found a leak in 4 of 5 runs
// of one sweep.
TEST_CASE("SIGINT or SIGKILL 0-6 ms into start-up leaves nothing in /dev/shm (issue 8.12)") {
  const std::string token = unique_token("startup-race");
  std::vector<pid_t> launchers;
  int interrupted = 0, killed = 0, finished = 0;
  for (int step = 0; step < 240; ++step)
    for (int sig : {SIGINT, SIGKILL}) {
      const char* backend = (step & 1) ? "processes" : "threads";
      CAPTURE(step);
      CAPTURE(sig);
      CAPTURE(backend);
      child c({VICTIM, "hello", token}, {{"UPCEMU_THREADS", "4"}, {"UPCEMU_BACKEND", backend}});
      launchers.push_back(c.pid());
      const timespec delay{0, (step % 120) * 50'000L};
      ::nanosleep(&delay, nullptr);
      ::kill(c.pid(), sig);
      outcome o = c.finish(20);
      REPORT(o);
      REQUIRE_FALSE(o.timed_out);
      if (o.exit_code == 0) {
        CHECK(contains(o.out, "4 of 4 threads said hello"));  // the signal came after the end
        ++finished;
      } else if (sig == SIGINT) {
        CHECK(o.exit_code == 130);
        if (o.signal == 0) CHECK(contains(o.err, "interrupted by SIGINT"));  // the handler's exit, not the default action
        ++interrupted;
      } else {
        CHECK(o.signal == SIGKILL);
        ++killed;
      }
    }
  MESSAGE("interrupted ", interrupted, ", killed ", killed, ", finished first ", finished);
  // No segment named after any of these launchers (the old naming: upcemu-PID-...),
  // and nothing new at all.
  for (const std::string& name : shm_segments())
    for (pid_t p : launchers) CHECK_MESSAGE(name.rfind("upcemu-" + std::to_string(p) + "-", 0) != 0, name);
  CHECK(all_gone(token, 5));
}

// ---- the segment's size ------------------------------------------------------

TEST_CASE("--heap × THREADS that wraps or exceeds the segment limit is reported (issue 8.8)") {
  struct heap_case {
    std::string heap;
    std::string product;  // as the message states it
  };
  for (const heap_case& hc : {heap_case{"4194304G", "more than 16 EiB"},  // 2^52 × 2^12: wraps to 0
                              heap_case{"4503599627370495K", "more than 16 EiB"},
                              heap_case{"64G", "256 TiB"}}) {
    CAPTURE(hc.heap);
    const std::string message = "× THREADS 4096 = " + hc.product +
                                " exceeds the largest shared segment upcemu maps (64 TiB): use a smaller --heap";
    // upcrun says it before starting the program...
    child c({UPCRUN, "-n", "4096", "--heap", hc.heap, VICTIM, "hello"});
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "upcrun: --heap " + hc.heap + " " + message));
    CHECK(o.out.empty());
    // ...and the program says the same when started without upcrun.
    child direct({VICTIM, "hello"}, {{"UPCEMU_THREADS", "4096"}, {"UPCEMU_HEAP", hc.heap}});
    outcome od = direct.finish();
    REPORT(od);
    CHECK(od.exit_code == 2);
    CHECK(contains(od.err, "upcrun: --heap "));
    CHECK(contains(od.err, message));
    CHECK(od.out.empty());
  }
  // THREADS from the environment, --heap from upcrun: the program catches it.
  child mixed({UPCRUN, "--heap", "64G", VICTIM, "hello"}, {{"UPCEMU_THREADS", "4096"}});
  outcome om = mixed.finish();
  REPORT(om);
  CHECK(om.exit_code == 2);
  CHECK(contains(om.err, "upcrun: --heap 64 GiB × THREADS 4096 = 256 TiB exceeds the largest shared segment"));
}

TEST_CASE("a segment that cannot be mapped is reported with its size and a hint (issue 8.12)") {
  // 4 GiB of segment under a 2 GB address-space limit: mmap fails with ENOMEM.
  child c({"/bin/sh", "-c", std::string("ulimit -v 2000000 && exec ") + VICTIM + " hello"},
          {{"UPCEMU_THREADS", "4"}, {"UPCEMU_HEAP", "1G"}});
  outcome o = c.finish();
  REPORT(o);
  CHECK(o.exit_code == 2);
  CHECK(contains(o.err, "upcrun: cannot map the shared segment of 4.0 GiB (--heap 1 GiB × THREADS 4, plus the control "
                        "block): Cannot allocate memory (try a smaller --heap)"));
  CHECK(o.out.empty());
}

// ---- large THREADS -------------------------------------------------------------

// A hang guard, not a speed test: 1024 processes took 6.4 s before the start gate
// and 4096 did not finish in 120 s (docs/benchmarks.md has the timings now).
TEST_CASE("1024 processes start and finish (issue 8.13)") {
  outcome o = run_victim({"-n", "1024", "--backend", "processes"}, {"hello"}, 120);
  REPORT(o);
  CHECK(o.exit_code == 0);
  CHECK(contains(o.out, "1024 of 1024 threads said hello"));
  CHECK(count_of(o.out, "Hello from thread") == 1024);
}

// SIGINT 5 s into a 4096-process launch used to have no effect for 91 s: the fork
// loop did not look at it. The interrupt is sent while the launcher is forking.
TEST_CASE("SIGINT while a large processes run starts ends it promptly with 130 (issue 8.13)") {
  const std::string token = unique_token("startup-interrupt");
  child c(upcrun_args({"-n", "4096", "--backend", "processes"}, {"hello", token}));
  // Wait for the fork loop to be under way (a kernel without /proc/PID/task/PID/
  // children lists none: then give it a moment instead).
  const double start = now();
  while (children_of(c.pid()) < 64 && now() < start + 30) {
    if (!has_children_list(c.pid()) && now() > start + 0.3) break;
    ::usleep(2000);
  }
  const double sent = now();
  c.send(SIGINT);
  outcome o = c.finish(60);
  REPORT(o);
  CHECK_FALSE(o.timed_out);
  CHECK(o.exit_code == 130);
  CHECK(contains(o.err, "upcemu: interrupted by SIGINT"));
  MESSAGE("ended ", now() - sent, " s after SIGINT");
  CHECK(all_gone(token, 10));
  CHECK(c.leaked().empty());
}

// A worker killed while the launcher is still forking (here from outside; the OOM
// killer would do the same) was reaped only after all 4096 existed, and as one
// that had not started it was not reported at all: the others waited for it until
// --timeout. Now the launcher looks at its workers between forks, reports the
// thread and stops forking at once; those already forked see the abort at the gate.
TEST_CASE("a worker killed while a large processes run starts stops the start at once (issue 27.4)") {
  const std::string token = unique_token("startup-worker-killed");
  child c(upcrun_args({"-n", "4096", "--backend", "processes", "--timeout", "100"}, {"hello", token}));
  const double start = now();
  while (children_of(c.pid()) < 64 && now() < start + 30) ::usleep(2000);
  const pid_t worker = first_child_of(c.pid());
  if (worker <= 0) {
    c.send(SIGKILL);
    c.finish(30);
    MESSAGE("this kernel does not list a process's children: skipped");
    return;
  }
  REQUIRE(::kill(worker, SIGKILL) == 0);
  outcome o = c.finish(60);
  REPORT(o);
  CHECK_FALSE(o.timed_out);
  CHECK(o.exit_code == 128 + SIGKILL);
  CHECK(contains(o.err, "(pid " + std::to_string(worker) + ") was killed by signal SIGKILL (Killed) before it started; "
                        "stopped starting the threads ("));
  CHECK(contains(o.err, " of 4096 started)"));
  CHECK_FALSE(contains(o.out, "Hello from thread"));  // nobody ran: the gate opened on an abort
  CHECK(all_gone(token, 10));
  CHECK(c.leaked().empty());
}

// ---- the virtual node topology (issue 11) -----------------------------------

TEST_CASE("topology options that do not fit THREADS are refused before the program starts") {
  struct topo_case {
    std::vector<std::string> options;
    std::string message;
  };
  for (const topo_case& tc : {topo_case{{"--threads-per-node", "4"}, "--threads-per-node 4 does not divide THREADS (6)"},
                              topo_case{{"--nodes", "7"}, "--nodes must be between 1 and THREADS (6), got 7"},
                              topo_case{{"--nodes", "2", "--threads-per-node", "2"}, "--nodes 2 x --threads-per-node 2 is 4 threads"}}) {
    std::vector<std::string> args{UPCRUN, "-n", "6"};
    args.insert(args.end(), tc.options.begin(), tc.options.end());
    args.insert(args.end(), {VICTIM, "hello"});
    child c(args);
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "upcrun: " + tc.message));
    CHECK(o.out.empty());
  }
  // The same from the environment alone: the program refuses it.
  child direct({VICTIM, "hello"}, {{"UPCEMU_THREADS", "6"}, {"UPCEMU_THREADS_PER_NODE", "4"}});
  outcome od = direct.finish();
  REPORT(od);
  CHECK(od.exit_code == 2);
  CHECK(contains(od.err, "--threads-per-node 4 does not divide THREADS (6)"));
  // A node map file that misses a thread.
  const std::string path = "/tmp/upcemu-startup-topology.map";
  {
    std::ofstream f(path);
    f << "0 1\n2\n";
  }
  child missing({UPCRUN, "-n", "4", "--node-map", path, VICTIM, "hello"});
  outcome om = missing.finish();
  REPORT(om);
  CHECK(om.exit_code == 2);
  CHECK(contains(om.err, "thread 3 is on no node"));
  std::remove(path.c_str());
}

TEST_CASE("a chunk segment size that is not one is refused before the program starts") {
  child c({UPCRUN, "-n", "2", "--coll-segment", "10", VICTIM, "hello"});
  outcome o = c.finish();
  REPORT(o);
  CHECK(o.exit_code == 2);
  CHECK(contains(o.err, "upcrun: --coll-segment: '10' is not a segment size (bytes, at least 64"));
  CHECK(o.out.empty());
  child direct({VICTIM, "hello"}, {{"UPCEMU_THREADS", "2"}, {"UPCEMU_COLL_SEGMENT", "lots"}});
  outcome od = direct.finish();
  REPORT(od);
  CHECK(od.exit_code == 2);
  CHECK(contains(od.err, "UPCEMU_COLL_SEGMENT: 'lots' is not a segment size"));
  child fine({UPCRUN, "-n", "2", "--coll-segment=4K", VICTIM, "hello"});
  outcome of = fine.finish();
  REPORT(of);
  CHECK(of.exit_code == 0);
}

TEST_CASE("--report=traffic prints the table at exit, after the program's output") {
  for (const char* backend : {"threads", "processes"}) {
    child c({UPCRUN, "-n", "4", "--nodes", "2", "--backend", backend, "--report=traffic", VICTIM, "hello"});
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.exit_code == 0);
    CHECK(contains(o.err, "upcemu traffic report: 4 threads on 2 nodes x 2 threads (block)"));
    CHECK(contains(o.err, "site"));
    CHECK(contains(o.err, "inter-node"));
    CHECK(contains(o.err, "total: "));
  }
}

TEST_CASE("--report=traffic leaves nothing in /tmp when a thread crashes") {
  auto report_dirs = [] {
    std::size_t k = 0;
    if (DIR* d = opendir("/tmp")) {
      while (dirent* e = readdir(d))
        if (std::string(e->d_name).rfind("upcemu-traffic-", 0) == 0) ++k;
      closedir(d);
    }
    return k;
  };
  const std::size_t before = report_dirs();
  for (const char* backend : {"threads", "processes"}) {
    child c({UPCRUN, "-n", "4", "--nodes", "2", "--backend", backend, "--report=traffic", VICTIM, "segv"});
    outcome o = c.finish();
    REPORT(o);
    CHECK(o.exit_code != 0);
  }
  CHECK(report_dirs() == before);
}
