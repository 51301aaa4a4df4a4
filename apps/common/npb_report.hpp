// The NAS Parallel Benchmarks' end-of-run report, as NPB prints it (name, class,
// size, iterations, time, Mop/s, verification), followed by one machine-readable
// line that tools/bench/run_apps.sh collects.
#pragma once
#include <cstdio>
#include <string>

#include "../../harness/app_result.hpp"

namespace npb {

struct report {
  std::string name;        // "IS", "FT", "CG"
  std::string variant;     // which communication version ran
  char cls = 'S';
  std::string size;        // "65536" or "64x64x64"
  int iterations = 0;
  double seconds = 0;
  double mops = 0;         // Mop/s total
  std::string operation;   // "keys ranked", "floating point"
  bool verified = false;
};

// Thread 0 calls this once.
inline void print(const report& r) {
  std::printf("\n\n %s Benchmark Completed\n", r.name.c_str());
  std::printf(" Class           = %24c\n", r.cls);
  std::printf(" Size            = %24s\n", r.size.c_str());
  std::printf(" Iterations      = %24d\n", r.iterations);
  std::printf(" Time in seconds = %24.2f\n", r.seconds);
  std::printf(" Total threads   = %24d\n", apps::threads_now());
  std::printf(" Mop/s total     = %24.2f\n", r.mops);
  std::printf(" Mop/s/thread    = %24.2f\n", r.mops / apps::threads_now());
  std::printf(" Operation type  = %24s\n", r.operation.c_str());
  std::printf(" Verification    = %24s\n", r.verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
  std::printf(" Communication   = %24s\n", r.variant.c_str());
  std::printf(" Backend         = %24s\n\n", apps::backend_name());
  std::string lower = r.name;
  for (char& c : lower) c = static_cast<char>(c | 0x20);
  apps::result_line({{"app", lower},
                     {"variant", r.variant},
                     {"class", std::string(1, r.cls)},
                     {"time_s", r.seconds},
                     {"mops", r.mops},
                     {"verified", r.verified}});
}

}  // namespace npb
