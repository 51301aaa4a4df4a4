// Multicore-aware reduction (seed 001; lib/coll/common/node_groups.hpp), with
// the determinism contract of reduce_flat.cpp (bitwise the same result for
// every algorithm): every rank folds its own elements into its partial(s), as
// reduce_flat does; each other node's root collects its node's partials as an
// ordered list (within the node) and the root copies each list in one copy
// (between nodes), then folds all partials in rank order (block order for
// UPC_NONCOMM_FUNC) — partials travel, they are never combined on the way.
//
//   2 nodes {0,1,2,3} {4,5,6,7}, root 0
//   step 1 (within):  4 copies the partials of 5, 6, 7 next to its own
//   step 2 (between): 0 copies 4's list [p4 p5 p6 p7]
//   step 3:           0 folds p0 … p7 in rank order (p1-p3 read in place)
//
// Bytes between nodes: one list of |K| partials per other node, in N−1 copies
// (flat: one partial per rank off the root's node). Scratch: T partials at
// the root's end (every rank reserves the same). Synchronisation: one ready
// flag per rank; readers of a scratch ack it unless OUT_ALLSYNC.
// Restrictions: none.
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "../common/reduction_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void reduce_multicore(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const node_groups g{t, root};
  const blocked_array& a = rq.in;
  const std::size_t E = rq.red.size;
  const bool by_block = partials_by_block(a, rq.red);
  const std::size_t S = E * static_cast<std::size_t>(slots_per_member(a, by_block));  // one rank's partials
  t.ensure_scratch(static_cast<std::size_t>(t.size()) * S + 64);
  const bool acks = readers_must_ack(rq.flags, false);
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  p.op = rq.red;

  // 1. My partial(s) into slot 0 of my scratch.
  plan_partials(p, a, t.thread_of(me), t.scratch(me), by_block);

  if (me != root && me != my_root) {  // a rank whose partials someone reads
    p.publish_ready();
    if (acks) {
      p.ack_from.push_back(g.on_op_root_node(me) ? root : my_root);
      p.wait_acks();
    }
    return;
  }
  if (me != root) {  // another node's root: its node's list, in node order, next to its own
    const std::vector<int>& mates = g.ranks_on(my_node);
    for (std::size_t i = 1; i < mates.size(); ++i) {
      p.wait_ready(mates[i]);
      p.copy(t.scratch(me) + i * S, t.scratch(mates[i]), S);
      if (acks) p.ack(mates[i]);
    }
    p.publish_ready();
    if (acks) {
      p.ack_from.push_back(root);
      p.wait_acks();
    }
    return;
  }
  // 2. The root: its node's partials in place; every other node's list into
  // its scratch, at the list's place by node (after its own slot).
  std::vector<const char*> at(static_cast<std::size_t>(t.size()), nullptr);
  for (int r : g.ranks_on(my_node)) {
    if (r != me) p.wait_ready(r);
    at[static_cast<std::size_t>(r)] = t.scratch(r);
  }
  std::size_t used = S;
  for (int k = 0; k < g.count(); ++k) {
    if (k == my_node) continue;
    const int nr = g.root_of(k);
    const std::vector<int>& ranks = g.ranks_on(k);
    p.wait_ready(nr);
    p.copy(t.scratch(me) + used, t.scratch(nr), ranks.size() * S);
    if (acks) p.ack(nr);
    for (std::size_t i = 0; i < ranks.size(); ++i) at[static_cast<std::size_t>(ranks[i])] = t.scratch(me) + used + i * S;
    used += ranks.size() * S;
  }
  // 3. The fold, in the order of the contract.
  std::size_t count = 0;
  const auto table = partial_table(a, t, by_block, [&](int rank) { return at[static_cast<std::size_t>(rank)]; }, count);
  p.fold_interleaved(raw(rq.result), table, count, static_cast<std::ptrdiff_t>(E));
  if (acks)
    for (int r : g.ranks_on(my_node))
      if (r != me) p.ack(r);
}

}  // namespace upc::coll::algo
