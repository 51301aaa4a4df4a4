// Binomial-tree reduction that keeps the determinism contract of reduce_flat.cpp
// (the result is bitwise the same for every algorithm). Every rank folds its own
// elements into its partial(s), exactly as reduce_flat does; the partials then
// climb a binomial tree rooted at the thread of dst (lib/coll/common/
// binomial_tree.hpp) as ORDERED LISTS, not combined: a subtree is a contiguous
// range of relative ranks, so a rank's scratch holds its subtree's partials in
// relative-rank order, one slot per rank. Only the root combines, reading each
// partial where its root child left it, in rank order (commutative ops) or
// block index order (UPC_NONCOMM_FUNC) — the very expression reduce_flat
// folds. Inner nodes must not combine: ((p0 op p1) op p2) differs from
// (p0 op (p1 op p2)) in floating point, and a relative-rank subtree may wrap
// around rank T-1 → 0.
//
//   T = 8, relative ranks; [a-b] = the partials a rank holds
//   root ◀─┬── 1 [1]                 level 1: 2 copies 3's slot, 4 copies 5's,
//          ├── 2 [2-3] ◀── 3                  6 copies 7's
//          └── 4 [4-7] ◀─┬── 5       level 2: 4 copies 6-7
//                        └── 6 [6-7] ◀── 7   then the root folds p0 … p7 in rank
//                                             order, reading 1, 2-3, 4-7 in place
//
// Steps: ceil(log2 T) levels, then one fold of T partials at the root (as in
// reduce_flat). Bytes moved: a slot of S bytes (one element; UPC_NONCOMM_FUNC:
// one per block a rank owns, ~blocks/T) climbs depth(r) - 1 times, about
// (T/2) log2 T × S in all; the local folds (nelems/T elements each) dominate.
// Scratch: largest subtree below the root × S per rank. Synchronisation: one
// ready flag per rank; parents ack children (scratch is internal) unless
// OUT_ALLSYNC. Restrictions: none.
#include "../common/binomial_tree.hpp"
#include "../common/reduction_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void reduce_binomial(const request& rq, team& t, plan& p) {
  const member_partials shape = member_partials::of_reduce(rq, t, p);
  const auto& [me, T, E, a, by_block, S] = shape;  // S: one rank's slot
  const binomial_tree tree{T, rq.root};
  t.ensure_scratch(std::size_t(tree.largest_subtree_below_root()) * S + 64);
  const int v = tree.relative(me);
  const std::vector<int> children = tree.children(v);
  const bool acks = readers_must_ack(rq.flags, false);

  // 1. My partial(s) into slot 0 of my scratch.
  plan_partials(p, a, t.thread_of(me), t.scratch(me), by_block);

  // 2. Collect the children's lists (inner ranks copy them next to their own).
  for (int c : children) {
    p.wait_ready(tree.absolute(c));
    if (v != 0) {
      p.copy(t.scratch(me) + std::size_t(c - v) * S, t.scratch(tree.absolute(c)), std::size_t(tree.subtree(c)) * S);
      if (acks) p.ack(tree.absolute(c));
    }
  }
  if (v != 0) {
    hand_partials_to(p, tree.absolute(tree.parent(v)), acks);
    return;
  }

  // 3. The root folds, in the order of the contract, reading every partial in place.
  auto slot_of = [&](int rank) { return slot_at_root_child(t, tree, rank, S); };  // where rank's partials are
  std::size_t count = 0;
  const auto table = partial_table(a, t, by_block, slot_of, count);
  p.fold_interleaved(raw(rq.result), table, count, static_cast<std::ptrdiff_t>(E));
  if (acks)
    for (int c : children) p.ack(tree.absolute(c));
}

}  // namespace upc::coll::algo
