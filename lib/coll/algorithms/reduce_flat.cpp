// Flat reduction: every rank folds its own elements into a partial in its
// scratch; the root (the thread of dst) waits for each partial and combines
// them, then tells each rank it may reuse its scratch.
//
//   r0 ─┐                 partials in rank order: p0 op p1 op … op p(T-1)
//   r1 ─┼──▶ root         (UPC_NONCOMM_FUNC: block partials in index order)
//   r2 ─┘
//
// Determinism: the result is the same expression whatever the algorithm — for
// commutative ops, p_r is the left fold of rank r's elements in index order, and
// the partials are folded in rank order; for UPC_NONCOMM_FUNC, each block is
// folded left to right and the block partials are folded in index order. Ranks
// without elements are skipped. Bytes moved: T partials; one step.
#include <cstring>
#include <vector>

#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/fold.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void reduce_flat(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.dst.thread);
  const blocked_array a{rq.src, rq.red.size, rq.blk_size, rq.nelems, T};
  const std::size_t E = rq.red.size;
  const bool by_block = !rq.red.commutative && rq.blk_size != 0;
  const std::uint64_t blocks = by_block ? a.last_block() - a.first_block() + 1 : 1;
  // Slot 0 of every rank's scratch: one partial; by block: one per block it owns.
  t.ensure_scratch(E * (by_block ? blocks / std::uint64_t(T) + 2 : 1) + 64);

  const element_op red = rq.red;
  const std::uint64_t count = a.count_on(t.thread_of(me));
  p.compute([=, &t] {
    char* scratch = t.scratch(me);
    const int thr = t.thread_of(me);
    if (!by_block) {
      if (count == 0) return;
      const char* mine = a.local(thr, a.first_local(thr));
      fold_run(scratch, mine, count, red);
    } else {
      std::uint64_t slot = 0;
      for (std::uint64_t b = a.first_block(); b <= a.last_block(); ++b) {
        if (a.owner_of_block(b) != thr) continue;
        const char* first = a.local(thr, a.local_index(a.block_lo(b)));
        char* acc = scratch + slot++ * E;
        fold_run(acc, first, a.block_hi(b) - a.block_lo(b), red);
      }
    }
  });
  p.publish_ready();
  if (me == root) {
    for (int r = 0; r < T; ++r) p.wait_ready(r);
    p.compute([=, &t] {
      char result[64];
      bool have = false;
      auto take = [&](const char* v) {
        if (!have) std::memcpy(result, v, E);
        else red.combine(result, v, 1);
        have = true;
      };
      if (!by_block) {
        for (int r = 0; r < T; ++r)
          if (a.count_on(t.thread_of(r)) > 0) take(t.scratch(r));
      } else {
        // The j-th block of rank r is in slot j of r's scratch.
        std::vector<std::uint64_t> next(static_cast<std::size_t>(T), 0);
        for (std::uint64_t b = a.first_block(); b <= a.last_block(); ++b) {
          const int owner = a.owner_of_block(b);
          take(t.scratch(t.rank_of(owner)) + next[static_cast<std::size_t>(owner)]++ * E);
        }
      }
      if (have) std::memcpy(raw(rq.dst), result, E);
    });
    if (readers_must_ack(rq.flags, /*user_data=*/false))
      for (int r = 0; r < T; ++r)
        if (r != me) p.ack(r);
  } else if (readers_must_ack(rq.flags, /*user_data=*/false)) {
    // The root reads my scratch: I may not reuse it (next collective) before it is done.
    p.ack_from.push_back(root);
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
