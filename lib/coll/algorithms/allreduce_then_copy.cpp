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
// element per rank. The copies can also go as xupc's broadcast of the result
// does (seed 001): pushed by the root (UPC_PUSH), or through one root per node
// of the virtual topology (UPC_MULTICORE: one copy between nodes per node).
#include "../common/node_groups.hpp"
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

// The root writes every other rank's element (after its own reduce steps).
void then_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = rq.root;
  if (me != root) {
    touch_one(p.touchers, root, me);
    return;
  }
  for (int r = 0; r < T; ++r)
    if (r != root) p.copy(rq.dst.block_of(t.thread_of(r)), rq.dst.block_of(t.thread_of(root)), rq.red.size);
  touch_all_but(p.touches, me, T);
}

// Node roots copy the root's element between nodes, their node's ranks copy theirs.
void then_multicore(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  const node_groups g{t, root};
  const int my_root = g.my_root();
  auto element = [&](int rank) { return rq.dst.block_of(t.thread_of(rank)); };
  if (me == root) {
    p.publish_ready2();
    for (int r : g.ranks_on(g.node_of(me)))
      if (r != me) p.touchers.push_back(r);
    for (int k = 0; k < g.count(); ++k)
      if (k != g.node_of(me)) p.touchers.push_back(g.root_of(k));
    return;
  }
  const int from = g.on_op_root_node(me) || me == my_root ? root : my_root;
  p.wait_ready2(from);
  p.copy(element(me), element(from), rq.red.size);
  p.touches.push_back(from);
  if (me == my_root) {
    p.publish_ready2();
    for (int r : g.ranks_on(g.node_of(me)))
      if (r != me) p.touchers.push_back(r);
  }
}

using then_step = void (*)(const request&, team&, plan&);
void reduce_then(builder reduce, then_step then, const request& rq, team& t, plan& p) {
  reduce(rq, t, p);
  plan copy;
  then(rq, t, copy);
  p.append(copy);
}
}  // namespace

void allreduce_flat(const request& rq, team& t, plan& p) { reduce_then(reduce_flat, then_copy, rq, t, p); }
void allreduce_binomial(const request& rq, team& t, plan& p) { reduce_then(reduce_binomial, then_copy, rq, t, p); }
void allreduce_push(const request& rq, team& t, plan& p) { reduce_then(reduce_flat, then_push, rq, t, p); }
void allreduce_multicore(const request& rq, team& t, plan& p) { reduce_then(reduce_multicore, then_multicore, rq, t, p); }

}  // namespace upc::coll::algo
