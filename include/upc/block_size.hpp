// Block sizes: the layout qualifier of shared arrays and pointers-to-shared
// (UPC 1.3 §6.5.1.1), given as the B template argument.
//
//   UPC                               B
//   shared int / shared [4] int       1 (the default) / 4
//   shared [] int                     upc::indefinite (0): everything on one thread
//   shared [*] int a[N]               upc::star, arrays only: block ceil(N / THREADS)
//                                     (N counts the elements of every dimension),
//                                     fixed when the array is allocated
//   (no UPC spelling)                 upc::dynamic_block: a block size chosen at run
//                                     time, stored in the array and in its pointers
//
// A static block size costs nothing at run time (sizeof(upc::sptr<T, 4>) == 16);
// a pointer with upc::dynamic_block carries its block size (24 bytes) and does
// exactly the same arithmetic with it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "upc/error.hpp"

// UPC 1.3 §6.5.1.1: the largest block size. A plain integer literal, so a program
// may test it with #if as well as use it in expressions.
#define UPC_MAX_BLOCK_SIZE 4294967296ULL

namespace upc {

constexpr std::size_t indefinite = 0;                                 // shared [] T
constexpr std::size_t max_block_size = UPC_MAX_BLOCK_SIZE;             // 2^32
constexpr std::size_t dynamic_block = static_cast<std::size_t>(-1);   // chosen at run time
constexpr std::size_t star = static_cast<std::size_t>(-2);            // shared [*] T a[...]

// Block sizes that are known only when the run starts (B = star or dynamic_block).
constexpr bool is_runtime_block(std::size_t B) noexcept { return B == dynamic_block || B == star; }

namespace detail {

// The block size as a member: empty (and free, with [[no_unique_address]]) for a
// static block size, a stored number for upc::dynamic_block.
template <std::size_t B>
struct block_field {
  static constexpr std::size_t get() noexcept { return B; }
};
template <>
struct block_field<dynamic_block> {
  std::size_t value = 1;
  constexpr std::size_t get() const noexcept { return value; }
};

// A block size chosen at run time must not exceed UPC_MAX_BLOCK_SIZE (the phase
// is stored in 32 bits).
[[noreturn, gnu::cold, gnu::noinline]] inline void fail_block_size(const char* function, std::size_t block) {
  fail(function, "block size " + std::to_string(block) + " exceeds UPC_MAX_BLOCK_SIZE (4294967296)");
}
inline void check_block_size(const char* function, std::size_t block) {
  if (block > max_block_size) [[unlikely]] fail_block_size(function, block);
}

}  // namespace detail
}  // namespace upc
