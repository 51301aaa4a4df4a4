// Data-movement collectives as tasks. Rooted ones have one task per member
// (the root's block to or from that member), so a member's part is over as soon
// as its own task is; the all-to-all ones have one task per destination, which
// fills that member's receive buffer from everyone's send buffer. A sender's
// and a receiver's byte counts that disagree fail the collective (bad_count)
// on every member.
#include "decomposition.hpp"

namespace upc::coll::tasks::decompositions {

namespace {

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

// Member k's block in post b's buffer, of `each` bytes per member, or (v) of
// the size and displacement b's meta gives k (counts at `counts`, the
// displacements after them).
struct block {
  std::uint64_t bytes, offset;
};
block block_of(const operation& op, const post& b, std::uint64_t each, bool v, int k, int counts = 0) {
  if (!v) return {each, std::uint64_t(k) * each};
  const int P = op.t->size();
  return {meta(b, counts, k, P), meta(b, counts + 1, k, P)};
}

// scatter(v) and gather(v): member t's block of the root's buffer (scatter:
// its send buffer, gather: its receive buffer) and t's own buffer, copied
// toward t (scatter) or toward the root (gather).
template <bool gather, bool v>
status rooted_plan(const operation& op, int t, plan& p) {
  const post& root = post_of(op, op.root);
  const post& me = post_of(op, t);
  const std::uint64_t mine = gather ? me.send_bytes : me.recv_bytes;
  const block b = block_of(op, root, gather ? root.recv_bytes : root.send_bytes, v, t);
  if (b.bytes != mine) return status::bad_count;
  if (gather) p.copy(root.recv + b.offset, me.send, mine);
  else p.copy(me.recv, root.send + b.offset, mine);
  return status::ok;
}

// allgather(v): every member's send buffer into its block of t's receive buffer.
template <bool v>
status allgather_plan(const operation& op, int t, plan& p) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s)
    if (post_of(op, s).send_bytes != block_of(op, me, me.recv_bytes, v, s).bytes) return status::bad_count;
  for (int s = 0; s < P; ++s) {
    const block b = block_of(op, me, me.recv_bytes, v, s);
    p.copy(me.recv + b.offset, post_of(op, s).send, b.bytes);
  }
  return status::ok;
}

// alltoall(v): member s's block for t into t's block from s (alltoallv's meta:
// send counts and displacements, then receive counts and displacements).
template <bool v>
status alltoall_plan(const operation& op, int t, plan& p) {
  const post& me = post_of(op, t);
  const int P = op.t->size();
  for (int s = 0; s < P; ++s) {
    const post& from = post_of(op, s);
    if (block_of(op, from, from.send_bytes, v, t).bytes != block_of(op, me, me.recv_bytes, v, s, 2).bytes) return status::bad_count;
  }
  for (int s = 0; s < P; ++s) {
    const post& from = post_of(op, s);
    const block mine = block_of(op, me, me.recv_bytes, v, s, 2);
    p.copy(me.recv + mine.offset, from.send + block_of(op, from, from.send_bytes, v, t).offset, mine.bytes);
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
const decomposition scatter_pull{"pull", per_member, root_and_task, is_task, is_root, rooted_plan<false, false>, true};
const decomposition scatterv_pull{"pull", per_member, root_and_task, is_task, is_root, rooted_plan<false, true>, true};
const decomposition gather_push{"push", per_member, root_and_task, is_root, is_task, rooted_plan<true, false>, true};
const decomposition gatherv_push{"push", per_member, root_and_task, is_root, is_task, rooted_plan<true, true>, true};
const decomposition allgather_by_destination{"by_destination", per_member, everyone, is_task, nullptr, allgather_plan<false>, true};
const decomposition allgatherv_by_destination{"by_destination", per_member, everyone, is_task, nullptr, allgather_plan<true>,
                                              true};
const decomposition alltoall_by_destination{"by_destination", per_member, everyone, is_task, nullptr, alltoall_plan<false>, false};
const decomposition alltoallv_by_destination{"by_destination", per_member, everyone, is_task, nullptr, alltoall_plan<true>,
                                             false};

}  // namespace upc::coll::tasks::decompositions
