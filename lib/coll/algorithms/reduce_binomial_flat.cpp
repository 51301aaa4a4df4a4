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
  const int me = t.rank(), root = rq.root;
  const node_groups g{t, root};
  const blocked_array& a = rq.in;
  const std::size_t E = rq.red.size;
  const bool by_block = partials_by_block(a, rq.red);
  const std::size_t S = E * static_cast<std::size_t>(slots_per_member(a, by_block));
  t.ensure_scratch(static_cast<std::size_t>(t.size()) * S + 64);
  const bool acks = readers_must_ack(rq.flags, false);
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  const node_tree tree{g, g.node_of(root)};
  const binomial_tree& nodes = tree.nodes;
  const int v = nodes.relative(my_node);
  p.op = rq.red;

  plan_partials(p, a, t.thread_of(me), t.scratch(me), by_block);

  if (me != my_root) {  // my partial is read by my node's root (the root on its node)
    p.publish_ready();
    if (acks) {
      p.ack_from.push_back(my_root);
      p.wait_acks();
    }
    return;
  }
  std::vector<const char*> at(static_cast<std::size_t>(t.size()), nullptr);
  std::size_t used = 0;  // my scratch: my node's list (not at the root), then my children's lists
  const std::vector<int>& mates = g.ranks_on(my_node);
  for (std::size_t i = 0; i < mates.size(); ++i) {
    if (mates[i] != me) p.wait_ready(mates[i]);
    if (v == 0) {
      at[static_cast<std::size_t>(mates[i])] = t.scratch(mates[i]);  // the root folds them in place
    } else if (mates[i] != me) {
      p.copy(t.scratch(me) + i * S, t.scratch(mates[i]), S);
      if (acks) p.ack(mates[i]);
    }
  }
  if (v == 0) {
    used = S;
  } else {
    used = mates.size() * S;
  }
  for (int c : nodes.children(v)) {
    const int child = g.root_of(nodes.absolute(c));
    const std::vector<int> run = tree.ranks_in(c, nodes.subtree(c));
    p.wait_ready(child);
    p.copy(t.scratch(me) + used, t.scratch(child), run.size() * S);
    if (acks) p.ack(child);
    for (std::size_t i = 0; i < run.size(); ++i) at[static_cast<std::size_t>(run[i])] = t.scratch(me) + used + i * S;
    used += run.size() * S;
  }
  if (v != 0) {
    p.publish_ready();
    if (acks) {
      p.ack_from.push_back(g.root_of(nodes.absolute(nodes.parent(v))));
      p.wait_acks();
    }
    return;
  }
  std::size_t count = 0;
  const auto table = partial_table(a, t, by_block, [&](int rank) { return at[static_cast<std::size_t>(rank)]; }, count);
  p.fold_interleaved(raw(rq.result), table, count, static_cast<std::ptrdiff_t>(E));
  if (acks)
    for (int r : mates)
      if (r != me) p.ack(r);
}

}  // namespace upc::coll::algo
