// How a collective splits into tasks that any member may run (the cooperative
// engine's "algorithms"; registered by name in lib/coll/registry.cpp). A task
// reads the posts of the members it needs and moves or combines bytes between
// their buffers; it never waits. Every member derives the same task list from
// single-valued arguments, so task i means the same thing everywhere.
#pragma once
#include "operation.hpp"

namespace upc::coll::coop {

// What a task needs before it may run.
struct task_needs {
  int a = -1, b = -1;           // members whose posts it reads (-1: none)
  bool all = false;             // every member's post
  int after_lo = 0, after_hi = 0;  // tasks [after_lo, after_hi) must be done first
};

struct decomposition {
  const char* name;
  int (*tasks)(const operation& op);
  task_needs (*needs)(const operation& op, int task);
  // Whether the task reads or writes `rank`'s buffers (MYSYNC completion);
  // nullptr: every task touches every member.
  bool (*touches)(const operation& op, int task, int rank);
  // Runs the task; returns 0 or an UPCCOLL_ERROR_* code (the collective fails).
  int (*run)(const operation& op, int task);
  // Whether the tasks stay right when a member computes in place, i.e. its post's
  // send area lies in its receive area (send == recv for the reductions, its own
  // block of recv for gather / allgather, recv inside send at a scatter's root):
  // every byte an in-place member's input shares with its output is read before
  // it is written, by the one task that writes it. Otherwise, for the
  // collectives where every member is in place or none, the engine first copies
  // each in-place member's input aside (stage tasks, operation.hpp); rooted
  // collectives must be direct (the non-roots cannot know the root is in place).
  bool in_place_direct = false;
};

// The decompositions of each collective (movement.cpp, reductions.cpp).
namespace decompositions {
extern const decomposition barrier;
extern const decomposition bcast_pull, scatter_pull, scatterv_pull, gather_push, gatherv_push;
extern const decomposition allgather_by_destination, allgatherv_by_destination;
extern const decomposition alltoall_by_destination, alltoallv_by_destination;
extern const decomposition reduce_chunked, allreduce_redundant, allreduce_chunked, reduce_scatter_by_block;
extern const decomposition scan_chunked, scan_inclusive_chunked;
}  // namespace decompositions

// Helpers for the decompositions.
inline const post& post_of(const operation& op, int rank) { return op.t->post_of(rank, op.seq); }

}  // namespace upc::coll::coop
