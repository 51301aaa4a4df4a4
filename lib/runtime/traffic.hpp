// What crosses between emulated nodes (issue 11): the traffic report
// (upcrun --report=traffic) and the network model (upcrun --net=LAT_US,GBPS).
//
// Every bulk copy the runtime makes for a collective (plan data steps) or for
// upc_memcpy / upc_memget / upc_memput (and their _nb forms) is counted here,
// by the thread that makes it: bytes and copies within a node and between
// nodes, per call site, function and algorithm. A copy's ends are classified
// by address (a shared address is in its thread's partition; private memory
// is the copying thread's, or the thread named by the caller). With the
// network model on, a copy between nodes first waits latency + bytes / rate.
// Element-wise accesses through pointers-to-shared are not counted.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace upc::detail::traffic {

struct settings {
  bool report = false;          // --report=traffic
  std::string report_file;      // --report-file: jsonl rows instead of (as well as) the table
  double latency_us = 0;        // --net: 0 and 0 = off
  double gbps = 0;
  bool net() const noexcept { return latency_us > 0 || gbps > 0; }
  bool active() const noexcept { return report || net(); }
};

extern bool g_active;  // report or network model on: the copy paths call copied()

// The launcher, before the threads start / after they all ended.
void start_run(const settings& s, int nodes);
void finish_run(bool print);  // merges every thread's counts, prints / writes the report, cleans up

// One bulk copy made by this thread. src_thread: the thread whose memory src
// is when it is not in the shared segment (-1: this thread's private memory).
// function: set by the one-sided copies (upc_memget, ...), which count as
// their own calls (they carry no call site); null for a collective's steps.
void copied(const void* dst, const void* src, std::size_t bytes, int src_thread, const char* algorithm,
            const char* function = nullptr);
// Once per collective call on this thread: how many other threads touch this
// thread's data in it (the plan's readers and writers of this thread's memory).
void fan_in(int threads_touching_mine, const char* algorithm);
// While a thread runs a task of a non-blocking collective (upccoll_*, which any
// member may run), its copies count for that collective and algorithm.
// Nothing to label while no report or model is on (most runs): inline, so that
// a collective of a few bytes does not pay two calls for it.
class task_scope {
 public:
  task_scope(const char* function, const char* algorithm) noexcept : on_(g_active) {
    if (on_) enter(function, algorithm);
  }
  ~task_scope() {
    if (on_) leave();
  }
  task_scope(const task_scope&) = delete;
  task_scope& operator=(const task_scope&) = delete;

 private:
  static void enter(const char* function, const char* algorithm) noexcept;
  static void leave() noexcept;
  bool on_;
};
// At the end of a UPC thread: hand its counts to the launcher.
void thread_done();

// Parses "LAT_US,GBPS" (--net); false when malformed, not finite or out of
// range: latency 0 to max_net_latency_us, rate 0 (none) or min_net_gbps and up,
// not both 0.
// Why the report file (--report-file) could not be written at exit, found at
// the start: "" when it can. A file that is not there is made and removed
// again; one that is there is opened for writing, unchanged.
std::string report_file_problem(const std::string& path);

constexpr double max_net_latency_us = 1e9;
constexpr double min_net_gbps = 1e-3;
bool parse_net(const std::string& text, double& latency_us, double& gbps);

}  // namespace upc::detail::traffic
