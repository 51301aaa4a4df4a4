// Reading launch options from the UPCEMU_* environment (what upcrun sets), with a
// clear error for every bad value.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <thread>

#include "size_parse.hpp"
#include "traffic.hpp"
#include "upc/runtime.hpp"

namespace upc {

namespace {
[[noreturn]] void bad(const char* var, const std::string& value, const char* expected) {
  throw error("upcrun", std::string("environment variable ") + var + "='" + value + "' is invalid: expected " + expected, -1);
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return (v && *v) ? v : nullptr;
}

long parse_int(const char* var, const char* v, long lo, long hi, const char* expected) {
  errno = 0;
  char* end = nullptr;
  long x = std::strtol(v, &end, 10);
  if (errno || end == v || *end != '\0' || x < lo || x > hi) bad(var, v, expected);
  return x;
}

double parse_seconds(const char* var, const char* v) {
  errno = 0;
  char* end = nullptr;
  double x = std::strtod(v, &end);
  if (errno || end == v || *end != '\0' || !std::isfinite(x) || x < 0) bad(var, v, "a finite number of seconds >= 0");
  return x;
}

bool parse_bool(const char* var, const char* v) {
  std::string s(v);
  if (s == "1" || s == "yes" || s == "true" || s == "on") return true;
  if (s == "0" || s == "no" || s == "false" || s == "off") return false;
  bad(var, v, "1 or 0");
}
}  // namespace

launch_options launch_options::from_environment() {
  launch_options o;
  if (const char* v = env("UPCEMU_THREADS"))
    o.threads = static_cast<int>(parse_int("UPCEMU_THREADS", v, 1, detail::max_threads, "an integer from 1 to 4096"));
  if (const char* v = env("UPCEMU_BACKEND")) {
    std::string s(v);
    if (s == "threads") o.backend = backend_kind::threads;
    else if (s == "processes") o.backend = backend_kind::processes;
    else if (s == "mpi") o.backend = backend_kind::mpi;
    else bad("UPCEMU_BACKEND", s, "'threads', 'processes' or 'mpi'");
  } else if (env("OMPI_COMM_WORLD_SIZE")) {
    // Started by Open MPI's mpirun without upcrun: each rank is one UPC thread.
    o.backend = backend_kind::mpi;
  }
  if (const char* v = env("UPCEMU_HEAP")) {
    auto bytes = detail::parse_size(v);
    if (!bytes || *bytes < detail::min_heap_bytes) bad("UPCEMU_HEAP", v, "a size of at least 64K, such as 256M or 1G");
    o.heap_per_thread = *bytes;
  }
  if (const char* v = env("UPCEMU_STACK")) {
    auto bytes = detail::parse_size(v);
    if (!bytes || *bytes < 65536) bad("UPCEMU_STACK", v, "a size of at least 64K, such as 8M");
    o.stack_bytes = *bytes;
  }
  if (const char* v = env("UPCEMU_NODES"))
    o.nodes = static_cast<int>(parse_int("UPCEMU_NODES", v, 1, detail::max_threads, "a positive integer"));
  if (const char* v = env("UPCEMU_THREADS_PER_NODE"))
    o.threads_per_node = static_cast<int>(parse_int("UPCEMU_THREADS_PER_NODE", v, 1, detail::max_threads, "a positive integer"));
  if (const char* v = env("UPCEMU_NODE_MAP")) o.node_map = v;
  if (const char* v = env("UPCEMU_REPORT")) {
    // One report or several, separated by commas: "traffic,locality".
    const std::string list(v);
    for (std::size_t start = 0;;) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      const std::string name = list.substr(start, comma - start);
      if (name == "traffic") o.report_traffic = true;
      else if (name == "locality") o.report_locality = true;
      else bad("UPCEMU_REPORT", v, "'traffic', 'locality' or both separated by a comma");
      if (comma == list.size()) break;
      start = comma + 1;
    }
  }
  if (const char* v = env("UPCEMU_REPORT_FILE")) {
    // Found now, not when the report is lost at exit.
    if (const std::string why = detail::traffic::report_file_problem(v); !why.empty())
      throw error("upcrun", std::string("environment variable UPCEMU_REPORT_FILE='") + v + "' cannot be written: " + why, -1);
    o.report_file = v;
  }
  if (const char* v = env("UPCEMU_NET"))
    if (!detail::traffic::parse_net(v, o.net_latency_us, o.net_gbps))
      bad("UPCEMU_NET", v, "LATENCY_US,GBPS (microseconds per inter-node copy up to 1e9, gigabytes per second 0 or at "
                           "least 0.001, finite, not both 0), such as 1.5,3.2");
  if (const char* v = env("UPCEMU_CHECK")) {
    const std::string s(v);
    if (s == "races") o.check = o.races = true;
    else if (s == "all-races") o.check = o.races = o.all_races = true;
    else if (s == "1" || s == "yes" || s == "true" || s == "on") o.check = true;
    else if (!(s == "0" || s == "no" || s == "false" || s == "off")) bad("UPCEMU_CHECK", v, "1, 0, races or all-races");
  }
  if (const char* v = env("UPCEMU_TIMEOUT")) o.timeout_seconds = parse_seconds("UPCEMU_TIMEOUT", v);
  if (const char* v = env("UPCEMU_WATCHDOG")) {
    o.watchdog_seconds = parse_seconds("UPCEMU_WATCHDOG", v);
    if (o.watchdog_seconds <= 0) bad("UPCEMU_WATCHDOG", v, "a number of seconds > 0");
  }
  if (const char* v = env("UPCEMU_WAIT_WARNING")) o.wait_warning_seconds = parse_seconds("UPCEMU_WAIT_WARNING", v);
  if (const char* v = env("UPCEMU_QUIET")) o.quiet = parse_bool("UPCEMU_QUIET", v);
  if (const char* v = env("UPCEMU_BACKTRACE")) {
    const std::string s(v);
    if (s == "program") o.backtrace = backtrace_detail::program;
    else if (s == "full") o.backtrace = backtrace_detail::full;
    else if (s == "off") o.backtrace = backtrace_detail::off;
    else bad("UPCEMU_BACKTRACE", s, "'program', 'full' or 'off'");
  }
  return o;
}

}  // namespace upc
