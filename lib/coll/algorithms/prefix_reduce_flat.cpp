// Flat prefix reduction in three stages:
//   1. every rank folds each of its blocks (left to right) into a block total;
//   2. rank 0 walks all blocks in index order and gives each block the fold of
//      the totals before it (its exclusive prefix), written into the owner's
//      scratch;
//   3. every rank finishes its elements: dst[k] = prefix(block) op fold of the
//      block up to k.
// The expression is fixed by the src layout, so the result is bitwise the same
// for every algorithm. Bytes moved: 2 × blocks × elem; rank 0's walk is
// O(number of blocks).
#include <cstring>
#include <vector>

#include "../blocks.hpp"
#include "../common/prefix_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void prefix_reduce_flat(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const std::size_t E = rq.red.size;
  const blocked_array src{rq.src, E, rq.blk_size, rq.nelems, T};
  const blocked_array dst{rq.dst, E, rq.blk_size, rq.nelems, T};
  const std::uint64_t blocks = src.last_block() - src.first_block() + 1;
  const std::uint64_t per_rank = rq.blk_size ? blocks / std::uint64_t(T) + 2 : 1;
  // Scratch of each rank: [totals of its blocks][exclusive prefixes of its blocks].
  t.ensure_scratch(2 * per_rank * E + 64);
  const element_op red = rq.red;

  plan_block_totals(p, t, src, red);
  p.publish_ready();
  if (me == 0) {
    for (int r = 0; r < T; ++r) p.wait_ready(r);
    p.compute([=, &t] {
      char running[64];
      std::vector<std::uint64_t> next(static_cast<std::size_t>(T), 0);
      bool first = true;
      for (std::uint64_t b = src.first_block(); b <= src.last_block(); ++b) {
        const int owner = src.owner_of_block(b);
        const std::uint64_t slot = next[static_cast<std::size_t>(owner)]++;
        char* owner_scratch = t.scratch(t.rank_of(owner));
        if (!first) std::memcpy(owner_scratch + (per_rank + slot) * E, running, E);
        const char* total = owner_scratch + slot * E;
        if (first) std::memcpy(running, total, E);
        else red.combine(running, total, 1);
        first = false;
      }
    });
    p.publish_ready2();
  } else {
    p.wait_ready2(0);
  }
  plan_prefix_finish(p, t, src, dst, per_rank * E, red);
}

}  // namespace upc::coll::algo
