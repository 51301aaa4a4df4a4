// Who am I, how many of us, and how a program is started.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "upc/error.hpp"

namespace upc {

// threads: OS threads of one process; processes: one forked process per thread;
// mpi: one Open MPI rank per thread, started by mpirun (docs/backends.md).
enum class backend_kind { threads, processes, mpi };

// The backtrace of a failure report: program: the program's own frames (not
// upcemu's or the system libraries'); full: every frame; off: none.
enum class backtrace_detail { program, full, off };

// Everything that shapes a run. upcrun fills these from its command line through
// UPCEMU_* environment variables; launch_options::from_environment() reads them.
struct launch_options {
  int threads = 0;                       // 0: UPCEMU_THREADS, else the number of CPUs
                                         // (mpi: the number of ranks)
  backend_kind backend = backend_kind::threads;
  std::size_t heap_per_thread = 0;       // bytes; 0: the default (see docs/user-guide.md)
  // The virtual node topology (docs/topology.md): 0 = not given. Nodes alone:
  // balanced blocks of consecutive threads; threads_per_node: nodes of exactly
  // that many; node_map "block" (default), "cyclic" or a file naming each
  // node's threads.
  int nodes = 0;
  int threads_per_node = 0;
  std::string node_map;
  // What crosses between nodes (docs/topology.md): the traffic report printed
  // at exit (or jsonl rows in report_file), and the network model charging
  // every inter-node copy latency + bytes / rate (off while both are 0).
  bool report_traffic = false;
  bool report_locality = false;          // per source line, local and remote shared accesses (lib/runtime/locality.hpp)
  std::string report_file;
  double net_latency_us = 0;
  double net_gbps = 0;
  bool check = false;                    // bounds checks, full single-valued checks, wait warnings
  bool races = false;                    // --check=races: the race detector too (lib/runtime/race_check.hpp)
  bool all_races = false;                // --check=all-races: every distinct race reported, the run goes on
  double timeout_seconds = 0;            // 0: none
  double watchdog_seconds = 2;           // deadlock report after this long without progress
  double wait_warning_seconds = -1;      // warn when threads wait this long for running ones;
                                         // 0: never; -1: 20 s under check, else never
  std::size_t stack_bytes = 0;           // threads backend stack size; 0: 8 MiB
  bool quiet = false;                    // do not print failure reports to stderr
  backtrace_detail backtrace = backtrace_detail::program;  // the frames a report shows

  static launch_options from_environment();  // throws upc::error on a bad value
};

struct run_result {
  int exit_code = 0;           // what the program (or upc_global_exit) returned
  bool failed = false;         // a thread threw, crashed, deadlocked or timed out
  int failed_thread = -1;      // the first thread that failed, -1 if none/unknown
  std::string error;           // the first failure report, empty if none
  bool ok() const { return !failed && exit_code == 0; }
};

// Runs body() as an SPMD program on opt.threads UPC threads and returns when all
// have finished. Shared objects declared at namespace scope are allocated first.
run_result run(const launch_options& opt, const std::function<int()>& body);
run_result run(const launch_options& opt, const std::function<void()>& body);

// Ends the whole program with this status, from any thread (UPC 1.3 upc_global_exit).
[[noreturn]] void global_exit(int status);

namespace detail {
// Stable assembler names: translated UPC programs (upcc, <upcemu_c.h>) read
// these from C as plain loads, so their symbols must not depend on C++ mangling.
extern int g_threads __asm__("upcemu_g_threads");                  // THREADS of the current run
extern thread_local int tl_mythread __asm__("upcemu_tl_mythread");  // MYTHREAD, -1 outside a UPC thread
extern char* g_partitions __asm__("upcemu_g_partitions");          // start of partition 0 in the mapping
extern std::uint64_t g_partition_bytes __asm__("upcemu_g_partition_bytes");  // bytes per partition
extern bool g_check __asm__("upcemu_g_check");                     // --check of the current run
extern bool g_races;                                               // --check=races (lib/runtime/race_check.hpp)
extern bool g_locality __asm__("upcemu_g_locality");               // --report=locality (lib/runtime/locality.hpp)
// g_check || g_locality: whether every shared access calls its hook (one
// predictable branch per access when neither is on).
extern bool g_access_hooks __asm__("upcemu_g_access_hooks");
// What a shared access does to its bytes, as the race check records it (bits; a
// compound assignment is read|write). <upcemu_c.h> has the same values.
enum access_kind : unsigned { access_read = 1, access_write = 2, access_strict = 4 };
// An mpi run spread over hosts: strict accesses and fences also bring other
// hosts' cached pages up to date (lib/runtime/dsm.hpp).
extern bool g_several_hosts __asm__("upcemu_g_several_hosts");
void strict_sync() __asm__("upcemu_strict_sync");
int mythread_checked();                    // tl_mythread, or a clear error
}  // namespace detail

inline int threads() noexcept { return detail::g_threads; }
inline int mythread() {
  int t = detail::tl_mythread;
  return t >= 0 ? t : detail::mythread_checked();
}
// The virtual node topology (docs/topology.md): the number of emulated nodes,
// the node of a thread, the threads of a node (in increasing order; the first
// is the node's root, the thread that speaks for it in node-aware algorithms).
int nodes() noexcept;
int node_of(int thread) noexcept;
const std::vector<int>& node_threads(int node);
inline int node_root(int node) { return node_threads(node).front(); }
// A one-line description ("4 nodes x 4 threads (block)").
const std::string& topology_description() noexcept;
inline bool check_enabled() noexcept { return detail::g_check; }
backend_kind current_backend() noexcept;

}  // namespace upc
