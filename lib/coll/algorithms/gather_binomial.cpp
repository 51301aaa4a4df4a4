// Binomial-tree gather: the mirror of scatter_binomial. Blocks climb a binomial
// tree rooted at the thread of dst (lib/coll/common/binomial_tree.hpp): a rank
// waits for each child (smallest subtree first), pulls the child's src block and
// the child's gathered blocks (its scratch) into its own scratch, in relative
// order, then says it is ready; the root pulls straight into dst.
//
//   T = 8, relative ranks; [a-b] = the blocks a rank has gathered
//   dst ◀─┬── 1                      level 1: root gets 1, 2 gets 3, 4 gets 5,
//         ├── 2 [3] ◀── 3                     6 gets 7 (leaves are ready at once)
//         └── 4 [5-7] ◀─┬── 5        level 2: root gets 2-3, 4 gets 6-7
//                       └── 6 [7] ◀── 7  level 3: root gets 4-7
//
// Steps: ceil(log2 T) levels. Bytes moved: sum over ranks of depth × nbytes
// ≈ (T/2) log2 T × nbytes, against T × nbytes for flat push/pull; the root copies
// from ceil(log2 T) ranks instead of T. Scratch: (largest subtree below the root
// - 1) × nbytes per rank. Synchronisation: one ready flag per rank, and the
// parent acks each child once it has copied (so the child may not reuse its
// scratch before), unless OUT_ALLSYNC. Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/rooted_pieces.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_binomial(const request& rq, team& t, plan& p) {
  const tree_pieces shape{rq, t};
  const auto& [me, T, n, tree, v] = shape;
  auto src_of = [&](int rank) -> const char* { return rq.src.block_of(t.thread_of(rank)); };

  if (v == 0) p.copy(rq.dst.piece(me, t.thread_of(me), n), src_of(me), n);
  for (int c : tree.children(v)) {
    const int child = tree.absolute(c), rest = tree.subtree(c) - 1;
    p.wait_ready(child);
    if (v == 0) {
      p.copy(rq.dst.piece(child, t.thread_of(child), n), src_of(child), n);
      copy_run_to_ranked(p, rq.dst, t.scratch(child), t, tree, c + 1, rest, n);
    } else {
      // My scratch holds my subtree but me: c's run starts at c - v - 1.
      char* to = t.scratch(me) + std::size_t(c - v - 1) * n;
      p.copy(to, src_of(child), n);
      p.copy(to + n, t.scratch(child), std::size_t(rest) * n);
    }
    if (readers_must_ack(rq.flags, rest == 0)) p.ack(child);
    p.touches.push_back(child);
  }
  if (v != 0) {
    const int parent = tree.absolute(tree.parent(v));
    p.publish_ready();
    p.touchers.push_back(parent);
    if (readers_must_ack(rq.flags, tree.subtree(v) == 1)) {
      p.ack_from.push_back(parent);
      p.wait_acks();
    }
  }
}

}  // namespace upc::coll::algo
