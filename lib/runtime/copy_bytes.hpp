// The runtime's bulk copy (collective data steps, upc_memcpy/memget/memput and
// their non-blocking forms): memcpy, except where memcpy is pathologically slow.
//
// glibc copies blocks from 2 KiB up with `rep movsb`, and on AMD Zen CPUs
// that instruction runs 15-25 x slower when the destination is just ahead of
// the source modulo a page ((dst - src) mod 4096 in 1..63): measured on the
// development VM (AMD EPYC, glibc 2.36), 64 KiB in 19 µs instead of 1.2 µs.
// PGAS programs meet that case all the time (a block and the same block of
// another thread are pages apart; displacements of a few bytes), so such
// copies take a plain vector loop instead (docs/implementation-defined.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace upc::detail {

void copy_vector_loop(char* dst, const char* src, std::size_t n) noexcept;

// A run spread over hosts (dsm.hpp): a copy of a page or more with one end on
// another host goes there directly, its bytes streamed in pieces, instead of a fault
// and a diff per page. False when it is not such a copy.
bool copy_across_hosts(void* dst, const void* src, std::size_t n);
extern bool g_several_hosts __asm__("upcemu_g_several_hosts");

// True where memcpy would take the slow path (see above).
inline bool near_page_alias(const void* dst, const void* src, std::size_t n) noexcept {
  const std::uintptr_t d = reinterpret_cast<std::uintptr_t>(dst) - reinterpret_cast<std::uintptr_t>(src);
  return n >= 2048 && (d & 4095) != 0 && (d & 4095) < 64;
}

// memcpy's contract (no overlap).
inline void copy_bytes(void* dst, const void* src, std::size_t n) noexcept {
  if (g_several_hosts && n >= 4096 && copy_across_hosts(dst, src, n)) [[unlikely]]
    return;
  if (near_page_alias(dst, src, n)) copy_vector_loop(static_cast<char*>(dst), static_cast<const char*>(src), n);
  else std::memcpy(dst, src, n);
}

}  // namespace upc::detail
