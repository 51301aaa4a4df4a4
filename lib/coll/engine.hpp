// The collective engine's one public header (issue 28): all that a front-end
// (lib/api/, lib/mapreduce/) may use of lib/coll/. A front-end checks its
// arguments and says them in its own words, describes the call in the engine's
// terms, and words what comes back (a status, a difference between members'
// calls) in its own library's words; it includes nothing else of lib/coll/.
//
// Two ways in, one per executor (docs/algorithms.md §1):
//   submit(request)          the owner executor: a blocking collective of the
//                            UPC style (request.hpp: team, endpoints, arrays)
//   tasks::start_collective  the task executor: this member's part of a
//                            collective (tasks::call), then wait / test /
//                            release / fence on the record it returns
// Teams: team::world(), tasks::split_team, tasks::free_team; a library's end:
// tasks::finalize.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "element_ops.hpp"   // element types × operations: bind(type, op)
#include "kinds.hpp"         // the kinds of collectives and their traits
#include "race_model.hpp"    // the race check's view of a call (--check=races)
#include "request.hpp"       // the owner executor's request (endpoints, chunks, blocked arrays)
#include "status.hpp"        // the engine's outcomes
#include "submit.hpp"        // submit(request)
#include "tasks/failure.hpp" // a collective's failure as data (difference), and a front-end's words
#include "team.hpp"          // the one team type
#include "validate.hpp"      // the areas a call touches, and their faults

namespace upc::coll::tasks {

struct operation;
// A collective of the task executor in flight, as the calling member holds it.
using pending = operation;

// What one member passes to one collective: its fixed-size part (copied as a
// whole when a call repeats the last one), then the variable-size one.
struct call_fields {
  collective kind = collective::barrier;
  const char* function = "";          // the name it was called by (messages)
  const front_end* library = nullptr;
  int flags = 0;                      // normalised sync flags (UPC_IN_/OUT_ ALLSYNC or MYSYNC)
  status failed = status::ok;         // this member's own failure: posted, so every member ends with it
  int root = 0;
  bool in_place = false;
  char* send = nullptr;               // this member's input (in place: where it lies in recv)
  char* recv = nullptr;
  std::uint64_t send_bytes = 0, recv_bytes = 0;  // one block each way
  std::uint64_t count = 0;            // reductions: elements
  element_op eop;                     // reductions
  std::uint64_t op_arg = 0;           // the op and the type as the caller passed them (agreement, messages)
  const void* user_fn = nullptr;
  int type_arg = 0;
  std::uint64_t selection_bytes = 0;  // what the automatic policy looks at
  // --check=races (race_model.hpp): this member's bytes the call reads and
  // writes, and the call's place in the program.
  const std::vector<area>* areas = nullptr;
  detail::access_site site{};
  // Nonzero: the front-end's name for this description, the same for every
  // call it passes again unchanged (a repeated call), so that what the engine
  // derives from it (its algorithm, tasks, agreement key) is derived once.
  std::uint64_t stamp = 0;
};
struct call : call_fields {
  std::vector<std::uint64_t> meta;    // v-variants: counts and displacements in bytes
  std::vector<std::uint64_t> block_elems;  // reduce_scatter: prefix sums of the counts (agreed on)
};

// Posts this member's part of `c` on `t` and returns its record, live in the
// calling thread's progress list. `posted`: ok, or the failure posted for it
// (the front-end's own, or no_memory when staging found no room).
pending& start_collective(team& t, call& c, status& posted);

// Advances until this member's part of op is over; its result.
status wait(pending& op);
// A blocking call: start_collective, wait and release in one, without a record
// in the progress list when nothing else is in flight (the cost of a call of
// a few bytes is mostly bookkeeping). `posted` as start_collective's; the
// result (posted when that is not ok).
status run_blocking(team& t, call& c, status& posted);
// One round of progress; whether this member's part of op is over.
bool test(pending& op);
// The user needs op no more (its record goes back once it is over for everyone).
void release(pending& op);
// Completes op at the next fence instead of through a handle (UPC_ASYNC_FENCE).
void complete_at_fence(pending& op);
// The name op was called by, and its team.
const char* function_of(const pending& op) noexcept;
team& team_of(const pending& op) noexcept;
// Advances what is in flight (every call of a front-end makes progress).
void progress_here();

// Completes every collective of this thread flagged for the fence, oldest
// first; the first failure among them. `function`: the caller, for reports.
status fence(const char* function);

// Collective over `parent`: the joining members passing the same color form a
// new team, ordered by key, then by parent rank (team::split), with what the
// task executor needs of it (MPI communicators, on the mpi backend). Returns
// the status every member gets.
status split_team(team& parent, bool join, int color, int key, status failed, std::unique_ptr<team>& out,
                  const char* function);
// Collective over t: completes what is in flight on t for everyone, frees the
// staged buffers, releases the team.
void free_team(team& t, const front_end& library, const char* function);
// The world team at the end of a library: settles everything, then frees the
// staged buffers of the world and of `others` (teams not freed by the user).
void finalize(const std::vector<team*>& others, const front_end& library, const char* function);

// A thread that advances this UPC thread's collectives in the background.
void start_progress_thread(int upc_thread, const char* function);
void stop_progress_thread();

}  // namespace upc::coll::tasks
