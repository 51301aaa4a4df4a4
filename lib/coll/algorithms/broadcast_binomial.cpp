// Binomial-tree broadcast: the root's block travels down a binomial tree rooted at
// the thread of src (lib/coll/common/binomial_tree.hpp). Each rank pulls the block
// from its parent into its own dst block, then says it is ready; its children pull
// from that dst block. No scratch: intermediate ranks forward through dst.
//
//   T = 8, relative ranks            level 1: 1, 2 and 4 copy from src
//   src ─┬─▶ 1                       level 2: 3 copies from 2, 5 and 6 from 4
//        ├─▶ 2 ──▶ 3                 level 3: 7 copies from 6
//        └─▶ 4 ─┬─▶ 5                (pull: every rank copies what it receives)
//               └─▶ 6 ──▶ 7
//
// Steps: ceil(log2 T) levels on the critical path. Bytes moved: T × nbytes in T
// copies, as for flat pull, but no block is read by more than ceil(log2 T) ranks
// (flat pull: the root's src is read by all T). Synchronisation: one ready flag
// per rank; with OUT_NOSYNC each child acks its parent, so a parent never leaves
// (and lets its dst block be reused) while a child still copies from it.
// Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void broadcast_binomial(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const std::size_t n = rq.nbytes;
  const binomial_tree tree{T, rq.root};
  const int v = tree.relative(me);
  const std::vector<int> children = tree.children(v);
  const bool acks = readers_must_ack(rq.flags, true);  // every buffer read is user data
  auto block_of = [&](int rank) { return rq.dst.block_of(t.thread_of(rank)); };

  if (v == 0) {
    if (!children.empty()) p.publish_ready();  // src is ready on entry
    p.copy(block_of(me), rq.src.area(), n);
  } else {
    const int parent = tree.absolute(tree.parent(v));
    p.wait_ready(parent);
    p.copy(block_of(me), tree.parent(v) == 0 ? rq.src.area() : block_of(parent), n);
    if (acks) p.ack(parent);
    if (!children.empty()) p.publish_ready();
    p.touches.push_back(parent);
  }
  for (int c : children) p.touchers.push_back(tree.absolute(c));
  if (acks && !children.empty()) {
    p.ack_from = p.touchers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
