// The task executor's entry points for front-ends (lib/api/upccoll.cpp is
// one): a front-end checks its arguments, says what this member passes, and
// the engine does the rest — the choice of decomposition, the sequence number,
// staging, posting, completion, handles' records, fences, teams' settling.
#pragma once
#include <vector>

#include "../element_ops.hpp"
#include "../status.hpp"
#include "../team.hpp"
#include "operation.hpp"

namespace upc::coll::tasks {

// What one member passes to one collective.
struct call {
  collective kind = collective::barrier;
  const char* function = "";
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
  std::vector<std::uint64_t> meta;    // v-variants: counts and displacements in bytes
  std::vector<std::uint64_t> block_elems;  // reduce_scatter: prefix sums of the counts
  std::uint64_t selection_bytes = 0;  // what the automatic policy looks at
  reporter report = nullptr;
};

// Posts this member's part of `c` on `t` and returns its record, live in the
// calling thread's progress list. `posted`: ok, or the failure posted for it
// (the front-end's own, or no_memory when staging found no room).
operation& start_collective(team& t, call& c, status& posted);

// Advances until this member's part of op is over; its result.
status wait(operation& op);
// One round of progress; whether this member's part of op is over.
bool test(operation& op);
// The user needs op no more (its record goes back once it is over for everyone).
void release(operation& op);
// Advances what is in flight (every call of a front-end makes progress).
void progress_here();

// Completes every collective of this thread flagged `fence`, oldest first;
// the first failure among them.
status fence();
// Completes every collective of this thread on t (nullptr: on every team) and
// waits until each is over for everyone, so the team's memory can go.
void settle(team* t);
// Collective over t: settles, frees the staged buffers, releases the team.
void free_team(team& t, const char* function);
// The world team at the end of the library: settles everything, then frees
// the staged buffers of the world and of `others` (teams not freed by the user).
void finalize(const std::vector<team*>& others, const char* function);

void start_progress_thread(int upc_thread);
void stop_progress_thread();

}  // namespace upc::coll::tasks
