// Pairwise exchange: pull, but in step k rank r reads from rank (r+k) mod T, so
// at every step each partition is read by exactly one rank (no hot spot).
//
//   step 1: r0◀r1 r1◀r2 r2◀r3 r3◀r0     step 2: r0◀r2 r1◀r3 …
//
// Steps: T (one copy each). Bytes moved: T² × nbytes. No restrictions.
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void exchange_pairwise(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  char* row = rq.dst.block_of(t.thread_of(me));
  for (int k = 0; k < T; ++k) {
    const int j = (me + k) % T;
    p.copy(row + std::size_t(j) * rq.nbytes, rq.src.block_of(t.thread_of(j)) + std::size_t(me) * rq.nbytes, rq.nbytes);
  }
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

}  // namespace upc::coll::algo
