// The two local stages every prefix-reduce algorithm shares; only the middle
// stage (turning block totals into block prefixes) differs between algorithms.
//   stage 1: each rank folds each block it owns into a total, at scratch + 0;
//   stage 3: each rank writes its blocks of the result from the prefixes at
//            scratch + prefixes_at (see finish_prefix_block in fold.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "../blocks.hpp"
#include "../plan.hpp"
#include "../team.hpp"
#include "fold.hpp"

namespace upc::coll {

// f(block, slot) for each block of src that thread `thr` owns, in index order.
template <class F>
void for_each_owned_block(const blocked_array& src, int thr, F&& f) {
  std::uint64_t slot = 0;
  for (std::uint64_t b = src.first_block(); b <= src.last_block(); ++b)
    if (src.owner_of_block(b) == thr) f(b, slot++);
}

inline void plan_block_totals(plan& p, team& t, const blocked_array& src, const element_op& red) {
  const int me = t.rank();
  p.compute([=, &t] {
    char* totals = t.scratch(me);
    const int thr = t.thread_of(me);
    for_each_owned_block(src, thr, [&](std::uint64_t b, std::uint64_t slot) {
      fold_run(totals + slot * red.size, src.local(thr, src.local_index(src.block_lo(b))),
               src.block_hi(b) - src.block_lo(b), red);
    });
  });
}

inline void plan_prefix_finish(plan& p, team& t, const blocked_array& src, const blocked_array& dst,
                               std::size_t prefixes_at, const element_op& red) {
  const int me = t.rank(), T = t.size();
  const bool same_layout = dst.base.thread == src.base.thread && dst.base.phase == src.base.phase;
  p.compute([=, &t] {
    const char* prefixes = t.scratch(me) + prefixes_at;
    const int thr = t.thread_of(me);
    std::vector<char> tmp;
    for_each_owned_block(src, thr, [&](std::uint64_t b, std::uint64_t slot) {
      const char* prefix = b == src.first_block() ? nullptr : prefixes + slot * red.size;
      finish_prefix_block(src, dst, same_layout, thr, b, prefix, red, tmp);
    });
  });
  if (!same_layout)  // writes land on other threads' dst elements
    for (int r = 0; r < T; ++r)
      if (r != me) {
        p.touches.push_back(r);
        p.touchers.push_back(r);
      }
}

}  // namespace upc::coll
