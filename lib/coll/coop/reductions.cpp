// Reductions and scans as tasks. Every result element is a left fold of the
// members' contributions in ascending rank order, computed by exactly one task,
// so the result is the same bit for bit whoever runs the task. Tasks work through
// their range in sub-blocks that stay in cache while the ranks are folded in.
#include <algorithm>
#include <cstring>
#include <vector>

#include "decomposition.hpp"
#include "upccoll.h"

namespace upc::coll::coop::decompositions {

namespace {

constexpr std::uint64_t sub_block_bytes = 16 << 10;
constexpr std::uint64_t min_chunk_bytes = 4 << 10;

// Element ranges: the reduction of `n` elements in `c` near-equal chunks.
int chunks_for(const operation& op) {
  const std::uint64_t bytes = op.count * op.eop.size;
  if (bytes <= min_chunk_bytes) return 1;
  const std::uint64_t c = std::min<std::uint64_t>({std::uint64_t(op.t->size()), op.count, (bytes + min_chunk_bytes - 1) / min_chunk_bytes});
  return static_cast<int>(std::max<std::uint64_t>(c, 1));
}
std::uint64_t chunk_lo(const operation& op, int chunks, int i) { return op.count * std::uint64_t(i) / std::uint64_t(chunks); }

// A member computing in place: its send area is its receive area.
bool in_place(const operation& op, int rank) {
  const post& p = post_of(op, rank);
  return (p.flags & post_in_place) && p.send == p.recv;
}

// Sub-block scratch of the thread running a task (tasks never wait, so one
// task at a time uses it).
char* scratch(std::size_t bytes) {
  thread_local std::vector<char> buf;
  if (buf.size() < bytes) buf.resize(bytes);
  return buf.data();
}

// Member `owner`'s receive buffer, elements [lo, hi) (indexed from `dst_lo`) =
// x_first op x_first+1 op ... op x_last over elements [lo, hi) of the send
// buffers. When the owner is in place and not `first`, its items are inputs of
// the fold still to come: each sub-block is folded in scratch, then stored.
void fold_ranks(const operation& op, int owner, std::uint64_t dst_lo, std::uint64_t lo, std::uint64_t hi, int first,
                int last) {
  const std::size_t es = op.eop.size;
  const std::uint64_t step = std::max<std::uint64_t>(1, sub_block_bytes / es);
  char* dst = post_of(op, owner).recv;
  const bool aside = owner != first && in_place(op, owner);
  for (std::uint64_t s = lo; s < hi; s += step) {
    const std::uint64_t n = std::min(step, hi - s);
    char* out = dst + (s - dst_lo) * es;
    char* d = aside ? scratch(n * es) : out;
    const char* x0 = post_of(op, first).send + s * es;
    if (d != x0) std::memcpy(d, x0, n * es);
    for (int k = first + 1; k <= last; ++k) op.eop.combine(d, post_of(op, k).send + s * es, n);
    if (aside) std::memcpy(out, d, n * es);
  }
}

task_needs everyone(const operation&, int) { return {-1, -1, true, 0, 0}; }

// reduce: chunk i of the result, folded straight into the root's receive buffer.
int reduce_run(const operation& op, int i) {
  const int c = chunks_for(op);
  const std::uint64_t lo = chunk_lo(op, c, i), hi = chunk_lo(op, c, i + 1);
  fold_ranks(op, op.root, 0, lo, hi, 0, op.t->size() - 1);
  return 0;
}

// allreduce, redundant: every member's task folds the whole vector into its own
// receive buffer (small vectors: no second phase to wait for).
int allreduce_redundant_run(const operation& op, int t) {
  fold_ranks(op, t, 0, 0, op.count, 0, op.t->size() - 1);
  return 0;
}

// allreduce, chunked: tasks [0, c) fold chunk i into member i's receive buffer
// (a reduce-scatter); task c + i then copies chunk i to every other member.
int allreduce_chunked_tasks(const operation& op) { return 2 * chunks_for(op); }
task_needs allreduce_chunked_needs(const operation& op, int task) {
  const int c = chunks_for(op);
  if (task < c) return everyone(op, task);
  return {-1, -1, true, task - c, task - c + 1};
}
int allreduce_chunked_run(const operation& op, int task) {
  const int c = chunks_for(op);
  const int i = task < c ? task : task - c;
  const std::uint64_t lo = chunk_lo(op, c, i), hi = chunk_lo(op, c, i + 1);
  const std::size_t es = op.eop.size;
  const char* holder = post_of(op, i).recv;
  if (task < c) {
    fold_ranks(op, i, 0, lo, hi, 0, op.t->size() - 1);
    return 0;
  }
  for (int r = 0; r < op.t->size(); ++r)
    if (r != i && hi > lo) std::memcpy(post_of(op, r).recv + lo * es, holder + lo * es, (hi - lo) * es);
  return 0;
}

// reduce_scatter: member t's block of the result, into its receive buffer.
int per_member(const operation& op) { return op.t->size(); }
int reduce_scatter_run(const operation& op, int t) {
  const std::uint64_t lo = op.block_elems[t], hi = op.block_elems[t + 1];
  fold_ranks(op, t, lo, lo, hi, 0, op.t->size() - 1);
  return 0;
}

// Scans: chunk i of the elements, walked through the ranks in order; member t's
// result is member t-1's result op x_(t-1) (exclusive) or op x_t (inclusive).
// A member in place loses x_t when its result is written: x_t is read first
// (inclusive: folded in before the store; exclusive: kept aside, in one of two
// scratch blocks, for member t+1).
template <bool Inclusive>
int scan_run(const operation& op, int i) {
  const int c = chunks_for(op), P = op.t->size();
  const std::uint64_t lo = chunk_lo(op, c, i), hi = chunk_lo(op, c, i + 1);
  const std::size_t es = op.eop.size;
  const std::uint64_t step = std::max<std::uint64_t>(1, sub_block_bytes / es);
  for (std::uint64_t s = lo; s < hi; s += step) {
    const std::uint64_t n = std::min(step, hi - s), bytes = n * es, off = s * es;
    if (Inclusive) {
      char* d0 = post_of(op, 0).recv + off;
      const char* x0 = post_of(op, 0).send + off;
      if (d0 != x0) std::memcpy(d0, x0, bytes);
      for (int t = 1; t < P; ++t) {
        const post& me = post_of(op, t);
        char* d = me.recv + off;
        const char* x = me.send + off;
        if (in_place(op, t)) x = static_cast<const char*>(std::memcpy(scratch(bytes), x, bytes));
        std::memcpy(d, post_of(op, t - 1).recv + off, bytes);
        op.eop.combine(d, x, n);
      }
    } else {
      char* kept = nullptr;                              // two scratch blocks, used in turn
      const char* prev_x = post_of(op, 0).send + off;    // x_(t-1)
      for (int t = 1; t < P; ++t) {
        const post& me = post_of(op, t);
        char* d = me.recv + off;
        const char* x = me.send + off;
        if (in_place(op, t) && t + 1 < P) {
          if (!kept) kept = scratch(2 * bytes);
          char* k = kept + (t % 2) * bytes;
          x = static_cast<const char*>(std::memcpy(k, x, bytes));
        }
        if (t == 1) {
          std::memcpy(d, prev_x, bytes);
        } else {
          std::memcpy(d, post_of(op, t - 1).recv + off, bytes);
          op.eop.combine(d, prev_x, n);
        }
        prev_x = x;
      }
    }
  }
  return 0;
}

}  // namespace

// In place: a chunk's elements are read and written by one task only, so the
// chunked ones are direct; redundant (every task reads every member's whole
// vector) and by_block (a member's result overwrites items of other blocks)
// are staged.
const decomposition reduce_chunked{"chunked", chunks_for, everyone, nullptr, reduce_run, true};
const decomposition allreduce_redundant{"redundant", per_member, everyone, nullptr, allreduce_redundant_run, false};
const decomposition allreduce_chunked{"chunked", allreduce_chunked_tasks, allreduce_chunked_needs, nullptr,
                                      allreduce_chunked_run, true};
const decomposition reduce_scatter_by_block{"by_block", per_member, everyone, nullptr, reduce_scatter_run, false};
const decomposition scan_chunked{"chunked", chunks_for, everyone, nullptr, scan_run<false>, true};
const decomposition scan_inclusive_chunked{"chunked", chunks_for, everyone, nullptr, scan_run<true>, true};

}  // namespace upc::coll::coop::decompositions
