// The race check's unit tests run every case the same way: a body at 2 and 4
// threads on the threads and processes backends under --check=races
// (docs/races.md), which must report a race holding given phrases, or run
// clean.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include "spmd.hpp"

namespace race_runs {

constexpr upc::backend_kind backends[] = {upc::backend_kind::threads, upc::backend_kind::processes};

// racy: the run must fail with a report holding every phrase and, when given,
// the phrase `late` returns once the run is over (a place the body records);
// otherwise it must succeed.
inline void expect(bool racy, const std::function<void()>& body, const std::vector<std::string>& phrases = {},
                   const std::function<std::string()>& late = {}) {
  if (spmd::mpi_ranks() > 0) return;  // --check=races is refused on mpi
  for (upc::backend_kind b : backends)
    for (int threads : {2, 4}) {
      upc::launch_options o = spmd::options(threads, b);
      o.check = o.races = true;
      o.timeout_seconds = 60;
      upc::run_result r = upc::run(o, body);
      INFO("backend=", spmd::name(b), " THREADS=", threads, " report: ", r.error);
      CHECK(r.failed == racy);
      for (const std::string& p : phrases) CHECK(spmd::contains(r.error, p));
      if (racy && late) CHECK(spmd::contains(r.error, late()));
    }
}

}  // namespace race_runs
