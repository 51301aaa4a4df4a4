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
// Steps: ceil(log2 N) levels between nodes, then one within. Bytes between
// nodes: (N−1)·n, as multicore, but no node root is read by more than
// ceil(log2 N) others (multicore: the root's src by all N−1 node roots): the
// tree the thesis chooses when the nodes are many. Synchronisation: one ready
// flag per node root; readers ack unless OUT_ALLSYNC (user data).
// Restrictions: none; on one node it is flat pull.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void broadcast_binomial_flat(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const std::size_t n = rq.nbytes;
  const node_groups g{t, root};
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  // the nodes renumbered with the root's first: node index k ↔ relative position
  const binomial_tree nodes{g.count(), g.node_of(root)};
  const bool acks = readers_must_ack(rq.flags, true);
  auto block_of = [&](int rank) { return rq.dst.block_of(t.thread_of(rank)); };
  // where a rank reads from: the root's src, or a node root's dst block
  auto source_of = [&](int rank) -> const char* { return rank == root ? rq.src.area() : block_of(rank); };

  if (me == my_root) {
    const int v = nodes.relative(my_node);
    if (v == 0) {
      p.publish_ready();  // src is ready on entry
      p.copy(block_of(me), rq.src.area(), n);
    } else {
      const int parent = g.root_of(nodes.absolute(nodes.parent(v)));
      p.wait_ready(parent);
      p.copy(block_of(me), source_of(parent), n);
      if (acks) p.ack(parent);
      p.touches.push_back(parent);
      p.publish_ready();
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
  p.wait_ready(my_root);
  p.copy(block_of(me), source_of(my_root), n);
  if (acks) p.ack(my_root);
  p.touches.push_back(my_root);
}

}  // namespace upc::coll::algo
