// upc_all_sort (Collectives spec v1.0): thread 0 sorts the whole array. It sorts
// indices with the user's comparator (which takes pointers-to-shared), then
// writes the elements back in order. Stable, O(n log n) comparisons; meant for
// old code, not for speed.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "../blocks.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void sort_at_root(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const blocked_array a{rq.dst, rq.red.size, rq.blk_size, rq.nelems, T};
  if (me == 0) {
    p.compute([=] {
      const std::size_t n = rq.nelems, E = rq.red.size;
      std::vector<std::uint64_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      // i goes before j when func says j's element comes after i's (func(b, a) > 0),
      // which works for three-way comparators and for the v1.0 reference's
      // "1 when a must come after b, else 0" ones alike.
      std::stable_sort(order.begin(), order.end(), [&](std::uint64_t i, std::uint64_t j) {
        return rq.sort_cmp(&j, &i, rq.sort_ctx) > 0;
      });
      std::vector<char> sorted(n * E);
      for (std::size_t k = 0; k < n; ++k) std::memcpy(sorted.data() + k * E, a.element(order[k]), E);
      for (std::size_t k = 0; k < n; ++k) std::memcpy(a.element(k), sorted.data() + k * E, E);
    });
    for (int r = 1; r < T; ++r) p.touches.push_back(r);
  } else {
    p.touchers.push_back(0);
  }
}

}  // namespace upc::coll::algo
