// The one table of collective algorithms and the automatic policy, as data
// (DESIGN.md §3.2, issue 9): selection, force_algorithm / UPCEMU_COLL, the
// verbose report, upcrun --list-algorithms, the conformance tests and the
// benchmarks all read these rows. Adding an algorithm is one file and one row.
//
// A row names the executor that runs it: an owner-executor row has a plan
// builder, a task-executor row a task decomposition. It says, declaratively,
// what it cannot serve (`cannot`, features below), in the spirit of MPICH's
// coll_algorithms.txt restrictions; selection never silently replaces a
// forced choice that cannot run a call, it says why.
#pragma once
#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "kinds.hpp"

namespace upc::coll {

// A task-executor row points at its decomposition; the table (registry.cpp)
// is the one place that needs to know what one is. Declared only, so the task
// executor, which selects through this header, is not included back by it.
namespace tasks {
struct decomposition;
}

// What a request may ask that not every algorithm serves.
namespace feature {
constexpr unsigned private_src = 1u << 0;  // the source is private memory of its owner
constexpr unsigned private_dst = 1u << 1;  // the destination is private memory of its owner
constexpr unsigned in_place = 1u << 2;     // the source is the destination
constexpr unsigned suffix = 1u << 3;       // a scan from the end (xupc's suffix reduce)
constexpr unsigned off_mpi = 1u << 4;        // not on the mpi backend, or pieces not in member order
constexpr unsigned all = private_src | private_dst | in_place | suffix | off_mpi;
}  // namespace feature
// "private src" for one feature bit.
const char* feature_text(unsigned bit) noexcept;
unsigned features_of(const request& rq) noexcept;

struct algorithm_entry {
  collective kind;
  const char* name;                            // the one name: file, env value, CLI value, test name
  algo::builder build = nullptr;               // owner executor: the plan builder
  const tasks::decomposition* tasks = nullptr;  // task executor: the task decomposition
  upc_flag_t flag = 0;                         // UPC_PULL / UPC_PUSH / UPC_MULTICORE bit that forces it, or 0
  unsigned cannot = 0;                         // features it does not serve
  const char* summary = "";
};

// The automatic policy: the first row of the collective whose size range
// (bytes, inclusive) and THREADS range (team size) hold the call names the
// algorithm. A collective's last row has no condition.
//
// A team spread over several emulated nodes (issue 11) first looks at the
// rows with min_nodes > 1 (it spans at least that many nodes), then takes
// the collective's UPC_MULTICORE row; the other rows are for one node.
struct policy_row {
  collective kind;
  const char* algorithm;
  std::size_t lo = 0, hi = SIZE_MAX;
  int min_threads = 1, max_threads = INT_MAX;
  int min_nodes = 1;
  bool one_run = false;  // only for chunk lists whose chunks all read the same bytes (a broadcast)
  bool across_hosts = false;  // only for teams whose members are on several hosts (mpi backend)
};

const std::vector<algorithm_entry>& registry();
const std::vector<policy_row>& policy();
// The policy of one collective in words: "push when THREADS >= 16 and size <=
// 4 KiB; pull otherwise" (what --list-algorithms and docs/algorithms.md print).
std::string policy_text(collective c);

// What selection looks at.
struct selection {
  collective kind;
  const char* function;       // for messages
  std::size_t size = 0;       // bytes per member (request::size_for_selection)
  int team_size = 1;
  upc_flag_t flags = 0;       // algorithm bits (owner-executor front-ends)
  unsigned features = 0;
  int nodes = 1;              // emulated nodes the team spans (issue 11)
  bool one_run = false;       // chunks: every chunk between threads reads the same bytes (request::one_run)
  bool across_hosts = false;  // the team's members are on several hosts (an mpi run)
};

// The algorithm to run: flag bits, then a forced choice (force_algorithm or
// UPCEMU_COLL), then the automatic policy; the choice must serve the call's
// features. Throws upc::error (naming the valid algorithms) when a forced
// choice does not exist or cannot run the call.
const algorithm_entry& select(const selection& s);

// Runs an owner-executor request on the world team, or on `t`: select, build
// (or reuse the plan of the same call), execute.
void run(const request& rq);
void run(const request& rq, team& t);

// What upc::coll::last_algorithm() reports (the task executor notes its choices too).
void note_last_algorithm(const char* name);
// The same, without a copy (the traffic report keys on it).
const char* last_algorithm_name() noexcept;

// Moves whenever the forced rules change (force_algorithm, reset_algorithms):
// what was chosen under older rules must be chosen again.
std::uint32_t rules_generation() noexcept;
// UPCEMU_VERBOSE_COLL: every choice is printed (so none may be skipped).
bool choices_printed() noexcept;

}  // namespace upc::coll
