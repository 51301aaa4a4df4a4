// Multicore-aware exchange (seed 001; lib/coll/common/node_groups.hpp): the
// pieces from one node to another travel as one copy between their node roots.
// Piece (i → j) is block j of i's src row and goes to block i of j's dst row.
//
//   within a node:    every rank pulls the pieces of its own node's ranks
//                     straight from their rows (as flat pull)
//   step 1 (within):  each node root A collects, for every other node B, the
//                     pieces (i → j), i on A, j on B, into its scratch
//                     (outbox B: i-major, |A|·|B| pieces)
//   step 2 (between): each node root B copies every other root A's outbox B
//                     into its own scratch (inbox A): one copy per node pair
//   step 3 (within):  every rank j on B copies its pieces from its root's inboxes
//
// Bytes between nodes: every piece between two nodes once, as for flat, in
// N·(N−1) copies instead of one per pair of threads on different nodes;
// within nodes each such piece twice more (collected, delivered). Scratch per
// rank: 2 × the largest |K|·(T−|K|) pieces of a node K. Synchronisation: two
// ready stages per node root (outboxes, inboxes); readers of a root's scratch
// ack it unless OUT_ALLSYNC. Restrictions: none.
#include <algorithm>

#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void exchange_multicore(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const std::size_t n = rq.nbytes;
  const node_groups g{t, -1};
  const int N = g.count(), my_node = g.node_of(me), my_root = g.root_of(my_node);
  auto src_row = [&](int rank) { return rq.src.block_of(t.thread_of(rank)); };
  auto dst_row = [&](int rank) { return rq.dst.block_of(t.thread_of(rank)); };
  auto size_of = [&](int k) { return g.ranks_on(k).size(); };
  p.stages = 2;

  // scratch layout, the same on every rank: outboxes then inboxes, by node
  std::size_t half = 0;
  for (int k = 0; k < N; ++k) half = std::max(half, size_of(k) * (static_cast<std::size_t>(T) - size_of(k)) * n);
  t.ensure_scratch(2 * half);
  auto box_offset = [&](int node, int other) {  // pieces before `other`'s box in node's outbox (or inbox)
    std::size_t at = 0;
    for (int k = 0; k < other; ++k)
      if (k != node) at += size_of(node) * size_of(k);
    return at * n;
  };
  const bool scratch_acks = readers_must_ack(rq.flags, false);

  // within my node: straight from the rows
  for (int i : g.ranks_on(my_node)) {
    p.copy(dst_row(me) + static_cast<std::size_t>(i) * n, src_row(i) + static_cast<std::size_t>(me) * n, n);
    if (i != me) {
      p.touches.push_back(i);
      p.touchers.push_back(i);
    }
  }
  if (N == 1) return;

  std::vector<int> readers;  // who reads my scratch (other roots, my node's ranks)
  if (me == my_root) {
    // 1. my outboxes: (i → j) for i on my node, j elsewhere, i-major per destination node
    char* out = t.scratch(me);
    for (int b = 0; b < N; ++b) {
      if (b == my_node) continue;
      std::size_t at = box_offset(my_node, b);
      for (int i : g.ranks_on(my_node))
        for (int j : g.ranks_on(b)) {
          p.copy(out + at, src_row(i) + static_cast<std::size_t>(j) * n, n);
          at += n;
        }
      readers.push_back(g.root_of(b));
    }
    p.publish_ready(0);
    // 2. every other root's outbox for my node, into my inboxes
    char* in = t.scratch(me) + half;
    for (int a = 0; a < N; ++a) {
      if (a == my_node) continue;
      const int other = g.root_of(a);
      p.wait_ready(other, 0);
      p.copy(in + box_offset(my_node, a), t.scratch(other) + box_offset(a, my_node), size_of(a) * size_of(my_node) * n);
      if (scratch_acks) p.ack(other);
    }
    p.publish_ready(1);
    for (int r : g.ranks_on(my_node))
      if (r != me) readers.push_back(r);
  } else {
    p.wait_ready(my_root, 1);
  }
  // 3. my pieces from other nodes, out of my root's inboxes (piece (i → me) at i-major position)
  const std::vector<int>& mine = g.ranks_on(my_node);
  const std::size_t my_slot = static_cast<std::size_t>(std::find(mine.begin(), mine.end(), me) - mine.begin());
  const char* in = t.scratch(my_root) + half;
  for (int a = 0; a < N; ++a) {
    if (a == my_node) continue;
    const std::vector<int>& from = g.ranks_on(a);
    for (std::size_t x = 0; x < from.size(); ++x)
      p.copy(dst_row(me) + static_cast<std::size_t>(from[x]) * n,
             in + box_offset(my_node, a) + (x * mine.size() + my_slot) * n, n);
  }
  if (me != my_root && scratch_acks) p.ack(my_root);
  // the roots read every rank's src row (step 1) and write nothing of others'
  if (me == my_root) {
    for (int r : mine)
      if (r != me) p.touches.push_back(r);
  } else {
    p.touchers.push_back(my_root);
  }
  if (scratch_acks && !readers.empty()) {
    p.ack_from = readers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
