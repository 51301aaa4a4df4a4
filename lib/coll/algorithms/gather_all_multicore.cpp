// Multicore-aware gather_all (seed 001; lib/coll/common/node_groups.hpp): each
// node root collects its node's blocks into its own row, the node roots then
// copy each other node's part of their rows between nodes (one copy per node
// pair when a node's ranks are consecutive), and every other thread copies its
// node root's full row within the node.
//
//   2 nodes {0,1,2,3} {4,5,6,7}, roots 0 and 4
//   step 1 (within):  0 copies blocks 0-3 into its row, 4 blocks 4-7 into its row
//   step 2 (between): 0 copies 4's pieces 4-7, 4 copies 0's pieces 0-3
//   step 3 (within):  1-3 copy 0's row, 5-7 copy 4's row
//
// Steps: 3. Bytes between nodes: each node's blocks to every other node once,
// Σ_k |k|·(N−1)·n, in N·(N−1) copies (flat: T·(T−|node|) copies of n). Within
// nodes: T·n to the roots, T·n per other thread. Synchronisation: two ready
// stages per node root (its node's part, then its full row); readers ack
// unless OUT_ALLSYNC (rows are user data). Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_all_multicore(const request& rq, team& t, plan& p) {
  const int me = t.rank();
  const std::size_t n = rq.nbytes;
  const node_groups g{t, -1};
  p.stages = 2;
  const int my_node = g.node_of(me), my_root = g.root_of(my_node);
  auto row_of = [&](int rank) { return rq.dst.block_of(t.thread_of(rank)); };
  auto block_of = [&](int rank) { return rq.src.block_of(t.thread_of(rank)); };
  const bool acks = readers_must_ack(rq.flags, true);
  char* const row = row_of(me);

  if (me != my_root) {
    p.touchers.push_back(my_root);  // my root reads my block, and I its row
    p.wait_ready(my_root, 1);
    p.copy(row, row_of(my_root), static_cast<std::size_t>(t.size()) * n);
    if (acks) p.ack(my_root);
    p.touches.push_back(my_root);
    return;
  }
  // 1. my node's blocks into my row
  const std::vector<int>& mates = g.ranks_on(my_node);
  {
    std::vector<char*> to;
    std::vector<const char*> from;
    for (int r : mates) {
      to.push_back(row + static_cast<std::size_t>(r) * n);
      from.push_back(block_of(r));
      if (r != me) p.touches.push_back(r);
    }
    copy_pieces(p, to, from, n);
  }
  p.publish_ready(0);
  // 2. every other node's part, from its root's row
  for (int k = 0; k < g.count(); ++k) {
    if (k == my_node) continue;
    const int other = g.root_of(k);
    std::vector<char*> to;
    std::vector<const char*> from;
    for (int r : g.ranks_on(k)) {
      to.push_back(row + static_cast<std::size_t>(r) * n);
      from.push_back(row_of(other) + static_cast<std::size_t>(r) * n);
    }
    p.wait_ready(other, 0);
    copy_pieces(p, to, from, n);
    if (acks) p.ack(other);
    p.touches.push_back(other);
    p.touchers.push_back(other);
  }
  p.publish_ready(1);
  // 3. my node's other threads copy my row
  for (int r : mates)
    if (r != me) p.touchers.push_back(r);
  if (acks && !p.touchers.empty()) {
    p.ack_from = p.touchers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
