// The stages every reduction algorithm shares, as data steps (plan.hpp); only
// how partials and block totals travel differs between algorithms.
//
//   partials       each member folds its own elements, in index order, into one
//                  partial (commutative ops), or each block it owns into one
//                  (UPC_NONCOMM_FUNC, by_block); slot j of its area is its j-th block
//   partial_table  where the partials are, in the order the root folds them:
//                  by rank (one per member with elements), or by block (the
//                  cycle of the array's threads, slot after slot)
//   block totals   each member folds each block it owns (prefix reductions)
//   prefix finish  each member writes its blocks of the result: element k is
//                  prefix(block) op the fold of the block up to k (the array's
//                  first block has no prefix)
// The expression is fixed by the source layout alone, so every algorithm gives
// the same bits (docs/collectives.md, determinism).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "../blocks.hpp"
#include "../plan.hpp"
#include "../request.hpp"
#include "../team.hpp"
#include "owned_blocks.hpp"

namespace upc::coll {

// The partial of each block (by_block) when the op is not commutative and the
// array has blocks.
inline bool partials_by_block(const blocked_array& a, const element_op& op) { return !op.commutative && a.blk != 0; }

// Slots a member needs for its partials or block totals (the same on every member).
inline std::uint64_t slots_per_member(const blocked_array& a, bool by_block) {
  if (!by_block) return 1;
  return (a.last_block() - a.first_block() + 1) / static_cast<std::uint64_t>(a.threads) + 2;
}

// What a reduction algorithm knows before its own steps: my rank, the team's
// size, the element size, the source array, whether partials go by block, and
// S, the bytes of one member's partials (reductions) or block totals (prefix
// reductions). Sets the plan's operation.
struct member_partials {
  int me, T;
  std::size_t E;
  const blocked_array& a;
  bool by_block;
  std::size_t S;

  // A reduction's partials: one per member, or one per block for UPC_NONCOMM_FUNC.
  static member_partials of_reduce(const request& rq, const team& t, plan& p) {
    return {rq, t, p, partials_by_block(rq.in, rq.red)};
  }
  // A prefix reduction's block totals (one per block when the array has blocks).
  static member_partials of_prefix(const request& rq, const team& t, plan& p) { return {rq, t, p, rq.in.blk != 0}; }

 private:
  member_partials(const request& rq, const team& t, plan& p, bool by_block)
      : me(t.rank()), T(t.size()), E(rq.red.size), a(rq.in), by_block(by_block),
        S(E * static_cast<std::size_t>(slots_per_member(a, by_block))) {
    p.op = rq.red;
  }
};

// Folds thread thr's elements (or each of its blocks) into `area`.
inline void plan_partials(plan& p, const blocked_array& a, int thr, char* area, bool by_block) {
  const std::size_t E = p.op.size;
  if (!by_block) {
    const std::uint64_t count = a.count_on(thr);
    if (count) p.fold_runs(area, 0, a.local(thr, a.first_local(thr)), 0, count, 1);
    return;
  }
  for_each_owned_run(a, thr, [&](const owned_run& r) {
    p.fold_runs(area + r.slot * E, static_cast<std::ptrdiff_t>(E), r.local, static_cast<std::ptrdiff_t>(r.elements * E),
                r.elements, r.blocks);
  });
}

// Block totals are the by-block partials of every op.
inline void plan_block_totals(plan& p, const blocked_array& a, int thr, char* area) { plan_partials(p, a, thr, area, true); }

// The table of a fold_interleaved / scan_interleaved step over the partials (or
// totals): `area_of(rank)` is where a member keeps them. By rank: one entry per
// member, null when it owns no element. By block: one entry per position of
// the array's cycle of threads, starting at its first block, null for a
// thread outside the team. Sets `count` to the walk's length.
inline std::vector<const char*> partial_table(const blocked_array& a, const team& t, bool by_block,
                                              const std::function<const char*(int rank)>& area_of, std::size_t& count) {
  std::vector<const char*> table;
  if (!by_block || a.blk == 0) {
    const int T = t.size();
    for (int r = 0; r < T; ++r) table.push_back(a.count_on(t.thread_of(r)) ? area_of(r) : nullptr);
    count = table.size();
    return table;
  }
  const int L = a.threads;
  const std::uint64_t first = a.first_block();
  for (int j = 0; j < L; ++j) {
    const int rank = t.rank_of(static_cast<int>((first + static_cast<std::uint64_t>(j)) % static_cast<std::uint64_t>(L)));
    table.push_back(rank >= 0 ? area_of(rank) : nullptr);
  }
  count = static_cast<std::size_t>(a.last_block() - first + 1);
  return table;
}

// Hands my scratch's partials on to `reader`: ready now; with acks, my part
// ends only once the reader has acked (it has read them).
inline void hand_partials_to(plan& p, int reader, bool acks) {
  p.publish_ready();
  if (acks) {
    p.ack_from.push_back(reader);
    p.wait_acks();
  }
}

// The root's fold of a reduction, in the order of the contract, over the
// partials of each rank at `at` (null: none).
inline void fold_partials(plan& p, const request& rq, const team& t, bool by_block, const std::vector<const char*>& at) {
  std::size_t count = 0;
  const auto table = partial_table(rq.in, t, by_block, [&](int rank) { return at[static_cast<std::size_t>(rank)]; }, count);
  p.fold_interleaved(raw(rq.result), table, count, static_cast<std::ptrdiff_t>(rq.red.size));
}

// A node root's (or the root's) scratch as the partials' lists arrive: where
// each rank's partials are (null: not here), and the bytes in use.
struct partial_lists {
  std::vector<const char*> at;
  std::size_t used = 0;

  explicit partial_lists(const team& t) : at(static_cast<std::size_t>(t.size()), nullptr) {}
  // The root's own node (`mates`): their partials read where they are; my
  // scratch holds mine.
  void node_in_place(plan& p, const team& t, const std::vector<int>& mates, std::size_t S) {
    for (int r : mates) {
      if (r != t.rank()) p.wait_ready(r);
      at[static_cast<std::size_t>(r)] = t.scratch(r);
    }
    used = S;
  }
  // Another node's root: its node's partials copied as its list, in node
  // order (mates[i] at slot i, mine in place at slot 0, as its leader).
  void copy_node(plan& p, const team& t, const std::vector<int>& mates, std::size_t S, bool acks) {
    const int me = t.rank();
    for (std::size_t i = 0; i < mates.size(); ++i) {
      if (mates[i] == me) continue;
      p.wait_ready(mates[i]);
      p.copy(t.scratch(me) + i * S, t.scratch(mates[i]), S);
      if (acks) p.ack(mates[i]);
    }
    used = mates.size() * S;
  }
  // Copies the list rank `from` keeps in its scratch (the partials of `ranks`,
  // S bytes each) after what my scratch holds; `acks`: from may reuse its
  // scratch once I ack.
  void take(plan& p, const team& t, int from, const std::vector<int>& ranks, std::size_t S, bool acks) {
    char* const to = t.scratch(t.rank()) + used;
    p.wait_ready(from);
    p.copy(to, t.scratch(from), ranks.size() * S);
    if (acks) p.ack(from);
    for (std::size_t i = 0; i < ranks.size(); ++i) at[static_cast<std::size_t>(ranks[i])] = to + i * S;
    used += ranks.size() * S;
  }
};

// The same table shifted to another part of each area (prefixes beside totals).
inline std::vector<const char*> shifted(std::vector<const char*> table, std::size_t by) {
  for (const char*& e : table)
    if (e) e += by;
  return table;
}

// Writes this member's blocks of the result from the prefixes at `prefixes`
// (slot j: the prefix of its j-th block). When dst has src's layout the result
// is written in place; otherwise it is built in the plan's own memory and
// copied to dst's elements (which then may live on other threads).
inline void plan_prefix_finish(plan& p, team& t, const blocked_array& src, const blocked_array& dst, const char* prefixes) {
  const int me = t.rank(), thr = t.thread_of(me), T = t.size();
  const std::size_t E = p.op.size;
  const bool same_layout = dst.base.thread == src.base.thread && dst.base.phase == src.base.phase;
  const std::uint64_t first_block = src.first_block();
  const std::uint64_t L = static_cast<std::uint64_t>(src.threads);
  if (!same_layout) p.local.resize(static_cast<std::size_t>(src.count_on(thr)) * E);
  std::size_t done = 0;  // elements written to p.local so far
  for_each_owned_run(src, thr, [&](owned_run r) {
    auto emit = [&](const owned_run& g, const char* prefix) {
      const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(g.elements * E);
      char* out = same_layout ? dst.local(thr, src.local_index(src.block_lo(g.block))) : p.local.data() + done * E;
      p.scan_runs(out, stride, g.local, stride, g.elements, g.blocks, prefix, static_cast<std::ptrdiff_t>(E));
      if (!same_layout)
        p.copy_to_array(dst, src.block_lo(g.block) - src.v0(), g.elements, g.blocks,
                        static_cast<std::ptrdiff_t>(L * src.blk), out);
      done += g.elements * g.blocks;
    };
    if (r.block == first_block || src.blk == 0) {  // the array's first block: no prefix
      emit(owned_run{r.slot, r.block, r.local, r.elements, 1}, nullptr);
      if (r.blocks == 1) return;
      r = owned_run{r.slot + 1, r.block + L, r.local + r.elements * E, r.elements, r.blocks - 1};
    }
    emit(r, prefixes + r.slot * E);
  });
  if (!same_layout)  // writes land on other threads' dst elements
    for (int r = 0; r < T; ++r)
      if (r != me) {
        p.touches.push_back(r);
        p.touchers.push_back(r);
      }
}

}  // namespace upc::coll
