// Every algorithm's plan builder. One file per (collective, algorithm) family;
// the registry (lib/coll/registry.cpp) lists them with their restrictions.
#pragma once
#include "../plan.hpp"
#include "../request.hpp"
#include "../team.hpp"

namespace upc::coll::algo {

using builder = void (*)(const request&, team&, plan&);

// Flat: one step, every copy direct (single-copy through the shared mapping).
// pull: each rank copies what it receives; push: each rank copies what it sends.
void broadcast_pull(const request&, team&, plan&);
void broadcast_push(const request&, team&, plan&);
void scatter_pull(const request&, team&, plan&);
void scatter_push(const request&, team&, plan&);
void gather_pull(const request&, team&, plan&);
void gather_push(const request&, team&, plan&);
void gather_all_pull(const request&, team&, plan&);
void gather_all_push(const request&, team&, plan&);
void exchange_pull(const request&, team&, plan&);
void exchange_push(const request&, team&, plan&);
void exchange_pairwise(const request&, team&, plan&);
void permute_pull(const request&, team&, plan&);
void permute_push(const request&, team&, plan&);

// The mpi family (mpi_collectives.cpp): the matching MPI collective, on the
// mpi backend's world team.
void broadcast_mpi(const request&, team&, plan&);
void scatter_mpi(const request&, team&, plan&);
void gather_mpi(const request&, team&, plan&);
void gather_all_mpi(const request&, team&, plan&);
void exchange_mpi(const request&, team&, plan&);

// Trees (lib/coll/common/binomial_tree.hpp): a binomial tree relative to the root,
// intermediate ranks forwarding through their dst block or their scratch.
void broadcast_binomial(const request&, team&, plan&);
void scatter_binomial(const request&, team&, plan&);
void gather_binomial(const request&, team&, plan&);

// Multicore-aware (seed 001, lib/coll/common/node_groups.hpp): a root per
// node of the virtual topology does the node's copies between nodes, one per
// node; the node's threads copy within the node.
void broadcast_multicore(const request&, team&, plan&);
void scatter_multicore(const request&, team&, plan&);
void gather_multicore(const request&, team&, plan&);
// Seed 003 §3.3: a binomial tree over the nodes' roots, flat within nodes.
void broadcast_binomial_flat(const request&, team&, plan&);
void scatter_binomial_flat(const request&, team&, plan&);
void gather_binomial_flat(const request&, team&, plan&);
void gather_all_multicore(const request&, team&, plan&);
void exchange_multicore(const request&, team&, plan&);
// Partials collected per node as ordered lists, one list per node to the root,
// folded there in rank order (the reduce_flat expression).
void reduce_multicore(const request&, team&, plan&);
// The same lists climbing a binomial tree over the node roots (seed 003 §3.3).
void reduce_binomial_flat(const request&, team&, plan&);
// Block totals collected per node, one list per node to rank 0, which scans
// them in index order; the prefixes go back the same way.
void prefix_reduce_multicore(const request&, team&, plan&);

// gather_all in rounds, with staged ready flags: ceil(log2 T) rounds
// (distance doubling, any T) or T - 1 ring steps.
void gather_all_recursive_doubling(const request&, team&, plan&);
void gather_all_ring(const request&, team&, plan&);

// Reductions: per-rank partials combined at the root in rank order.
void reduce_flat(const request&, team&, plan&);
void prefix_reduce_flat(const request&, team&, plan&);
// The same expressions, with partials (reduce) and block totals / prefixes
// (prefix_reduce) moved along a binomial tree; only the root folds.
void reduce_binomial(const request&, team&, plan&);
void prefix_reduce_binomial(const request&, team&, plan&);

void sort_at_root(const request&, team&, plan&);

// The general data movement (request::chunks, the extended collectives): every
// chunk copied once, by its destination's owner (pull) or its source's (push);
// private bytes only by their owner, through the owner's scratch when both
// ends are private to different threads; sources staged first when chunks
// may overwrite what others read (in place).
// On the threads backend (one address space) a private source is read
// straight from its owner's buffer; `staged` always goes through the owner's
// scratch, once per distinct source: the thesis's Figure 3.7 for a private
// broadcast, and what pull and push do on the processes backend.
void chunks_pull(const request&, team&, plan&);
void chunks_push(const request&, team&, plan&);
void chunks_staged(const request&, team&, plan&);
// Node-aware chunk lists (chunks_node_aware.cpp, seed 003 Figures 3.8–3.10):
// lists with one root as a flat tree over nodes (multicore), a binomial tree
// over node roots (binomial_flat) or over ranks (binomial); other lists
// aggregated by pairs of nodes through the node roots.
void chunks_multicore(const request&, team&, plan&);
void chunks_binomial_flat(const request&, team&, plan&);
void chunks_binomial(const request&, team&, plan&);
// The standard scatter (scatter = true) or gather as a list of one piece per
// member, moved along the binomial tree over node roots by the same flows
// (scatter_binomial_flat.cpp, gather_binomial_flat.cpp).
void pieces_binomial_flat(const request&, team&, plan&, bool scatter);

// upc_all_exchange_in_place (the extended collectives) by pairs: thread i
// swaps piece (i, i+s) with piece (i+s, i) for s = 1 .. T/2 (for even T, the
// lower half only at s = T/2) through a private buffer of one piece; every
// pair of pieces is swapped once, by one thread (seed 003, Figure 3.3).
void exchange_in_place_pairwise(const request&, team&, plan&);

// upc_all_reduceT_all: a reduction to dst's thread, then every rank copies the
// result to its element of dst.
void allreduce_flat(const request&, team&, plan&);
void allreduce_binomial(const request&, team&, plan&);
// The flat reduction, then the root pushes the result into every element
// (UPC_PUSH), or node roots carry it between nodes (UPC_MULTICORE).
void allreduce_push(const request&, team&, plan&);
void allreduce_multicore(const request&, team&, plan&);

}  // namespace upc::coll::algo
