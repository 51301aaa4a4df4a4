// upcrun's command line: the options, read and checked into one struct, then
// completed from the environment and turned into the UPCEMU_* variables the
// program reads at start-up (lib/runtime/options.cpp). Nothing here prints or
// exits: a usage error comes back as its message, which upcrun prints after
// "upcrun: " and ends with status 2.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace upcrun {

// What the options ask for; an empty string or no value is an option not given.
struct options {
  std::optional<long> threads, nodes, per_node;
  std::string node_map, report, report_file, net;
  std::string backend, heap, stack, timeout, watchdog, wait_warning, coll, coll_segment, upccoll_progress;
  std::string hostfile, mpirun, backtrace;
  bool check = false, check_races = false, check_all_races = false, quiet = false, verbose_coll = false;
};

struct command_line {
  enum class action { run, help, version, list_algorithms };
  action what = action::run;  // help, version, list_algorithms: the first such option, then nothing more is read
  options opts;
  int program = 0;    // run: argv index of PROGRAM
  std::string error;  // a usage error, naming the option and its value; the rest is then meaningless
};

// Reads argv[1..argc-1] up to PROGRAM (or "--"), checking each option's value
// as it comes; stops at the first usage error.
command_line parse_command_line(int argc, char** argv);

// What needs every option, the environment or THREADS: the backend from
// UPCEMU_BACKEND, the options only the mpi backend takes, THREADS for mpirun
// (UPCEMU_THREADS, else the CPUs), the topology, THREADS heaps in one segment.
// A usage error, or "".
std::string complete_options(options& o);

// The UPCEMU_* variables of the options given, in the order upcrun sets them
// (the mpi backend passes them on to mpirun in that order).
std::vector<std::pair<const char*, std::string>> environment_of(const options& o);

// `upcrun --help`, kept in step with docs/man/upcrun.1 by the test
// 'upcrun man page lists every option'.
extern const char* const help_text;

}  // namespace upcrun
