// Seconds from launch to exit of a whole UPC program (startup_hello) at each
// THREADS and backend: what a user waits for when starting a run, including the
// launcher's set-up, thread creation or forks, and ending every thread.
//
// Not a UPC program itself: it starts startup_hello (next to this binary, or
// --program) with UPCEMU_THREADS / UPCEMU_BACKEND set, --reps times for each
// (backend, THREADS), and times each run from fork to reaping it (wall time). A
// row gives the median, minimum and maximum. Verification (on by default) checks
// that every run exits 0, printed one greeting per thread and its count line.
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"

namespace {

double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct run_outcome {
  double seconds = 0;
  int status = -1;  // exit status, or 128+N when killed by signal N
  std::string out;
};

// One run of `program` with THREADS and the backend set; stdout collected, stderr
// passed through (a failure report stays visible).
run_outcome run_once(const std::string& program, const std::string& backend, int threads, double timeout) {
  run_outcome r;
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return r;
  const double start = now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::setenv("UPCEMU_THREADS", std::to_string(threads).c_str(), 1);
    ::setenv("UPCEMU_BACKEND", backend.c_str(), 1);
    ::execl(program.c_str(), program.c_str(), static_cast<char*>(nullptr));
    std::perror(program.c_str());
    _exit(127);
  }
  ::close(out[1]);
  char buf[65536];
  bool killed = false;
  for (;;) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      const ssize_t got = ::read(out[0], buf, sizeof buf);
      if (got <= 0) break;
      r.out.append(buf, static_cast<std::size_t>(got));
    }
    if (!killed && now() - start > timeout) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
  }
  int wstatus = 0;
  ::waitpid(pid, &wstatus, 0);
  r.seconds = now() - start;
  ::close(out[0]);
  r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  return r;
}

bool verified(const run_outcome& r, int threads) {
  std::size_t greetings = 0;
  for (std::size_t at = r.out.find("Hello from thread"); at != std::string::npos; at = r.out.find("Hello from thread", at + 1))
    ++greetings;
  const std::string count = std::to_string(threads) + " of " + std::to_string(threads) + " threads said hello";
  return r.status == 0 && greetings == static_cast<std::size_t>(threads) && r.out.find(count) != std::string::npos;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) parts.push_back(item);
  return parts;
}

std::string sibling(const char* name) {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return name;
  std::string dir(self, static_cast<std::size_t>(n));
  return dir.substr(0, dir.rfind('/') + 1) + name;
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t reps = 5;
  double timeout = 300;
  std::string threads_list = "1,64,512,1024,2048,4096", backends = "threads,processes", fmt = "text", program;
  bool no_verify = false;
  bench::cli cli("startup_time",
                 "Wall time from launch to exit of startup_hello (hello world with a shared array and a barrier):\n"
                 "median, min and max over repetitions, for each backend and THREADS. Not a UPC program: it\n"
                 "sets UPCEMU_THREADS and UPCEMU_BACKEND itself (ignore the usage line above).");
  cli.add_choice("threads", "THREADS counts, comma-separated", &threads_list, {}, true);
  cli.add_choice("backends", "backends, comma-separated", &backends, {"threads", "processes"}, true);
  cli.add_int("reps", "runs per (backend, THREADS); the row reports their median, min and max", &reps, 1);
  cli.add_real("timeout", "seconds after which a run is killed (and counted as failed)", &timeout);
  cli.add_choice("program", "the UPC program to start (default: startup_hello next to this binary)", &program, {});
  cli.add_flag("no-verify", "do not check the program's output and status", &no_verify);
  cli.add_choice("format", "output rows as aligned text or one JSON object per line", &fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, true)) return *status;
  if (program.empty()) program = sibling("startup_hello");

  bench::report out(bench::parse_format(fmt), {{"bench", "startup_time"}},
                    {{"reps", reps}, {"timeout_s", timeout}, {"program", program},
                     {"statistic", "wall time from fork to exit of the whole run; median/min/max over repetitions"}});
  out.header();
  int failures = 0;
  for (const std::string& backend : split(backends))
    for (const std::string& t : split(threads_list)) {
      const int threads = std::atoi(t.c_str());
      std::vector<double> seconds;
      bool ok = true;
      for (std::int64_t r = 0; r < reps; ++r) {
        const run_outcome o = run_once(program, backend, threads, timeout);
        seconds.push_back(o.seconds);
        if (!no_verify && !verified(o, threads)) {
          ok = false;
          std::fprintf(stderr, "startup_time: %s THREADS=%d: status %d, output not as expected\n", backend.c_str(), threads,
                       o.status);
        }
      }
      const bench::summary s = bench::summarize(seconds);
      out.row({{"backend", backend}, {"threads", threads}, {"median_s", s.median}, {"min_s", s.min}, {"max_s", s.max},
               {"verified", !no_verify}, {"wrong", ok ? 0 : 1}});
      if (!ok) ++failures;
    }
  return failures ? 1 : 0;
}
