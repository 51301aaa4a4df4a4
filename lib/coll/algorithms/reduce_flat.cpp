// Flat reduction: every rank folds its own elements into a partial in its
// scratch; the root (the thread of dst) waits for each partial and folds them,
// then tells each rank it may reuse its scratch.
//
//   r0 ─┐                 partials in rank order: p0 op p1 op … op p(T-1)
//   r1 ─┼──▶ root         (UPC_NONCOMM_FUNC: block partials in index order)
//   r2 ─┘
//
// Determinism: the result is the same expression whatever the algorithm — for
// commutative ops, p_r is the left fold of rank r's elements in index order, and
// the partials are folded in rank order; for UPC_NONCOMM_FUNC, each block is
// folded left to right and the block partials are folded in index order. Ranks
// without elements are skipped (common/reduction_stages.hpp). Bytes moved: T
// partials; one step.
#include "../common/binomial_tree.hpp"
#include "../common/reduction_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void reduce_flat(const request& rq, team& t, plan& p) {
  const member_partials shape = member_partials::of_reduce(rq, t, p);
  const auto& [me, T, E, a, by_block, S] = shape;
  const int root = rq.root;
  t.ensure_scratch(S + 64);

  plan_partials(p, a, t.thread_of(me), t.scratch(me), by_block);
  p.publish_ready();
  const bool acks = readers_must_ack(rq.flags, /*user_data=*/false);
  if (me == root) {
    for (int r = 0; r < T; ++r) p.wait_ready(r);
    std::size_t count = 0;
    const auto table = partial_table(a, t, by_block, [&](int r) { return t.scratch(r); }, count);
    p.fold_interleaved(raw(rq.result), table, count, static_cast<std::ptrdiff_t>(E));
    if (acks)
      for (int r = 0; r < T; ++r)
        if (r != me) p.ack(r);
  } else if (acks) {
    // The root reads my scratch: I may not reuse it (next collective) before it is done.
    p.ack_from.push_back(root);
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
