// Multicore-aware prefix reduction (seed 001; lib/coll/common/node_groups.hpp),
// with the determinism contract of prefix_reduce_flat.cpp (the same bits for
// every algorithm: the same block totals, scanned by rank 0 in index order,
// the same local finish). Only the way totals and prefixes travel differs:
//
//   1. every rank folds each of its blocks into a block total (its scratch);
//   2. each other node's root collects its node's totals as one list, in node
//      order (within the node);
//   3. rank 0 copies each such list in one copy (between nodes), reads its own
//      node's totals in place, and scans them all in index order into a list
//      of prefixes, node by node;
//   4. each other node's root copies its node's run of prefixes in one copy
//      (between nodes); every rank finishes its blocks reading its prefixes
//      from its node root's list (rank 0's on rank 0's node).
//
//   2 nodes {0,1,2,3} {4,5,6,7}: 4 collects the totals of 5, 6, 7; 0 copies
//   [t4 t5 t6 t7] once, scans t0 … t7, 4 copies [p4 p5 p6 p7] once.
//
// Bytes between nodes: 2·(T − |K0|) ranks' totals areas, in 2·(N−1) copies
// (flat: rank 0 reads every total and every rank its prefixes, a copy per
// rank off rank 0's node each way). Scratch: (2 + 2T) totals areas on every
// rank (the same everywhere). Stages: 0 totals, 1 a node's list, 2 rank 0's
// prefixes, 3 a node's prefixes. Readers of a scratch ack it unless OUT_ALLSYNC.
#include <algorithm>

#include "../common/binomial_tree.hpp"
#include "../common/node_groups.hpp"
#include "../common/reduction_stages.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void prefix_reduce_multicore(const request& rq, team& t, plan& p) {
  const member_partials shape = member_partials::of_prefix(rq, t, p);
  const auto& [me, T, E, src, by_block, S] = shape;  // S: one rank's totals
  const node_groups g{t, 0};
  const int my_node = g.node_of(me), my_root = g.root_of(my_node), root_node = g.node_of(0);
  // every scratch: [my totals][unused][a list of totals: T areas][a list of prefixes: T areas]
  const std::size_t L = 2 * S, P = L + static_cast<std::size_t>(T) * S;
  t.ensure_scratch(P + static_cast<std::size_t>(T) * S + 64);
  const bool acks = readers_must_ack(rq.flags, false);
  p.stages = 4;
  // rank 0's lists: node by node (each node's ranks in node order)
  std::vector<std::size_t> pos(static_cast<std::size_t>(T), 0), node_first(static_cast<std::size_t>(g.count()), 0);
  {
    std::size_t k = 0;
    for (int n = 0; n < g.count(); ++n) {
      node_first[static_cast<std::size_t>(n)] = k;
      for (int r : g.ranks_on(n)) pos[static_cast<std::size_t>(r)] = k++;
    }
  }
  std::vector<int> readers;  // of my scratch
  auto scratch = [&](int r) { return t.scratch(r); };

  // 1. my block totals
  plan_block_totals(p, src, t.thread_of(me), scratch(me));
  p.publish_ready(0);

  // 2. another node's root: its node's totals, in node order
  const std::vector<int>& mates = g.ranks_on(my_node);
  if (me == my_root && my_node != root_node) {
    for (std::size_t i = 0; i < mates.size(); ++i) {
      if (mates[i] != me) {
        p.wait_ready(mates[i], 0);
        readers.push_back(mates[i]);  // (I read theirs; they read my prefixes below)
      }
      p.copy(scratch(me) + L + i * S, scratch(mates[i]), S);
      if (acks && mates[i] != me) p.ack(mates[i]);
    }
    p.publish_ready(1);
    readers.push_back(0);
  }

  // 3. rank 0 scans every total in index order
  if (me == 0) {
    for (int n = 0; n < g.count(); ++n) {
      if (n == root_node) continue;
      const int r = g.root_of(n);
      p.wait_ready(r, 1);
      p.copy(scratch(0) + L + node_first[static_cast<std::size_t>(n)] * S, scratch(r) + L, g.ranks_on(n).size() * S);
      if (acks) p.ack(r);
      readers.push_back(r);
    }
    for (int r : g.ranks_on(root_node))
      if (r != 0) {
        p.wait_ready(r, 0);
        readers.push_back(r);
      }
    std::size_t count = 0;
    const auto totals = partial_table(src, t, true, [&](int r) -> const char* {
      return g.node_of(r) == root_node ? scratch(r) : scratch(0) + L + pos[static_cast<std::size_t>(r)] * S;
    }, count);
    const auto prefixes = partial_table(src, t, true, [&](int r) -> const char* {
      return scratch(0) + P + pos[static_cast<std::size_t>(r)] * S;
    }, count);
    p.scan_interleaved(totals, prefixes, count, static_cast<std::ptrdiff_t>(E));
    p.publish_ready(2);
    if (acks)
      for (int r : g.ranks_on(root_node))
        if (r != 0) p.ack(r);  // done with its totals
  }

  // 4. another node's root: its node's prefixes, in one copy
  if (me == my_root && my_node != root_node) {
    p.wait_ready(0, 2);
    p.copy(scratch(me) + P, scratch(0) + P + node_first[static_cast<std::size_t>(my_node)] * S, mates.size() * S);
    if (acks) p.ack(0);
    p.publish_ready(3);
  }
  // my prefixes: my node root's list (rank 0's on its node)
  const char* mine = nullptr;
  if (my_node == root_node) {
    if (me != 0) {
      p.wait_ready(0, 2);
      readers.push_back(0);  // it read my totals
    }
    mine = scratch(0) + P + pos[static_cast<std::size_t>(me)] * S;
  } else {
    if (me != my_root) {
      p.wait_ready(my_root, 3);
      readers.push_back(my_root);  // it reads my totals
    }
    mine = scratch(my_root) + P + static_cast<std::size_t>(g.slot_of(me)) * S;
  }
  plan_prefix_finish(p, t, src, rq.out, mine);
  if (acks && me != my_root) p.ack(my_root);  // done with my prefixes (rank 0's on its node)
  if (me == 0)
    for (int r : g.ranks_on(root_node))
      if (r != 0) readers.push_back(r);  // they read my prefixes
  if (acks && !readers.empty()) {
    std::sort(readers.begin(), readers.end());
    readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
    p.ack_from = readers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
