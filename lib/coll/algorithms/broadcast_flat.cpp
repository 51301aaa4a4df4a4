// Flat broadcast (seed 001's UPC_PULL / UPC_PUSH): the root's block goes to the
// block of every thread in one direct memcpy each, all ranks working at once.
//
//   pull: every rank copies from the root      push: the root copies to every rank
//        root ──▶ r   (T copies in parallel)        root ──▶ r0, r1, … (T copies in a row)
//
// Steps: 1. Bytes moved: T × nbytes. No restrictions.
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void broadcast_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  p.copy(rq.dst.block_of(t.thread_of(me)), rq.src.area(), rq.nbytes);
  touch_one(p.touches, root, me);
  if (me == root) touch_all_but(p.touchers, me, T);
}

void broadcast_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  if (me == root) {
    for (int r = 0; r < T; ++r) p.copy(rq.dst.block_of(t.thread_of(r)), rq.src.area(), rq.nbytes);
    touch_all_but(p.touches, me, T);
  } else {
    p.touchers.push_back(root);
  }
}

}  // namespace upc::coll::algo
