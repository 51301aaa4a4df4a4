// How every application (and the C++ twins of bench/upcc) reports, besides its
// own human-readable output: one line
//   upcemu-result {"app": ..., "variant": ..., "threads": N, "backend": ..., ...}
// printed by thread 0 at the end, which tools/bench/run_apps.sh collects into its
// table. `time_s` is the timed part's wall time, `verified` whether the answer
// checked out; apps add their own fields (mops, gflops, class, size).
#pragma once
#include <cstdio>
#include <string>

#include "report.hpp"
#include "upc.h"

namespace apps {

inline int threads_now() { return upc::threads(); }

inline const char* backend_name() {
  return upc::current_backend() == upc::backend_kind::processes ? "processes"
         // "mpi" in benchmark rows is the Open MPI peer; upcemu's own mpi backend is "mpi_backend"
         : upc::current_backend() == upc::backend_kind::mpi     ? "mpi_backend"
                                                                : "threads";
}

inline void result_line(bench::record fields) {
  bench::record all{{"threads", threads_now()}, {"backend", std::string(backend_name())}};
  all.insert(all.end(), fields.begin(), fields.end());
  std::printf("upcemu-result %s\n", bench::to_json(all).c_str());
  std::fflush(stdout);
}

}  // namespace apps
