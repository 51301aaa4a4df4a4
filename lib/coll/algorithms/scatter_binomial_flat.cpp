// Binomial-flat-tree scatter (seed 003 §3.3, Figure 3.10's pattern; node
// roots from lib/coll/common/node_groups.hpp): between nodes a binomial tree
// over the nodes, rooted at the root's node — a node root receives, in its
// scratch, the pieces of every node of its subtree (node by node, each node's
// ranks in node order) and passes each child node root its subtree's run;
// within every node the flat algorithm: each thread copies its own piece from
// its node root's scratch (on the root's node, from src).
//
//   4 nodes, root on node 0: node 0 ─┬─▶ node 1 (pieces of node 1)
//                                     └─▶ node 2 (pieces of nodes 2 and 3) ──▶ node 3
//
// Steps: ⌈log2 N⌉ levels between nodes, one within. Bytes between nodes: a
// node's pieces cross once per level of its depth (Σ depth(k)·|k|·n, against
// flat's one crossing), in N−1 copies per level's worth of runs; the root's src
// is read by ⌈log2 N⌉ node roots instead of N−1: the thesis's choice for many
// nodes. Scratch: the pieces of the largest subtree below the root's node.
// Synchronisation: one ready flag per node root; readers of src ack the root
// (user data), readers of a scratch its owner, unless OUT_ALLSYNC.
// Restrictions: none; on one node it is flat pull.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void scatter_binomial_flat(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const std::size_t n = rq.nbytes;
  const node_groups g{t, root};
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  const node_tree tree{g, g.node_of(root)};
  const binomial_tree& nodes = tree.nodes;
  auto piece = [&](int rank) { return rq.src.piece(rank, t.thread_of(rank), n); };
  char* const mine = rq.dst.block_of(t.thread_of(me));
  auto pieces_in = [&](int from, int count) { return tree.pieces_in(from, count); };
  t.ensure_scratch(tree.largest_subtree() * n);
  const bool src_acks = readers_must_ack(rq.flags, true), scratch_acks = readers_must_ack(rq.flags, false);
  const int v = nodes.relative(my_node);

  if (v == 0) {  // the root's node: flat pull from src; the root also serves its child node roots
    if (me == root) {
      p.publish_ready();  // src is ready on entry
      p.copy(mine, piece(me), n);
      for (int r : g.ranks_on(my_node))
        if (r != me) p.touchers.push_back(r);
      for (int c : nodes.children(0)) p.touchers.push_back(g.root_of(nodes.absolute(c)));
      if (src_acks && !p.touchers.empty()) {
        p.ack_from = p.touchers;
        p.wait_acks();
      }
    } else {
      p.wait_ready(root);
      p.copy(mine, piece(me), n);
      if (src_acks) p.ack(root);
      p.touches.push_back(root);
    }
    return;
  }
  if (me == my_root) {
    // 1. my subtree's pieces, from src (my parent is the root's node) or my parent's scratch
    const int pv = nodes.parent(v), parent = g.root_of(nodes.absolute(pv));
    p.wait_ready(parent);
    if (pv == 0) {
      std::vector<char*> to;
      std::vector<const char*> from;
      std::size_t at = 0;
      for (int r : tree.ranks_in(v, nodes.subtree(v))) {
        to.push_back(t.scratch(me) + at);
        from.push_back(piece(r));
        at += n;
      }
      copy_pieces(p, to, from, n);
      if (src_acks) p.ack(parent);
    } else {
      // my run inside my parent's subtree: after the nodes [pv, v)
      p.copy(t.scratch(me), t.scratch(parent) + pieces_in(pv, v - pv) * n, pieces_in(v, nodes.subtree(v)) * n);
      if (scratch_acks) p.ack(parent);
    }
    p.touches.push_back(parent);
    p.publish_ready();
  } else {
    p.wait_ready(my_root);
  }
  // 2. my own piece, from my node root's scratch (my node is first in its subtree's run)
  p.copy(mine, t.scratch(my_root) + static_cast<std::size_t>(g.slot_of(me)) * n, n);
  if (me != my_root) {
    if (scratch_acks) p.ack(my_root);
    return;
  }
  std::vector<int> readers;
  for (int r : g.ranks_on(my_node))
    if (r != me) readers.push_back(r);
  for (int c : nodes.children(v)) readers.push_back(g.root_of(nodes.absolute(c)));
  if (scratch_acks && !readers.empty()) {
    p.ack_from = readers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
