// Flat exchange (all-to-all): block j of thread i's row goes to block i of
// thread j's row.
//   pull: rank r copies block r of every row into its own row
//   push: rank r copies each block of its row to the row of its target
// Steps: 1. Bytes moved: T² × nbytes (T per rank). No restrictions.
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void exchange_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  char* row = rq.dst.block_of(t.thread_of(me));
  for (int j = 0; j < T; ++j)
    p.copy(row + std::size_t(j) * rq.nbytes, rq.src.block_of(t.thread_of(j)) + std::size_t(me) * rq.nbytes, rq.nbytes);
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

void exchange_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const char* row = rq.src.block_of(t.thread_of(me));
  for (int j = 0; j < T; ++j)
    p.copy(rq.dst.block_of(t.thread_of(j)) + std::size_t(me) * rq.nbytes, row + std::size_t(j) * rq.nbytes, rq.nbytes);
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

}  // namespace upc::coll::algo
