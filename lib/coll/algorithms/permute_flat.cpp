// Flat permute: thread i's block goes to the block of thread perm[i].
//   pull: rank r finds i with perm[i] = r and copies that block in
//   push: rank r copies its block to thread perm[r]
// Steps: 1. Bytes moved: T × nbytes. No restrictions (perm was checked by the API).
#include "../blocks.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

namespace {
// The thread whose block comes to `thread` (the front-end checked perm maps
// the team's threads one to one onto themselves).
int sender_to(const request& rq, int thread) {
  int from = 0;
  while (rq.perm[from] != thread) ++from;
  return from;
}
}  // namespace

void permute_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), mine = t.thread_of(me);
  const int from = sender_to(rq, mine);
  p.copy(rq.dst.block_of(mine), rq.src.block_of(from), rq.nbytes);
  touch_one(p.touches, t.rank_of(from), me);
  touch_one(p.touchers, t.rank_of(rq.perm[mine]), me);
}

void permute_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), mine = t.thread_of(me);
  const int to = rq.perm[mine];
  p.copy(rq.dst.block_of(to), rq.src.block_of(mine), rq.nbytes);
  touch_one(p.touches, t.rank_of(to), me);
  touch_one(p.touchers, t.rank_of(sender_to(rq, mine)), me);
}

}  // namespace upc::coll::algo
