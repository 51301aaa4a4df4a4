// How the benchmarks with their own main() (collbench, upccoll_bench,
// upccoll_overlap) and the applications (through apps/common/launch.hpp) start
// their SPMD runs: they size the shared heap from their parameters before
// upc::run, which a program started by upcemu_main cannot.
#pragma once
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "upc.h"

namespace bench {

// CPUs this process may run on (the affinity mask), at least 1.
inline int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// The launch options of the UPCEMU_* variables, THREADS defaulting to the usable
// CPUs. Throws upc::error on a bad value.
inline upc::launch_options launch_options() {
  upc::launch_options opt = upc::launch_options::from_environment();
  if (opt.threads == 0) opt.threads = usable_cpus();
  // On the mpi backend every rank runs main(): rank 0, whose UPC thread 0
  // gathers the results, prints them for all.
  if (opt.backend == upc::backend_kind::mpi)
    if (const char* rank = std::getenv("OMPI_COMM_WORLD_RANK"); rank && std::string(rank) != "0")
      if (!std::freopen("/dev/null", "w", stdout)) std::fclose(stdout);
  return opt;
}

// One SPMD run of body: 0 when every thread returned 0, else 1; a failed run
// (a thread threw, crashed, ...) is said on stderr as "<what> failed: <why>".
inline int run_spmd(const upc::launch_options& opt, const std::string& what, const std::function<int()>& body) {
  std::fflush(stdout);  // nothing printed so far is still buffered when the threads (processes) start
  const upc::run_result r = upc::run(opt, body);
  if (r.failed) {
    std::fprintf(stderr, "%s failed%s%s\n", what.c_str(), r.error.empty() ? "" : ": ", r.error.c_str());
    return 1;
  }
  return r.exit_code != 0 ? 1 : 0;
}

}  // namespace bench
