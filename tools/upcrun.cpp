// upcrun: start a upcemu program on THREADS UPC threads.
//
// upcrun only checks its options (upcrun_options.hpp), turns them into the
// UPCEMU_* environment variables that every upcemu program reads at start-up
// (lib/runtime/options.cpp), and replaces itself with the program (execvp).
// The program's own launcher then runs the threads, so its exit status,
// signals and interrupts reach the caller exactly as if the program had been
// started directly.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mpi_job_folder.hpp"
#include "upc/coll.hpp"
#include "upcrun_options.hpp"

#ifndef UPCEMU_VERSION
#define UPCEMU_VERSION "unknown"
#endif

namespace {

constexpr int exit_usage = 2;

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "upcrun: %s\nTry 'upcrun --help' for more information.\n", message.c_str());
  std::exit(exit_usage);
}

void set_env(const char* name, const std::string& value) {
  if (::setenv(name, value.c_str(), 1) != 0) {
    std::fprintf(stderr, "upcrun: cannot set %s: %s\n", name, std::strerror(errno));
    std::exit(1);
  }
}

// The mpi backend: mpirun starts THREADS ranks of the program. Every UPCEMU_*
// variable set above is passed on with -x, so ranks on other hosts see them
// too; -q keeps mpirun's own notices out of the program's output (failures
// are reported by the runtime); --oversubscribe lets a laptop run more ranks
// than it has cores, and --bind-to none leaves them unpinned, as the other
// backends' threads are (a rank pinned to one CPU also makes the runtime's
// waits sleep at once, as when oversubscribed).
//
// upcrun stays mpirun's parent here, so that a signal to upcrun ends the job
// as on the other backends: SIGINT, SIGTERM and SIGHUP are passed to mpirun
// (which stops every rank) and upcrun then says so and exits with 128+signal;
// if upcrun itself is killed, mpirun gets SIGKILL (PR_SET_PDEATHSIG) and so
// do the ranks (backend_mpi.cpp).
volatile sig_atomic_t g_mpirun_pid = 0;
volatile sig_atomic_t g_interrupted_by = 0;

void forward_to_mpirun(int sig) {
  if (!g_interrupted_by) g_interrupted_by = sig;
  if (g_mpirun_pid > 0) ::kill(g_mpirun_pid, sig == SIGINT ? SIGTERM : sig);
}

// After mpirun has ended: any rank still there (mpirun was killed, or a rank
// is still dying) is stopped and reaped, so that when upcrun returns no
// process of the job is left.
void end_orphaned_ranks() {
  // Up to 10 s: a loaded machine may take a while to end processes killed by
  // SIGKILL, and a daemon's children reach upcrun only once it is gone.
  for (int round = 0; round < 1000; ++round) {
    std::ifstream children("/proc/self/task/" + std::to_string(::getpid()) + "/children");
    bool any = false;
    for (long child; children >> child;) {
      ::kill(static_cast<pid_t>(child), SIGKILL);
      any = true;
    }
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (!any) return;
    ::usleep(10000);
  }
}

// An installed upcrun (<prefix>/<bindir>/upcrun) names the installed mpi module
// (<prefix>/<libdir>/upcemu/libupcemu_mpi.so) for the ranks, so that an install
// that was staged or moved still finds it; the runtime's own candidates are the
// build tree's and the configured prefix's (lib/runtime/mpi_plugin_loader.cpp).
void name_installed_mpi_module() {
#if defined(UPCEMU_BINDIR) && defined(UPCEMU_LIBDIR)
  if (const char* set = std::getenv("UPCEMU_MPI_PLUGIN"); set && *set) return;
  std::error_code ec;
  std::filesystem::path root = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec || std::filesystem::path(UPCEMU_BINDIR).is_absolute()) return;
  for (const auto& part : std::filesystem::path(UPCEMU_BINDIR)) {
    (void)part;
    root = root.parent_path();
  }
  const std::filesystem::path libdir(UPCEMU_LIBDIR);
  const auto module = (libdir.is_absolute() ? libdir : root / libdir) / "upcemu" / "libupcemu_mpi.so";
  if (std::filesystem::is_regular_file(module, ec)) ::setenv("UPCEMU_MPI_PLUGIN", module.c_str(), 1);
#endif
}

// What execvp would find wrong with running `name` (found as it finds it: a
// name without '/' in PATH): 0, or the errno it would fail with. mpirun's own
// complaint is not the other backends' (Open MPI's exits 132 saying nothing
// under -q), so the mpi backend asks first and says it in the same words.
int program_error(const std::string& name) {
  auto error_of = [](const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return errno;
    return S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0 ? 0 : EACCES;
  };
  if (name.empty()) return ENOENT;
  if (name.find('/') != std::string::npos) return error_of(name);
  const char* env_path = std::getenv("PATH");
  const std::string path = env_path ? env_path : "/bin:/usr/bin";  // glibc's execvp default
  int found = ENOENT;
  for (std::size_t start = 0;;) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::string dir = path.substr(start, end - start);
    const int err = error_of((dir.empty() ? "." : dir) + "/" + name);
    if (err == 0) return 0;
    if (err == EACCES) found = EACCES;  // execvp goes on looking, and says EACCES if nothing runs
    if (end == path.size()) return found;
    start = end + 1;
  }
}

int run_mpirun(const upcrun::options& s, char** program) {
  name_installed_mpi_module();
  // Open MPI's files of the job (its shared-memory transport's segments, the
  // session directory) in a folder of this upcrun's, removed when the job
  // ends, or by the next upcrun if this one is killed (mpi_job_folder.hpp).
  // In /dev/shm, unless containers make it tiny (64 MiB): /tmp there (upcemu's
  // own segment is a memfd, in neither). Only on this host: with --hostfile,
  // the other hosts have no such folder, and Open MPI's defaults stay (but
  // the segments in /tmp where /dev/shm is tiny).
  for (const char* base : {"/dev/shm", "/tmp"}) upcrun::mpi_job_folder::remove_stale(base);
  std::optional<upcrun::mpi_job_folder> folder;
  struct statvfs shm {};
  const bool roomy_shm = ::statvfs("/dev/shm", &shm) == 0 &&
                         static_cast<unsigned long long>(shm.f_bavail) * shm.f_frsize >= (512ULL << 20);
  if (!s.hostfile.empty() && !roomy_shm) ::setenv("OMPI_MCA_btl_vader_backing_directory", "/tmp", 0);
  if (s.hostfile.empty()) {
    folder.emplace(roomy_shm ? "/dev/shm" : "/tmp");
    if (folder->path().empty()) {
      std::fprintf(stderr, "upcrun: --backend mpi: %s\n", folder->error().c_str());
      return 1;
    }
    ::setenv("OMPI_MCA_btl_vader_backing_directory", folder->path().c_str(), 0);
    ::setenv("OMPI_MCA_orte_tmpdir_base", folder->path().c_str(), 0);
  }
  std::string mpirun = s.mpirun;
  if (mpirun.empty())
    if (const char* env = std::getenv("UPCEMU_MPIRUN"); env && *env) mpirun = env;
  if (mpirun.empty()) mpirun = "mpirun";
  std::vector<std::string> args = {mpirun, "-q", "--oversubscribe", "--bind-to", "none", "-n", std::to_string(*s.threads)};
  if (!s.hostfile.empty()) args.insert(args.end(), {"--hostfile", s.hostfile});
  for (char** e = environ; *e; ++e) {
    std::string_view var(*e);
    if (var.substr(0, 7) == "UPCEMU_") args.insert(args.end(), {"-x", std::string(var.substr(0, var.find('=')))});
  }
  // Open MPI refuses to run as root unless told twice; containers and CI run
  // as root, and upcemu runs no more as root than the program itself would.
  if (::geteuid() == 0) {
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  }
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  for (char** p = program; *p; ++p) cargs.push_back(*p);
  cargs.push_back(nullptr);

  int report[2];  // the child's exec errno, if exec fails
  if (::pipe2(report, O_CLOEXEC) != 0) {
    std::fprintf(stderr, "upcrun: pipe: %s\n", std::strerror(errno));
    return 1;
  }
  struct sigaction sa {};
  sa.sa_handler = forward_to_mpirun;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
  const pid_t parent = ::getpid();
  // Ranks whose mpirun is gone become upcrun's children (not init's), so that
  // upcrun can see that none is left when it returns (end_orphaned_ranks).
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "upcrun: fork: %s\n", std::strerror(errno));
    return 1;
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
    ::execvp(cargs[0], cargs.data());
    const int err = errno;
    (void)!::write(report[1], &err, sizeof err);
    ::_exit(127);
  }
  g_mpirun_pid = pid;
  ::close(report[1]);
  int err = 0;
  if (::read(report[0], &err, sizeof err) == static_cast<ssize_t>(sizeof err)) {
    ::waitpid(pid, nullptr, 0);
    std::fprintf(stderr, "upcrun: --backend mpi needs Open MPI's mpirun: cannot run '%s': %s (apt-get install "
                         "openmpi-bin, or name it with --mpirun PATH)\n", mpirun.c_str(), std::strerror(err));
    return err == ENOENT ? 127 : 126;
  }
  ::close(report[0]);
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  end_orphaned_ranks();
  if (const int sig = g_interrupted_by) {
    const char* abbrev = sigabbrev_np(sig);
    std::fprintf(stderr, "upcemu: interrupted by SIG%s; stopped all %ld threads\n", abbrev ? abbrev : "?", *s.threads);
    return 128 + sig;
  }
  if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
  return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 1;
}

}  // namespace

int main(int argc, char** argv) {
  upcrun::command_line cl = upcrun::parse_command_line(argc, argv);
  if (!cl.error.empty()) usage_error(cl.error);
  switch (cl.what) {
    case upcrun::command_line::action::help:
      std::fputs(upcrun::help_text, stdout);
      return 0;
    case upcrun::command_line::action::version:
      std::printf("upcrun (upcemu) %s\n", UPCEMU_VERSION);
      return 0;
    case upcrun::command_line::action::list_algorithms:
      std::fputs(upc::coll::describe_algorithms().c_str(), stdout);
      return 0;
    case upcrun::command_line::action::run:
      break;
  }
  upcrun::options& s = cl.opts;
  if (const std::string error = upcrun::complete_options(s); !error.empty()) usage_error(error);
  for (const auto& [name, value] : upcrun::environment_of(s)) set_env(name, value);

  std::fflush(nullptr);
  char** program = argv + cl.program;
  if (s.backend == "mpi") {
    if (const int err = program_error(program[0])) {
      std::fprintf(stderr, "upcrun: cannot run '%s': %s\n", program[0], std::strerror(err));
      return err == ENOENT ? 127 : 126;
    }
    return run_mpirun(s, program);
  }
  // The processes backend forks one worker per UPC thread from the program's
  // first process. With lazy binding every worker looked up each library function
  // it called first and copied the pages of the table it wrote; binding them all
  // once, before the forks, made 4096 processes start in 13 s instead of 16
  // (docs/backends.md). A value the user set is kept.
  if (s.backend == "processes") ::setenv("LD_BIND_NOW", "1", 0);
  ::execvp(program[0], program);
  const int err = errno;
  std::fprintf(stderr, "upcrun: cannot run '%s': %s\n", program[0], std::strerror(err));
  return err == ENOENT ? 127 : 126;
}
