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

// Reductions: per-rank partials combined at the root in rank order.
void reduce_flat(const request&, team&, plan&);
void prefix_reduce_flat(const request&, team&, plan&);

void sort_at_root(const request&, team&, plan&);

}  // namespace upc::coll::algo
