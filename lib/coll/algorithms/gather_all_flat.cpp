// Flat gather_all: thread i's block goes to block i of every thread's row.
//   pull: rank r copies all T blocks into its own row, starting with its own
//   push: rank r copies its block into every row, starting with its own
// Steps: 1. Bytes moved: T² × nbytes (T per rank). No restrictions.
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_all_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  char* row = rq.dst.block_of(t.thread_of(me));
  for (int k = 0; k < T; ++k) {
    const int r = (me + k) % T;  // start with my own block, then the next ranks
    p.copy(row + std::size_t(r) * rq.nbytes, rq.src.block_of(t.thread_of(r)), rq.nbytes);
  }
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

void gather_all_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const char* mine = rq.src.block_of(t.thread_of(me));
  for (int k = 0; k < T; ++k) {
    const int r = (me + k) % T;
    p.copy(rq.dst.block_of(t.thread_of(r)) + std::size_t(me) * rq.nbytes, mine, rq.nbytes);
  }
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

}  // namespace upc::coll::algo
