// One collective of the task executor, as the calling member sees it, and the
// executor's steps: start (post), advance (claim and run ready tasks),
// complete (is this member's part over?), over (is it over for everyone?).
//
// A collective is a list of tasks (decomposition.hpp). A task becomes ready
// when the members whose posts it reads have posted (all members under
// UPC_IN_ALLSYNC) and the tasks it follows are done; then ANY member may claim it
// and run it to the end without waiting. So a member's completion depends only
// on the other members' initiations, never on what they do afterwards: a member
// blocked in upc_lock after starting a collective cannot hold anyone up (the
// ordering rules of seed 000 §2.5 and its Figure 1).
//
// Every member reads every post before its call completes, comparing each
// post's agreement key with its own (agreement.hpp): a call that disagrees, or
// one that failed before it could post, ends every member's call with the same
// status.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../element_ops.hpp"
#include "../race_model.hpp"
#include "../status.hpp"
#include "failure.hpp"
#include "words.hpp"

namespace upc::detail {
struct mpi_job;
}

namespace upc::coll::tasks {

struct decomposition;

struct operation {
  team_view* t = nullptr;
  collective kind = collective::barrier;
  const char* function = "";       // the name it was called by (messages)
  const char* algorithm = "";      // its registry row (the traffic report)
  std::uint32_t seq = 0;
  int flags = 0;                   // normalised sync flags
  const decomposition* dec = nullptr;
  int ntasks = 0;
  int root = 0;
  // Single-valued parameters every member derives the same way.
  std::uint64_t count = 0;                 // elements (reductions)
  std::vector<std::uint64_t> block_elems;  // reduce_scatter: prefix sums of recvcounts
  element_op eop;
  const front_end* library = nullptr;  // its words, and how it reports failures
  // Progress state.
  int posts_checked = 0;           // ranks [0, posts_checked) have posted and agree (or their failure is recorded)
  bool all_posted = false;
  bool finished_local = false;
  // Worked out from the description once, kept while it is repeated (renew):
  std::int8_t orphans = -1;        // whether a task's own member may leave before it (-1: not known yet)
  std::int8_t mine_for_staged = -1;  // mine_tasks holds for this staged flag (-1: not worked out)
  std::vector<int> mine_tasks;     // the tasks this member's part waits for (MYSYNC)
  status result = status::ok;      // once complete
  post_data mine{};                // our own post, as written
  bool at_fence = false;           // UPC_ASYNC_FENCE: completes at the fence
  bool released = false;           // the user needs it no more (progress.hpp)
  std::shared_ptr<detail::mpi_job> handoff;  // this member's part, handed to MPI (mpi_handoff.hpp)
  race_task race;                  // --check=races: the call as the race check sees it
  // What the start derived from the call's description (engine.cpp), kept
  // for the next call of the same description (call::stamp).
  std::uint64_t stamp = 0;
  std::uint32_t rules = 0;         // the rules generation the algorithm was chosen under
  std::uint64_t input = 0;         // bytes of this member's input
  bool must_stage = false;         // its input must be copied into the slot (start())
  bool stages_input = false;       // it is copied when posted: it must be, or it is small (eager)
  bool key_known = false;          // mine.key and mine.pair_balance hold for these arguments
  const decomposition* to_mpi = nullptr;
};

// Makes a used record new (keeping the storage of its vectors): what a
// collective's start does not set itself. renew: only its progress, for the
// same description again.
void restart(operation& op);
void renew(operation& op);

// Posts the calling member's part (op.mine: all but seq; `meta`: the v-variants'
// counts and displacements in bytes, staged in the shared heap). A member whose
// input (op.input bytes) is small, or must be kept from its own output (in
// place on a decomposition that is not in_place_direct: op.must_stage), copies
// it into its slot first (staged; op.stages_input says which). mine.status != ok posts a failed call (the others complete with
// that status). Returns mine.status, or no_memory when the staging found no
// room (then posted as a failure). The slot's previous collective, `slots`
// collectives back, must be over (wait_slot_over, progress.hpp).
status start(operation& op, const std::vector<std::uint64_t>* meta);
// Whether a member's input of `input_bytes` is staged by start (must_stage or eager).
bool stages_input(int flags, std::uint64_t input_bytes, bool must_stage);

// Runs this member's own ready tasks and, with `help`, every other ready task
// it can claim; true when it did anything.
bool advance(operation& op, bool help = true);

// This member's part is over (MYSYNC: the tasks touching its buffers are done;
// ALLSYNC: all tasks are done); sets op.result from the team's error word.
bool complete(operation& op);

// True once nothing remains to be done by or for anyone: every member posted and
// every task is done (the slot may be reused).
bool over(operation& op);

// Whether the collective this member last started in `slot` is over for
// everyone (every member posted it, every task is done). Every task writes
// some member's receive buffer, so the members that need it run it: a
// collective gets over even when nobody keeps its record.
bool slot_over(team_view& t, int slot);

// The first member that has not posted yet (-1: all have), for wait reports.
int first_unposted(const operation& op);

// Records a failure of the collective for every member: the first one wins.
// `found`: a failure found in the posts or the tasks (reported by the
// front-end under --check; a disagreement that ends the run when a member had
// already left, late_agreement.hpp); otherwise this member's own failed call,
// which its front-end reports.
enum class failure_source { found, own_call };
void fail_collective(const operation& op, const failure& f, failure_source source = failure_source::found);

}  // namespace upc::coll::tasks
