// Binomial-flat-tree gather (seed 003 §3.3; node roots from
// lib/coll/common/node_groups.hpp), the scatter's mirror: within every node the
// flat algorithm (the node root copies its node's blocks into its scratch; on
// the root's node the root copies them straight into dst); between nodes a
// binomial tree over the nodes, rooted at the root's node: a node root appends
// each child node root's run (the blocks of the child's node-subtree) to its
// scratch, and the root copies its children's runs into dst.
//
// Steps: one within, ⌈log2 N⌉ levels between nodes. Bytes between nodes:
// Σ depth(k)·|k|·n, one copy per tree edge; no node root is read by more than
// ⌈log2 N⌉ others. Scratch: the blocks of the largest subtree below the root's
// node. Synchronisation: one ready flag per node root; the reader of a
// scratch acks it unless OUT_ALLSYNC. Restrictions: none.
//
// Built as a chunk list of one piece per member and moved by the flows of
// lib/coll/common/chunk_flows (chunks_node_aware.cpp), runs climbing the tree
// in segments (UPCEMU_COLL_SEGMENT).
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_binomial_flat(const request& rq, team& t, plan& p) { pieces_binomial_flat(rq, t, p, false); }

}  // namespace upc::coll::algo
