// Binomial-tree reduction that keeps the determinism contract of reduce_flat.cpp
// (the result is bitwise the same for every algorithm). Every rank folds its own
// elements into its partial(s), exactly as reduce_flat does; the partials then
// climb a binomial tree rooted at the thread of dst (lib/coll/common/
// binomial_tree.hpp) as ORDERED LISTS, not combined: a subtree is a contiguous
// range of relative ranks, so a rank's scratch holds its subtree's partials in
// relative-rank order, one slot per rank. Only the root combines, reading each
// partial where its root child left it, in absolute rank order (commutative ops)
// or block index order (UPC_NONCOMM_FUNC) — the very expression reduce_flat
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
#include <cstring>
#include <vector>

#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/fold.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void reduce_binomial(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const binomial_tree tree{T, t.rank_of(static_cast<int>(rq.dst.thread))};
  const blocked_array a{rq.src, rq.red.size, rq.blk_size, rq.nelems, T};
  const std::size_t E = rq.red.size;
  const bool by_block = !rq.red.commutative && rq.blk_size != 0;
  const std::uint64_t blocks = by_block ? a.last_block() - a.first_block() + 1 : 1;
  const std::size_t S = E * (by_block ? std::size_t(blocks / std::uint64_t(T) + 2) : 1);  // one rank's slot
  t.ensure_scratch(std::size_t(tree.largest_subtree_below_root()) * S + 64);
  const int v = tree.relative(me);
  const std::vector<int> children = tree.children(v);
  const bool acks = readers_must_ack(rq.flags, false);
  const element_op red = rq.red;

  // 1. My partial(s) into slot 0 of my scratch: the left fold of my elements in
  //    index order, or (by block) of each block I own, in block order.
  const std::uint64_t count = a.count_on(t.thread_of(me));
  p.compute([=, &t] {
    char* slot = t.scratch(me);
    const int thr = t.thread_of(me);
    if (!by_block) {
      if (count == 0) return;
      const char* mine = a.local(thr, a.first_local(thr));
      fold_run(slot, mine, count, red);
      return;
    }
    std::uint64_t k = 0;
    for (std::uint64_t b = a.first_block(); b <= a.last_block(); ++b) {
      if (a.owner_of_block(b) != thr) continue;
      const char* first = a.local(thr, a.local_index(a.block_lo(b)));
      char* acc = slot + k++ * E;
      fold_run(acc, first, a.block_hi(b) - a.block_lo(b), red);
    }
  });

  // 2. Collect the children's lists (inner ranks copy them next to their own).
  for (int c : children) {
    p.wait_ready(tree.absolute(c));
    if (v != 0) {
      p.copy(t.scratch(me) + std::size_t(c - v) * S, t.scratch(tree.absolute(c)), std::size_t(tree.subtree(c)) * S);
      if (acks) p.ack(tree.absolute(c));
    }
  }
  if (v != 0) {
    p.publish_ready();
    if (acks) {
      p.ack_from.push_back(tree.absolute(tree.parent(v)));
      p.wait_acks();
    }
    return;
  }

  // 3. The root folds, in the order of the contract, reading every partial in place.
  p.compute([=, &t] {
    auto slot_of = [&](int rank) -> const char* {  // where rank's partials are
      const int u = tree.relative(rank);
      if (u == 0) return t.scratch(me);
      const int c = binomial_tree::root_child_of(u);
      return t.scratch(tree.absolute(c)) + std::size_t(u - c) * S;
    };
    char result[64];
    bool have = false;
    auto take = [&](const char* x) {
      if (!have) std::memcpy(result, x, E);
      else red.combine(result, x, 1);
      have = true;
    };
    if (!by_block) {
      for (int r = 0; r < T; ++r)
        if (a.count_on(t.thread_of(r)) > 0) take(slot_of(r));
    } else {
      std::vector<std::uint64_t> next(static_cast<std::size_t>(T), 0);  // the j-th block of a rank is in slot j
      for (std::uint64_t b = a.first_block(); b <= a.last_block(); ++b) {
        const int owner = a.owner_of_block(b);
        take(slot_of(t.rank_of(owner)) + next[static_cast<std::size_t>(owner)]++ * E);
      }
    }
    if (have) std::memcpy(raw(rq.dst), result, E);
  });
  if (acks)
    for (int c : children) p.ack(tree.absolute(c));
}

}  // namespace upc::coll::algo
