// Binomial-tree prefix reduction: the three stages of prefix_reduce_flat.cpp,
// with stage 2's traffic moved onto a binomial tree rooted at rank 0
// (lib/coll/common/binomial_tree.hpp) instead of rank 0 reading and writing
// every rank's scratch.
//   1. every rank folds each of its blocks (left to right) into a block total
//      (slot 0 of its "totals" area);
//   2. up: each rank copies its children's totals lists next to its own (a
//      subtree is a contiguous range of ranks, so the list is in rank order);
//      rank 0 walks all blocks in index order, folding the totals left to right,
//      and writes each block's exclusive prefix into the "prefixes" area of the
//      root child whose subtree owns it; down: each rank copies its children's
//      part of its prefixes list into their prefixes area;
//   3. every rank finishes its elements: dst[k] = prefix(block) op fold of the
//      block up to k.
// What is parallel and what is not: stages 1 and 3 (all the element work) run
// on every rank at once, as in flat. The exclusive prefixes stay ONE left fold
// of the block totals in index order, done by rank 0: a parallel scan (tree
// up/down sweep, dissemination) would compute (t0 op t1) op (t2 op t3), not
// ((t0 op t1) op t2) op t3, and floating-point results would differ from flat.
// The fold is O(blocks) combines of one element each, cheap next to stages 1/3.
// Result: bitwise identical to prefix_reduce_flat for every type and op.
//
//   T = 8; up (totals)                         down (prefixes)
//   0 ◀─┬── 1                                  0 ─┬─▶ 1
//       ├── 2 [2,3] ◀── 3                         ├─▶ 2 [2,3] ──▶ 3
//       └── 4 [4-7] ◀─┬── 5                       └─▶ 4 [4-7] ─┬─▶ 5
//                     └── 6 [6,7] ◀── 7                        └─▶ 6 [6,7] ──▶ 7
//   rank 0 reads 1, 2-3, 4-7 in place          rank 0 writes into 1, 2, 4
//
// Steps: 2 ceil(log2 T) levels plus rank 0's walk. Bytes moved: each rank's slot
// of S = (blocks/T + 2) elements (one element when blk_size is 0) goes up and
// down depth - 1 times, about T log2 T × S in all. Scratch: 2 × largest subtree
// below the root × S per rank. Synchronisation: ready (up) and ready2 (down);
// no acks: a rank reads its children's totals before it publishes ready2, and a
// child does not reuse its scratch before it has seen ready2. Restrictions: none.
#include "../common/binomial_tree.hpp"
#include "../common/reduction_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void prefix_reduce_binomial(const request& rq, team& t, plan& p) {
  const member_partials shape = member_partials::of_prefix(rq, t, p);
  const auto& [me, T, E, src, by_block, S] = shape;
  const binomial_tree tree{T, 0};
  const std::size_t held = std::size_t(tree.largest_subtree_below_root());
  // Scratch of each rank: [totals of its subtree][exclusive prefixes of its subtree], S per rank.
  t.ensure_scratch(2 * held * S + 64);
  const std::size_t prefixes_at = held * S;
  const int v = tree.relative(me);
  const std::vector<int> children = tree.children(v);

  // 1. Block totals.
  plan_block_totals(p, src, t.thread_of(me), t.scratch(me));

  // 2. Up: gather the totals lists.
  for (int c : children) {
    p.wait_ready(tree.absolute(c));
    if (v != 0)
      p.copy(t.scratch(me) + std::size_t(c - v) * S, t.scratch(tree.absolute(c)), std::size_t(tree.subtree(c)) * S);
  }
  if (v != 0) {
    p.publish_ready();
    p.wait_ready2(tree.absolute(tree.parent(v)));
    for (int c : children)
      p.copy(t.scratch(tree.absolute(c)) + prefixes_at, t.scratch(me) + prefixes_at + std::size_t(c - v) * S,
             std::size_t(tree.subtree(c)) * S);
  } else {
    // Rank 0: one left fold of the totals in block order (as prefix_reduce_flat),
    // reading each rank's totals where the root child above it keeps them.
    auto area_of = [&](int rank) { return slot_at_root_child(t, tree, rank, S); };
    std::size_t count = 0;
    const auto totals = partial_table(src, t, true, area_of, count);
    p.scan_interleaved(totals, shifted(totals, prefixes_at), count, static_cast<std::ptrdiff_t>(E));
  }
  if (!children.empty()) p.publish_ready2();

  // 3. Local finish (as prefix_reduce_flat).
  plan_prefix_finish(p, t, src, rq.out, t.scratch(me) + prefixes_at);
}

}  // namespace upc::coll::algo
