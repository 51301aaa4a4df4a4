// Open MPI's files of an mpi job (issue 27.6): its shared-memory transport's
// vader_segment.* and its session directory go in a folder of upcrun's, which
// upcrun removes when the job ends however it ends (here: MPI_Abort after
// --timeout), and which the next upcrun removes when upcrun was killed.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "harness.hpp"

#ifdef HAVE_MPI_BACKEND
namespace {
namespace fs = std::filesystem;

// The folder upcrun gave the job: mpirun (upcrun's child) has it in its
// environment. Empty if there is none.
std::string job_folder(pid_t upcrun) {
  std::ifstream children("/proc/" + std::to_string(upcrun) + "/task/" + std::to_string(upcrun) + "/children");
  long mpirun = 0;
  if (!(children >> mpirun)) return "";
  std::ifstream environ("/proc/" + std::to_string(mpirun) + "/environ");
  const std::string key = "OMPI_MCA_btl_vader_backing_directory=";
  for (std::string var; std::getline(environ, var, '\0');)
    if (var.rfind(key, 0) == 0) return var.substr(key.size());
  return "";
}

int vader_segments_in(const std::string& folder) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec))
    n += e.path().filename().string().rfind("vader_segment.", 0) == 0;
  return n;
}

// Runs `victim pids 1` (thread 1 sleeps, thread 0 waits at a barrier: it never
// ends by itself) until both ranks are there; returns the job's folder.
std::string start_job(child& c) {
  // (The ranks' lines come through mpirun in any order.)
  REQUIRE(c.wait_for_output([](const std::string& out) {
    return contains(out, "asleep 1") && contains(out, "pid 0 ") && contains(out, "pid 1 ");
  }, 60));
  const std::string folder = job_folder(c.pid());
  INFO("folder: ", folder);
  CHECK((folder.rfind("/dev/shm/upcrun-mpi.", 0) == 0 || folder.rfind("/tmp/upcrun-mpi.", 0) == 0));
  // Open MPI puts its segments there (one a rank), not in /dev/shm itself.
  CHECK(vader_segments_in(folder) == 2);
  return folder;
}
}  // namespace

TEST_CASE("the mpi backend leaves no Open MPI file behind: a job ended by force, upcrun killed (issue 27.6)") {
  // Ended by MPI_Abort (thread 1 ignores the stop after --timeout): upcrun removes the folder.
  std::string aborted;
  {
    child c(upcrun_args({"--backend", "mpi", "-n", "2", "--timeout", "2"}, {"pids", "1"}));
    aborted = start_job(c);
    outcome o = c.finish(60);
    REPORT(o);
    CHECK(o.exit_code == 124);
    CHECK_FALSE(aborted.empty());
    CHECK_FALSE(fs::exists(aborted));
  }
  // upcrun killed: its job is ended (PR_SET_PDEATHSIG) and the folder stays
  // until the next upcrun, which removes it, its own too.
  std::string killed;
  {
    child c(upcrun_args({"--backend", "mpi", "-n", "2"}, {"pids", "1"}));
    killed = start_job(c);
    const auto pids = worker_pids(c.out(), 2);
    c.send(SIGKILL);
    c.finish(30);
    for (pid_t p : pids) {
      REQUIRE(p > 0);
      CHECK(process_gone(p));
    }
    // (The folder is still there now, unless another upcrun on this machine
    // has already removed it.)
  }
  outcome next = run_victim({"--backend", "mpi", "-n", "1"}, {"hello"}, 60);
  REPORT(next);
  CHECK(next.exit_code == 0);
  CHECK_FALSE(killed.empty());
  CHECK_FALSE(fs::exists(killed));
}
#endif
