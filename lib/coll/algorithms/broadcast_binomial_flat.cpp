// Binomial-flat-tree broadcast (seed 003 §3.3, Figure 3.10's pattern; node
// roots from lib/coll/common/node_groups.hpp): the copies between nodes follow
// a binomial tree over the nodes, rooted at the root's node, from node root to
// node root; within every node the flat algorithm: each other thread copies
// from its node root's block.
//
//   4 nodes, root on node 0 (node-relative numbering as in binomial_tree.hpp)
//   between nodes:  node 0 ─┬─▶ node 1            level 1: 1 and 2 copy from the root
//                           └─▶ node 2 ──▶ node 3  level 2: 3 copies from node 2's root
//   within nodes:   every other thread copies its node root's dst block
//
// Node roots forward in segments (UPCEMU_COLL_SEGMENT, seed 003 §3.3): a
// child node root copies segment k while its parent receives k + 1, so a
// large broadcast costs about depth + segments transfers, not depth × whole.
//
// Steps: ceil(log2 N) levels between nodes, then one within. Bytes between
// nodes: (N−1)·n, as multicore, but no node root is read by more than
// ceil(log2 N) others (multicore: the root's src by all N−1 node roots): the
// tree the thesis chooses when the nodes are many. Synchronisation: one ready
// flag per node root; readers ack unless OUT_ALLSYNC (user data).
// Restrictions: none; on one node it is flat pull.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/chunk_flows.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void broadcast_binomial_flat(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const std::size_t n = rq.nbytes, S = segment_bytes();
  const node_groups g{t, root};
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  // the nodes renumbered with the root's first: node index k ↔ relative position
  const binomial_tree nodes{g.count(), g.node_of(root)};
  const bool acks = readers_must_ack(rq.flags, true);
  auto block_of = [&](int rank) { return rq.dst.block_of(t.thread_of(rank)); };
  // where a rank reads from: the root's src, or a node root's dst block
  auto source_of = [&](int rank) -> const char* { return rank == root ? rq.src.area() : block_of(rank); };
  p.stages = 1 + static_cast<int>(segments_of(n, S));

  if (me == my_root) {
    const int v = nodes.relative(my_node);
    if (v == 0) {
      p.publish_ready(0);  // src is ready on entry
      p.copy(block_of(me), rq.src.area(), n);
    } else {  // from my parent node's root, segment by segment, passing each on
      const int parent = g.root_of(nodes.absolute(nodes.parent(v)));
      copy_in_segments(p, block_of(me), source_of(parent), n, S, parent, parent == root, true);
      if (acks) p.ack(parent);
      p.touches.push_back(parent);
    }
    for (int c : nodes.children(v)) p.touchers.push_back(g.root_of(nodes.absolute(c)));
    for (int r : g.ranks_on(my_node))
      if (r != me) p.touchers.push_back(r);
    if (acks && !p.touchers.empty()) {
      p.ack_from = p.touchers;
      p.wait_acks();
    }
    return;
  }
  copy_in_segments(p, block_of(me), source_of(my_root), n, S, my_root, my_root == root, false);
  if (acks) p.ack(my_root);
  p.touches.push_back(my_root);
}

}  // namespace upc::coll::algo
