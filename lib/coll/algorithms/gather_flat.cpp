// Flat gather: thread i's block goes to block i of the root's dst in one memcpy.
//   pull: the root copies every block (T copies in a row)
//   push: rank i copies its block to the root (T copies in parallel)
// Steps: 1. Bytes moved: T × nbytes. No restrictions.
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.dst.thread);
  if (me == root) {
    for (int r = 0; r < T; ++r)
      p.copy(raw(rq.dst) + std::size_t(r) * rq.nbytes, block_on_thread(rq.src, rq.nbytes, t.thread_of(r), T), rq.nbytes);
    touch_all_but(p.touches, me, T);
  } else {
    p.touchers.push_back(root);
  }
}

void gather_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.dst.thread);
  p.copy(raw(rq.dst) + std::size_t(me) * rq.nbytes, block_on_thread(rq.src, rq.nbytes, t.thread_of(me), T), rq.nbytes);
  touch_one(p.touches, root, me);
  if (me == root) touch_all_but(p.touchers, me, T);
}

}  // namespace upc::coll::algo
