// What the xupc tests (tests/unit/test_xupc*.cpp) share: running a body over
// the conformance matrix's backends, THREADS counts and topologies, with the
// chunk lists' algorithm left to auto and forced to each node-aware tree.
#pragma once
#include <functional>
#include <string>
#include <utility>

#include "spmd.hpp"
#include "upc/coll.hpp"

namespace xupc_runs {

// Every backend and THREADS {1, 2, 3, 4, 5, 7, 8, 16}, on one node, two of
// consecutive threads, two cyclic, three uneven and one per thread, with
// vector_copy on auto, binomial and binomial_flat (forced outside the run, as
// the conformance harness forces; a call's algorithm flag still wins).
inline void everywhere(const std::function<void()>& body) {
  struct forced_rules {
    explicit forced_rules(const char* algo) {
      if (std::string(algo) != "auto") upc::coll::force_algorithm("vector_copy", algo);
    }
    ~forced_rules() { upc::coll::reset_algorithms(); }
  };
  for (auto [nodes, map] : {std::pair{1, "block"}, std::pair{2, "block"}, std::pair{2, "cyclic"}, std::pair{3, "block"},
                            std::pair{16, "block"}})
    for (const char* chunks : {"auto", "binomial", "binomial_flat"}) {
      spmd::topology_scope scope(nodes, map);
      forced_rules rules(chunks);
      INFO("topology: ", nodes, " nodes ", std::string(map), "; vector_copy: ", std::string(chunks));
      spmd::run_everywhere(body, {1, 2, 3, 4, 5, 7, 8, 16});
    }
}

}  // namespace xupc_runs
