// Test support: run an SPMD body under doctest on a chosen backend and THREADS,
// and assert inside the body (a failed SPMD_CHECK fails the whole run, and the
// doctest assertion on the run prints which thread failed and why).
#pragma once
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>

#include "upc.h"

namespace spmd {

inline std::string name(upc::backend_kind b) {
  return b == upc::backend_kind::threads ? "threads" : b == upc::backend_kind::processes ? "processes" : "mpi";
}

constexpr upc::backend_kind backends[] = {upc::backend_kind::threads, upc::backend_kind::processes};

// A suite started under mpirun (tests/conformance/meson.build, `upcrun
// --backend mpi -n R`) is one rank in each process: every run becomes an mpi
// run, and only those with THREADS = R can happen, once (the threads entry of
// `backends` stands for both). Every rank walks the same tests in the same
// order, so the ranks meet in the same runs.
inline int mpi_ranks() {
  static const int n = [] {
    const char* s = std::getenv("OMPI_COMM_WORLD_SIZE");
    return s && *s ? std::atoi(s) : 0;
  }();
  return n;
}
inline int mpi_rank() {
  static const int r = [] {
    const char* s = std::getenv("OMPI_COMM_WORLD_RANK");
    return s && *s ? std::atoi(s) : 0;
  }();
  return r;
}
// Whether this process holds what the launcher keeps after a run (the traffic
// report file it writes): the one process of the threads and processes
// backends; under mpirun rank 0, which writes it once every rank has finished.
inline bool launcher_process() { return mpi_ranks() == 0 || mpi_rank() == 0; }
inline bool skip_run(int threads, upc::backend_kind b) {
  return mpi_ranks() > 0 && (threads != mpi_ranks() || b != backends[0]);
}
// A test that makes its own upc::run calls asks skip_run before each (a run
// refused under mpirun would throw; a skipped one must not be checked). A run
// made on the processes backend only, outside a loop over `backends`, asks
// this instead: under mpirun it is the one mpi run when THREADS is R (one on
// the threads backend only may ask skip_run(threads, backends[0]), the same).
inline bool skip_single_run(int threads) { return mpi_ranks() > 0 && threads != mpi_ranks(); }
// A test about what cannot happen with one UPC thread per process (several
// UPC threads of one process, the launcher's process-local state) or cannot
// be done inside a suite of runs under mpirun: under mpirun it returns at
// once, saying why (rank 0 prints it), and checks nothing.
#define SPMD_SKIP_UNDER_MPIRUN(reason)                          \
  do {                                                          \
    if (::spmd::mpi_ranks() > 0) {                              \
      MESSAGE("skipped under mpirun (mpi backend): " reason);   \
      return;                                                   \
    }                                                           \
  } while (0)

// A file name in /tmp of this process's own: the ranks of an mpirun, and
// suites that meson runs at the same time, never share one.
inline std::string tmp_path(const std::string& name) {
  return "/tmp/upcemu-test-" + std::to_string(::getpid()) + "-" + name;
}

// The THREADS counts of DESIGN.md §3.3.
constexpr int thread_counts[] = {1, 2, 3, 4, 5, 7, 8, 16};

// The virtual topology of the runs that options() describes (0 / "": one node);
// set for a scope with topology_scope.
inline int g_nodes = 0;
inline std::string g_node_map;
struct topology_scope {
  topology_scope(int nodes, const char* map) {
    g_nodes = nodes;
    g_node_map = map;
  }
  ~topology_scope() {
    g_nodes = 0;
    g_node_map.clear();
  }
};

inline upc::launch_options options(int threads, upc::backend_kind b) {
  upc::launch_options o;
  if (g_nodes) o.nodes = std::min(g_nodes, threads);
  o.node_map = g_node_map;
  o.threads = threads;
  o.backend = mpi_ranks() > 0 ? upc::backend_kind::mpi : b;
  o.heap_per_thread = 8u << 20;
  o.quiet = true;
  o.timeout_seconds = 120;
  // UPCEMU_TEST_RACES=1: every run of the suite under --check=races (a correct
  // program must run clean; docs/races.md), except where mpi refuses it. The
  // check costs up to about 11 times an unchecked run (docs/benchmarks.md), so
  // the safety-net time limit grows as the setup's test timeouts do (x4).
  if (std::getenv("UPCEMU_TEST_RACES") && o.backend != upc::backend_kind::mpi) {
    o.check = o.races = true;
    o.timeout_seconds *= 4;
  }
  return o;
}

// The same, never under the race check: for the few tests whose subject
// --check refuses by design (bytes outside every object) or that race on
// purpose (a relaxed flag handshake), named in docs/races.md.
inline upc::launch_options options_unchecked(int threads, upc::backend_kind b) {
  upc::launch_options o = options(threads, b);
  o.check = o.races = false;
  return o;
}

inline upc::run_result run(const upc::launch_options& o, const std::function<void()>& body) {
  return upc::run(o, body);
}

// Runs and requires success, reporting the failure text otherwise.
inline void run_ok(int threads, upc::backend_kind b, const std::function<void()>& body) {
  if (skip_run(threads, b)) return;
  upc::run_result r = upc::run(options(threads, b), body);
  INFO("backend=", name(b), " THREADS=", threads, " error: ", r.error);
  REQUIRE(r.ok());
}

// Every backend × THREADS count of the list.
inline void run_everywhere(const std::function<void()>& body,
                           std::initializer_list<int> counts = {1, 2, 3, 4, 5, 7, 8, 16}) {
  for (upc::backend_kind b : backends)
    for (int t : counts) run_ok(t, b, body);
}

struct check_failed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class A, class B>
[[noreturn]] void fail_eq(const char* expr_a, const char* expr_b, const A& a, const B& b, const char* file, int line) {
  std::ostringstream s;
  s << file << ":" << line << ": SPMD_CHECK_EQ(" << expr_a << ", " << expr_b << ") failed on thread " << upc::mythread()
    << " of " << upc::threads() << ": " << a << " != " << b;
  throw check_failed(s.str());
}

}  // namespace spmd

#define SPMD_CHECK(cond)                                                                                 \
  do {                                                                                                   \
    if (!(cond))                                                                                         \
      throw ::spmd::check_failed(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": SPMD_CHECK(" \
                                 #cond ") failed on thread " + std::to_string(::upc::mythread()));       \
  } while (0)

#define SPMD_CHECK_EQ(a, b)                                                   \
  do {                                                                        \
    const auto& spmd_a_ = (a);                                                \
    const auto& spmd_b_ = (b);                                                \
    if (!(spmd_a_ == spmd_b_)) ::spmd::fail_eq(#a, #b, spmd_a_, spmd_b_, __FILE__, __LINE__); \
  } while (0)

namespace spmd {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Runs f, which must raise upc::error; returns its text ("" if nothing was raised).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const upc::error& e) {
    return e.what();
  }
  return "";
}

// Runs a body that must fail; checks that it did and returns the report.
inline std::string run_failing(int threads, upc::backend_kind b, const std::function<void()>& body) {
  if (skip_run(threads, b)) return "(skipped: not this mpirun's THREADS)";
  upc::launch_options o = options(threads, b);
  o.timeout_seconds = 30;
  upc::run_result r = upc::run(o, body);
  INFO("backend=", name(b), " THREADS=", threads);
  CHECK(r.failed);
  CHECK(r.exit_code != 0);
  return r.error;
}

}  // namespace spmd

// Inside a body: `expr` must raise a upc::error whose text contains `part`.
#define SPMD_CHECK_ERROR(expr, part)                                                                    \
  do {                                                                                                  \
    const std::string spmd_err_ = ::spmd::error_of([&] { expr; });                                      \
    if (!::spmd::contains(spmd_err_, part))                                                             \
      throw ::spmd::check_failed(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #expr   \
                                 " should fail with \"" + (part) + "\", got \"" + spmd_err_ + "\""); \
  } while (0)
