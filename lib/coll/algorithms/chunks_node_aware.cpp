// Node-aware chunk lists (seed 003 §3.3, Figures 3.8–3.10; seed 001's
// multicore idea): the extended collectives' data movement (request::chunks)
// as trees of holders, built by lib/coll/common/chunk_flows.
//
// A list is *rooted* when all its runs between threads leave one member (a
// broadcast_v, scatter_priv, …: one to many) or reach one member (gather_priv,
// gather_v: many to one). Rooted lists take the tree of the row:
//
//   multicore      flat tree over nodes (Figure 3.8): the root sends each
//                  node's runs to that node's root in one message, which
//                  scatters them within its node (the mirror for many to one)
//   binomial_flat  binomial tree over the node roots, flat within (Figure 3.10)
//   binomial       binomial tree over the ranks (Figure 3.9, for NUMA nodes):
//                  a rank holds what its subtree needs
//
//   scatter_priv, 4 nodes × 4 threads, root 0:
//     multicore:      0 ──▶ 4, 8, 12 (4 pieces each)      then 4 ──▶ 5, 6, 7 …
//     binomial_flat:  0 ──▶ 4 (4 pieces), 0 ──▶ 8 (8) ──▶ 12 (4), then flat
//     binomial:       0 ──▶ 8 (8) ──▶ 12 (4) ──▶ 14 (2) ──▶ 15 …
//
// A run crosses each tree edge once, however many chunks read it (a
// broadcast_v's one run: N − 1 inter-node copies with the node trees). Large
// runs move in segments (UPCEMU_COLL_SEGMENT), so a child forwards segment k
// while its parent receives k + 1.
//
// Any other list (an exchange_v, gather_all_v: runs between many pairs) runs
// aggregated by node pairs, as seed 001's multicore exchange (runs of up to
// 2 KiB; larger ones go straight from source to destination): each node root
// gathers its node's runs bound elsewhere (its members' private runs staged by
// them or read in place), node roots pull each other's part in one copy per
// pair of nodes, and members copy theirs out of their node root's buffer;
// runs within a node go straight from source to destination. On one node that
// is the flat pull. Lists that overwrite their own sources (in-place
// exchange and permute: request::stage_sources) or touch a thread outside the
// team run the flat pull.
#include <algorithm>
#include <unordered_set>

#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/chunk_flows.hpp"
#include "../common/node_groups.hpp"
#include "algorithms.hpp"
#include "upc/runtime.hpp"

namespace upc::coll::algo {

namespace {

enum class tree_kind { flat_over_nodes, binomial_over_nodes, binomial_over_ranks };

bool runs_flat(const request& rq, const team& t) {
  if (rq.stage_sources) return true;
  for (const chunk& c : *rq.chunks)
    if (t.rank_of(c.src.thread) < 0 || t.rank_of(c.dst.thread) < 0) return true;
  return false;
}

// The one rank all runs leave (out = true) or reach (out = false); -1: none.
struct list_root {
  int rank = -1;
  bool out = true;
};
list_root root_of(const request& rq, const team& t, const chunk_runs& runs) {
  int s = -2, d = -2;  // -2: no run yet, -1: several
  const std::vector<chunk>& chunks = *rq.chunks;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (runs.of_chunk[i] < 0) continue;
    const int sr = t.rank_of(chunks[i].src.thread), dr = t.rank_of(chunks[i].dst.thread);
    s = (s == -2 || s == sr) ? sr : -1;
    d = (d == -2 || d == dr) ? dr : -1;
  }
  if (s >= 0) return {s, true};
  if (d >= 0) return {d, false};
  return {};
}

// The tree of holders: which ranks hold runs (vertices), each one's parent,
// where each rank's runs are kept (its home vertex), and the order in which a
// holder keeps ranks' runs (subtrees contiguous).
struct holder_tree {
  int root;
  std::vector<int> parent;  // per rank: its parent vertex (vertices only; -1 at the root)
  std::vector<int> home;    // per rank: the vertex that holds its runs
  std::vector<int> order;   // the ranks, subtree by subtree

  // The vertices from rank r's home up to, not including, the root.
  std::vector<int> chain(int r) const {
    std::vector<int> c;
    for (int v = home[static_cast<std::size_t>(r)]; v != root; v = parent[static_cast<std::size_t>(v)]) c.push_back(v);
    return c;
  }
};

holder_tree make_tree(const team& t, int root, tree_kind kind) {
  const int T = t.size();
  holder_tree h{root, std::vector<int>(static_cast<std::size_t>(T), -1), std::vector<int>(static_cast<std::size_t>(T), root), {}};
  if (kind == tree_kind::binomial_over_ranks) {
    const binomial_tree bt{T, root};
    for (int rel = 0; rel < T; ++rel) {
      const int r = bt.absolute(rel);
      h.order.push_back(r);
      if (rel == 0) continue;
      h.parent[static_cast<std::size_t>(r)] = bt.absolute(bt.parent(rel));
      // a rank with children holds its own runs with its subtree's (one
      // message per tree edge); a leaf's come from (or go to) its parent
      h.home[static_cast<std::size_t>(r)] = bt.subtree(rel) > 1 ? r : h.parent[static_cast<std::size_t>(r)];
    }
    return h;
  }
  const node_groups g{t, root};
  const node_tree tree{g, g.node_of(root)};
  for (int v = 0; v < tree.nodes.size; ++v) {
    const int node = tree.nodes.absolute(v), node_root = g.root_of(node);
    for (int r : g.ranks_on(node)) {
      h.order.push_back(r);
      h.home[static_cast<std::size_t>(r)] = v == 0 ? root : node_root;
    }
    if (v == 0) continue;
    const int parent_node = kind == tree_kind::flat_over_nodes ? 0 : tree.nodes.parent(v);
    h.parent[static_cast<std::size_t>(node_root)] = g.root_of(tree.nodes.absolute(parent_node));
  }
  return h;
}

// Flows with nothing held yet, every chunk delivered from its source (-1).
chunk_flows no_flows(const request& rq, const team& t) {
  return {std::vector<std::vector<chunk_flows::entry>>(static_cast<std::size_t>(t.size())), std::vector<int>(rq.chunks->size(), -1)};
}

// The chunks that are runs between threads, by the team rank of their
// destination (to = true) or of their source, in list order.
std::vector<std::vector<std::size_t>> runs_by_rank(const request& rq, const team& t, const chunk_runs& runs, bool to) {
  const std::vector<chunk>& chunks = *rq.chunks;
  std::vector<std::vector<std::size_t>> by(static_cast<std::size_t>(t.size()));
  for (std::size_t i = 0; i < chunks.size(); ++i)
    if (runs.of_chunk[i] >= 0) by[static_cast<std::size_t>(t.rank_of(to ? chunks[i].dst.thread : chunks[i].src.thread))].push_back(i);
  return by;
}

// One to many: a vertex holds the runs of every rank whose home is in its
// subtree, from its parent; a rank takes its runs from its home (or from its
// own buffer, when it holds them anyway).
chunk_flows one_to_many(const request& rq, const team& t, const chunk_runs& runs, const holder_tree& h) {
  chunk_flows f = no_flows(rq, t);
  const std::vector<std::vector<std::size_t>> to_rank = runs_by_rank(rq, t, runs, true);
  auto from_parent = [&](int v) { return h.parent[static_cast<std::size_t>(v)] == h.root ? -1 : h.parent[static_cast<std::size_t>(v)]; };
  std::vector<std::unordered_set<int>> held(static_cast<std::size_t>(t.size()));
  for (int r : h.order)
    for (int v : h.chain(r))
      for (std::size_t i : to_rank[static_cast<std::size_t>(r)]) {
        f.buffer[static_cast<std::size_t>(v)].push_back({runs.of_chunk[i], from_parent(v)});
        held[static_cast<std::size_t>(v)].insert(runs.of_chunk[i]);
      }
  for (int r : h.order) {
    const int home = h.home[static_cast<std::size_t>(r)];
    for (std::size_t i : to_rank[static_cast<std::size_t>(r)])
      f.deliver_from[i] = held[static_cast<std::size_t>(r)].count(runs.of_chunk[i]) ? r : home == h.root ? -1 : home;
  }
  return f;
}

// Many to one: a vertex collects the runs of every rank whose home is in its
// subtree — its home ranks' from their sources, the rest from the child
// vertex below; the root takes each run from the top of its chain.
chunk_flows many_to_one(const request& rq, const team& t, const chunk_runs& runs, const holder_tree& h) {
  chunk_flows f = no_flows(rq, t);
  const std::vector<std::vector<std::size_t>> from_rank = runs_by_rank(rq, t, runs, false);
  for (int r : h.order) {
    const std::vector<int> chain = h.chain(r);
    for (std::size_t i : from_rank[static_cast<std::size_t>(r)]) {
      for (std::size_t j = 0; j < chain.size(); ++j)
        f.buffer[static_cast<std::size_t>(chain[j])].push_back({runs.of_chunk[i], j == 0 ? -1 : chain[j - 1]});
      f.deliver_from[i] = chain.empty() ? -1 : chain.back();
    }
  }
  return f;
}

// Runs up to this size are aggregated by node pairs; larger ones go straight
// from source to destination: aggregation saves a message per run, which
// only pays while runs are small (an exchange on 4 x 4 threads with the
// network model: 1.7 x faster at 1 KiB pieces, 1.5 x slower at 4 KiB), and
// its node-root buffers grow with every run they hold.
constexpr std::uint64_t aggregate_at_most = 2048;

// Any list: aggregated by pairs of nodes through the node roots.
chunk_flows by_node_pairs(const request& rq, const team& t, const chunk_runs& runs) {
  const std::vector<chunk>& chunks = *rq.chunks;
  const node_groups g{t, -1};
  const int N = g.count();
  chunk_flows f = no_flows(rq, t);
  // pairs[a * N + b]: the chunks from node a to node b, in list order
  std::vector<std::vector<std::size_t>> pairs(static_cast<std::size_t>(N) * static_cast<std::size_t>(N));
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (runs.of_chunk[i] < 0 || runs.bytes[static_cast<std::size_t>(runs.of_chunk[i])] > aggregate_at_most) continue;
    const int a = g.node_of(t.rank_of(chunks[i].src.thread)), b = g.node_of(t.rank_of(chunks[i].dst.thread));
    if (a != b) pairs[static_cast<std::size_t>(a * N + b)].push_back(i);
  }
  for (int a = 0; a < N; ++a)  // node roots' outgoing runs, by destination node
    for (int b = 0; b < N; ++b)
      for (std::size_t i : pairs[static_cast<std::size_t>(a * N + b)])
        f.buffer[static_cast<std::size_t>(g.root_of(a))].push_back({runs.of_chunk[i], -1});
  for (int b = 0; b < N; ++b)  // incoming, by source node
    for (int a = 0; a < N; ++a)
      for (std::size_t i : pairs[static_cast<std::size_t>(a * N + b)]) {
        f.buffer[static_cast<std::size_t>(g.root_of(b))].push_back({runs.of_chunk[i], g.root_of(a)});
        f.deliver_from[i] = g.root_of(b);
      }
  return f;
}

void build(const request& rq, team& t, plan& p, tree_kind kind) {
  if (runs_flat(rq, t)) return chunks_pull(rq, t, p);
  const chunk_runs runs = distinct_runs(*rq.chunks);
  const list_root root = root_of(rq, t, runs);
  if (root.rank < 0) return build_chunk_flows(rq, t, p, runs, by_node_pairs(rq, t, runs));
  const holder_tree h = make_tree(t, root.rank, kind);
  build_chunk_flows(rq, t, p, runs, root.out ? one_to_many(rq, t, runs, h) : many_to_one(rq, t, runs, h));
}

// A byte of the shared segment as a chunk place (its thread's partition).
place shared_place(const char* at) {
  const std::uint64_t off = static_cast<std::uint64_t>(at - upc::detail::g_partitions);
  return place{off % upc::detail::g_partition_bytes, static_cast<std::int32_t>(off / upc::detail::g_partition_bytes), false};
}

// The standard scatter (one_to_many) or gather as a chunk list, one piece per
// member, built as `kind`'s tree.
void standard_as_tree(const request& rq, team& t, plan& p, tree_kind kind, bool scatter) {
  std::vector<chunk> list;
  const std::size_t n = rq.nbytes;
  for (int r = 0; r < t.size(); ++r) {
    const int thr = t.thread_of(r);
    const place piece = shared_place(scatter ? rq.src.piece(r, thr, n) : rq.dst.piece(r, thr, n));
    const place block = shared_place(scatter ? rq.dst.block_of(thr) : rq.src.block_of(thr));
    list.push_back(scatter ? chunk{piece, block, n} : chunk{block, piece, n});
  }
  request as_list = rq;
  as_list.chunks = &list;
  const chunk_runs runs = distinct_runs(list);
  const holder_tree h = make_tree(t, rq.root, kind);
  build_chunk_flows(as_list, t, p, runs, scatter ? one_to_many(as_list, t, runs, h) : many_to_one(as_list, t, runs, h));
}

}  // namespace

void pieces_binomial_flat(const request& rq, team& t, plan& p, bool scatter) {
  standard_as_tree(rq, t, p, tree_kind::binomial_over_nodes, scatter);
}

void chunks_multicore(const request& rq, team& t, plan& p) { build(rq, t, p, tree_kind::flat_over_nodes); }
void chunks_binomial_flat(const request& rq, team& t, plan& p) { build(rq, t, p, tree_kind::binomial_over_nodes); }
void chunks_binomial(const request& rq, team& t, plan& p) { build(rq, t, p, tree_kind::binomial_over_ranks); }

}  // namespace upc::coll::algo
