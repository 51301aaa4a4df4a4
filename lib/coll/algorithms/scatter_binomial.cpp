// Binomial-tree scatter: the root's src (T blocks, rank order) is split down a
// binomial tree rooted at the thread of src (lib/coll/common/binomial_tree.hpp).
// A rank v pulls, from its parent, its own block (into its dst block) and the
// blocks of the rest of its subtree (into its scratch, in relative order); its
// children then pull their part from that scratch.
//
//   T = 8, relative ranks; [a-b] = the blocks a rank forwards
//   src ─┬─▶ 1                       level 1: 1 gets 1; 2 gets 2-3; 4 gets 4-7
//        ├─▶ 2 [3] ──▶ 3             level 2: 3 gets 3 from 2; 5 gets 5, 6 gets
//        └─▶ 4 [5-7] ─┬─▶ 5                   6-7 from 4
//                     └─▶ 6 [7] ──▶ 7  level 3: 7 gets 7 from 6
//
// Steps: ceil(log2 T) levels. Bytes moved: a block travels as far as its rank is
// deep, sum over ranks of depth × nbytes ≈ (T/2) log2 T × nbytes, against
// T × nbytes for flat pull; the root's partition is read by ceil(log2 T) ranks
// instead of T. Scratch: (largest subtree below the root - 1) × nbytes per rank
// (at most T/2 × nbytes). Synchronisation: one ready flag per rank, and acks
// from children unless OUT_ALLSYNC (OUT_MYSYNC covers only the root's src, not
// scratch). Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/rooted_pieces.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void scatter_binomial(const request& rq, team& t, plan& p) {
  const tree_pieces shape{rq, t};
  const auto& [me, T, n, tree, v] = shape;
  const std::vector<int> children = tree.children(v);
  char* const mine = rq.dst.block_of(t.thread_of(me));
  const char* const my_piece = rq.src.piece(me, t.thread_of(me), n);

  if (v == 0) {
    if (!children.empty()) p.publish_ready();  // src is ready on entry
    p.copy(mine, my_piece, n);
    for (int c : children) p.touchers.push_back(tree.absolute(c));
  } else {
    const int pv = tree.parent(v), parent = tree.absolute(pv), rest = tree.subtree(v) - 1;
    p.wait_ready(parent);
    if (pv == 0) {
      p.copy(mine, my_piece, n);
      copy_ranked_to_run(p, t.scratch(me), rq.src, t, tree, v + 1, rest, n);
      p.touches.push_back(parent);
    } else {
      // The parent's scratch holds its subtree but itself: v's run starts at v - pv - 1.
      const char* from = t.scratch(parent) + std::size_t(v - pv - 1) * n;
      p.copy(mine, from, n);
      p.copy(t.scratch(me), from + n, std::size_t(rest) * n);
    }
    if (readers_must_ack(rq.flags, pv == 0)) p.ack(parent);
    if (!children.empty()) p.publish_ready();
  }
  if (!children.empty() && readers_must_ack(rq.flags, v == 0)) {
    for (int c : children) p.ack_from.push_back(tree.absolute(c));
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
