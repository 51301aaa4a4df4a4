// Building the touch lists of a plan (plan.touches / plan.touchers).
#pragma once
#include <vector>

namespace upc::coll {

// Every rank of 0..n-1 except me.
inline void touch_all_but(std::vector<int>& v, int me, int n) {
  for (int r = 0; r < n; ++r)
    if (r != me) v.push_back(r);
}
// Rank r, unless it is me.
inline void touch_one(std::vector<int>& v, int r, int me) {
  if (r != me) v.push_back(r);
}

}  // namespace upc::coll
