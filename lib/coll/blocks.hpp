// Where the blocks of the standard collectives' arrays live. A shared area
// "shared [nbytes] char[nbytes*THREADS]" that starts at `base` has exactly one
// block with affinity to each thread; UPC 1.3 §7.4 names blocks by that thread.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "upc/sptr.hpp"

namespace upc::coll {

inline char* raw(const shared_address& a) noexcept { return detail::raw_address(a); }

// The block of `nbytes` with affinity to thread `thr` in an area starting at base
// (the phase of base is ignored: the area is reinterpreted with block size nbytes).
inline char* block_on_thread(const shared_address& base, std::size_t nbytes, int thr, int threads) noexcept {
  const int k = (thr - static_cast<int>(base.thread) + threads) % threads;
  const shared_address start{base.offset, base.thread, 0};
  return raw(layout::advance(start, static_cast<std::ptrdiff_t>(k) * static_cast<std::ptrdiff_t>(nbytes), 1, nbytes, threads));
}

// shared [blk] T a[n] starting at `base` (thread, phase and offset respected), in
// terms of "virtual" indices v = position in the same array started at thread 0,
// phase 0. Each thread's elements are contiguous in its partition.
struct blocked_array {
  shared_address base;
  std::size_t elem, blk, n;
  int threads;

  std::uint64_t v0() const noexcept { return blk ? std::uint64_t(base.thread) * blk + base.phase : 0; }
  std::uint64_t v1() const noexcept { return v0() + n; }
  std::uint64_t row_start() const noexcept { return base.offset - std::uint64_t(base.phase) * elem; }
  int owner_of_block(std::uint64_t b) const noexcept {
    return blk ? static_cast<int>(b % std::uint64_t(threads)) : static_cast<int>(base.thread);
  }

  // Elements of thread r with virtual index < v (its local index of v when r owns v).
  std::uint64_t owned_before(int r, std::uint64_t v) const noexcept {
    if (blk == 0) return r == static_cast<int>(base.thread) ? v : 0;
    const std::uint64_t cycle = blk * std::uint64_t(threads);
    const std::uint64_t in = v % cycle, mine = std::uint64_t(r) * blk;
    const std::uint64_t part = in <= mine ? 0 : (in - mine > blk ? blk : in - mine);
    return (v / cycle) * blk + part;
  }
  std::uint64_t count_on(int r) const noexcept { return owned_before(r, v1()) - owned_before(r, v0()); }
  // Machine address of thread r's local element j (counted from the row start).
  char* local(int r, std::uint64_t j) const noexcept {
    const std::uint64_t start = blk ? row_start() : base.offset;
    return detail::g_partitions + std::uint64_t(r) * detail::g_partition_bytes + start + j * elem;
  }
  // First element (local index) of thread r inside the array.
  std::uint64_t first_local(int r) const noexcept { return owned_before(r, v0()); }
  // Address of element k (0-based, in array order).
  char* element(std::uint64_t k) const noexcept {
    return raw(layout::advance(base, static_cast<std::ptrdiff_t>(k), elem, blk, threads));
  }
  // Blocks in virtual numbering that intersect the array: [first_block, last_block].
  std::uint64_t first_block() const noexcept { return blk ? v0() / blk : 0; }
  std::uint64_t last_block() const noexcept { return blk ? (v1() - 1) / blk : 0; }
  // Virtual index range of block b inside the array.
  std::uint64_t block_lo(std::uint64_t b) const noexcept { return blk ? std::max<std::uint64_t>(b * blk, v0()) : 0; }
  std::uint64_t block_hi(std::uint64_t b) const noexcept { return blk ? std::min<std::uint64_t>((b + 1) * blk, v1()) : n; }
  // Local index of virtual index v on its owner.
  std::uint64_t local_index(std::uint64_t v) const noexcept {
    return blk ? (v / (blk * std::uint64_t(threads))) * blk + v % blk : v;
  }
};

}  // namespace upc::coll
