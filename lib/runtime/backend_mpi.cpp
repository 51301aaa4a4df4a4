// The mpi backend: mpirun starts THREADS ranks, each one UPC thread (MYTHREAD =
// rank of MPI_COMM_WORLD). The ranks of a host share one segment, the same
// control block and partitions as the other backends, so the whole runtime
// (barriers, locks, heap, the collective engine) works unchanged and same-host
// accesses stay loads and stores. MPI itself is reached through the module of
// mpi_plugin.hpp, started and shared
// with the rest of the runtime by mpi_session.cpp. docs/backends.md tells the story and what is not built yet
// (ranks on several hosts).
//
// A run, per rank: MPI_Init_thread; host 0's rank 0 makes the segment (a memfd)
// and every rank maps it at one address; rank 0 fills the control block and
// allocates the namespace-scope objects, the others adopt its offsets
// (launch_replay.hpp); all start together; rank 0 also runs the monitor
// (deadlocks, --timeout, the grace period after a failure) on a second thread,
// ending the job with MPI_Abort when ranks must be stopped by force; at the end
// every rank reads every rank's status from the control block, so all return
// the same exit code, and MPI_Finalize.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

#include <boost/thread.hpp>

#include "backend_mpi.hpp"
#include "barrier_hosts.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "fatal_signals.hpp"
#include "mpi_jobs.hpp"
#include "control.hpp"
#include "dsm.hpp"
#include "futex.hpp"
#include "hosts.hpp"
#include "launch_replay.hpp"
#include "launcher.hpp"
#include "libc_state.hpp"
#include "mpi_plugin.hpp"
#include "mpi_session.hpp"
#include "process_end.hpp"
#include "remote_ops.hpp"
#include "run_globals.hpp"
#include "segment.hpp"
#include "size_parse.hpp"

namespace upc::detail {

void mpi_create_segment(const segment_geometry& g) {
  const shared_file f = mpi_share_memfd(g.total_bytes, "upcemu-segment", "share the segment");
  if (f.error)
    mpi_stop_start("cannot share the segment of " + describe_bytes(g.total_bytes) + " (--heap " +
                   describe_bytes(g.partition_bytes) + " × THREADS " + std::to_string(g.threads) + ") between the ranks: " +
                   std::strerror(f.error) + (f.error == ENOMEM || f.error == ENOSPC ? " (try a smaller --heap)" : ""));
  // One address in every rank: where the kernel would put it in rank 0, else
  // one of a few far from where programs and libraries are loaded.
  const std::uint64_t fixed[] = {0x200000000000ULL, 0x300000000000ULL, 0x400000000000ULL, 0x500000000000ULL};
  for (int attempt = 0; attempt <= 4; ++attempt) {
    std::int64_t address = 0;
    if (mpi_this_rank().rank == 0) {
      if (attempt == 0) {
        void* probe = ::mmap(nullptr, g.total_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        address = probe == MAP_FAILED ? static_cast<std::int64_t>(fixed[0])
                                      : static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(probe));
        if (probe != MAP_FAILED) ::munmap(probe, g.total_bytes);
      } else {
        address = static_cast<std::int64_t>(fixed[attempt - 1]);
      }
    }
    mpi_check(mpi_ops().bcast(&address, sizeof address, 0), "share the segment");
    std::int64_t ok =
        map_segment_at(g, f.fd, reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)), mpi_this_rank().host_rank == 0);
    std::int64_t all = ok;
    mpi_check(mpi_ops().allreduce_min(&all), "share the segment");
    if (all == 1) {
      ::close(f.fd);  // the mappings keep the memory
      if (g_several_hosts) dsm_start(g_partitions, g.partition_bytes, g.threads);
      return;
    }
    if (ok == 1) destroy_segment();
  }
  ::close(f.fd);
  mpi_stop_start("no address range of " + describe_bytes(g.total_bytes) +
                 " was free in every rank for the shared segment (try a smaller --heap)");
}

namespace {
// Across hosts, a failure recorded before the start (rank 0's allocation of
// the namespace-scope objects, a rank's replay of it) is in its host's control
// block only: every host must see it, or some would start the run and the
// others not, their MPI calls no longer matching. The first failed rank's
// record goes to every host; its own host prints it.
void agree_on_failure_before_start() {
  if (!g_several_hosts) return;
  control_block& c = control();
  std::int64_t first = c.abort.load() ? mpi_this_rank().rank : INT64_MAX;
  mpi_check(mpi_ops().allreduce_min(&first), "start the run");
  if (first == INT64_MAX) return;
  struct record {
    std::int32_t thread, status;
    char text[error_text_bytes];
  };
  auto r = std::make_unique<record>();
  if (mpi_this_rank().rank == first) {
    r->thread = c.error_thread.load();
    r->status = c.failure_status.load();
    std::memcpy(r->text, c.error_text, error_text_bytes);
    r->text[error_text_bytes - 1] = '\0';
  }
  mpi_check(mpi_ops().bcast(r.get(), sizeof(record), static_cast<int>(first)), "start the run");
  if (c.abort.load()) return;  // this host has its own (it prints it)
  c.report_printed.store(1);
  record_failure_status(r->thread, r->text, r->status);
}
}  // namespace

void mpi_allocate_launch_objects(const std::function<void()>& allocate) {
  // Another host's partitions are a page cache whose faults the crash
  // handler serves: installed before anything may touch them (a test
  // framework may have put its own back since the last run).
  if (g_several_hosts) install_crash_handlers();
  std::vector<std::uint64_t> offsets;
  std::int64_t count = 0;
  if (mpi_this_rank().rank == 0) {
    record_launch_allocations();
    try {
      allocate();
    } catch (const upc::error& e) {  // reported as run() does; the others must still hear of it
      record_failure(-1, (std::string("upcemu: ") + e.what() + "\n").c_str());
    }
    offsets = take_launch_allocations();
    // A failed start (a size expression threw) is seen by every rank in the
    // control block: nothing to adopt then.
    count = control().abort.load() ? -1 : static_cast<std::int64_t>(offsets.size());
  }
  mpi_check(mpi_ops().bcast(&count, sizeof count, 0), "share the shared objects' places");
  if (count < 0) {
    agree_on_failure_before_start();
    return;
  }
  offsets.resize(static_cast<std::size_t>(count));
  if (count > 0) mpi_check(mpi_ops().bcast(offsets.data(), offsets.size() * sizeof(std::uint64_t), 0), "share the shared objects' places");
  if (mpi_this_rank().rank != 0) {
    replay_launch_allocations(std::move(offsets));
    // A refusal here (more objects than rank 0 made) is recorded, not thrown
    // past the start's barrier: every rank must reach it, or this rank's next
    // run would meet the others' calls of this one.
    try {
      allocate();
    } catch (const upc::error& e) {
      record_failure(mpi_this_rank().rank, (std::string("upcemu: ") + e.what() + "\n").c_str());
    }
    if (!finish_launch_replay() && !control().abort.load())
      record_failure(mpi_this_rank().rank, ("upcemu: rank " + std::to_string(mpi_this_rank().rank) +
                                    " allocated fewer shared objects before the start than rank 0: the program's "
                                    "namespace-scope shared objects must be the same in every rank\n").c_str());
  }
  if (g_several_hosts) {
    // Initial values rank 0 wrote into other hosts' partitions go home, and
    // the other hosts' control blocks learn rank 0's heap.
    dsm_release();
    control_block& c = control();
    std::uint64_t heap[5] = {c.sym_top, c.sym_free_head, c.slots[0].local_floor, c.slots[0].local_free_head,
                             c.heap_generation.load()};
    mpi_check(mpi_ops().bcast(heap, sizeof heap, 0), "share the heap");
    if (mpi_this_rank().host != 0 && mpi_this_rank().host_rank == 0) {
      c.sym_top = heap[0];
      c.sym_free_head = heap[1];
      c.slots[0].local_floor = heap[2];
      c.slots[0].local_free_head = heap[3];
      c.heap_generation.store(heap[4]);
    }
  }
  agree_on_failure_before_start();
  mpi_check(mpi_ops().barrier(), "start the run");
  if (g_several_hosts) dsm_acquire();
}

namespace {
bool g_forwarded = false;  // this run's failure was handled here (hosts)
bool g_quiet = false;      // --quiet of this run
double g_abort_seen = -1;  // when this rank first saw its host's abort flag

double seconds_now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// The first failure's record, copied into every other host's control block,
// so that every rank's run stops with it as on one host (a run_result, the
// same exit status; the report printed once, by the host that had it).
void forward_failure() {
  control_block& c = control();
  const std::size_t n = strnlen(c.error_text, error_text_bytes - 1) + 1;
  std::vector<char> msg(sizeof(remote_request));
  remote_request r{remote_op::write_runs};
  std::memcpy(msg.data(), &r, sizeof r);
  auto add = [&msg](const void* at, const void* data, std::uint64_t bytes) {
    const std::uint64_t a = reinterpret_cast<std::uintptr_t>(at);
    const char* head = reinterpret_cast<const char*>(&a);
    msg.insert(msg.end(), head, head + 8);
    const char* size = reinterpret_cast<const char*>(&bytes);
    msg.insert(msg.end(), size, size + 8);
    msg.insert(msg.end(), static_cast<const char*>(data), static_cast<const char*>(data) + bytes);
  };
  const std::int32_t thread = c.error_thread.load(), status = c.failure_status.load();
  add(c.error_text, c.error_text, n);
  add(&c.error_thread, &thread, sizeof thread);
  add(&c.failure_status, &status, sizeof status);
  for (int h = 0; h < mpi_this_rank().hosts; ++h) {
    if (h == mpi_this_rank().host) continue;
    int leader = 0;
    while (g_host_map.host_of[static_cast<std::size_t>(leader)] != h) ++leader;
    remote_write_runs(leader, msg.data(), msg.size());
    for (std::atomic<std::uint32_t>* flag : {&c.report_printed, &c.error_claimed, &c.error_ready, &c.abort})
      remote_post(leader, remote_op::store32_wake, flag, 1);
  }
}

// upc_global_exit on this host, told to every other host once: the status,
// then the abort every thread there stops at.
bool g_exit_forwarded = false;
void forward_global_exit() {
  control_block& c = control();
  const std::int32_t status = c.global_exit_status.load();
  for (int h = 0; h < mpi_this_rank().hosts; ++h) {
    if (h == mpi_this_rank().host) continue;
    int leader = 0;
    while (g_host_map.host_of[static_cast<std::size_t>(leader)] != h) ++leader;
    remote_atomic(leader, remote_op::store32, &c.global_exit_status, static_cast<std::uint32_t>(status));
    remote_atomic(leader, remote_op::store32, &c.global_exit_called, 1);
    remote_post(leader, remote_op::store32_wake, &c.abort, 1);
  }
}

// A failure or upc_global_exit on this host. A failure is handed to every
// host (the first host to claim the job's report prints it and forwards its
// record); so is upc_global_exit, which ends the run everywhere as on one host.
// A rank whose UPC thread has not stopped 3 s after its host's abort ends the
// job (after upc_global_exit, with its status and quietly).
void end_job_if_stopped(bool worker_finished) {
  control_block& c = control();
  const bool global_exit = c.abort.load() && c.global_exit_called.load();
  if (global_exit && !g_exit_forwarded) {
    g_exit_forwarded = true;
    forward_global_exit();
  }
  if (c.error_claimed.load() && c.error_ready.load() && !g_forwarded) {
    g_forwarded = true;
    if (c.report_printed.load() == 0 && remote_claim(c.job_report_claimed) == 0) {
      print_report_once();
      forward_failure();
    }
  }
  if (!c.abort.load() || worker_finished) return;
  const double now = seconds_now();
  if (g_abort_seen < 0) g_abort_seen = now;
  if (now - g_abort_seen < 3) return;
  std::fflush(nullptr);
  if (global_exit) mpi_ops().abort(c.global_exit_status.load());
  print_report_once();
  if (!g_quiet) std::fputs("upcemu: a rank did not stop within 3 s; ending the job\n", stderr);
  std::fflush(nullptr);
  mpi_ops().abort(failure_exit_status());
}
}  // namespace

void run_mpi_backend(const launch_options& opt, const std::function<int()>& body) {
  const int rank = mpi_this_rank().rank;
  install_crash_handlers();
  // As on the processes backend: lines in print order across ranks, and none
  // lost to a rank ended by force.
  if (!::isatty(1)) std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  g_process_upc_thread = rank;
  control().slots[rank].pid = ::getpid();
  if (g_several_hosts) {
    mpi_check(mpi_ops().sync_begin(), "start the run");
    start_remote_server();
    set_remote_channel(1);  // this thread's calls (the failure's forwarding) on their own replies
    g_forwarded = false;
    g_exit_forwarded = false;
    g_abort_seen = -1;
    g_quiet = opt.quiet;
  }
  mpi_jobs_begin_run();  // the world's communicators for collectives handed to MPI (collective)
  std::uint64_t end_comm = 0;  // for the barrier that ends the run, apart from the program's collectives
  mpi_check(mpi_ops().comm_dup(0, &end_comm), "start the run");
  mpi_check(mpi_ops().barrier(), "start the run");
  if (mpi_this_rank().host_rank == 0) open_start_gate();  // every host's control block has its gate

  // The UPC thread is a new OS thread for each run, as on the threads backend:
  // a program (or a test suite) may make several runs in one process, and the
  // runtime's per-thread caches must start afresh with each. The process's
  // own thread waits for it; on rank 0 it supervises meanwhile, as the
  // launcher does on the other backends.
  boost::thread::attributes attrs;
  rlimit stack{};
  const std::size_t main_stack =
      ::getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY ? stack.rlim_cur : (8u << 20);
  attrs.set_stack_size(upc_thread_stack_size(opt.stack_bytes ? opt.stack_bytes : std::max<std::size_t>(main_stack, 8u << 20)));
  std::atomic<std::uint32_t> finished{0};
  int status = 0;
  boost::thread worker;
  try {
    worker = boost::thread(attrs, [rank, &body, &status, &finished] {
      status = run_upc_thread(rank, body);
      if (g_several_hosts && static_cast<thread_state>(control().slots[rank].state.load()) == thread_state::finished) {
        dsm_release();  // its last writes, before anyone may read them at the end
        hosts_thread_finished(rank);
      }
      finished.store(1);
      futex_wake_all(&finished);
    });
  } catch (const std::exception& e) {
    record_failure(rank, ("upcemu: rank " + std::to_string(rank) + " could not start its UPC thread: " + e.what() +
                          "\n").c_str());
    status = 1;
    finished.store(1);
  }
  // Rank 0 supervises until every rank's UPC thread has finished, not only
  // its own: a rank that computes (or sleeps) outside the runtime while rank
  // 0's thread has returned or stopped must still meet --timeout, deadlock
  // detection and the grace period of an abort.
  std::optional<monitor> mon;
  if (rank == 0 || g_several_hosts) mon.emplace(opt);
  auto supervise = [&](bool worker_finished) {
    control_block& c = control();
    if (g_several_hosts) end_job_if_stopped(worker_finished);
    if (rank != 0) return;
    mon->poll();
    // upc_global_exit ends the run on every rank, as on the other backends
    // (upc::run returns its status); the job ends by force only when a
    // thread ignores the stop.
    const bool global_exit = c.abort.load() && c.global_exit_called.load();
    if (mon->must_force_stop()) {
      std::fflush(stdout);
      if (!global_exit && !print_report_once() && c.error_claimed.load()) ::usleep(200'000);
      if (!global_exit && !opt.quiet) std::fputs("upcemu: a rank did not stop within 2 s; ending the job\n", stderr);
      std::fflush(stderr);
      mpi_ops().abort(global_exit ? c.global_exit_status.load() : failure_exit_status());
    }
  };
  if (mon)
    while (finished.load() == 0) {
      futex_wait(&finished, 0, 5'000'000);
      supervise(false);
    }
  if (worker.joinable()) worker.join();
  // Every rank's UPC thread has finished when this barrier (on a communicator
  // of its own, made at the start) completes; rank 0 supervises meanwhile.
  std::uint64_t all_finished = 0;
  mpi_check(mpi_ops().ibarrier_on(end_comm, &all_finished), "end the run");
  for (unsigned pause_us = 100;;) {
    int done = 0;
    mpi_check(mpi_ops().test(all_finished, &done), "end the run");
    if (done) break;
    if (mon) supervise(true);
    ::usleep(pause_us);
    pause_us = std::min(pause_us * 2, 5'000u);
  }
  mpi_ops().comm_free(end_comm);
  mpi_jobs_end_run();
  if (g_several_hosts) end_job_if_stopped(true);
  control().slots[rank].exit_code = status;
  std::fflush(nullptr);
  if (g_several_hosts) {
    // The control blocks are per host: every rank's status from every rank.
    std::vector<std::int32_t> codes(static_cast<std::size_t>(opt.threads));
    mpi_check(mpi_ops().allgather(&status, codes.data(), sizeof(std::int32_t)), "end the run");
    for (int t = 0; t < opt.threads; ++t) control().slots[t].exit_code = codes[static_cast<std::size_t>(t)];
    mpi_check(mpi_ops().barrier(), "end the run");  // nobody needs a server any more
    stop_remote_server();
    dsm_stop();
  }
  mpi_check(mpi_ops().barrier(), "end the run");  // every rank has finished
  for (int t = 0; t < opt.threads; ++t) set_exit_code(t, control().slots[t].exit_code);
}

void mpi_finish() noexcept {
  // Every rank has left the run (run_mpi_backend's last barrier, or a start
  // that failed alike everywhere): the next run may begin.
}

}  // namespace upc::detail
