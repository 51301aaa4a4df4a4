// The one table of collective algorithms (DESIGN.md §3.2, STYLE.md): selection,
// force_algorithm / UPCEMU_COLL, the verbose report, the conformance tests and the
// benchmark all read it. Adding an algorithm is one file and one row here.
#pragma once
#include <string>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "coop/decomposition.hpp"

namespace upc::coll {

struct algorithm_entry {
  collective kind;
  const char* name;             // the one name: file, env value, CLI value, test name
  algo::builder build;
  upc_flag_t flag;              // UPC_PULL / UPC_PUSH bit that forces it, or 0
  // Why it cannot run this request (nullptr: it can).
  const char* (*refuses)(const request&, int threads);
  const char* summary;
  const coop::decomposition* coop = nullptr;  // upccoll_* collectives: their task decomposition
};

const std::vector<algorithm_entry>& registry();

// The algorithm to run: flag bits, then a forced choice (force_algorithm or
// UPCEMU_COLL), then the automatic policy. Throws upc::error (naming the valid
// algorithms) when a forced choice does not exist or cannot run this call.
const algorithm_entry& select(const request& rq, int threads);

// The decomposition of a upccoll_* collective: a forced choice (force_algorithm
// or UPCEMU_COLL) for this size, else the automatic policy. `bytes` is the
// size of the call as documented in automatic_text (per member).
const algorithm_entry& select_coop(collective kind, std::size_t bytes, int team_size);

// Runs a request on the world team, or on `t`: select, build, execute.
void run(const request& rq);
void run(const request& rq, team& t);

}  // namespace upc::coll
