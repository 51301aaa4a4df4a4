// Data-movement collectives as tasks. Rooted ones have one task per member
// (the root's block to or from that member), so a member's part is over as soon
// as its own task is; the all-to-all ones have one task per destination, which
// fills that member's receive buffer from everyone's send buffer. A sender's
// and a receiver's byte counts that disagree fail the collective (bad_count)
// on every member.
#include "decomposition.hpp"

namespace upc::coll::tasks::decompositions {

namespace {

int per_member(const operation& op) { return op.t->size(); }
task_needs root_and_task(const operation& op, int task) { return {op.root, task, false, 0, 0}; }
task_needs everyone(const operation&, int) { return {-1, -1, true, 0, 0}; }
int no_tasks(const operation&) { return 0; }
bool is_task(const operation&, int task, int rank) { return task == rank; }
bool is_root(const operation& op, int, int rank) { return rank == op.root; }

status bcast_plan(const operation& op, int t, plan& p) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  if (root.send_bytes != me.recv_bytes) return status::bad_count;
  p.copy(me.recv, root.send, me.recv_bytes);
  return status::ok;
}

status scatter_plan(const operation& op, int t, plan& p) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  if (root.send_bytes != me.recv_bytes) return status::bad_count;
  p.copy(me.recv, root.send + std::uint64_t(t) * root.send_bytes, me.recv_bytes);
  return status::ok;
}

status scatterv_plan(const operation& op, int t, plan& p) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  const int P = op.t->size();
  if (meta(root, 0, t, P) != me.recv_bytes) return status::bad_count;
  p.copy(me.recv, root.send + meta(root, 1, t, P), me.recv_bytes);
  return status::ok;
}

status gather_plan(const operation& op, int t, plan& p) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  if (root.recv_bytes != me.send_bytes) return status::bad_count;
  p.copy(root.recv + std::uint64_t(t) * root.recv_bytes, me.send, me.send_bytes);
  return status::ok;
}

status gatherv_plan(const operation& op, int t, plan& p) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  const int P = op.t->size();
  if (meta(root, 0, t, P) != me.send_bytes) return status::bad_count;
  p.copy(root.recv + meta(root, 1, t, P), me.send, me.send_bytes);
  return status::ok;
}

status allgather_plan(const operation& op, int t, plan& p) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (post_of(op, s).send_bytes != me.recv_bytes) return status::bad_count;
  for (int s = 0; s < P; ++s) p.copy(me.recv + std::uint64_t(s) * me.recv_bytes, post_of(op, s).send, me.recv_bytes);
  return status::ok;
}

status allgatherv_plan(const operation& op, int t, plan& p) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (post_of(op, s).send_bytes != meta(me, 0, s, P)) return status::bad_count;
  for (int s = 0; s < P; ++s) p.copy(me.recv + meta(me, 1, s, P), post_of(op, s).send, meta(me, 0, s, P));
  return status::ok;
}

status alltoall_plan(const operation& op, int t, plan& p) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (post_of(op, s).send_bytes != me.recv_bytes) return status::bad_count;
  for (int s = 0; s < P; ++s) {
    const post& from = post_of(op, s);
    p.copy(me.recv + std::uint64_t(s) * me.recv_bytes, from.send + std::uint64_t(t) * from.send_bytes, me.recv_bytes);
  }
  return status::ok;
}

status alltoallv_plan(const operation& op, int t, plan& p) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (meta(post_of(op, s), 0, t, P) != meta(me, 2, s, P)) return status::bad_count;
  for (int s = 0; s < P; ++s) {
    const post& from = post_of(op, s);
    p.copy(me.recv + meta(me, 3, s, P), from.send + meta(from, 1, t, P), meta(me, 2, s, P));
  }
  return status::ok;
}

}  // namespace

// A barrier has no tasks: each member is done once every member has posted.
const decomposition barrier{"posts", no_tasks, everyone, nullptr, nullptr, nullptr, true};

// In place, the rooted ones and allgather(v) only skip the member's own block
// (plan::copy skips a copy onto itself); alltoall(v) would overwrite blocks
// other tasks still read, so an in-place member stages its input.
const decomposition bcast_pull{"pull", per_member, root_and_task, is_task, is_root, bcast_plan, true};
const decomposition scatter_pull{"pull", per_member, root_and_task, is_task, is_root, scatter_plan, true};
const decomposition scatterv_pull{"pull", per_member, root_and_task, is_task, is_root, scatterv_plan, true};
const decomposition gather_push{"push", per_member, root_and_task, is_root, is_task, gather_plan, true};
const decomposition gatherv_push{"push", per_member, root_and_task, is_root, is_task, gatherv_plan, true};
const decomposition allgather_by_destination{"by_destination", per_member, everyone, is_task, nullptr, allgather_plan, true};
const decomposition allgatherv_by_destination{"by_destination", per_member, everyone, is_task, nullptr, allgatherv_plan,
                                              true};
const decomposition alltoall_by_destination{"by_destination", per_member, everyone, is_task, nullptr, alltoall_plan, false};
const decomposition alltoallv_by_destination{"by_destination", per_member, everyone, is_task, nullptr, alltoallv_plan,
                                             false};

}  // namespace upc::coll::tasks::decompositions
