#include "registry.hpp"

#include <string>

#include "request.hpp"
#include "tasks/decomposition.hpp"
#include "team.hpp"
#include "upc/runtime.hpp"

namespace upc::coll {

using namespace algo;

// Owner-executor algorithms read and write shared memory of every member and
// compute out of place, prefix scans only.
constexpr unsigned shared_only = feature::private_src | feature::private_dst | feature::in_place | feature::suffix;

const std::vector<algorithm_entry>& registry() {
  using C = collective;
  namespace d = tasks::decompositions;
  static const std::vector<algorithm_entry> table = {
      // A broadcast in place (src is the root's own block of dst) is served: the
      // root's copy onto itself is skipped, every other block is written once.
      {C::broadcast, "pull", broadcast_pull, nullptr, UPC_PULL, shared_only & ~feature::in_place, "every rank copies the root's block"},
      {C::broadcast, "push", broadcast_push, nullptr, UPC_PUSH, shared_only & ~feature::in_place, "the root copies into every block"},
      {C::broadcast, "binomial", broadcast_binomial, nullptr, 0, shared_only & ~feature::in_place,
       "binomial tree from the root, forwarding through dst"},
      {C::broadcast, "multicore", broadcast_multicore, nullptr, UPC_MULTICORE, shared_only & ~feature::in_place,
       "node roots copy src between nodes, their node's threads copy from them"},
      {C::broadcast, "binomial_flat", broadcast_binomial_flat, nullptr, 0, shared_only & ~feature::in_place,
       "a binomial tree over the node roots between nodes, flat within nodes (seed 003 Figure 3.10)"},
      {C::broadcast, "mpi", broadcast_mpi, nullptr, 0, (shared_only & ~feature::in_place) | feature::off_mpi,
       "MPI_Bcast over the team's communicator (mpi backend; docs/backends.md)"},
      {C::scatter, "pull", scatter_pull, nullptr, UPC_PULL, shared_only, "every rank copies its block from the root"},
      {C::scatter, "push", scatter_push, nullptr, UPC_PUSH, shared_only, "the root copies every block"},
      {C::scatter, "binomial", scatter_binomial, nullptr, 0, shared_only, "binomial tree from the root, subtrees' blocks via scratch"},
      {C::scatter, "multicore", scatter_multicore, nullptr, UPC_MULTICORE, shared_only,
       "node roots copy their node's pieces between nodes, their threads take theirs"},
      {C::scatter, "binomial_flat", scatter_binomial_flat, nullptr, 0, shared_only,
       "a binomial tree over the node roots between nodes (subtrees' pieces via scratch), flat within nodes"},
      {C::scatter, "mpi", scatter_mpi, nullptr, 0, shared_only | feature::off_mpi, "MPI_Scatter over the team's communicator (mpi backend)"},
      {C::gather, "pull", gather_pull, nullptr, UPC_PULL, shared_only, "the root copies every block"},
      {C::gather, "push", gather_push, nullptr, UPC_PUSH, shared_only, "every rank copies its block to the root"},
      {C::gather, "binomial", gather_binomial, nullptr, 0, shared_only, "binomial tree to the root, subtrees' blocks via scratch"},
      {C::gather, "multicore", gather_multicore, nullptr, UPC_MULTICORE, shared_only,
       "node roots collect their node's blocks, the root copies each node's at once"},
      {C::gather, "binomial_flat", gather_binomial_flat, nullptr, 0, shared_only,
       "flat within nodes into node roots' scratch, a binomial tree over the node roots to the root"},
      {C::gather, "mpi", gather_mpi, nullptr, 0, shared_only | feature::off_mpi, "MPI_Gather over the team's communicator (mpi backend)"},
      {C::gather_all, "pull", gather_all_pull, nullptr, UPC_PULL, shared_only, "every rank copies all blocks into its row"},
      {C::gather_all, "push", gather_all_push, nullptr, UPC_PUSH, shared_only, "every rank copies its block into every row"},
      {C::gather_all, "recursive_doubling", gather_all_recursive_doubling, nullptr, 0, shared_only,
       "ceil(log2 T) rounds, round k pulling from rank r+2^k (any T)"},
      {C::gather_all, "ring", gather_all_ring, nullptr, 0, shared_only, "T-1 steps, each pulling one block from the left neighbour"},
      {C::gather_all, "multicore", gather_all_multicore, nullptr, UPC_MULTICORE, shared_only,
       "node roots collect their node's blocks, swap node parts between nodes, their threads copy the row"},
      {C::gather_all, "mpi", gather_all_mpi, nullptr, 0, shared_only | feature::off_mpi,
       "MPI_Allgather over the team's communicator (mpi backend)"},
      {C::exchange, "pull", exchange_pull, nullptr, UPC_PULL, shared_only, "every rank copies its blocks from every row"},
      {C::exchange, "push", exchange_push, nullptr, UPC_PUSH, shared_only, "every rank copies its row's blocks out"},
      {C::exchange, "pairwise", exchange_pairwise, nullptr, 0, shared_only, "pull, rank r reading rank r+k at step k"},
      {C::exchange, "multicore", exchange_multicore, nullptr, UPC_MULTICORE, shared_only,
       "node roots collect each other node's pieces, swap them between nodes in one copy per pair, ranks take theirs"},
      {C::exchange, "mpi", exchange_mpi, nullptr, 0, shared_only | feature::off_mpi, "MPI_Alltoall over the team's communicator (mpi backend)"},
      {C::permute, "pull", permute_pull, nullptr, UPC_PULL, shared_only, "every rank copies the block it receives"},
      {C::permute, "push", permute_push, nullptr, UPC_PUSH, shared_only, "every rank copies its block to its target"},
      {C::reduce, "flat", reduce_flat, nullptr, 0, shared_only, "per-rank partials combined at the root in rank order"},
      {C::reduce, "binomial", reduce_binomial, nullptr, 0, shared_only,
       "partials climb a binomial tree as lists; the root folds in rank order"},
      {C::reduce, "multicore", reduce_multicore, nullptr, UPC_MULTICORE, shared_only,
       "node roots collect their node's partials as lists, one list per node to the root, which folds in rank order"},
      {C::reduce, "binomial_flat", reduce_binomial_flat, nullptr, 0, shared_only,
       "node roots collect their node's partials, the lists climb a binomial tree over node roots, the root folds in rank order"},
      {C::prefix_reduce, "flat", prefix_reduce_flat, nullptr, 0, shared_only, "block totals, prefixes by rank 0, local finish"},
      {C::prefix_reduce, "binomial", prefix_reduce_binomial, nullptr, 0, shared_only,
       "block totals up a binomial tree, prefixes by rank 0, back down, local finish"},
      {C::prefix_reduce, "multicore", prefix_reduce_multicore, nullptr, UPC_MULTICORE, shared_only,
       "node roots collect their node's block totals, one list per node to rank 0, prefixes back the same way, local finish"},
      {C::sort, "at_root", sort_at_root, nullptr, 0, shared_only, "thread 0 sorts the whole array"},
      {C::allreduce, "flat", allreduce_flat, nullptr, UPC_PULL, shared_only,
       "the flat reduction to dst's thread, then every rank copies the result"},
      {C::allreduce, "binomial", allreduce_binomial, nullptr, 0, shared_only,
       "the binomial reduction to dst's thread, then every rank copies the result"},
      {C::allreduce, "push", allreduce_push, nullptr, UPC_PUSH, shared_only,
       "the flat reduction to dst's thread, then it writes every rank's element"},
      {C::allreduce, "multicore", allreduce_multicore, nullptr, UPC_MULTICORE, shared_only,
       "the multicore reduction, then node roots copy the result between nodes and their ranks from them"},
      {C::chunks, "pull", chunks_pull, nullptr, UPC_PULL, feature::suffix,
       "each chunk copied by its destination's owner (a private source read in place on threads, staged by its owner on processes)"},
      {C::chunks, "push", chunks_push, nullptr, UPC_PUSH, feature::suffix,
       "each chunk copied by its source's owner (private destinations by their owner, as in pull)"},
      {C::chunks, "staged", chunks_staged, nullptr, 0, feature::suffix,
       "private sources through their owner's scratch, once each (Figure 3.7), on every backend"},
      {C::chunks, "multicore", chunks_multicore, nullptr, UPC_MULTICORE, feature::suffix,
       "one root: a flat tree over nodes (Figure 3.8), node roots scatter or collect within; else runs aggregated by node pairs"},
      {C::chunks, "binomial_flat", chunks_binomial_flat, nullptr, 0, feature::suffix,
       "one root: a binomial tree over node roots, flat within nodes (Figure 3.10); else as multicore"},
      {C::chunks, "binomial", chunks_binomial, nullptr, 0, feature::suffix,
       "one root: a binomial tree over the ranks, each holding its subtree's runs (Figure 3.9); else as multicore"},
      {C::exchange_in_place, "staged", chunks_pull, nullptr, UPC_PULL, feature::suffix | feature::private_src | feature::private_dst,
       "every thread copies its outgoing pieces aside (scratch), then pulls its incoming ones"},
      {C::exchange_in_place, "pairwise", exchange_in_place_pairwise, nullptr, 0,
       feature::suffix | feature::private_src | feature::private_dst,
       "the thesis's Figure 3.3: each pair of threads swaps its two pieces through a private buffer, once"},
      // Task executor: tasks any member may run once their inputs are posted (lib/coll/tasks/).
      {C::barrier, "posts", nullptr, &d::barrier, 0, 0, "no tasks: done once every member has posted"},
      {C::member_broadcast, "pull", nullptr, &d::bcast_pull, 0, 0, "one task per member: copy the root's buffer into its own"},
      {C::member_scatter, "pull", nullptr, &d::scatter_pull, 0, 0, "one task per member: copy its block from the root"},
      {C::member_scatterv, "pull", nullptr, &d::scatterv_pull, 0, 0, "one task per member: copy its block from the root"},
      {C::member_gather, "push", nullptr, &d::gather_push, 0, 0, "one task per member: copy its buffer into the root's"},
      {C::member_gatherv, "push", nullptr, &d::gatherv_push, 0, 0, "one task per member: copy its buffer into the root's"},
      {C::member_gather_all, "by_destination", nullptr, &d::allgather_by_destination, 0, 0,
       "one task per member: fill its receive buffer from every send buffer"},
      {C::member_gather_allv, "by_destination", nullptr, &d::allgatherv_by_destination, 0, 0,
       "one task per member: fill its receive buffer from every send buffer"},
      {C::member_exchange, "by_destination", nullptr, &d::alltoall_by_destination, 0, 0,
       "one task per member: fill its receive buffer from every send buffer"},
      {C::member_exchangev, "by_destination", nullptr, &d::alltoallv_by_destination, 0, 0,
       "one task per member: fill its receive buffer from every send buffer"},
      {C::member_reduce, "chunked", nullptr, &d::reduce_chunked, 0, 0,
       "up to one task per member, each folding a chunk of the vector into the root's buffer"},
      {C::member_allreduce, "redundant", nullptr, &d::allreduce_redundant, 0, 0,
       "one task per member: fold the whole vector into its own buffer"},
      {C::member_allreduce, "chunked", nullptr, &d::allreduce_chunked, 0, 0,
       "fold chunk i into member i's buffer, then copy it to every member (reduce-scatter + allgather)"},
      {C::member_reduce_scatter, "by_block", nullptr, &d::reduce_scatter_by_block, 0, 0, "one task per member: fold its block"},
      {C::member_exclusive_scan, "chunked", nullptr, &d::scan_chunked, 0, 0,
       "chunks of the vector, each walked through the ranks in order"},
      {C::member_inclusive_scan, "chunked", nullptr, &d::scan_inclusive_chunked, 0, 0,
       "chunks of the vector, each walked through the ranks in order"},
      // The mpi backend: handed to MPI's non-blocking collectives (tasks/mpi_handoff.hpp).
      {C::member_broadcast, "mpi", nullptr, &d::bcast_mpi, 0, feature::off_mpi, "MPI_Ibcast on the team's communicator (mpi backend)"},
      {C::member_scatter, "mpi", nullptr, &d::scatter_mpi, 0, feature::off_mpi, "MPI_Iscatter on the team's communicator (mpi backend)"},
      {C::member_gather, "mpi", nullptr, &d::gather_mpi, 0, feature::off_mpi, "MPI_Igather on the team's communicator (mpi backend)"},
      {C::member_gather_all, "mpi", nullptr, &d::allgather_mpi, 0, feature::off_mpi,
       "MPI_Iallgather on the team's communicator (mpi backend)"},
      {C::member_exchange, "mpi", nullptr, &d::alltoall_mpi, 0, feature::off_mpi,
       "MPI_Ialltoall on the team's communicator (mpi backend)"},
      {C::member_scatterv, "mpi", nullptr, &d::scatterv_mpi, 0, feature::off_mpi,
       "MPI_Iscatterv on the team's communicator (mpi backend)"},
      {C::member_gatherv, "mpi", nullptr, &d::gatherv_mpi, 0, feature::off_mpi,
       "MPI_Igatherv on the team's communicator (mpi backend)"},
      {C::member_gather_allv, "mpi", nullptr, &d::allgatherv_mpi, 0, feature::off_mpi,
       "MPI_Iallgatherv on the team's communicator (mpi backend)"},
      {C::member_exchangev, "mpi", nullptr, &d::alltoallv_mpi, 0, feature::off_mpi,
       "MPI_Ialltoallv on the team's communicator (mpi backend)"},
  };
  return table;
}

// Read off the 2026-11-21 run of tools/bench/run_coll.sh and run_upccoll.sh on
// 2 cores (docs/benchmarks.md, "auto against the fastest algorithm"): the
// algorithm that was fastest at most points of each (size band, THREADS) cell,
// both backends together. Trees lose on this machine (each level costs a
// context switch when THREADS exceed the cores), so they are chosen only where
// they won.
const std::vector<policy_row>& policy() {
  using C = collective;
  constexpr std::size_t KiB = 1024;
  static const std::vector<policy_row> rows = {
      // Teams over several emulated nodes (min_nodes): read off the 2026-11-25
      // run of tools/bench/run_node_policy.sh (16 threads on 2-16 nodes, the
      // network model at 3 µs, 2 GB/s; docs/benchmarks.md): the binomial tree
      // over node roots where it beat the flat one (multicore) at the sizes
      // measured (both runs agreeing); multicore everywhere else. Scatters and
      // larger gathers stay flat between nodes: the tree sends their pieces
      // across more than once.
      // Teams whose members are on several hosts (mpi backend): MPI's own
      // collectives (the mpi family), as for <upccoll.h>'s rows below: the
      // plans' flags and team barriers are round trips through the owners'
      // servers there (issue 31; docs/benchmarks.md, "Against MPI itself").
      // Selection looks at these first, and only where the row serves the call.
      {C::broadcast, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::scatter, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::gather, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::gather_all, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::exchange, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::broadcast, "binomial_flat", 64 * KiB, SIZE_MAX, 1, INT_MAX, 8},
      {C::broadcast, "binomial_flat", 1024 * KiB, SIZE_MAX, 1, INT_MAX, 4},
      {C::gather, "binomial_flat", 0, 4 * KiB, 1, INT_MAX, 8},
      {C::reduce, "binomial_flat", 0, SIZE_MAX, 1, INT_MAX, 8},
      // the multicore exchange aggregates pieces by node pairs: it saves
      // messages, which pays up to about 1 KiB pieces (1.7 x), not from 4 KiB
      // (0.5-0.7 x of pairwise's speed), and its node-root boxes grow as
      // 2 |K| (T - |K|) n
      {C::exchange, "pairwise", 2 * KiB + 1, SIZE_MAX, 1, INT_MAX, 2},
      {C::chunks, "binomial_flat", 64 * KiB, SIZE_MAX, 1, INT_MAX, 16, true},
      {C::chunks, "binomial_flat", 1024 * KiB, SIZE_MAX, 1, INT_MAX, 4, true},
      // many threads, small blocks: one rank copying beats T contending readers
      {C::broadcast, "push", 0, 4 * KiB, 16},
      {C::broadcast, "pull"},
      {C::scatter, "push", 0, 4 * KiB, 16},
      {C::scatter, "pull"},
      {C::gather, "push"},
      {C::gather_all, "push", 4 * KiB + 1, SIZE_MAX, 4},
      {C::gather_all, "pull"},
      {C::exchange, "pull", 0, 4 * KiB},
      {C::exchange, "pairwise"},
      {C::permute, "pull"},
      {C::reduce, "flat"},
      {C::prefix_reduce, "binomial", 0, 256 * KiB, 2, 2},
      {C::prefix_reduce, "flat"},
      {C::sort, "at_root"},
      {C::allreduce, "flat"},
      {C::chunks, "pull"},
      {C::exchange_in_place, "pairwise"},
      {C::barrier, "posts"},
      // Members on several hosts (mpi backend): MPI's own non-blocking
      // collectives, 3-30x faster there than the task rows, whose every flag
      // look crosses hosts (tools/bench/run_upccoll_mpi.sh, 2026-11-26); on
      // one host the task rows win.
      {C::member_broadcast, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_scatter, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_gather, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_gather_all, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_exchange, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_scatterv, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_gatherv, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_gather_allv, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_exchangev, "mpi", 0, SIZE_MAX, 1, INT_MAX, 1, false, true},
      {C::member_broadcast, "pull"},
      {C::member_scatter, "pull"},
      {C::member_scatterv, "pull"},
      {C::member_gather, "push"},
      {C::member_gatherv, "push"},
      {C::member_gather_all, "by_destination"},
      {C::member_gather_allv, "by_destination"},
      {C::member_exchange, "by_destination"},
      {C::member_exchangev, "by_destination"},
      {C::member_reduce, "chunked"},
      {C::member_allreduce, "redundant", 0, 4 * KiB},
      {C::member_allreduce, "chunked"},
      {C::member_reduce_scatter, "by_block"},
      {C::member_exclusive_scan, "chunked"},
      {C::member_inclusive_scan, "chunked"},
  };
  return rows;
}

namespace {

std::string size_text(std::size_t b) {
  if (b >= (1u << 20) && b % (1u << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " B";
}

std::string condition_text(const policy_row& r) {
  std::string c;
  auto also = [&](const std::string& s) { c += (c.empty() ? "" : " and ") + s; };
  if (r.min_threads == r.max_threads) also("THREADS == " + std::to_string(r.min_threads));
  else {
    if (r.min_threads > 1) also("THREADS >= " + std::to_string(r.min_threads));
    if (r.max_threads != INT_MAX) also("THREADS <= " + std::to_string(r.max_threads));
  }
  if (r.lo > 0 && r.hi != SIZE_MAX) also("size in " + size_text(r.lo) + " .. " + size_text(r.hi));
  else if (r.lo > 0) also((r.lo - 1) % 1024 == 0 ? "size > " + size_text(r.lo - 1) : "size >= " + size_text(r.lo));
  else if (r.hi != SIZE_MAX) also("size <= " + size_text(r.hi));
  if (r.one_run) also("one source run (a broadcast)");
  if (r.across_hosts) also("the team spans several hosts");
  return c;
}

}  // namespace

std::string policy_text(collective c) {
  std::string s, nodes;
  for (const policy_row& r : policy()) {
    if (r.kind != c || r.min_nodes <= 1) continue;
    const std::string cond = condition_text(r);
    nodes += (nodes.empty() ? "" : "; ") + std::string(r.algorithm) + " when the team spans >= " + std::to_string(r.min_nodes) +
             " nodes" + (cond.empty() ? "" : " and " + cond);
  }
  for (const algorithm_entry& e : registry())
    if (e.kind == c && e.flag == UPC_MULTICORE)
      nodes += (nodes.empty() ? "" : "; ") + std::string(e.name) + " when the team spans several nodes";
  // Rows for teams over several hosts are looked at before the node rows.
  std::string hosts;
  for (const policy_row& r : policy()) {
    if (r.kind != c || r.min_nodes > 1) continue;
    std::string& out = r.across_hosts && !nodes.empty() ? hosts : s;
    const std::string cond = condition_text(r);
    if (cond.empty()) out += (out.empty() ? "" : ", else ") + std::string(r.algorithm);
    else out += (out.empty() ? "" : "; ") + std::string(r.algorithm) + " when " + cond;
  }
  if (!hosts.empty()) nodes = hosts + "; " + nodes;
  return nodes.empty() ? s : nodes + "; " + s;
}

const char* feature_text(unsigned bit) noexcept {
  switch (bit) {
    case feature::private_src: return "private src";
    case feature::private_dst: return "private dst";
    case feature::in_place: return "in place";
    case feature::suffix: return "suffix scans";
    case feature::off_mpi:
      return "a call the mpi family cannot map (not an mpi run, pieces by thread number, or a team without "
             "a communicator)";
    default: return "?";
  }
}

unsigned features_of(const request& rq) noexcept {
  unsigned f = 0;
  if (rq.src_memory == memory::private_owner) f |= feature::private_src;
  if (rq.dst_memory == memory::private_owner) f |= feature::private_dst;
  if (rq.in_place) f |= feature::in_place;
  if (rq.suffix) f |= feature::suffix;
  // The mpi family hands the call to the team's communicator, whose ranks are
  // the members: pieces indexed by thread number (the thesis's _allthr forms
  // on a sub-team) are not in its order.
  const bool sub_team = rq.members && !rq.members->is_world();
  if (upc::current_backend() != backend_kind::mpi || (sub_team && (rq.src.by_thread || rq.dst.by_thread)))
    f |= feature::off_mpi;
  return f;
}

}  // namespace upc::coll
