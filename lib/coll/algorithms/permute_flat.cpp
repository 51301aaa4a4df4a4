// Flat permute: thread i's block goes to the block of thread perm[i].
//   pull: rank r finds i with perm[i] = r and copies that block in
//   push: rank r copies its block to thread perm[r]
// Steps: 1. Bytes moved: T × nbytes. No restrictions (perm was checked by the API).
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void permute_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  int from = 0;
  while (rq.perm[from] != t.thread_of(me)) ++from;  // the API checked perm is a permutation
  p.copy(block_on_thread(rq.dst, rq.nbytes, t.thread_of(me), T), block_on_thread(rq.src, rq.nbytes, from, T), rq.nbytes);
  touch_one(p.touches, t.rank_of(from), me);
  touch_one(p.touchers, t.rank_of(rq.perm[t.thread_of(me)]), me);
}

void permute_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const int to = rq.perm[t.thread_of(me)];
  p.copy(block_on_thread(rq.dst, rq.nbytes, to, T), block_on_thread(rq.src, rq.nbytes, t.thread_of(me), T), rq.nbytes);
  touch_one(p.touches, t.rank_of(to), me);
  int from = 0;
  while (rq.perm[from] != t.thread_of(me)) ++from;
  touch_one(p.touchers, t.rank_of(from), me);
}

}  // namespace upc::coll::algo
