// MPI in this process (mpi_session.hpp): started once, the module's table and
// this rank's place, and the job-wide services the runtime's parts below the
// backend use. The backend's run is backend_mpi.cpp.
#include "mpi_session.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hosts.hpp"
#include "libc_state.hpp"
#include "mpi_plugin.hpp"
#include "process_end.hpp"
#include "size_parse.hpp"

namespace upc::detail {

bool randomization_off() noexcept;  // same_addresses.cpp

namespace {
const mpi_plugin_ops* g_mpi = nullptr;
mpi_world g_world;
bool g_started = false;
int g_runs = 0;  // runs started in this process
}  // namespace

// Every rank reads the same options and fails alike; rank 0 says why, the
// others wait until it has, then all stop with status 2.
void mpi_stop_start(const std::string& why) {
  if (g_world.rank == 0) {
    std::fprintf(stderr, "upcrun: %s\n", why.c_str());
    std::fflush(stderr);
  }
  g_mpi->barrier();
  g_mpi->finalize();
  end_process(2);
}

void mpi_check(int rc, const char* what) {
  if (rc) mpi_stop_start(std::string("the mpi backend could not ") + what + ": " + g_mpi->last_error());
}

namespace {
// The program, its libraries and its static data at the same addresses in
// every rank (same_addresses.cpp): compare two of them across the ranks.
void check_same_addresses() {
  const auto program = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(&g_threads));
  const auto library = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(&std::fflush));
  std::int64_t v[4] = {program, -program, library, -library};
  for (auto& x : v) mpi_check(g_mpi->allreduce_min(&x), "compare the ranks' addresses");
  if (v[0] == program && -v[1] == program && v[2] == library && -v[3] == library) return;
  mpi_stop_start(std::string("the ranks loaded the program at different addresses, but the runtime keeps addresses of "
                             "static data in shared memory: address-space randomisation is on") +
                 (randomization_off() ? "" : " and this system did not let the program turn it off for itself "
                                             "(personality(ADDR_NO_RANDOMIZE))") +
                 "; start the job as `setarch -R upcrun --backend mpi ...` or `setarch -R mpirun ...`");
}
}  // namespace

bool mpi_leader() noexcept { return !g_started || g_world.rank == 0; }
bool mpi_host_leader() noexcept { return !g_started || g_world.host_rank == 0; }
bool mpi_thread_multiple() noexcept { return g_started && g_world.thread_level == 3; }
const mpi_plugin_ops& mpi_ops() noexcept { return *g_mpi; }
const mpi_world& mpi_this_rank() noexcept { return g_world; }

void mpi_start(launch_options& opt) {
  // MPI is started once per process, by the first run; a program may make
  // several runs (upc::run), each on every rank, and MPI_Finalize comes at exit.
  if (!g_started) {
    // A rank outlives neither mpirun nor its daemon (SIGKILL of the job leaves
    // no rank behind, as on the processes backend).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    g_mpi = &load_mpi_plugin();
    if (int rc = g_mpi->init(&g_world))
      throw upc::error("upcrun", std::string("the mpi backend could not start MPI: ") + g_mpi->last_error() +
                                     " (code " + std::to_string(rc) + ")", -1);
    g_started = true;
    std::atexit([] { g_mpi->finalize(); });
    check_same_addresses();
  }
  if (opt.threads != 0 && opt.threads != g_world.size) {
    const std::string why = "THREADS is " + std::to_string(opt.threads) +
                            " (upcrun -n or UPCEMU_THREADS) but mpirun started " + std::to_string(g_world.size) +
                            " ranks: on the mpi backend THREADS is the number of ranks";
    // After a first run, every rank refuses the same later run alike and may
    // go on (a test suite skips it); a program's first run stops the job.
    if (g_runs > 0) throw upc::error("upc::run", why, -1);
    mpi_stop_start(why);
  }
  if (g_world.size > max_threads)
    mpi_stop_start("THREADS must be between 1 and " + std::to_string(max_threads) + ", got " +
                   std::to_string(g_world.size) + " ranks");
  // Spread over hosts: who is where (dsm.cpp and remote_ops.cpp use it).
  g_several_hosts = g_world.hosts > 1;
  g_host_map.hosts = g_world.hosts;
  g_host_map.my_host = g_world.host;
  g_host_map.host_of.assign(static_cast<std::size_t>(g_world.size), 0);
  if (g_several_hosts) {
    mpi_check(g_mpi->allgather(&g_world.host, g_host_map.host_of.data(), sizeof(int)), "learn where the ranks run");
  }
  opt.threads = g_world.size;
  ++g_runs;
}

shared_file mpi_share_memfd(std::uint64_t bytes, const char* name, const char* what) {
  struct offer {
    std::int64_t pid = 0, fd = -1, error = 0;
  } o;
  shared_file f;
  if (g_world.host_rank == 0) {
    f.fd = ::memfd_create(name, MFD_CLOEXEC);
    if (f.fd < 0 || ::ftruncate(f.fd, static_cast<off_t>(bytes)) != 0) o.error = errno ? errno : EINVAL;
    o.pid = ::getpid();
    o.fd = f.fd;
  }
  mpi_check(g_mpi->host_bcast(&o, sizeof o), what);
  // Every host's leader's failure is everyone's.
  std::int64_t worst = -o.error;
  mpi_check(g_mpi->allreduce_min(&worst), what);
  o.error = -worst;
  if (o.error) {
    if (f.fd >= 0) ::close(f.fd);
    return {-1, static_cast<int>(o.error)};
  }
  std::int64_t ok = 0;
  if (g_world.host_rank != 0) {
    const std::string path = "/proc/" + std::to_string(o.pid) + "/fd/" + std::to_string(o.fd);
    f.fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (f.fd < 0) ok = -errno;
  }
  mpi_check(g_mpi->allreduce_min(&ok), what);
  if (ok < 0) {
    if (f.fd >= 0) ::close(f.fd);
    return {-1, static_cast<int>(-ok)};
  }
  return f;
}

void* mpi_shared_memory(std::size_t bytes) {
  const shared_file f = mpi_share_memfd(bytes, "upcemu-shared", "share memory");
  if (f.error) return nullptr;
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, 0);
  ::close(f.fd);
  std::int64_t ok = m != MAP_FAILED;
  mpi_check(g_mpi->allreduce_min(&ok), "share memory");
  if (ok == 1) return m;
  if (m != MAP_FAILED) ::munmap(m, bytes);
  return nullptr;
}

std::string mpi_rank0_text(const std::string& text) {
  std::int64_t n = static_cast<std::int64_t>(text.size());
  mpi_check(g_mpi->bcast(&n, sizeof n, 0), "share a text");
  std::string out = g_world.rank == 0 ? text : std::string(static_cast<std::size_t>(n), '\0');
  if (n > 0) mpi_check(g_mpi->bcast(out.data(), static_cast<std::uint64_t>(n), 0), "share a text");
  return out;
}

std::vector<std::string> mpi_gather_texts(const std::string& text) {
  const std::size_t P = static_cast<std::size_t>(g_world.size);
  const std::int64_t n = static_cast<std::int64_t>(text.size());
  std::vector<std::int64_t> sizes(P);
  mpi_check(g_mpi->allgather(&n, sizes.data(), sizeof n), "gather texts");
  const std::int64_t longest = *std::max_element(sizes.begin(), sizes.end());
  std::vector<std::string> out(P);
  if (longest == 0) return out;
  std::string padded = text;
  padded.resize(static_cast<std::size_t>(longest));
  std::vector<char> all(P * static_cast<std::size_t>(longest));
  mpi_check(g_mpi->allgather(padded.data(), all.data(), static_cast<std::uint64_t>(longest)), "gather texts");
  for (std::size_t r = 0; r < P; ++r)
    out[r].assign(all.data() + r * static_cast<std::size_t>(longest), static_cast<std::size_t>(sizes[r]));
  return out;
}

std::uint64_t mpi_team_comm(const std::vector<int>& threads) {
  if (!g_started) fail("mpi algorithm", "the mpi algorithms run on the mpi backend only");
  std::uint64_t comm = 0;
  if (int rc = g_mpi->team_comm(threads.data(), static_cast<int>(threads.size()), 0, &comm))
    fail("mpi algorithm", std::string("a team's communicator: ") + g_mpi->last_error() + " (code " + std::to_string(rc) + ")");
  return comm;
}

void mpi_collective(int op, const char* send, char* recv, std::uint64_t bytes, int root, std::uint64_t comm) {
  if (!g_started) fail("mpi algorithm", "the mpi algorithms run on the mpi backend only");
  if (int rc = g_mpi->collective(op, send, recv, bytes, root, comm))
    fail("mpi algorithm", std::string(g_mpi->last_error()) + " (code " + std::to_string(rc) + ")");
}

void mpi_end_job(int status) noexcept {
  let_exit_end_process();  // an exit() inside MPI_Abort ends this rank, not one UPC thread
  if (g_started) g_mpi->abort(status);
  end_process(status);
}

}  // namespace upc::detail
