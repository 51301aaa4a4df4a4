// Flat scatter: block i of the root's src goes to thread i in one memcpy.
//   pull: rank i copies its block from the root (T copies in parallel)
//   push: the root copies every block (T copies in a row)
// Steps: 1. Bytes moved: T × nbytes. No restrictions.
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void scatter_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  p.copy(rq.dst.block_of(t.thread_of(me)), rq.src.piece(me, t.thread_of(me), rq.nbytes), rq.nbytes);
  touch_one(p.touches, root, me);
  if (me == root) touch_all_but(p.touchers, me, T);
}

void scatter_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  if (me == root) {
    for (int r = 0; r < T; ++r) p.copy(rq.dst.block_of(t.thread_of(r)), rq.src.piece(r, t.thread_of(r), rq.nbytes), rq.nbytes);
    touch_all_but(p.touches, me, T);
  } else {
    p.touchers.push_back(root);
  }
}

}  // namespace upc::coll::algo
