// Data-movement collectives as tasks. Rooted ones have one task per member
// (the root's block to or from that member), so a member's part is over as soon
// as its own task is; the all-to-all ones have one task per destination, which
// fills that member's receive buffer from everyone's send buffer.
// A sender's and a receiver's byte counts that disagree fail the collective with
// UPCCOLL_ERROR_COUNT on every member.
#include <cstring>

#include "decomposition.hpp"
#include "upccoll.h"

namespace upc::coll::coop::decompositions {

namespace {

// dst == src is an in-place member's own block (gather's and allgather's
// sender, scatter's and bcast's root): already where it belongs.
void copy(char* dst, const char* src, std::uint64_t n) {
  if (n && dst != src) std::memcpy(dst, src, n);
}

int per_member(const operation& op) { return op.t->size(); }
bool rooted_touches(const operation& op, int task, int rank) { return rank == op.root || task == rank; }
task_needs root_and_task(const operation& op, int task) { return {op.root, task, false, 0, 0}; }
task_needs everyone(const operation&, int) { return {-1, -1, true, 0, 0}; }
int no_tasks(const operation&) { return 0; }

// v-variants stage their counts and displacements (in bytes) as meta:
// [counts[P], displacements[P]] (alltoallv: send counts, send displacements,
// receive counts, receive displacements).
std::uint64_t meta(const post& p, int which, int rank, int size) { return p.meta[std::size_t(which) * size + rank]; }

int bcast_run(const operation& op, int t) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  if (root.send_bytes != me.recv_bytes) return UPCCOLL_ERROR_COUNT;
  copy(me.recv, root.send, me.recv_bytes);
  return 0;
}

int scatter_run(const operation& op, int t) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  if (root.send_bytes != me.recv_bytes) return UPCCOLL_ERROR_COUNT;
  copy(me.recv, root.send + std::uint64_t(t) * root.send_bytes, me.recv_bytes);
  return 0;
}

int scatterv_run(const operation& op, int t) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  const int P = op.t->size();
  if (meta(root, 0, t, P) != me.recv_bytes) return UPCCOLL_ERROR_COUNT;
  copy(me.recv, root.send + meta(root, 1, t, P), me.recv_bytes);
  return 0;
}

int gather_run(const operation& op, int t) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  if (root.recv_bytes != me.send_bytes) return UPCCOLL_ERROR_COUNT;
  copy(root.recv + std::uint64_t(t) * root.recv_bytes, me.send, me.send_bytes);
  return 0;
}

int gatherv_run(const operation& op, int t) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  const int P = op.t->size();
  if (meta(root, 0, t, P) != me.send_bytes) return UPCCOLL_ERROR_COUNT;
  copy(root.recv + meta(root, 1, t, P), me.send, me.send_bytes);
  return 0;
}

int allgather_run(const operation& op, int t) {
  const post& me = post_of(op, t);
  for (int s = 0; s < op.t->size(); ++s) {
    const post& from = post_of(op, s);
    if (from.send_bytes != me.recv_bytes) return UPCCOLL_ERROR_COUNT;
  }
  for (int s = 0; s < op.t->size(); ++s) copy(me.recv + std::uint64_t(s) * me.recv_bytes, post_of(op, s).send, me.recv_bytes);
  return 0;
}

int allgatherv_run(const operation& op, int t) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (post_of(op, s).send_bytes != meta(me, 0, s, P)) return UPCCOLL_ERROR_COUNT;
  for (int s = 0; s < P; ++s) copy(me.recv + meta(me, 1, s, P), post_of(op, s).send, meta(me, 0, s, P));
  return 0;
}

int alltoall_run(const operation& op, int t) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (post_of(op, s).send_bytes != me.recv_bytes) return UPCCOLL_ERROR_COUNT;
  for (int s = 0; s < P; ++s) {
    const post& from = post_of(op, s);
    copy(me.recv + std::uint64_t(s) * me.recv_bytes, from.send + std::uint64_t(t) * from.send_bytes, me.recv_bytes);
  }
  return 0;
}

int alltoallv_run(const operation& op, int t) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (meta(post_of(op, s), 0, t, P) != meta(me, 2, s, P)) return UPCCOLL_ERROR_COUNT;
  for (int s = 0; s < P; ++s) {
    const post& from = post_of(op, s);
    copy(me.recv + meta(me, 3, s, P), from.send + meta(from, 1, t, P), meta(me, 2, s, P));
  }
  return 0;
}

}  // namespace

// A barrier has no tasks: each member is done once every member has posted.
const decomposition barrier{"posts", no_tasks, everyone, nullptr, nullptr};

// In place, the rooted ones and allgather(v) only skip the member's own block
// (copy() above); alltoall(v) would overwrite blocks other tasks still read, so
// the engine stages its input.
const decomposition bcast_pull{"pull", per_member, root_and_task, rooted_touches, bcast_run, true};
const decomposition scatter_pull{"pull", per_member, root_and_task, rooted_touches, scatter_run, true};
const decomposition scatterv_pull{"pull", per_member, root_and_task, rooted_touches, scatterv_run, true};
const decomposition gather_push{"push", per_member, root_and_task, rooted_touches, gather_run, true};
const decomposition gatherv_push{"push", per_member, root_and_task, rooted_touches, gatherv_run, true};
const decomposition allgather_by_destination{"by_destination", per_member, everyone, nullptr, allgather_run, true};
const decomposition allgatherv_by_destination{"by_destination", per_member, everyone, nullptr, allgatherv_run, true};
const decomposition alltoall_by_destination{"by_destination", per_member, everyone, nullptr, alltoall_run, false};
const decomposition alltoallv_by_destination{"by_destination", per_member, everyone, nullptr, alltoallv_run, false};

}  // namespace upc::coll::coop::decompositions
