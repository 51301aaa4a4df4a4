// Binomial-flat-tree gather (seed 003 §3.3; node roots from
// lib/coll/common/node_groups.hpp), the scatter's mirror: within every node the
// flat algorithm (the node root copies its node's blocks into its scratch; on
// the root's node the root copies them straight into dst); between nodes a
// binomial tree over the nodes, rooted at the root's node: a node root appends
// each child node root's run (the blocks of the child's node-subtree) to its
// scratch, and the root copies its children's runs into dst.
//
// Steps: one within, ⌈log2 N⌉ levels between nodes. Bytes between nodes:
// Σ depth(k)·|k|·n, one copy per tree edge; no node root is read by more than
// ⌈log2 N⌉ others. Scratch: the blocks of the largest subtree below the root's
// node. Synchronisation: one ready flag per node root; the reader of a
// scratch acks it unless OUT_ALLSYNC. Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_binomial_flat(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const std::size_t n = rq.nbytes;
  const node_groups g{t, root};
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  const node_tree tree{g, g.node_of(root)};
  const binomial_tree& nodes = tree.nodes;
  auto block_of = [&](int rank) { return rq.src.block_of(t.thread_of(rank)); };
  auto piece = [&](int rank) { return rq.dst.piece(rank, t.thread_of(rank), n); };
  auto pieces_in = [&](int from, int count) { return tree.pieces_in(from, count); };
  t.ensure_scratch(tree.largest_subtree() * n);
  const bool acks = readers_must_ack(rq.flags, false);
  const int v = nodes.relative(my_node);

  if (me != my_root) {  // my block is read by my node's root (the root on its own node)
    p.touchers.push_back(my_root);
    return;
  }
  // within my node: its blocks, to dst (the root) or to the start of my scratch
  for (int r : g.ranks_on(my_node)) {
    if (r != me) p.touches.push_back(r);
  }
  {
    std::vector<char*> to;
    std::vector<const char*> from;
    std::size_t at = 0;
    for (int r : g.ranks_on(my_node)) {
      to.push_back(v == 0 ? piece(r) : t.scratch(me) + at);
      from.push_back(block_of(r));
      at += n;
    }
    copy_pieces(p, to, from, n);
  }
  // between nodes: each child's run after my node's blocks (the root: into dst)
  for (int c : nodes.children(v)) {
    const int child = g.root_of(nodes.absolute(c));
    p.wait_ready(child);
    const std::size_t count = pieces_in(c, nodes.subtree(c));
    if (v == 0) {
      std::vector<char*> to;
      std::vector<const char*> from;
      std::size_t at = 0;
      for (int r : tree.ranks_in(c, nodes.subtree(c))) {
        to.push_back(piece(r));
        from.push_back(t.scratch(child) + at);
        at += n;
      }
      copy_pieces(p, to, from, n);
    } else {
      p.copy(t.scratch(me) + pieces_in(v, c - v) * n, t.scratch(child), count * n);
    }
    if (acks) p.ack(child);
  }
  if (v == 0) return;
  p.publish_ready();
  if (acks) {
    p.ack_from = {g.root_of(nodes.absolute(nodes.parent(v)))};
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
