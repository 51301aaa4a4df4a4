// The binomial tree the tree algorithms share (broadcast, scatter, gather, reduce,
// prefix_reduce _binomial), and the rule for when a reader must ack an owner.
//
// Ranks are renumbered relative to the root: rel = (rank - root) mod T. The
// parent of rel v > 0 is v with its lowest set bit cleared; the children of v are
// v + 2^j for every 2^j below v's lowest set bit (every 2^j < T for the root),
// as long as v + 2^j < T. The subtree of v is the contiguous range of relative
// ranks [v, v + subtree(v)), subtree(v) = min(lowbit(v), T - v), which is what
// lets scatter/gather/reduce keep a subtree's blocks in one run, in rank order.
//
//   T = 8, root 0:  0 ─┬─▶ 1              depth ceil(log2 T); a rank receives
//                      ├─▶ 2 ──▶ 3        once (from its parent) and sends to
//                      └─▶ 4 ─┬─▶ 5       at most ceil(log2 T) children
//                             └─▶ 6 ──▶ 7
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "../plan.hpp"
#include "../request.hpp"
#include "../team.hpp"
#include "upc_types.h"

namespace upc::coll {

struct binomial_tree {
  int size;  // T
  int root;  // rank of the root

  int relative(int rank) const noexcept { return (rank - root + size) % size; }
  int absolute(int rel) const noexcept { return (rel + root) % size; }
  static int lowbit(int v) noexcept { return v & -v; }
  int parent(int rel) const noexcept { return rel == 0 ? -1 : rel - lowbit(rel); }
  int subtree(int rel) const noexcept { return rel == 0 ? size : std::min(lowbit(rel), size - rel); }
  // Children of rel, smallest subtree first (the order they finish gathering in).
  std::vector<int> children(int rel) const {
    std::vector<int> c;
    const int limit = rel == 0 ? size : lowbit(rel);
    for (int d = 1; d < limit && rel + d < size; d *= 2) c.push_back(rel + d);
    return c;
  }
  // The child of the root whose subtree holds rel (> 0): rel's highest set bit.
  static int root_child_of(int rel) noexcept {
    int c = 1;
    while (c * 2 <= rel) c *= 2;
    return c;
  }
  // The largest subtree below the root (at least 1): what a non-root rank may
  // have to hold for its subtree.
  int largest_subtree_below_root() const noexcept {
    int m = 1;
    for (int v = 1; v < size; ++v) m = std::max(m, subtree(v));
    return m;
  }
};

// Where rank `rank`'s slot of S bytes is once the lists have climbed to the
// root's children (reduce_binomial, prefix_reduce_binomial): in the scratch of
// the root child whose subtree holds it, at its place in that list (the root's
// own slot in the root's scratch).
inline const char* slot_at_root_child(const team& t, const binomial_tree& tree, int rank, std::size_t S) {
  const int u = tree.relative(rank);
  if (u == 0) return t.scratch(tree.absolute(0));
  const int c = binomial_tree::root_child_of(u);
  return t.scratch(tree.absolute(c)) + std::size_t(u - c) * S;
}

// Blocks of n bytes of the relative ranks [first, first + count): `ranked` is a
// root's single area holding one piece per rank (a scatter's src, a gather's
// dst), `run` holds them in relative order (a subtree's blocks). Pieces in rank
// order wrap at T, so a subtree is one or two contiguous runs there; pieces
// indexed by thread are copied one by one.
inline void copy_ranked_to_run(plan& p, char* run, const endpoint& ranked, const team& t, const binomial_tree& tree,
                               int first, int count, std::size_t n) {
  if (count <= 0) return;
  if (ranked.by_thread) {
    for (int i = 0; i < count; ++i) {
      const int r = tree.absolute(first + i);
      p.copy(run + std::size_t(i) * n, ranked.piece(r, t.thread_of(r), n), n);
    }
    return;
  }
  const int a = tree.absolute(first), head = std::min(count, tree.size - a);
  p.copy(run, ranked.area() + std::size_t(a) * n, std::size_t(head) * n);
  p.copy(run + std::size_t(head) * n, ranked.area(), std::size_t(count - head) * n);
}
inline void copy_run_to_ranked(plan& p, const endpoint& ranked, const char* run, const team& t, const binomial_tree& tree,
                               int first, int count, std::size_t n) {
  if (count <= 0) return;
  if (ranked.by_thread) {
    for (int i = 0; i < count; ++i) {
      const int r = tree.absolute(first + i);
      p.copy(ranked.piece(r, t.thread_of(r), n), run + std::size_t(i) * n, n);
    }
    return;
  }
  const int a = tree.absolute(first), head = std::min(count, tree.size - a);
  p.copy(ranked.area() + std::size_t(a) * n, run, std::size_t(head) * n);
  p.copy(ranked.area(), run + std::size_t(head) * n, std::size_t(count - head) * n);
}

// Whether the readers of a rank's buffers must ack before the rank may leave the
// collective. OUT_ALLSYNC already holds everyone until everyone is done;
// OUT_MYSYNC holds the owner of user data until every rank in its plan.touchers
// is done (so acks are needed there only for internal buffers: scratch); with
// OUT_NOSYNC nothing holds the owner, and without acks it could start its next
// collective and overwrite a buffer a slower reader is still copying.
inline bool readers_must_ack(upc_flag_t flags, bool user_data) noexcept {
  const bool out_all = (flags & (UPC_OUT_MYSYNC | UPC_OUT_NOSYNC)) == 0 || (flags & UPC_OUT_ALLSYNC);
  if (out_all) return false;
  if (flags & UPC_OUT_MYSYNC) return !user_data;
  return true;
}

}  // namespace upc::coll
