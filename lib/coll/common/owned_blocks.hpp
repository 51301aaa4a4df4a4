// The elements of a blocked array that one thread owns, as uniform runs for the
// data steps of the reductions (plan.hpp): a thread's elements are contiguous
// in its partition, block after block, and only the array's first and last
// blocks can be short, so they form at most three groups: a short first block,
// the full blocks, a short last block.
#pragma once
#include <cstdint>

#include "../blocks.hpp"

namespace upc::coll {

struct owned_run {
  std::uint64_t slot;       // index of the group's first block among the thread's blocks
  std::uint64_t block;      // its block number (virtual numbering: block b belongs to thread b mod THREADS)
  char* local;              // the group's first element in the thread's partition
  std::uint64_t elements;   // per block (the array's elements when blk is 0)
  std::uint64_t blocks;     // blocks in the group
};

// f(owned_run) for each group of thread `thr`'s blocks, in index order.
template <class F>
void for_each_owned_run(const blocked_array& a, int thr, F&& f) {
  if (a.blk == 0) {
    if (thr == static_cast<int>(a.base.thread) && a.n) f(owned_run{0, 0, a.local(thr, 0), a.n, 1});
    return;
  }
  const std::uint64_t L = static_cast<std::uint64_t>(a.threads), first = a.first_block(), last = a.last_block();
  const std::uint64_t b0 = first + (static_cast<std::uint64_t>(thr) + L - first % L) % L;
  if (b0 > last) return;
  const std::uint64_t owned = (last - b0) / L + 1;
  auto length = [&](std::uint64_t b) { return a.block_hi(b) - a.block_lo(b); };
  auto local_of = [&](std::uint64_t b) { return a.local(thr, a.local_index(a.block_lo(b))); };
  std::uint64_t j = 0;
  if (length(b0) < a.blk) {  // a short first block (the array starts inside it, or ends inside it)
    f(owned_run{0, b0, local_of(b0), length(b0), 1});
    j = 1;
  }
  const std::uint64_t b_last = b0 + (owned - 1) * L;
  const std::uint64_t full_end = (owned > j && length(b_last) < a.blk) ? owned - 1 : owned;
  if (full_end > j) f(owned_run{j, b0 + j * L, local_of(b0 + j * L), a.blk, full_end - j});
  if (full_end < owned && owned - 1 >= j) f(owned_run{owned - 1, b_last, local_of(b_last), length(b_last), 1});
}

// Blocks of the array that thread `thr` owns.
inline std::uint64_t owned_blocks(const blocked_array& a, int thr) {
  std::uint64_t n = 0;
  for_each_owned_run(a, thr, [&](const owned_run& r) { n += r.blocks; });
  return n;
}

}  // namespace upc::coll
