// Multicore-aware broadcast (seed 001, Figure 3; lib/coll/common/node_groups.hpp):
// a root per node does the node's copy between nodes, the node's other
// threads copy from it within the node.
//
//   2 nodes, root 0:   node 0 {0,1,2,3}          node 1 {4,5,6,7}
//   step 1 (between):                            4 copies src into its dst block
//   step 2 (within):   1, 2, 3 copy from src     5, 6, 7 copy from 4's dst block
//
// A node root's block is published in segments (UPCEMU_COLL_SEGMENT), so its
// node's threads copy segment k while it receives k + 1.
//
// Steps: 2 on the critical path. Bytes moved: T × nbytes in T copies, of which
// (N - 1) × nbytes between nodes, one copy per other node (flat pull: one per
// thread off the root's node). Fan-in: the root's src is read by its node's
// threads and the N - 1 other node roots, a node root's block by its node's
// threads. Synchronisation: the root and each other node root publish a ready
// flag; readers ack unless OUT_ALLSYNC (every buffer read is user data).
// Restrictions: none; on one node it is flat pull.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/chunk_flows.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void broadcast_multicore(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const std::size_t n = rq.nbytes, S = segment_bytes();
  const node_groups g{t, root};
  const bool acks = readers_must_ack(rq.flags, true);
  auto block_of = [&](int rank) { return rq.dst.block_of(t.thread_of(rank)); };
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  p.stages = 1 + static_cast<int>(segments_of(n, S));

  if (me == root) {
    p.publish_ready(0);  // src is ready on entry
    p.copy(block_of(me), rq.src.area(), n);
    for (int r : g.ranks_on(my_node))
      if (r != me) p.touchers.push_back(r);
    for (int k = 0; k < g.count(); ++k)
      if (k != my_node) p.touchers.push_back(g.root_of(k));
  } else if (me == my_root) {  // a node root off the root's node: the copy between nodes, segment by segment
    for (int r : g.ranks_on(my_node))
      if (r != me) p.touchers.push_back(r);
    copy_in_segments(p, block_of(me), rq.src.area(), n, S, root, true, !p.touchers.empty());
    if (acks) p.ack(root);
    p.touches.push_back(root);
  } else {  // within the node: from src on the root's node, else from the node root's block as it arrives
    const bool from_src = g.on_op_root_node(me);
    const int from = from_src ? root : my_root;
    copy_in_segments(p, block_of(me), from_src ? rq.src.area() : block_of(my_root), n, S, from, from_src, false);
    if (acks) p.ack(from);
    p.touches.push_back(from);
  }
  if (acks && !p.touchers.empty()) {
    p.ack_from = p.touchers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
