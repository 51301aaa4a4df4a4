// A bulk transfer's shared side as an access for the race check
// (--check=races, race_check.hpp): every byte of its range, at the caller's
// place. upc_memcpy/get/put/set (memops.cpp) note it when they copy; the
// non-blocking transfers (nb.cpp) at their start and again at their sync.
#pragma once
#include <cstddef>
#include <cstdint>

#include "call_site.hpp"
#include "control.hpp"
#include "race_check.hpp"

namespace upc::detail {

// The caller's place: the UPC source's line that upcc passed (tl_c_site), else
// the return address into the caller (resolved only for a report).
inline access_site caller_site(const void* return_address) noexcept {
  const c_site& c = tl_c_site;
  return access_site{c.file, c.line, c.file ? nullptr : return_address};
}

inline void note_range(const void* p, std::size_t n, unsigned kind, const access_site& site) {
  if (g_races) note_shared_access(p, n, kind, site);
}
inline void note_range(const void* p, std::size_t n, unsigned kind, const void* return_address) {
  if (g_races) note_shared_access(p, n, kind, caller_site(return_address));
}

// A transfer's private side that lies in the shared segment (a pointer the
// program got by casting its own shared data to a local pointer, as NAS MG
// does for the source of its ghost-cell upc_memput) is an access of those
// shared bytes too: another thread's transfer into them races with it.
inline void note_private_range(const void* p, std::size_t n, unsigned kind, const void* return_address) {
  if (!g_races) return;
  const char* b = static_cast<const char*>(p);
  const char* lo = g_partitions;
  const char* hi = g_partitions + static_cast<std::uint64_t>(g_control->threads) * g_partition_bytes;
  if (b + n <= lo || b >= hi) return;
  const char* from = b < lo ? lo : b;
  const char* to = b + n > hi ? hi : b + n;
  note_shared_access(from, static_cast<std::size_t>(to - from), kind, caller_site(return_address));
}

}  // namespace upc::detail
