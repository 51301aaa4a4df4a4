// What the rooted movements (scatter and gather: one nbytes piece per rank,
// to or from the root) share before their algorithms part: my rank, the piece
// size, where I stand around the root, and scratch for the pieces that pass
// through me on their way. One per shape: a binomial tree, or node groups.
#pragma once
#include <cstddef>

#include "../request.hpp"
#include "../team.hpp"
#include "binomial_tree.hpp"
#include "node_groups.hpp"

namespace upc::coll {

// A binomial tree rooted at the root: a rank holds the pieces of the rest of
// its subtree, at most (largest subtree below the root - 1) pieces.
struct tree_pieces {
  int me, T;
  std::size_t n;
  binomial_tree tree;
  int v;  // my rank relative to the root

  tree_pieces(const request& rq, team& t)
      : me(t.rank()), T(t.size()), n(rq.nbytes), tree{T, rq.root}, v(tree.relative(me)) {
    t.ensure_scratch(std::size_t(tree.largest_subtree_below_root() - 1) * n);
  }
};

// Node groups around the root: a node root holds its node's pieces, at most
// the largest other node's.
struct node_pieces {
  int me;
  std::size_t n;
  node_groups g;
  int my_node, my_root;

  node_pieces(const request& rq, team& t)
      : me(t.rank()), n(rq.nbytes), g{t, rq.root}, my_node(g.node_of(me)), my_root(g.root_of(my_node)) {
    t.ensure_scratch(g.largest_other_node() * n);
  }
};

}  // namespace upc::coll
