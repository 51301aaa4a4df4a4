// Reductions and scans as tasks. Every result element is a left fold of the
// members' contributions in ascending rank order, computed by exactly one task,
// so the result is the same bit for bit whoever runs the task. Tasks work through
// their range in sub-blocks that stay in cache while the ranks are folded in.
#include <algorithm>

#include "decomposition.hpp"

namespace upc::coll::tasks::decompositions {

namespace {

constexpr std::uint64_t sub_block_bytes = 16 << 10;
constexpr std::uint64_t min_chunk_bytes = 4 << 10;

// Element ranges: the reduction of `n` elements in `c` near-equal chunks.
int chunks_for(const operation& op) {
  const std::uint64_t bytes = op.count * op.eop.size;
  if (bytes <= min_chunk_bytes) return 1;
  const std::uint64_t c =
      std::min<std::uint64_t>({std::uint64_t(op.t->size()), op.count, (bytes + min_chunk_bytes - 1) / min_chunk_bytes});
  return static_cast<int>(std::max<std::uint64_t>(c, 1));
}
std::uint64_t chunk_lo(const operation& op, int chunks, int i) { return op.count * std::uint64_t(i) / std::uint64_t(chunks); }

// A member computing in place on its own buffer (not staged): its send area is its receive area.
bool in_place(const operation& op, int rank) {
  const post& p = post_of(op, rank);
  return p.in_place && p.send == p.recv;
}

// Member `owner`'s receive buffer, elements [lo, hi) (indexed from `dst_lo`) =
// x_first op x_first+1 op ... op x_last over elements [lo, hi) of the send
// buffers. When the owner is in place and not `first`, its items are inputs of
// the fold still to come: each sub-block is folded in the plan's own memory,
// then stored.
void fold_ranks(const operation& op, plan& p, int owner, std::uint64_t dst_lo, std::uint64_t lo, std::uint64_t hi, int first,
                int last) {
  const std::size_t es = op.eop.size;
  const std::uint64_t step = std::max<std::uint64_t>(1, sub_block_bytes / es);
  char* dst = post_of(op, owner).recv;
  const bool aside = owner != first && in_place(op, owner);
  if (aside) p.local.resize(std::min<std::uint64_t>(step, hi - lo) * es);
  for (std::uint64_t s = lo; s < hi; s += step) {
    const std::uint64_t n = std::min(step, hi - s);
    char* out = dst + (s - dst_lo) * es;
    char* d = aside ? p.local.data() : out;
    p.copy(d, post_of(op, first).send + s * es, n * es);
    for (int k = first + 1; k <= last; ++k) p.combine(d, post_of(op, k).send + s * es, n);
    if (aside) p.copy(out, d, n * es);
  }
}

task_needs everyone(const operation&, int) { return {-1, -1, true, 0, 0}; }
bool is_task(const operation&, int task, int rank) { return task == rank; }
bool is_root(const operation& op, int, int rank) { return rank == op.root; }

// reduce: chunk i of the result, folded straight into the root's receive buffer.
status reduce_plan(const operation& op, int i, plan& p) {
  const int c = chunks_for(op);
  fold_ranks(op, p, op.root, 0, chunk_lo(op, c, i), chunk_lo(op, c, i + 1), 0, op.t->size() - 1);
  return status::ok;
}

// allreduce, redundant: every member's task folds the whole vector into its own
// receive buffer (small vectors: no second phase to wait for).
status allreduce_redundant_plan(const operation& op, int t, plan& p) {
  fold_ranks(op, p, t, 0, 0, op.count, 0, op.t->size() - 1);
  return status::ok;
}

// allreduce, chunked: tasks [0, c) fold chunk i into member i's receive buffer
// (a reduce-scatter); task c + i then copies chunk i to every other member.
int allreduce_chunked_tasks(const operation& op) { return 2 * chunks_for(op); }
task_needs allreduce_chunked_needs(const operation& op, int task) {
  const int c = chunks_for(op);
  if (task < c) return everyone(op, task);
  return {-1, -1, true, task - c, task - c + 1};
}
status allreduce_chunked_plan(const operation& op, int task, plan& p) {
  const int c = chunks_for(op);
  const int i = task < c ? task : task - c;
  const std::uint64_t lo = chunk_lo(op, c, i), hi = chunk_lo(op, c, i + 1);
  const std::size_t es = op.eop.size;
  if (task < c) {
    fold_ranks(op, p, i, 0, lo, hi, 0, op.t->size() - 1);
    return status::ok;
  }
  const char* holder = post_of(op, i).recv;
  for (int r = 0; r < op.t->size(); ++r)
    if (r != i) p.copy(post_of(op, r).recv + lo * es, holder + lo * es, (hi - lo) * es);
  return status::ok;
}

// reduce_scatter: member t's block of the result, into its receive buffer.
status reduce_scatter_plan(const operation& op, int t, plan& p) {
  const std::uint64_t lo = op.block_elems[static_cast<std::size_t>(t)], hi = op.block_elems[static_cast<std::size_t>(t) + 1];
  fold_ranks(op, p, t, lo, lo, hi, 0, op.t->size() - 1);
  return status::ok;
}

// Scans: chunk i of the elements, walked through the ranks in order; member t's
// result is member t-1's result op x_(t-1) (exclusive) or op x_t (inclusive).
// A member in place loses x_t when its result is written: x_t is read first
// (inclusive: folded in from a copy; exclusive: kept aside, in one of two
// blocks of the plan's memory, for member t+1).
template <bool Inclusive>
status scan_plan(const operation& op, int i, plan& p) {
  const int c = chunks_for(op), P = op.t->size();
  const std::uint64_t lo = chunk_lo(op, c, i), hi = chunk_lo(op, c, i + 1);
  const std::size_t es = op.eop.size;
  const std::uint64_t step = std::max<std::uint64_t>(1, sub_block_bytes / es);
  p.local.resize(2 * std::min<std::uint64_t>(step, std::max<std::uint64_t>(hi - lo, 1)) * es);
  for (std::uint64_t s = lo; s < hi; s += step) {
    const std::uint64_t n = std::min(step, hi - s), bytes = n * es, off = s * es;
    if (Inclusive) {
      p.copy(post_of(op, 0).recv + off, post_of(op, 0).send + off, bytes);
      for (int t = 1; t < P; ++t) {
        const post& me = post_of(op, t);
        const char* x = me.send + off;
        if (in_place(op, t)) {
          p.copy(p.local.data(), x, bytes);
          x = p.local.data();
        }
        p.copy(me.recv + off, post_of(op, t - 1).recv + off, bytes);
        p.combine(me.recv + off, x, n);
      }
    } else {
      const char* prev_x = post_of(op, 0).send + off;  // x_(t-1)
      for (int t = 1; t < P; ++t) {
        const post& me = post_of(op, t);
        const char* x = me.send + off;
        if (in_place(op, t) && t + 1 < P) {  // kept for member t+1, in one of two blocks used in turn
          char* k = p.local.data() + (t % 2) * bytes;
          p.copy(k, x, bytes);
          x = k;
        }
        p.copy(me.recv + off, t == 1 ? prev_x : post_of(op, t - 1).recv + off, bytes);
        if (t > 1) p.combine(me.recv + off, prev_x, n);
        prev_x = x;
      }
    }
  }
  return status::ok;
}

}  // namespace

// In place: a chunk's elements are read and written by one task only, so the
// chunked ones are direct; redundant (every task reads every member's whole
// vector) and by_block (a member's result overwrites items of other blocks)
// make in-place members stage their input.
const decomposition reduce_chunked{"chunked", chunks_for, everyone, is_root, nullptr, reduce_plan, true};
const decomposition allreduce_redundant{"redundant", per_member, everyone, is_task, nullptr, allreduce_redundant_plan, false};
const decomposition allreduce_chunked{"chunked", allreduce_chunked_tasks, allreduce_chunked_needs, nullptr, nullptr,
                                      allreduce_chunked_plan, true};
const decomposition reduce_scatter_by_block{"by_block", per_member, everyone, is_task, nullptr, reduce_scatter_plan, false};
const decomposition scan_chunked{"chunked", chunks_for, everyone, nullptr, nullptr, scan_plan<false>, true};
const decomposition scan_inclusive_chunked{"chunked", chunks_for, everyone, nullptr, nullptr, scan_plan<true>, true};

}  // namespace upc::coll::tasks::decompositions
