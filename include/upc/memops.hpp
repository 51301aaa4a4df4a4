// Bulk shared-memory transfers (UPC 1.3 §7.2.5). Each side is treated as
// shared [] char: the bytes must lie within one thread's partition.
#pragma once
#include <cstddef>

#include "upc/sptr.hpp"

namespace upc {
void memcpy(sptr<void> dst, sptr<void> src, std::size_t n);
void memget(void* dst, sptr<void> src, std::size_t n);
void memput(sptr<void> dst, const void* src, std::size_t n);
void memset(sptr<void> dst, int c, std::size_t n);
}  // namespace upc
