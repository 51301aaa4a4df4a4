// Multicore-aware gather (seed 001, Figure 4; lib/coll/common/node_groups.hpp):
// each node's blocks are collected in its node root's scratch within the
// node, and the root copies each node's collection into dst in one step
// between nodes (one copy when the node's ranks are consecutive). Within a
// node the threads push (each writes its own block), as the flat gather
// measured fastest on one node (push 1.0-4.4 x ahead of pull in
// docs/benchmarks.md); on the root's node they write straight into dst, as
// flat push does, so on one node this is the flat push.
//
//   2 nodes, root 0:   node 0 {0,1,2,3}           node 1 {4,5,6,7}
//   step 1 (within):   1-3 write their blocks     4-7 write theirs into 4's scratch
//                      into dst
//   step 2 (between):  0 copies 4's scratch into dst
//
// Steps: 2. Bytes moved: T × nbytes, plus other nodes' blocks once more; between
// nodes the same bytes as flat gather, in N - 1 copies. Scratch: the largest
// node's blocks per node root. Synchronisation: a node root publishes stage 0
// when its scratch may be written (it has entered the call), its threads
// stage 1 once their block is in, and it stage 2 once all are; the root acks
// it unless OUT_ALLSYNC. Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "../common/touch.hpp"
#include "../common/rooted_pieces.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_multicore(const request& rq, team& t, plan& p) {
  const int root = rq.root;
  const node_pieces shape{rq, t};
  const auto& [me, n, g, my_node, my_root] = shape;
  p.stages = 3;
  auto block_of = [&](int rank) { return rq.src.block_of(t.thread_of(rank)); };
  auto piece = [&](int rank) { return rq.dst.piece(rank, t.thread_of(rank), n); };

  if (g.on_op_root_node(me)) {  // flat push into dst
    p.copy(piece(me), block_of(me), n);
    touch_one(p.touches, root, me);
    if (me != root) return;
    for (int r : g.ranks_on(my_node))
      if (r != me) p.touchers.push_back(r);
    for (int k = 0; k < g.count(); ++k) {  // each other node's collection, one step between nodes
      if (k == my_node) continue;
      const int nr = g.root_of(k);
      const std::vector<int>& mates = g.ranks_on(k);
      std::vector<char*> to;
      std::vector<const char*> from;
      for (std::size_t i = 0; i < mates.size(); ++i) {
        to.push_back(piece(mates[i]));
        from.push_back(t.scratch(nr) + i * n);
      }
      p.wait_ready(nr, 2);
      copy_pieces(p, to, from, n);
      if (readers_must_ack(rq.flags, false)) p.ack(nr);
    }
    return;
  }
  char* const slot = t.scratch(my_root) + static_cast<std::size_t>(g.slot_of(me)) * n;
  if (me == my_root) {  // my scratch is free: my node's threads may write into it
    p.publish_ready(0);
    p.copy(slot, block_of(me), n);
    for (int r : g.ranks_on(my_node))
      if (r != me) p.wait_ready(r, 1);
    p.publish_ready(2);
    if (readers_must_ack(rq.flags, false)) {
      p.ack_from = {root};
      p.wait_acks();
    }
    return;
  }
  p.wait_ready(my_root, 0);
  p.copy(slot, block_of(me), n);
  p.publish_ready(1);
}

}  // namespace upc::coll::algo
