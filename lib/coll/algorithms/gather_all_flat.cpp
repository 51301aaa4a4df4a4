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
  char* row = block_on_thread(rq.dst, rq.nbytes * T, t.thread_of(me), T);
  for (int k = 0; k < T; ++k) {
    const int r = (me + k) % T;  // start with my own block, then the next ranks
    p.copy(row + std::size_t(r) * rq.nbytes, block_on_thread(rq.src, rq.nbytes, t.thread_of(r), T), rq.nbytes);
  }
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

void gather_all_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const char* mine = block_on_thread(rq.src, rq.nbytes, t.thread_of(me), T);
  for (int k = 0; k < T; ++k) {
    const int r = (me + k) % T;
    p.copy(block_on_thread(rq.dst, rq.nbytes * T, t.thread_of(r), T) + std::size_t(me) * rq.nbytes, mine, rq.nbytes);
  }
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

}  // namespace upc::coll::algo
