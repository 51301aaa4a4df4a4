// run(): validate options, create the segment, allocate namespace-scope shared
// objects, hand over to a backend, then turn what happened into a run_result.
#include "launcher.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "backend_mpi.hpp"
#include "backtrace.hpp"
#include "call_site.hpp"
#include "control.hpp"
#include "exit_calls.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "fatal_signals.hpp"
#include "futex.hpp"
#include "hosts.hpp"
#include "mpi_session.hpp"
#include "run_globals.hpp"
#include "segment.hpp"
#include "locality.hpp"
#include "race_check.hpp"
#include "size_parse.hpp"
#include "static_objects.hpp"
#include "topology.hpp"
#include "traffic.hpp"

namespace upc::detail {

namespace {
bool g_running = false;
pthread_t g_launcher_thread;  // the thread that called run()

std::size_t default_heap(int threads) {
  // 64 MiB per thread, but keep the whole (sparse) mapping under 16 GiB.
  std::size_t heap = 64ULL << 20;
  std::size_t cap = (16ULL << 30) / static_cast<std::size_t>(threads);
  return std::max<std::size_t>(std::min(heap, cap), 4ULL << 20);
}

// Namespace-scope shared objects are sized and allocated here, in the launcher,
// before any worker starts: a size expression that throws must stop the run
// cleanly with a report, not escape into std::terminate.
void allocate_namespace_scope_objects() {
  try {
    allocate_static_objects();
  } catch (const upc::error&) {
    throw;
  } catch (const std::exception& e) {
    record_failure(-1, (std::string("upcemu: shared_array: the size expression threw: ") + e.what() + "\n").c_str());
  } catch (...) {
    record_failure(-1, "upcemu: shared_array: the size expression threw an exception of unknown type\n");
  }
}

// The reports printed at exit (--report=traffic,locality) and the network
// model, set up before the threads start. --report-file alone means traffic.
void start_reports(const launch_options& opt) {
  traffic::settings net;
  net.report = opt.report_traffic || (!opt.report_file.empty() && !opt.report_locality);
  net.report_file = opt.report_file;
  net.latency_us = opt.net_latency_us;
  net.gbps = opt.net_gbps;
  traffic::start_run(net, upc::nodes());
  locality::start_counting({opt.report_locality, opt.report_file, net.report}, opt.backend);
}
}  // namespace

int mythread_checked() {
  if (g_running && !pthread_equal(pthread_self(), g_launcher_thread)) fail_not_upc_thread("MYTHREAD");
  throw upc::error("MYTHREAD", g_running ? "used outside a UPC thread (in the launcher, e.g. in the size of a "
                                           "namespace-scope shared array)"
                                         : "used outside a UPC program: call it from upc_main or upc::run",
                   -1);
}

}  // namespace upc::detail

namespace upc {

using namespace detail;

run_result run(const launch_options& in, const std::function<void()>& body) {
  return run(in, std::function<int()>([&body] { body(); return 0; }));
}

run_result run(const launch_options& in, const std::function<int()>& body) {
  if (g_running) throw error("upc::run", "a UPC program is already running in this process", tl_mythread);
  launch_options opt = in;
  const bool mpi = opt.backend == backend_kind::mpi;
  // The race detector keeps its clocks and shadow in a mapping every UPC thread
  // shares by being forked from this process: not ranks that mpirun starts.
  if (opt.races && mpi)
    throw error("upcrun", "--check=races runs on the threads and processes backends, not on mpi", -1);
  if (mpi) mpi_start(opt);  // THREADS = the ranks mpirun started
  if (opt.threads == 0) opt.threads = std::max(1u, std::thread::hardware_concurrency());
  if (opt.threads < 1 || opt.threads > max_threads)
    throw error("upcrun", "THREADS must be between 1 and " + std::to_string(max_threads) + ", got " + std::to_string(opt.threads), -1);
  node_map topology = make_node_map(opt.threads, opt.nodes, opt.threads_per_node, opt.node_map);
  // A job spread over hosts: they are its nodes (the runtime tells near from
  // far by them, the traffic report counts what crosses them), unless
  // --nodes, --threads-per-node or --node-map asked for other ones.
  if (mpi && several_hosts() && opt.nodes == 0 && opt.threads_per_node == 0 && opt.node_map.empty())
    topology = hosts_node_map(g_host_map.host_of);
  if (opt.heap_per_thread == 0) opt.heap_per_thread = default_heap(opt.threads);
  if (opt.wait_warning_seconds < 0) opt.wait_warning_seconds = opt.check ? 20 : 0;
  if (opt.heap_per_thread < min_heap_bytes)
    throw error("upcrun", "--heap must be at least 64K per thread, got " + std::to_string(opt.heap_per_thread), -1);

  const partitions_size parts = size_partitions(opt.heap_per_thread, opt.threads, describe_bytes(opt.heap_per_thread));
  if (!parts.error.empty()) throw error("upcrun", parts.error, -1);
  const std::uint64_t header_bytes = *round_up_checked(control_block_bytes(opt.threads), page_bytes);
  segment_geometry geo{opt.threads, parts.partition_bytes, header_bytes, header_bytes + parts.total_bytes};
  if (mpi) mpi_create_segment(geo);
  else create_segment(geo);
  if (opt.races)
    if (const std::string why = race_setup(opt.threads, g_partitions, geo.total_bytes - geo.header_bytes); !why.empty())
      throw error("upcrun", why, -1);
  control_block& c = control();
  // On mpi, each host's first rank fills its control block; the others see it through the segment.
  if (mpi_host_leader()) {
    c.magic = control_magic;
    c.threads = opt.threads;
    c.nodes = static_cast<std::int32_t>(topology.threads_of_node.size());
    c.partition_bytes = geo.partition_bytes;
    c.header_bytes = geo.header_bytes;
    c.check = opt.check;
    c.backend = static_cast<std::uint32_t>(opt.backend);
    c.races_keep_going = opt.all_races;
    c.error_thread.store(-1);
    c.sym_top = 0;
    c.sym_free_head = no_chunk;
    for (int t = 0; t < opt.threads; ++t) {
      c.slots[t].local_floor = geo.partition_bytes;
      c.slots[t].local_free_head = no_chunk;
    }
  }

  g_threads = opt.threads;
  set_node_map(std::move(topology));
  g_check = opt.check;
  g_races = opt.races;
  g_access_hooks = opt.check || opt.report_locality;
  g_run_backend = opt.backend;
  reset_exit_codes(opt.threads);
  g_running = true;
  g_launcher_thread = pthread_self();
  set_wait_policy(opt.threads);

  // Reporting: --quiet, exit() and friends called by a UPC thread, std::terminate.
  set_quiet_reports(opt.quiet);
  set_backtrace_detail(opt.backtrace);
  install_exit_hook();
  set_run_active(true);
  install_terminate_handler();

  start_reports(opt);

  run_result result;
  try {
    if (mpi) mpi_allocate_launch_objects(allocate_namespace_scope_objects);
    else allocate_namespace_scope_objects();
    if (!c.abort.load()) {
      if (opt.backend == backend_kind::threads) run_threads_backend(opt, body);
      else if (mpi) run_mpi_backend(opt, body);
      else run_processes_backend(opt, body);
    }
  } catch (const upc::error& e) {
    // Raised by the launcher (a namespace-scope object's size, a backend that
    // cannot start): reported like a thread's error.
    record_failure(-1, (std::string("upcemu: ") + e.what() + "\n").c_str());
  }
  restore_terminate_handler();
  set_run_active(false);
  traffic::finish_run(true);
  locality::report_at_exit(true, mpi ? locality::gather_function(mpi_gather_texts) : nullptr, mpi_leader());

  // --check=all-races: the run went on past its races; it still fails, once, at the end.
  if (const std::uint32_t races = c.races_reported.load(); races > 0 && !c.error_claimed.load())
    record_failure(-1, ("upcemu: " + std::to_string(races) + (races == 1 ? " data race" : " distinct data races") +
                        " reported above (--check=all-races)\n").c_str());
  if (c.error_claimed.load()) {
    result.failed = true;
    result.failed_thread = c.error_thread.load();
    result.error = c.error_text;
    std::fflush(stdout);
    print_report_once();
  }
  if (c.global_exit_called.load()) {
    result.exit_code = c.global_exit_status.load();
  } else if (result.failed) {
    result.exit_code = failure_exit_status();
  } else {
    for (int code : exit_codes())
      if (code != 0) { result.exit_code = code; break; }
  }
  release_static_objects();
  destroy_segment();
  race_teardown();
  g_races = false;
  if (mpi) mpi_finish();
  g_running = false;
  g_threads = 0;
  return result;
}

}  // namespace upc
