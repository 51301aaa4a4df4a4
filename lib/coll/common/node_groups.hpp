// The team seen as nodes, for the node-aware ("multicore", seed 001)
// algorithms: each node of the virtual topology has one root, the member that
// does the node's copies between nodes. The operation's root is its node's
// root; on every other node it is the node's lowest rank (upc::node_root when
// the team is the world).
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "../plan.hpp"
#include "binomial_tree.hpp"
#include "../team.hpp"

namespace upc::coll {

struct node_groups {
  const team& t;
  int op_root;  // the operation's root rank (-1: none)

  int node_of(int rank) const noexcept { return t.node_of(rank); }
  const std::vector<int>& ranks_on(int node) const noexcept { return t.ranks_on_node(node); }
  int count() const noexcept { return t.node_count(); }
  int root_of(int node) const noexcept {
    return op_root >= 0 && t.node_of(op_root) == node ? op_root : t.leader_of(node);
  }
  int my_root() const noexcept { return root_of(t.node_of(t.rank())); }
  bool on_op_root_node(int rank) const noexcept { return op_root >= 0 && t.node_of(rank) == t.node_of(op_root); }
  // The most ranks on one node other than the operation root's (what a node
  // root's scratch must hold; 0 on one node).
  std::size_t largest_other_node() const noexcept {
    std::size_t m = 0;
    for (int k = 0; k < count(); ++k)
      if (op_root < 0 || k != t.node_of(op_root)) m = std::max(m, ranks_on(k).size());
    return m;
  }
  // Where rank r sits in its node's list (its slot in the node root's scratch).
  int slot_of(int rank) const noexcept {
    const std::vector<int>& v = ranks_on(t.node_of(rank));
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] == rank) return static_cast<int>(i);
    return -1;
  }
};

// The binomial tree over the nodes of the binomial-flat algorithms (seed 003
// §3.3): nodes renumbered relative to the root's node (binomial_tree.hpp); a
// node's subtree is the relative range [v, v + subtree(v)), whose ranks, node
// by node, are what its root holds.
struct node_tree {
  const node_groups& g;
  binomial_tree nodes;
  node_tree(const node_groups& groups, int root_node) : g(groups), nodes{groups.count(), root_node} {}

  // The ranks of the nodes [from, from + count), node by node, each in node order.
  std::vector<int> ranks_in(int from, int count) const {
    std::vector<int> r;
    for (int w = from; w < from + count; ++w)
      for (int x : g.ranks_on(nodes.absolute(w))) r.push_back(x);
    return r;
  }
  std::size_t pieces_in(int from, int count) const {
    std::size_t k = 0;
    for (int w = from; w < from + count; ++w) k += g.ranks_on(nodes.absolute(w)).size();
    return k;
  }
  // The most pieces a node root below the root's node holds.
  std::size_t largest_subtree() const {
    std::size_t m = 0;
    for (int v = 1; v < nodes.size; ++v) m = std::max(m, pieces_in(v, nodes.subtree(v)));
    return m;
  }
  int root_of(int v) const noexcept { return g.root_of(nodes.absolute(v)); }  // relative node v's root
};

// A large block forwarded between nodes in segments (seed 003 §3.3; the
// unit is chunk_flows' segment_bytes()): segment k is copied once the holder
// has published stage 1 + k (a holder whose bytes are ready on entry, the
// operation's root, publishes stage 0 only: `whole`), and, when `publish`,
// the copier publishes its own stage 1 + k after it, so whoever reads from it
// starts on segment k while it copies k + 1. Plans using it take
// 1 + segments(n) stages.
inline std::size_t segments_of(std::size_t n, std::size_t S) { return n == 0 ? 0 : (n + S - 1) / S; }
inline void copy_in_segments(plan& p, char* to, const char* from, std::size_t n, std::size_t S, int holder, bool whole,
                             bool publish) {
  if (holder >= 0 && whole) p.wait_ready(holder, 0);
  for (std::size_t k = 0, off = 0; off < n; ++k, off += S) {
    if (holder >= 0 && !whole) p.wait_ready(holder, static_cast<int>(1 + k));
    p.copy(to + off, from + off, std::min(S, n - off));
    if (publish) p.publish_ready(static_cast<int>(1 + k));
  }
}

// Copies pieces of n bytes (to[i] <- from[i]) as few copies as the layout
// allows: neighbours that are contiguous at both ends become one copy (a
// node's consecutive ranks move between nodes as one message).
inline void copy_pieces(plan& p, const std::vector<char*>& to, const std::vector<const char*>& from, std::size_t n) {
  std::size_t i = 0;
  while (i < to.size()) {
    std::size_t j = i + 1;
    while (j < to.size() && to[j] == to[j - 1] + n && from[j] == from[j - 1] + n) ++j;
    p.copy(to[i], from[i], (j - i) * n);
    i = j;
  }
}

}  // namespace upc::coll
