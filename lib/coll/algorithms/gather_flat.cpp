// Flat gather: thread i's block goes to block i of the root's dst in one memcpy.
//   pull: the root copies every block (T copies in a row)
//   push: rank i copies its block to the root (T copies in parallel)
// Steps: 1. Bytes moved: T × nbytes. No restrictions.
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  if (me == root) {
    for (int r = 0; r < T; ++r) p.copy(rq.dst.piece(r, t.thread_of(r), rq.nbytes), rq.src.block_of(t.thread_of(r)), rq.nbytes);
    touch_all_but(p.touches, me, T);
  } else {
    p.touchers.push_back(root);
  }
}

void gather_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  p.copy(rq.dst.piece(me, t.thread_of(me), rq.nbytes), rq.src.block_of(t.thread_of(me)), rq.nbytes);
  touch_one(p.touches, root, me);
  if (me == root) touch_all_but(p.touchers, me, T);
}

}  // namespace upc::coll::algo
