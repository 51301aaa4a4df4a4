// One collective of the cooperative engine, as the calling member sees it, and
// the engine's entry points: start (post and return), advance (do ready tasks),
// complete (has this member's part finished?).
//
// A collective is a list of tasks (see decomposition.hpp). A task becomes ready
// when the members whose posts it reads have posted (all members under
// UPC_IN_ALLSYNC) and the tasks it follows are done; then ANY member may claim it
// and run it to the end without waiting. So a member's completion depends only
// on the other members' initiations, never on what they do afterwards: a member
// blocked in upc_lock after starting a collective cannot hold anyone up (the
// ordering rules of seed 000 §2.5 and its Figure 1).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../element_ops.hpp"
#include "team.hpp"
#include "upccoll.h"

namespace upc::coll::coop {

struct decomposition;

struct operation {
  team* t = nullptr;
  collective kind = collective::barrier;
  const char* function = nullptr;   // the name it was called by (messages); nullptr: name_of(kind)
  std::uint32_t seq = 0;
  int flags = 0;
  const decomposition* dec = nullptr;
  int ntasks = 0;
  // In place on a decomposition that is not in_place_direct: tasks
  // [stage_base, stage_base + size) copy each in-place member's input (its post's
  // recv, stage_bytes) to its post's send; every other task waits for them.
  int stage_base = -1;              // -1: no stage tasks
  std::uint64_t stage_bytes = 0;    // ours, when we are in place
  bool stages_done = false;         // cache: every stage task seen done
  // Single-valued parameters every member derives the same way.
  std::uint64_t count = 0;          // elements (reductions)
  std::vector<std::uint64_t> block_elems;  // reduce_scatter: recvcounts
  element_op eop;
  int root = 0;
  // Progress state.
  bool all_posted = false;
  std::vector<char> seen;           // seen[r]: rank r's post checked
  int status = 0;                   // error code once known
  bool finished_local = false;
  post_data mine{};                 // our own post, as written
  bool fence = false;               // UPC_ASYNC_FENCE: completes at upccoll_fence
  std::uint64_t handle = 0;         // nonzero: the user holds this handle
  bool released = false;            // the user needs it no more (progress.hpp)
};

// Posts the calling member's part: `mine` (all but seq and meta) and, for the
// v-variants, `meta` (counts and displacements in bytes, staged in the shared
// heap). mine.status != 0 posts a failed call (the others complete with that
// code). Returns mine.status, or UPCCOLL_ERROR_MALLOC when the counts found no
// room (then posted as a failure). Waits (doing tasks meanwhile) only when the
// slot's previous collective, `slots` collectives back, is not over yet.
int start(operation& op, post_data mine, const std::vector<std::uint64_t>* meta);

// Runs this member's own ready tasks and, with `help`, every other ready task
// it can claim; true when it did anything. Helping is what lets a collective
// finish while other members are busy elsewhere (EX2 of Figure 1); a member
// helps once it has waited a little, so that when everyone is active each
// member copies into its own buffers and no cache lines are fought over.
bool advance(operation& op, bool help = true);

// This member's part is over (MYSYNC: the tasks touching its buffers are done;
// ALLSYNC: all tasks are done); sets op.status from the team's error word.
bool complete(operation& op);

// True once nothing remains to be done by or for anyone: every member posted and
// every task is done (the slot may be reused, staged counts freed).
bool over(operation& op);

// The first member that has not posted yet (-1: all have), for wait reports.
int first_unposted(const operation& op);

// Advances until complete, sleeping on the team's activity word when nothing is
// ready. `what` names the wait for the watchdog.
void wait(operation& op, const char* what);

// The function the caller called ("upccoll_exscan" for an collective::member_exclusive_scan called so).
inline const char* function_of(const operation& op) noexcept { return op.function ? op.function : name_of(op.kind); }

// Records an error on the collective for every member: the first one wins.
// `say`: print the message under --check.
void fail_collective(const operation& op, int code, const std::string& message, bool say = true);

}  // namespace upc::coll::coop
