// Multicore-aware scatter (seed 001; lib/coll/common/node_groups.hpp): each
// node root copies its node's pieces out of the root's src in one step between
// nodes (one copy when the node's ranks are consecutive), into its scratch;
// the node's threads take their piece from there. On the root's node every
// thread copies its piece from src, as flat pull does.
//
//   2 nodes, root 0:   node 0 {0,1,2,3}           node 1 {4,5,6,7}
//   step 1 (between):                             4 copies pieces 4-7 to its scratch
//   step 2 (within):   0-3 copy their piece       4-7 copy theirs from 4's scratch
//
// Steps: 2. Bytes moved: T × nbytes, plus the pieces of other nodes once more
// (through their root's scratch); between nodes the same bytes as flat pull,
// in N - 1 copies instead of one per thread. Scratch: the largest node's pieces
// per node root. Synchronisation: the root and each other node root publish a
// ready flag; readers of src ack the root (user data) and readers of a scratch
// ack its node root unless OUT_ALLSYNC. Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "../common/rooted_pieces.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void scatter_multicore(const request& rq, team& t, plan& p) {
  const int root = rq.root;
  const node_pieces shape{rq, t};
  const auto& [me, n, g, my_node, my_root] = shape;
  char* const mine = rq.dst.block_of(t.thread_of(me));
  auto piece = [&](int rank) { return rq.src.piece(rank, t.thread_of(rank), n); };

  std::vector<int> scratch_readers;
  if (me == root) {
    p.publish_ready();  // src is ready on entry
    p.copy(mine, piece(me), n);
    for (int r : g.ranks_on(my_node))
      if (r != me) p.touchers.push_back(r);
    for (int k = 0; k < g.count(); ++k)
      if (k != my_node) p.touchers.push_back(g.root_of(k));
  } else if (g.on_op_root_node(me)) {
    p.wait_ready(root);
    p.copy(mine, piece(me), n);
    if (readers_must_ack(rq.flags, true)) p.ack(root);
    p.touches.push_back(root);
  } else if (me == my_root) {  // the node's pieces, between nodes, into my scratch
    p.wait_ready(root);
    std::vector<char*> to;
    std::vector<const char*> from;
    const std::vector<int>& mates = g.ranks_on(my_node);
    for (std::size_t i = 0; i < mates.size(); ++i) {
      to.push_back(t.scratch(me) + i * n);
      from.push_back(piece(mates[i]));
    }
    copy_pieces(p, to, from, n);
    if (readers_must_ack(rq.flags, true)) p.ack(root);
    p.touches.push_back(root);
    for (int r : mates)
      if (r != me) scratch_readers.push_back(r);
    if (!scratch_readers.empty()) p.publish_ready();
    p.copy(mine, t.scratch(me) + static_cast<std::size_t>(g.slot_of(me)) * n, n);
  } else {  // my piece from my node root's scratch
    p.wait_ready(my_root);
    p.copy(mine, t.scratch(my_root) + static_cast<std::size_t>(g.slot_of(me)) * n, n);
    if (readers_must_ack(rq.flags, false)) p.ack(my_root);
  }
  const bool is_root = me == root;
  if (is_root && readers_must_ack(rq.flags, true) && !p.touchers.empty()) {
    p.ack_from = p.touchers;
    p.wait_acks();
  }
  if (!scratch_readers.empty() && readers_must_ack(rq.flags, false)) {
    p.ack_from = scratch_readers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
