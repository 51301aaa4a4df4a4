// Binomial-flat-tree scatter (seed 003 §3.3, Figure 3.10's pattern; node
// roots from lib/coll/common/node_groups.hpp): between nodes a binomial tree
// over the nodes, rooted at the root's node — a node root receives, in its
// scratch, the pieces of every node of its subtree (node by node, each node's
// ranks in node order) and passes each child node root its subtree's run;
// within every node the flat algorithm: each thread copies its own piece from
// its node root's scratch (on the root's node, from src).
//
//   4 nodes, root on node 0: node 0 ─┬─▶ node 1 (pieces of node 1)
//                                     └─▶ node 2 (pieces of nodes 2 and 3) ──▶ node 3
//
// Steps: ⌈log2 N⌉ levels between nodes, one within. Bytes between nodes: a
// node's pieces cross once per level of its depth (Σ depth(k)·|k|·n, against
// flat's one crossing), in N−1 copies per level's worth of runs; the root's src
// is read by ⌈log2 N⌉ node roots instead of N−1: the thesis's choice for many
// nodes. Scratch: the pieces of the largest subtree below the root's node.
// Synchronisation: one ready flag per node root; readers of src ack the root
// (user data), readers of a scratch its owner, unless OUT_ALLSYNC.
// Restrictions: none; on one node it is flat pull.
//
// Built as a chunk list of one piece per member and moved by the flows of
// lib/coll/common/chunk_flows (chunks_node_aware.cpp): the same tree, and
// the subtree runs forwarded in segments (UPCEMU_COLL_SEGMENT), so a child
// node root passes segment k on while its parent receives k + 1 (seed 003
// §3.3's segmentation of large inter-node transfers).
#include "algorithms.hpp"

namespace upc::coll::algo {

void scatter_binomial_flat(const request& rq, team& t, plan& p) { pieces_binomial_flat(rq, t, p, true); }

}  // namespace upc::coll::algo
