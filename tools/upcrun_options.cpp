// upcrun's options: read, checked, completed and turned into UPCEMU_* variables
// (upcrun_options.hpp). The messages are upcrun's interface: the failure tests
// and the man page check read them.
#include "upcrun_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string_view>
#include <thread>

#include "../lib/runtime/size_parse.hpp"
#include "../lib/runtime/topology.hpp"
#include "../lib/runtime/traffic.hpp"
#include "upc/coll.hpp"
#include "upc/error.hpp"

namespace upcrun {

namespace {

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

bool valid_count(const std::optional<long>& n) { return n && *n >= 1 && *n <= upc::detail::max_threads; }

// The options without a value.
struct flag_option {
  std::string_view name;
  bool options::*field;
};
const flag_option flag_options[] = {
    {"--check", &options::check}, {"--check=races", &options::check_races},
    {"--check=all-races", &options::check_all_races}, {"--quiet", &options::quiet},
    {"--verbose-coll", &options::verbose_coll}};

// Checks an option's value and stores it (a file name may be rewritten on the
// way): "" or the usage error.
using value_check = std::string (*)(std::string& v, options& o);

struct value_option {
  std::string_view name;
  value_check take;
};

std::string take_threads(std::string& v, options& o) {
  const auto n = parse_long(v);
  if (!valid_count(n)) return "-n must be an integer from 1 to " + std::to_string(upc::detail::max_threads) + ", got '" + v + "'";
  o.threads = n;
  return {};
}

// `field` = v when v is one of `choices`, else "NAME must be 'a', 'b' or 'c', got 'v'".
std::string one_of(std::string_view name, std::initializer_list<std::string_view> choices, const std::string& v,
                   std::string& field) {
  if (std::find(choices.begin(), choices.end(), v) != choices.end()) {
    field = v;
    return {};
  }
  std::string list;
  std::size_t k = 0;
  for (const std::string_view choice : choices) {
    list += k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ";
    list.append("'").append(choice).append("'");
    ++k;
  }
  return std::string(name) + " must be " + list + ", got '" + v + "'";
}

// `field` = v when `check` accepts it; else its upc::error, which names the option.
template <class Check>
std::string accepted(const Check& check, const std::string& v, std::string& field) {
  try {
    check();
  } catch (const upc::error& e) {
    return e.what();
  }
  field = v;
  return {};
}

// `field` = v read as a count of nodes or of threads per node (complete_options
// checks it against THREADS).
std::string topology_count(std::string_view name, const std::string& v, std::optional<long>& field) {
  const auto n = parse_long(v);
  if (!valid_count(n)) return std::string(name) + " must be an integer from 1 to THREADS, got '" + v + "'";
  field = n;
  return {};
}

// `field` = v read as seconds, where 0 means `zero_means`.
std::string seconds_or_zero(std::string_view name, std::string_view zero_means, const std::string& v, std::string& field) {
  if (!parse_seconds(v))
    return std::string(name) + " must be a number of seconds >= 0 (0: " + std::string(zero_means) + "), got '" + v + "'";
  field = v;
  return {};
}

// The options that take a value, each with its check. A name matches only
// itself or itself followed by '=' (--coll is not --coll-segment), so the order
// does not matter.
const value_option value_options[] = {
    {"-n", take_threads},  // first: find_value_option returns it for -nTHREADS
    {"--threads", take_threads},
    {"--backtrace",
     [](std::string& v, options& o) { return one_of("--backtrace", {"program", "full", "off"}, v, o.backtrace); }},
    {"--upccoll-progress",
     [](std::string& v, options& o) { return one_of("--upccoll-progress", {"inline", "thread"}, v, o.upccoll_progress); }},
    {"--coll-segment",
     [](std::string& v, options& o) {
       return accepted([&] { upc::coll::parse_segment(v, "--coll-segment"); }, v, o.coll_segment);
     }},
    {"--coll",
     [](std::string& v, options& o) { return accepted([&] { upc::coll::check_rules(v, "--coll"); }, v, o.coll); }},
    {"--backend",
     [](std::string& v, options& o) { return one_of("--backend", {"threads", "processes", "mpi"}, v, o.backend); }},
    {"--hostfile",
     [](std::string& v, options& o) -> std::string {
       if (::access(v.c_str(), R_OK) != 0) return "--hostfile: cannot read '" + v + "': " + std::strerror(errno);
       o.hostfile = v;
       return {};
     }},
    {"--mpirun",
     [](std::string& v, options& o) -> std::string {
       o.mpirun = v;
       return {};
     }},
    {"--heap",
     [](std::string& v, options& o) -> std::string {
       const auto bytes = upc::detail::parse_size(v);
       if (!bytes || *bytes < upc::detail::min_heap_bytes)
         return "--heap must be a size of at least 64K per thread, such as 64M or 1G, got '" + v + "'";
       o.heap = v;
       return {};
     }},
    {"--stack",
     [](std::string& v, options& o) -> std::string {
       const auto bytes = upc::detail::parse_size(v);
       if (!bytes || *bytes < 65536) return "--stack must be a size of at least 64K, such as 8M, got '" + v + "'";
       o.stack = v;
       return {};
     }},
    {"--nodes", [](std::string& v, options& o) { return topology_count("--nodes", v, o.nodes); }},
    {"--threads-per-node", [](std::string& v, options& o) { return topology_count("--threads-per-node", v, o.per_node); }},
    {"--node-map",
     [](std::string& v, options& o) -> std::string {
       if (v.empty()) return "--node-map must be 'block', 'cyclic' or a file, got ''";
       if (v != "block" && v != "cyclic") {
         // a file: the program may change directory; pass it an absolute path
         char* full = ::realpath(v.c_str(), nullptr);
         if (!full) return "--node-map: cannot read the node map file '" + v + "': " + std::strerror(errno);
         v = full;
         std::free(full);
       }
       o.node_map = v;
       return {};
     }},
    {"--report",
     [](std::string& v, options& o) -> std::string {
       // One report or several, separated by commas (traffic,locality).
       for (std::size_t start = 0;;) {
         const std::size_t comma = std::min(v.find(',', start), v.size());
         const std::string name = v.substr(start, comma - start);
         if (name != "traffic" && name != "locality")
           return "--report must be 'traffic', 'locality' or both separated by a comma, got '" + v + "'";
         if (comma == v.size()) break;
         start = comma + 1;
       }
       o.report = v;
       return {};
     }},
    {"--report-file",
     [](std::string& v, options& o) -> std::string {
       if (v.empty()) return "--report-file needs a file name";
       // Found now, not at exit when the run's report would be lost.
       if (const std::string why = upc::detail::traffic::report_file_problem(v); !why.empty())
         return "--report-file: cannot write '" + v + "': " + why;
       o.report_file = v;
       return {};
     }},
    {"--net",
     [](std::string& v, options& o) -> std::string {
       double lat = 0, rate = 0;
       if (!upc::detail::traffic::parse_net(v, lat, rate))
         return "--net must be LATENCY_US,GBPS (finite numbers: microseconds per inter-node copy, 0 to 1e9; "
                "gigabytes per second, 0 or at least 0.001; not both 0), such as 1.5,3.2, got '" + v + "'";
       o.net = v;
       return {};
     }},
    {"--timeout", [](std::string& v, options& o) { return seconds_or_zero("--timeout", "no limit", v, o.timeout); }},
    {"--watchdog",
     [](std::string& v, options& o) -> std::string {
       const auto x = parse_seconds(v);
       if (!x || *x <= 0) return "--watchdog must be a number of seconds > 0, got '" + v + "'";
       o.watchdog = v;
       return {};
     }},
    {"--wait-warning",
     [](std::string& v, options& o) { return seconds_or_zero("--wait-warning", "off", v, o.wait_warning); }},
};

// The value option `arg` names ("--opt", "--opt=VALUE", or -n as "-nVALUE"),
// and its value when it is inside `arg` (else it is the next argument);
// nullptr if none.
const value_option* find_value_option(std::string_view arg, std::optional<std::string>& inline_value) {
  for (const value_option& opt : value_options) {
    const std::string_view name = opt.name;
    if (arg == name) return &opt;
    if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
      inline_value = std::string(arg.substr(name.size() + 1));
      return &opt;
    }
  }
  if (arg.size() > 2 && arg.substr(0, 2) == "-n" && arg[2] != '=') {
    inline_value = std::string(arg.substr(2));
    return &value_options[0];  // -n
  }
  return nullptr;
}

}  // namespace

command_line parse_command_line(int argc, char** argv) {
  command_line cl;
  options& o = cl.opts;
  int i = 1;
  auto stop = [&](command_line::action what) {
    cl.what = what;
    return cl;
  };
  auto fail = [&](std::string message) {
    cl.error = std::move(message);
    return cl;
  };
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.empty() || arg[0] != '-') break;  // the program
    if (arg == "-h" || arg == "--help") return stop(command_line::action::help);
    if (arg == "--version") return stop(command_line::action::version);
    if (arg == "--list-algorithms") return stop(command_line::action::list_algorithms);
    if (const auto flag = std::find_if(std::begin(flag_options), std::end(flag_options),
                                       [&](const flag_option& f) { return f.name == arg; });
        flag != std::end(flag_options)) {
      o.*flag->field = true;
      continue;
    }
    std::optional<std::string> inline_value;
    const value_option* opt = find_value_option(arg, inline_value);
    if (!opt) return fail("unknown option '" + std::string(arg) + "'");
    if (!inline_value && i + 1 >= argc) return fail(std::string(arg) + " needs a value");
    std::string v = inline_value ? *inline_value : argv[++i];
    if (std::string error = opt->take(v, o); !error.empty()) return fail(std::move(error));
  }
  if (i >= argc) return fail("no program given: usage is upcrun -n THREADS [options] PROGRAM [ARGS...]");
  cl.program = i;
  return cl;
}

std::string complete_options(options& o) {
  // The backend may come from the environment too (UPCEMU_BACKEND=mpi must
  // still start mpirun).
  if (o.backend.empty())
    if (const char* env = std::getenv("UPCEMU_BACKEND"); env && std::string_view(env) == "mpi") o.backend = "mpi";
  const bool mpi = o.backend == "mpi";
  if (!mpi && !o.hostfile.empty()) return "--hostfile is an option of the mpi backend: add --backend mpi";
  if (!mpi && !o.mpirun.empty()) return "--mpirun is an option of the mpi backend: add --backend mpi";
  if (mpi && !o.threads) {
    // mpirun needs the number of ranks: the same default as the other backends.
    if (const char* env = std::getenv("UPCEMU_THREADS"); env && *env) {
      const auto n = parse_long(env);
      if (!valid_count(n)) return std::string("UPCEMU_THREADS='") + env + "' is invalid";
      o.threads = n;
    } else {
      o.threads = std::max(1u, std::thread::hardware_concurrency());
    }
  }
  // The topology, checked now when THREADS is known (the program checks it again).
  if (o.threads && (o.nodes || o.per_node || !o.node_map.empty())) {
    try {
      upc::detail::make_node_map(static_cast<int>(*o.threads), o.nodes ? static_cast<int>(*o.nodes) : 0,
                                 o.per_node ? static_cast<int>(*o.per_node) : 0, o.node_map);
    } catch (const upc::error& e) {
      return e.message();
    }
  }
  // The segment holds THREADS heaps: say now, as the program would, when that
  // cannot be mapped (the product is computed without wrapping).
  if (o.threads && !o.heap.empty()) {
    const auto parts = upc::detail::size_partitions(*upc::detail::parse_size(o.heap), static_cast<int>(*o.threads), o.heap);
    if (!parts.error.empty()) return parts.error;
  }
  return {};
}

std::vector<std::pair<const char*, std::string>> environment_of(const options& o) {
  std::vector<std::pair<const char*, std::string>> env;
  auto add = [&env](const char* name, const std::string& value) {
    if (!value.empty()) env.emplace_back(name, value);
  };
  auto add_count = [&env](const char* name, const std::optional<long>& n) {
    if (n) env.emplace_back(name, std::to_string(*n));
  };
  auto add_flag = [&env](const char* name, bool on) {
    if (on) env.emplace_back(name, "1");
  };
  add_count("UPCEMU_THREADS", o.threads);
  add("UPCEMU_BACKEND", o.backend);
  add("UPCEMU_HEAP", o.heap);
  add("UPCEMU_STACK", o.stack);
  add_count("UPCEMU_NODES", o.nodes);
  add_count("UPCEMU_THREADS_PER_NODE", o.per_node);
  add("UPCEMU_NODE_MAP", o.node_map);
  add("UPCEMU_REPORT", o.report);
  add("UPCEMU_REPORT_FILE", o.report_file);
  add("UPCEMU_NET", o.net);
  if (o.check_all_races) env.emplace_back("UPCEMU_CHECK", "all-races");  // and every race, going on
  else if (o.check_races) env.emplace_back("UPCEMU_CHECK", "races");  // --check and the race check
  else add_flag("UPCEMU_CHECK", o.check);
  add("UPCEMU_TIMEOUT", o.timeout);
  add("UPCEMU_WATCHDOG", o.watchdog);
  add("UPCEMU_WAIT_WARNING", o.wait_warning);
  add_flag("UPCEMU_QUIET", o.quiet);
  add("UPCEMU_BACKTRACE", o.backtrace);
  add("UPCEMU_COLL", o.coll);
  add("UPCEMU_COLL_SEGMENT", o.coll_segment);
  add_flag("UPCEMU_VERBOSE_COLL", o.verbose_coll);
  add("UPCEMU_UPCCOLL_PROGRESS", o.upccoll_progress);
  return env;
}

}  // namespace upcrun
