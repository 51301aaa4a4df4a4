// Flat prefix reduction in three stages:
//   1. every rank folds each of its blocks (left to right) into a block total;
//   2. rank 0 walks all blocks in index order, folding the totals, and gives
//      each block the fold of the totals before it (its exclusive prefix),
//      written into the owner's scratch;
//   3. every rank finishes its elements: dst[k] = prefix(block) op fold of the
//      block up to k.
// The expression is fixed by the src layout, so the result is bitwise the same
// for every algorithm. Bytes moved: 2 × blocks × elem; rank 0's walk is
// O(number of blocks).
#include "../common/reduction_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void prefix_reduce_flat(const request& rq, team& t, plan& p) {
  const member_partials shape = member_partials::of_prefix(rq, t, p);
  const auto& [me, T, E, src, by_block, per_rank] = shape;
  // Scratch of each rank: [totals of its blocks][exclusive prefixes of its blocks].
  t.ensure_scratch(2 * per_rank + 64);

  plan_block_totals(p, src, t.thread_of(me), t.scratch(me));
  p.publish_ready();
  if (me == 0) {
    for (int r = 0; r < T; ++r) p.wait_ready(r);
    std::size_t count = 0;
    const auto totals = partial_table(src, t, true, [&](int r) { return t.scratch(r); }, count);
    p.scan_interleaved(totals, shifted(totals, per_rank), count, static_cast<std::ptrdiff_t>(E));
    p.publish_ready2();
  } else {
    p.wait_ready2(0);
  }
  plan_prefix_finish(p, t, src, rq.out, t.scratch(me) + per_rank);
}

}  // namespace upc::coll::algo
