// upc_all_reduceT_all: the reduction of a reduce algorithm (flat or binomial)
// into dst's own element, then every other rank copies that one value into its
// element of dst (dst + i as shared TYPE *, so element i lives on thread
// dst.thread + i: the request's dst endpoint, blocks of one element). The
// result is bit for bit the reduce's: the same fold, done once, copied T - 1
// times. The plan is the reduce's plan with the copy appended.
//
//   src ──reduce──▶ dst (root) ──▶ dst + 1, dst + 2, … (each rank pulls its copy)
//
// Steps: the reduce's, then one ready flag from the root and one copy of one
// element per rank.
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

namespace {
void then_copy(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  if (me == root) {
    p.publish_ready2();  // the reduce's steps have written the result
    touch_all_but(p.touchers, me, T);
    return;
  }
  p.wait_ready2(root);
  p.copy(rq.dst.block_of(t.thread_of(me)), rq.dst.block_of(t.thread_of(root)), rq.red.size);
  touch_one(p.touches, root, me);
}

void reduce_then_copy(builder reduce, const request& rq, team& t, plan& p) {
  reduce(rq, t, p);
  plan copy;
  then_copy(rq, t, copy);
  p.append(copy);
}
}  // namespace

void allreduce_flat(const request& rq, team& t, plan& p) { reduce_then_copy(reduce_flat, rq, t, p); }
void allreduce_binomial(const request& rq, team& t, plan& p) { reduce_then_copy(reduce_binomial, rq, t, p); }

}  // namespace upc::coll::algo
