// UPC's blocked-cyclic layout (UPC 1.3 §6.4.2) as plain functions, shared by the
// typed pointers, shared arrays and (later) the collective engine, which knows
// block and element sizes only at run time. Block size 0 means indefinite: the
// whole object lives on one thread.
#pragma once
#include <cstddef>
#include <cstdint>

namespace upc {

// Where a pointer-to-shared points: the thread with affinity, the phase (index
// within the current block), and the byte offset inside that thread's partition.
struct shared_address {
  std::uint64_t offset = 0;
  std::uint32_t thread = 0;
  std::uint32_t phase = 0;
  friend bool operator==(const shared_address&, const shared_address&) = default;
};

namespace layout {

constexpr std::ptrdiff_t floor_div(std::ptrdiff_t a, std::ptrdiff_t b) noexcept {
  std::ptrdiff_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// p + i for a pointer to elements of elem_size bytes with this block size.
constexpr shared_address advance(shared_address p, std::ptrdiff_t i, std::size_t elem_size, std::size_t block,
                                 int threads) noexcept {
  const auto E = static_cast<std::ptrdiff_t>(elem_size);
  if (block == 0) {
    p.offset = static_cast<std::uint64_t>(static_cast<std::ptrdiff_t>(p.offset) + i * E);
    return p;
  }
  const auto B = static_cast<std::ptrdiff_t>(block);
  const std::ptrdiff_t ph = static_cast<std::ptrdiff_t>(p.phase) + i;
  const std::ptrdiff_t blocks = floor_div(ph, B);
  const std::ptrdiff_t new_phase = ph - blocks * B;
  const std::ptrdiff_t t = static_cast<std::ptrdiff_t>(p.thread) + blocks;
  const std::ptrdiff_t rows = floor_div(t, threads);
  const std::ptrdiff_t new_thread = t - rows * threads;
  const std::ptrdiff_t delta = (new_phase - static_cast<std::ptrdiff_t>(p.phase)) * E + rows * B * E;
  return {static_cast<std::uint64_t>(static_cast<std::ptrdiff_t>(p.offset) + delta),
          static_cast<std::uint32_t>(new_thread), static_cast<std::uint32_t>(new_phase)};
}

// p - q in elements, for two pointers into the same shared array.
constexpr std::ptrdiff_t distance(shared_address p, shared_address q, std::size_t elem_size, std::size_t block,
                                  int threads) noexcept {
  const auto E = static_cast<std::ptrdiff_t>(elem_size);
  if (block == 0) return (static_cast<std::ptrdiff_t>(p.offset) - static_cast<std::ptrdiff_t>(q.offset)) / E;
  const auto B = static_cast<std::ptrdiff_t>(block);
  const std::ptrdiff_t row_p = static_cast<std::ptrdiff_t>(p.offset) - static_cast<std::ptrdiff_t>(p.phase) * E;
  const std::ptrdiff_t row_q = static_cast<std::ptrdiff_t>(q.offset) - static_cast<std::ptrdiff_t>(q.phase) * E;
  const std::ptrdiff_t rows = (row_p - row_q) / (B * E);
  return (rows * threads + (static_cast<std::ptrdiff_t>(p.thread) - static_cast<std::ptrdiff_t>(q.thread))) * B +
         (static_cast<std::ptrdiff_t>(p.phase) - static_cast<std::ptrdiff_t>(q.phase));
}

// Element i of an array whose element 0 is at `base` (phase 0).
constexpr shared_address element(shared_address base, std::size_t i, std::size_t elem_size, std::size_t block,
                                 int threads) noexcept {
  return advance(base, static_cast<std::ptrdiff_t>(i), elem_size, block, threads);
}

// Bytes of an object of total_bytes, blocked by block_bytes, that live on `thread`
// (upc_affinitysize); 0 for a thread outside [0, threads). Every intermediate is at
// most total_bytes, so nothing can wrap.
constexpr std::size_t affinity_size(std::size_t total_bytes, std::size_t block_bytes, int thread,
                                    int threads) noexcept {
  if (threads <= 0 || thread < 0 || thread >= threads) return 0;
  if (block_bytes == 0) return thread == 0 ? total_bytes : 0;
  const std::size_t nblocks = total_bytes / block_bytes;
  const std::size_t rem = total_bytes % block_bytes;
  const auto T = static_cast<std::size_t>(threads);
  const auto t = static_cast<std::size_t>(thread);
  std::size_t size = (nblocks / T) * block_bytes;
  const std::size_t extra = nblocks % T;
  if (t < extra) size += block_bytes;
  else if (t == extra) size += rem;
  return size;
}

// Bytes per thread to reserve for n elements (the largest local portion): whole
// rows of blocks. Saturates at SIZE_MAX when the true value does not fit in size_t
// (an element count that is a negative number converted to size_t, say), so that no
// caller can mistake a wrapped size for a small one; allocators reject it.
constexpr std::size_t local_bytes(std::size_t n, std::size_t elem_size, std::size_t block, int threads) noexcept {
  std::size_t bytes = 0;
  if (block == 0) return __builtin_mul_overflow(n, elem_size, &bytes) ? SIZE_MAX : bytes;
  const std::size_t T = threads > 0 ? static_cast<std::size_t>(threads) : 1;
  const std::size_t nblocks = n / block + (n % block != 0);  // ceilings that cannot wrap
  const std::size_t rows = nblocks / T + (nblocks % T != 0);
  std::size_t block_bytes = 0;
  if (__builtin_mul_overflow(block, elem_size, &block_bytes) || __builtin_mul_overflow(rows, block_bytes, &bytes))
    return SIZE_MAX;
  return bytes;
}

}  // namespace layout
}  // namespace upc
