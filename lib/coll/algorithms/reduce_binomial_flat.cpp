// Binomial-flat-tree reduction (seed 003 §3.3; node roots from
// lib/coll/common/node_groups.hpp), with the determinism contract of
// reduce_flat.cpp: every rank folds its own elements into its partial(s);
// within a node its root collects the node's partials as an ordered list (flat);
// between nodes the lists climb a binomial tree over the node roots, each
// node root appending its children's lists to its own, and the root folds
// every partial in rank order (block order for UPC_NONCOMM_FUNC). Partials
// travel, they are never combined on the way: the flat result, bit for bit.
//
// Steps: one within, ⌈log2 N⌉ levels between nodes, the fold. Bytes between
// nodes: Σ depth(k)·|k|·S, one copy per tree edge. Scratch: T partials (the
// root's end). Synchronisation: one ready flag per rank; the reader of a
// scratch acks it unless OUT_ALLSYNC. Restrictions: none.
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "../common/reduction_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void reduce_binomial_flat(const request& rq, team& t, plan& p) {
  const member_partials shape = member_partials::of_reduce(rq, t, p);
  const auto& [me, T, E, a, by_block, S] = shape;
  const int root = rq.root;
  const node_groups g{t, root};
  t.ensure_scratch(static_cast<std::size_t>(T) * S + 64);
  const bool acks = readers_must_ack(rq.flags, false);
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  const node_tree tree{g, g.node_of(root)};
  const binomial_tree& nodes = tree.nodes;
  const int v = nodes.relative(my_node);

  plan_partials(p, a, t.thread_of(me), t.scratch(me), by_block);

  if (me != my_root) {  // my partial is read by my node's root (the root on its node)
    hand_partials_to(p, my_root, acks);
    return;
  }
  // my scratch: my node's list (not at the root), then my children's lists
  partial_lists lists{t};
  const std::vector<int>& mates = g.ranks_on(my_node);
  if (v == 0) lists.node_in_place(p, t, mates, S);  // the root folds them in place
  else lists.copy_node(p, t, mates, S, acks);
  for (int c : nodes.children(v)) lists.take(p, t, g.root_of(nodes.absolute(c)), tree.ranks_in(c, nodes.subtree(c)), S, acks);
  if (v != 0) {
    hand_partials_to(p, g.root_of(nodes.absolute(nodes.parent(v))), acks);
    return;
  }
  fold_partials(p, rq, t, by_block, lists.at);
  if (acks)
    for (int r : mates)
      if (r != me) p.ack(r);
}

}  // namespace upc::coll::algo
