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
  const member_partials shape = member_partials::of_reduce(rq, t, p);
  const auto& [me, T, E, a, by_block, S] = shape;  // S: one rank's partials
  const int root = rq.root;
  const node_groups g{t, root};
  t.ensure_scratch(static_cast<std::size_t>(T) * S + 64);
  const bool acks = readers_must_ack(rq.flags, false);
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);

  // 1. My partial(s) into slot 0 of my scratch.
  plan_partials(p, a, t.thread_of(me), t.scratch(me), by_block);

  if (me != root && me != my_root) {  // a rank whose partials someone reads
    hand_partials_to(p, g.on_op_root_node(me) ? root : my_root, acks);
    return;
  }
  if (me != root) {  // another node's root: its node's list, in node order, next to its own
    partial_lists(t).copy_node(p, t, g.ranks_on(my_node), S, acks);
    hand_partials_to(p, root, acks);
    return;
  }
  // 2. The root: its node's partials in place; every other node's list into
  // its scratch, at the list's place by node (after its own slot).
  partial_lists lists{t};
  lists.node_in_place(p, t, g.ranks_on(my_node), S);
  for (int k = 0; k < g.count(); ++k)
    if (k != my_node) lists.take(p, t, g.root_of(k), g.ranks_on(k), S, acks);
  // 3. The fold, in the order of the contract.
  fold_partials(p, rq, t, by_block, lists.at);
  if (acks)
    for (int r : g.ranks_on(my_node))
      if (r != me) p.ack(r);
}

}  // namespace upc::coll::algo
