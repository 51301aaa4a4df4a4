// upc_all_sort (Collectives spec v1.0): thread 0 sorts the whole array. It sorts
// indices with the user's comparator (which takes pointers-to-shared), then
// writes the elements back in order (steps.cpp, sort_array). Stable, O(n log n)
// comparisons; meant for old code, not for speed.
#include "algorithms.hpp"

namespace upc::coll::algo {

void sort_at_root(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  if (me == 0) {
    p.sort(sort_job{rq.in, rq.sort_cmp, rq.sort_ctx});
    for (int r = 1; r < T; ++r) p.touches.push_back(r);
  } else {
    p.touchers.push_back(0);
  }
}

}  // namespace upc::coll::algo
