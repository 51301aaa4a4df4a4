// Multicore-aware gather (seed 001, Figure 4; lib/coll/common/node_groups.hpp):
// each node root collects its node's blocks into its scratch within the node,
// and the root copies each node's collection into dst in one step between
// nodes (one copy when the node's ranks are consecutive). On the root's node
// the root copies the blocks itself, as flat pull does.
//
//   2 nodes, root 0:   node 0 {0,1,2,3}           node 1 {4,5,6,7}
//   step 1 (within):                              4 copies blocks 4-7 to its scratch
//   step 2 (between):  0 copies blocks 0-3,       ... and 4's scratch into dst
//
// Steps: 2. Bytes moved: T × nbytes, plus other nodes' blocks once more; between
// nodes the same bytes as flat gather, in N - 1 copies. Scratch: the largest
// node's blocks per node root. Synchronisation: each other node root publishes
// a ready flag; the root acks it unless OUT_ALLSYNC. Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_multicore(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const std::size_t n = rq.nbytes;
  const node_groups g{t, root};
  t.ensure_scratch(g.largest_other_node() * n);
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  auto block_of = [&](int rank) { return rq.src.block_of(t.thread_of(rank)); };
  auto piece = [&](int rank) { return rq.dst.piece(rank, t.thread_of(rank), n); };

  if (me == root) {
    for (int r : g.ranks_on(my_node)) {
      p.copy(piece(r), block_of(r), n);
      if (r != me) p.touches.push_back(r);
    }
    for (int k = 0; k < g.count(); ++k) {
      if (k == my_node) continue;
      const int nr = g.root_of(k);
      const std::vector<int>& mates = g.ranks_on(k);
      std::vector<char*> to;
      std::vector<const char*> from;
      for (std::size_t i = 0; i < mates.size(); ++i) {
        to.push_back(piece(mates[i]));
        from.push_back(t.scratch(nr) + i * n);
      }
      p.wait_ready(nr);
      copy_pieces(p, to, from, n);
      if (readers_must_ack(rq.flags, false)) p.ack(nr);
    }
  } else if (g.on_op_root_node(me)) {
    p.touchers.push_back(root);  // the root reads my block
  } else if (me == my_root) {  // my node's blocks into my scratch, within the node
    const std::vector<int>& mates = g.ranks_on(my_node);
    std::vector<char*> to;
    std::vector<const char*> from;
    for (std::size_t i = 0; i < mates.size(); ++i) {
      to.push_back(t.scratch(me) + i * n);
      from.push_back(block_of(mates[i]));
      if (mates[i] != me) p.touches.push_back(mates[i]);
    }
    copy_pieces(p, to, from, n);
    p.publish_ready();
    if (readers_must_ack(rq.flags, false)) {
      p.ack_from = {root};
      p.wait_acks();
    }
  } else {
    p.touchers.push_back(my_root);  // my node root reads my block
  }
}

}  // namespace upc::coll::algo
