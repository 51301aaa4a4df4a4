// upcrun: start a upcemu program on THREADS UPC threads.
//
// upcrun only checks its options, turns them into the UPCEMU_* environment
// variables that every upcemu program reads at start-up (lib/runtime/options.cpp),
// and replaces itself with the program (execvp). The program's own launcher then
// runs the threads, so its exit status, signals and interrupts reach the caller
// exactly as if the program had been started directly.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include "upc/coll.hpp"
#include "upc/error.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>
#include <algorithm>

#include "../lib/runtime/size_parse.hpp"
#include "../lib/runtime/topology.hpp"
#include "../lib/runtime/traffic.hpp"
#include "mpi_job_folder.hpp"

#ifndef UPCEMU_VERSION
#define UPCEMU_VERSION "unknown"
#endif

namespace {

constexpr int exit_usage = 2;

const char* const help_text =
    R"(Usage: upcrun -n THREADS [options] PROGRAM [ARGS...]

Runs a upcemu program as THREADS UPC threads: a UPC program built by upcc, or
a C++ one that defines upc_main and links upcemu's main (pkg-config upcemu).
upcrun checks its options, sets the UPCEMU_* environment variables below and
then executes PROGRAM in its own place, so PROGRAM's exit status, and any
signal that ends it, are upcrun's.

Options:
  -n, --threads N        number of UPC threads (THREADS), 1 to 4096
                         (default: $UPCEMU_THREADS, else the number of CPUs)
  --backend KIND         'threads' (default): THREADS OS threads in one process;
                         'processes': one forked process per UPC thread;
                         'mpi': one Open MPI rank per UPC thread, started by
                         mpirun, on one host or several (docs/backends.md);
                         Open MPI's files of the job go in a folder upcrun
                         removes (/dev/shm/upcrun-mpi.*; a killed upcrun's
                         by the next one)
  --hostfile FILE        mpi backend: the hosts for mpirun (its --hostfile); the
                         program and upcemu at the same path on every host
  --mpirun PATH          mpi backend: the mpirun to call (default:
                         $UPCEMU_MPIRUN, else mpirun from PATH)
  --heap SIZE            shared heap per thread, e.g. 512K, 64M, 1G (at least 64K;
                         default 64M, less when THREADS is large; SIZE x THREADS
                         at most 64 TiB, reserved sparsely)
  --nodes N              emulate a cluster: place the threads on N virtual nodes
                         (1 to THREADS, default 1); see docs/topology.md
  --threads-per-node K   nodes of exactly K threads (K must divide THREADS)
  --node-map MAP         how threads go to nodes: 'block' (default: consecutive
                         threads together), 'cyclic' (thread t on node t mod N),
                         or a FILE with one line per node listing its threads
                         (numbers or ranges such as 4-7; '#' comments)
  --report=traffic       print at exit, per collective call site and algorithm,
                         the bytes and copies within nodes and between nodes
                         and the largest fan-in (docs/topology.md)
  --report-file FILE     write those rows to FILE as JSON lines instead (FILE must
                         be writable: checked before the program starts)
  --net=LAT_US,GBPS      network model: every copy between nodes waits LAT_US
                         microseconds + bytes / GBPS gigabytes per second (off
                         by default; a model, not a measurement; LAT_US 0 to
                         1e9, GBPS 0 or at least 0.001, not both 0)
  --check                checked mode: bounds checks against each shared object,
                         the full single-valued argument checks of collectives,
                         <upccoll.h> errors printed as they are returned, a note
                         on its handles never waited on, and wait warnings (see
                         --wait-warning)
  --watchdog S           stop the run, printing where every thread waits, once
                         every thread has been waiting in the runtime for S
                         seconds with none of them moving: a deadlock (default 2;
                         on in every run)
  --wait-warning S       warn (without stopping) when threads have waited S
                         seconds in a barrier, collective or lock while other
                         threads run instead of arriving, naming what those last
                         called (default 20 with --check, else off; 0: off)
  --timeout S            stop the run after S seconds, printing where every thread
                         is (0, the default: no limit)
  --stack SIZE           stack of each UPC thread on the threads backend
                         (at least 64K, default 8M)
  --quiet                do not print failure reports to stderr
  --backtrace WHAT       the backtrace of a failure report: 'program' (default:
                         the program's own frames, demangled, with file:line
                         when it is built with -g; upcemu's and the system
                         libraries' frames not shown), 'full' (every frame) or
                         'off'
  --coll SPEC            force collective algorithms: "broadcast:push;exchange:
                         pairwise:0-64K" (collective:algorithm[:lo-hi] separated by
                         ';'; sizes per block, K/M/G suffixes, 'max'; 'auto' too)
  --coll-segment SIZE    the unit in which the chunk algorithms stage and forward
                         large runs (at least 64, K/M/G suffixes; default 128K)
  --verbose-coll         print, once per collective and algorithm, which ran
  --list-algorithms      list every collective's algorithms and exit
  --upccoll-progress M   who advances non-blocking upccoll_* collectives: 'inline'
                         (inside every upccoll call, the default) or 'thread' (also
                         a progress thread per UPC thread)
  -h, --help             show this help and exit
  --version              show the version and exit
  --                     end of options (for a PROGRAM whose name starts with -)

Options may also be written --option=VALUE, and -n as -nTHREADS. SIZE is a number
of bytes with an optional K, M or G suffix (powers of 1024). S is a number of
seconds (fractions allowed; not inf or nan). Options come before PROGRAM;
everything after it is passed to PROGRAM unchanged. A PROGRAM without a '/' is
looked up in PATH, so run one in the current directory as ./prog.

Environment (what the options set; a program started without upcrun reads them
too, and an option given to upcrun overrides the variable):
  UPCEMU_THREADS    -n            UPCEMU_BACKEND   --backend
  UPCEMU_HEAP       --heap        UPCEMU_NODES     --nodes
  UPCEMU_THREADS_PER_NODE --threads-per-node   UPCEMU_NODE_MAP --node-map
  UPCEMU_REPORT     --report      UPCEMU_REPORT_FILE --report-file
  UPCEMU_NET        --net
  UPCEMU_CHECK      --check (1/0) UPCEMU_WATCHDOG  --watchdog
  UPCEMU_WAIT_WARNING --wait-warning
  UPCEMU_TIMEOUT    --timeout     UPCEMU_STACK     --stack
  UPCEMU_QUIET      --quiet (1/0) UPCEMU_BACKTRACE --backtrace
  UPCEMU_COLL       --coll        UPCEMU_VERBOSE_COLL --verbose-coll (1/0)
  UPCEMU_COLL_SEGMENT --coll-segment
  UPCEMU_UPCCOLL_PROGRESS --upccoll-progress
  UPCEMU_MPIRUN     --mpirun      UPCEMU_MPI_PLUGIN the mpi backend's module
                                  (libupcemu_mpi.so) to load instead of the
                                  build tree's or the installed one

Exit status (PROGRAM's, since upcrun becomes PROGRAM; on the mpi backend
upcrun waits for mpirun, whose status is the program's):
  0        every thread returned 0 from upc_main (or called exit(0))
  N        the first non-zero status a thread returned or passed to exit, in
           thread order, or upc_global_exit(N); also _exit(N), _Exit(N) or
           quick_exit(N) called by a thread, which is reported as a failure
           (1 for N = 0)
  1        a thread failed: an uncaught exception, a upc:: usage error, a thread
           that ended abnormally, a deadlock found by --check, or a shared array
           whose size expression threw
  124      the run exceeded --timeout
  128+N    a thread was killed by signal N (139: SIGSEGV, 137: SIGKILL), a thread
           the program started included
  130      interrupted (SIGINT, Ctrl-C); 143 for SIGTERM; every thread is stopped,
           also while they are being started
  2        bad usage: an invalid option or environment variable, no PROGRAM, or
           --heap x THREADS over 64 TiB
  126, 127 PROGRAM could not be executed / was not found (on every backend;
           mpi: before mpirun starts)
On every failure the report on stderr names the thread and the cause (exception
text, signal name, where each thread waits), and no shared-memory segment is
left in /dev/shm.

Example:
  upcrun -n 8 --backend processes --check --timeout 60 ./examples/hello
)";

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "upcrun: %s\nTry 'upcrun --help' for more information.\n", message.c_str());
  std::exit(exit_usage);
}

std::optional<long> parse_long(const std::string& s) {
  if (s.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  long x = std::strtol(s.c_str(), &end, 10);
  if (errno || *end != '\0' || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  return x;
}

std::optional<double> parse_seconds(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  double x = std::strtod(s.c_str(), &end);
  if (errno || *end != '\0' || !std::isfinite(x) || x < 0) return std::nullopt;
  return x;
}

struct settings {
  std::optional<long> threads, nodes, per_node;
  std::string node_map, report, report_file, net;
  std::string backend, heap, stack, timeout, watchdog, wait_warning, coll, coll_segment, upccoll_progress;
  std::string hostfile, mpirun, backtrace;
  bool check = false, quiet = false, verbose_coll = false;
};

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

int run_mpirun(const settings& s, char** program) {
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
  settings s;
  int i = 1;
  // The value of an option given as "--opt VALUE", "--opt=VALUE" (or "-nVALUE").
  auto value_of = [&](std::string_view arg, std::string_view name, std::string& out) -> bool {
    if (arg == name) {
      if (i + 1 >= argc) usage_error(std::string(name) + " needs a value");
      out = argv[++i];
      return true;
    }
    if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
      out = std::string(arg.substr(name.size() + 1));
      return true;
    }
    return false;
  };

  for (; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string v;
    if (arg == "--") { ++i; break; }
    if (arg.empty() || arg[0] != '-') break;  // the program
    if (arg == "-h" || arg == "--help") {
      std::fputs(help_text, stdout);
      return 0;
    }
    if (arg == "--version") {
      std::printf("upcrun (upcemu) %s\n", UPCEMU_VERSION);
      return 0;
    }
    if (arg == "--check") { s.check = true; continue; }
    if (arg == "--quiet") { s.quiet = true; continue; }
    if (arg == "--verbose-coll") { s.verbose_coll = true; continue; }
    if (arg == "--list-algorithms") {
      std::fputs(upc::coll::describe_algorithms().c_str(), stdout);
      return 0;
    }
    if (value_of(arg, "--backtrace", v)) {
      if (v != "program" && v != "full" && v != "off")
        usage_error("--backtrace must be 'program', 'full' or 'off', got '" + v + "'");
      s.backtrace = v;
      continue;
    }
    if (value_of(arg, "--upccoll-progress", v)) {
      if (v != "inline" && v != "thread") usage_error("--upccoll-progress must be 'inline' or 'thread', got '" + v + "'");
      s.upccoll_progress = v;
      continue;
    }
    if (value_of(arg, "--coll-segment", v)) {
      try {
        upc::coll::parse_segment(v, "--coll-segment");
      } catch (const upc::error& e) {
        usage_error(e.what());
      }
      s.coll_segment = v;
      continue;
    }
    if (value_of(arg, "--coll", v)) {
      try {
        upc::coll::check_rules(v, "--coll");
      } catch (const upc::error& e) {
        usage_error(e.what());
      }
      s.coll = v;
      continue;
    }
    if (value_of(arg, "-n", v) || value_of(arg, "--threads", v) ||
        (arg.size() > 2 && arg.substr(0, 2) == "-n" && arg[2] != '=' && (v = arg.substr(2), true))) {
      auto n = parse_long(v);
      if (!n || *n < 1 || *n > upc::detail::max_threads)
        usage_error("-n must be an integer from 1 to " + std::to_string(upc::detail::max_threads) + ", got '" + v + "'");
      s.threads = n;
      continue;
    }
    if (value_of(arg, "--backend", v)) {
      if (v != "threads" && v != "processes" && v != "mpi")
        usage_error("--backend must be 'threads', 'processes' or 'mpi', got '" + v + "'");
      s.backend = v;
      continue;
    }
    if (value_of(arg, "--hostfile", v)) {
      if (::access(v.c_str(), R_OK) != 0) usage_error("--hostfile: cannot read '" + v + "': " + std::strerror(errno));
      s.hostfile = v;
      continue;
    }
    if (value_of(arg, "--mpirun", v)) {
      s.mpirun = v;
      continue;
    }
    if (value_of(arg, "--heap", v)) {
      auto bytes = upc::detail::parse_size(v);
      if (!bytes || *bytes < upc::detail::min_heap_bytes)
        usage_error("--heap must be a size of at least 64K per thread, such as 64M or 1G, got '" + v + "'");
      s.heap = v;
      continue;
    }
    if (value_of(arg, "--stack", v)) {
      auto bytes = upc::detail::parse_size(v);
      if (!bytes || *bytes < 65536) usage_error("--stack must be a size of at least 64K, such as 8M, got '" + v + "'");
      s.stack = v;
      continue;
    }
    if (value_of(arg, "--nodes", v)) {
      auto n = parse_long(v);
      if (!n || *n < 1 || *n > upc::detail::max_threads)
        usage_error("--nodes must be an integer from 1 to THREADS, got '" + v + "'");
      s.nodes = n;
      continue;
    }
    if (value_of(arg, "--threads-per-node", v)) {
      auto n = parse_long(v);
      if (!n || *n < 1 || *n > upc::detail::max_threads)
        usage_error("--threads-per-node must be an integer from 1 to THREADS, got '" + v + "'");
      s.per_node = n;
      continue;
    }
    if (value_of(arg, "--node-map", v)) {
      if (v.empty()) usage_error("--node-map must be 'block', 'cyclic' or a file, got ''");
      if (v != "block" && v != "cyclic") {
        // a file: the program may change directory; pass it an absolute path
        char* full = ::realpath(v.c_str(), nullptr);
        if (!full) usage_error("--node-map: cannot read the node map file '" + v + "': " + std::strerror(errno));
        v = full;
        std::free(full);
      }
      s.node_map = v;
      continue;
    }
    if (value_of(arg, "--report", v)) {
      if (v != "traffic") usage_error("--report must be 'traffic', got '" + v + "'");
      s.report = v;
      continue;
    }
    if (value_of(arg, "--report-file", v)) {
      if (v.empty()) usage_error("--report-file needs a file name");
      // Found now, not at exit when the run's report would be lost.
      if (const std::string why = upc::detail::traffic::report_file_problem(v); !why.empty())
        usage_error("--report-file: cannot write '" + v + "': " + why);
      s.report_file = v;
      continue;
    }
    if (value_of(arg, "--net", v)) {
      double lat = 0, rate = 0;
      if (!upc::detail::traffic::parse_net(v, lat, rate))
        usage_error("--net must be LATENCY_US,GBPS (finite numbers: microseconds per inter-node copy, 0 to 1e9; "
                    "gigabytes per second, 0 or at least 0.001; not both 0), such as 1.5,3.2, got '" + v + "'");
      s.net = v;
      continue;
    }
    if (value_of(arg, "--timeout", v)) {
      if (!parse_seconds(v)) usage_error("--timeout must be a number of seconds >= 0 (0: no limit), got '" + v + "'");
      s.timeout = v;
      continue;
    }
    if (value_of(arg, "--watchdog", v)) {
      auto x = parse_seconds(v);
      if (!x || *x <= 0) usage_error("--watchdog must be a number of seconds > 0, got '" + v + "'");
      s.watchdog = v;
      continue;
    }
    if (value_of(arg, "--wait-warning", v)) {
      if (!parse_seconds(v)) usage_error("--wait-warning must be a number of seconds >= 0 (0: off), got '" + v + "'");
      s.wait_warning = v;
      continue;
    }
    usage_error("unknown option '" + std::string(arg) + "'");
  }

  if (i >= argc) usage_error("no program given: usage is upcrun -n THREADS [options] PROGRAM [ARGS...]");
  // The backend may come from the environment too (UPCEMU_BACKEND=mpi must
  // still start mpirun).
  if (s.backend.empty())
    if (const char* env = std::getenv("UPCEMU_BACKEND"); env && std::string_view(env) == "mpi") s.backend = "mpi";
  const bool mpi = s.backend == "mpi";
  if (!mpi && !s.hostfile.empty()) usage_error("--hostfile is an option of the mpi backend: add --backend mpi");
  if (!mpi && !s.mpirun.empty()) usage_error("--mpirun is an option of the mpi backend: add --backend mpi");
  if (mpi && !s.threads) {
    // mpirun needs the number of ranks: the same default as the other backends.
    if (const char* env = std::getenv("UPCEMU_THREADS"); env && *env) {
      auto n = parse_long(env);
      if (!n || *n < 1 || *n > upc::detail::max_threads) usage_error(std::string("UPCEMU_THREADS='") + env + "' is invalid");
      s.threads = n;
    } else {
      s.threads = std::max(1u, std::thread::hardware_concurrency());
    }
  }
  // The topology, checked now when THREADS is known (the program checks it again).
  if (s.threads && (s.nodes || s.per_node || !s.node_map.empty())) {
    try {
      upc::detail::make_node_map(static_cast<int>(*s.threads), s.nodes ? static_cast<int>(*s.nodes) : 0,
                                 s.per_node ? static_cast<int>(*s.per_node) : 0, s.node_map);
    } catch (const upc::error& e) {
      usage_error(e.message());
    }
  }
  // The segment holds THREADS heaps: say now, as the program would, when that
  // cannot be mapped (the product is computed without wrapping).
  if (s.threads && !s.heap.empty()) {
    const auto parts = upc::detail::size_partitions(*upc::detail::parse_size(s.heap), static_cast<int>(*s.threads), s.heap);
    if (!parts.error.empty()) usage_error(parts.error);
  }

  if (s.threads) set_env("UPCEMU_THREADS", std::to_string(*s.threads));
  if (!s.backend.empty()) set_env("UPCEMU_BACKEND", s.backend);
  if (!s.heap.empty()) set_env("UPCEMU_HEAP", s.heap);
  if (!s.stack.empty()) set_env("UPCEMU_STACK", s.stack);
  if (s.nodes) set_env("UPCEMU_NODES", std::to_string(*s.nodes));
  if (s.per_node) set_env("UPCEMU_THREADS_PER_NODE", std::to_string(*s.per_node));
  if (!s.node_map.empty()) set_env("UPCEMU_NODE_MAP", s.node_map);
  if (!s.report.empty()) set_env("UPCEMU_REPORT", s.report);
  if (!s.report_file.empty()) set_env("UPCEMU_REPORT_FILE", s.report_file);
  if (!s.net.empty()) set_env("UPCEMU_NET", s.net);
  if (s.check) set_env("UPCEMU_CHECK", "1");
  if (!s.timeout.empty()) set_env("UPCEMU_TIMEOUT", s.timeout);
  if (!s.watchdog.empty()) set_env("UPCEMU_WATCHDOG", s.watchdog);
  if (!s.wait_warning.empty()) set_env("UPCEMU_WAIT_WARNING", s.wait_warning);
  if (s.quiet) set_env("UPCEMU_QUIET", "1");
  if (!s.backtrace.empty()) set_env("UPCEMU_BACKTRACE", s.backtrace);
  if (!s.coll.empty()) set_env("UPCEMU_COLL", s.coll);
  if (!s.coll_segment.empty()) set_env("UPCEMU_COLL_SEGMENT", s.coll_segment);
  if (s.verbose_coll) set_env("UPCEMU_VERBOSE_COLL", "1");
  if (!s.upccoll_progress.empty()) set_env("UPCEMU_UPCCOLL_PROGRESS", s.upccoll_progress);

  std::fflush(nullptr);
  if (mpi) {
    if (const int err = program_error(argv[i])) {
      std::fprintf(stderr, "upcrun: cannot run '%s': %s\n", argv[i], std::strerror(err));
      return err == ENOENT ? 127 : 126;
    }
    return run_mpirun(s, argv + i);
  }
  ::execvp(argv[i], argv + i);
  const int err = errno;
  std::fprintf(stderr, "upcrun: cannot run '%s': %s\n", argv[i], std::strerror(err));
  return err == ENOENT ? 127 : 126;
}
