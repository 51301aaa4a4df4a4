// A lock as a UPC program holds it and as the runtime does. UPC 1.3 7.2.4 makes
// upc_lock_t a shared type, so translated C passes a lock as a pointer-to-shared
// (upcemu_sptr); the C++ runtime holds it by its local address in the segment
// (include/upc/lock.hpp), valid on every thread, process and host of the run.
#pragma once
#include <cstdint>

#include "upc/lock.hpp"
#include "upc/sptr.hpp"
#include "upcemu_c.h"

namespace upc::detail {
inline upc_lock_t* lock_of(upcemu_sptr p) {
  if (p.offset == 0 && p.thread == 0 && p.phase == 0) return nullptr;
  return reinterpret_cast<upc_lock_t*>(raw_address(shared_address{p.offset, p.thread, p.phase}));
}
inline upcemu_sptr lock_sptr(upc_lock_t* l) {
  if (l == nullptr) return upcemu_sptr{0, 0, 0};
  const auto at = static_cast<std::uint64_t>(reinterpret_cast<char*>(l) - g_partitions);
  return upcemu_sptr{at % g_partition_bytes, static_cast<std::uint32_t>(at / g_partition_bytes), 0};
}
}  // namespace upc::detail
