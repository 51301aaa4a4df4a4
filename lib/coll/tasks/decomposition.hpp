// How a collective splits into tasks that any member may run (the task
// executor's algorithms; registered by name in lib/coll/registry.cpp). A task
// reads the posts of the members it needs and plans the bytes it moves or
// combines between their buffers as data steps (plan.hpp), which the executor
// runs; it never waits. Every member derives the same task list from the
// single-valued arguments, so task i means the same thing everywhere.
#pragma once
#include "../plan.hpp"
#include "../status.hpp"
#include "operation.hpp"

namespace upc::coll::tasks {

// What a task needs before it may run.
struct task_needs {
  int a = -1, b = -1;              // members whose posts it reads (-1: none)
  bool all = false;                // every member's post
  int after_lo = 0, after_hi = 0;  // tasks [after_lo, after_hi) must be done first
};

struct decomposition {
  const char* name;
  int (*tasks)(const operation& op);
  task_needs (*needs)(const operation& op, int task);
  // Whether the task writes member `rank`'s receive buffer, or reads its send
  // buffer (MYSYNC completion: a member is done once the tasks that write its
  // receive buffer, and those that read its send buffer unless it was staged,
  // are done); nullptr: every task does, for every member.
  bool (*writes)(const operation& op, int task, int rank);
  bool (*reads)(const operation& op, int task, int rank);
  // Plans the task's steps into p (p.op is the collective's operation); ok, or
  // the status the collective fails with.
  status (*plan_task)(const operation& op, int task, plan& p);
  // Whether the tasks stay right when a member computes in place, i.e. its post's
  // send area lies in its receive area (send == recv for the reductions, its own
  // block of recv for gather / allgather, recv inside send at a scatter's root):
  // every byte an in-place member's input shares with its output is read before
  // it is written, by the one task that writes it. Otherwise an in-place member
  // copies its input into its slot when it posts (staged).
  bool in_place_direct = false;
  // >= 0: no tasks run here; each member's part is handed to this MPI
  // non-blocking collective (upc::coll::mpi_op) on the mpi backend
  // (mpi_handoff.hpp): task r stands for member r's part, done when MPI is.
  int mpi_op = -1;
};

// The decompositions of each collective (movement.cpp, reductions.cpp).
namespace decompositions {
// One task per member (the count of most decompositions).
inline int per_member(const operation& op) { return op.t->size(); }
extern const decomposition barrier;
extern const decomposition bcast_pull, scatter_pull, scatterv_pull, gather_push, gatherv_push;
extern const decomposition allgather_by_destination, allgatherv_by_destination;
extern const decomposition alltoall_by_destination, alltoallv_by_destination;
extern const decomposition reduce_chunked, allreduce_redundant, allreduce_chunked, reduce_scatter_by_block;
extern const decomposition scan_chunked, scan_inclusive_chunked;
extern const decomposition bcast_mpi, scatter_mpi, gather_mpi, allgather_mpi, alltoall_mpi;
extern const decomposition scatterv_mpi, gatherv_mpi, allgatherv_mpi, alltoallv_mpi;
}  // namespace decompositions

inline const post& post_of(const operation& op, int rank) { return op.t->post_of(rank, op.seq); }

// v-variants stage their counts and displacements (in bytes) as meta:
// [counts[P], displacements[P]] (alltoallv: send counts, send displacements,
// receive counts, receive displacements).
inline std::uint64_t meta(const post& p, int which, int rank, int size) {
  return p.meta[static_cast<std::size_t>(which) * static_cast<std::size_t>(size) + static_cast<std::size_t>(rank)];
}

}  // namespace upc::coll::tasks
