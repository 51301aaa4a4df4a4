// A bulk transfer's shared side as an access for the race check
// (--check=races, race_check.hpp): every byte of its range, at the caller's
// place. upc_memcpy/get/put/set (memops.cpp) note it when they copy; the
// non-blocking transfers (nb.cpp) at their start and again at their sync.
#pragma once
#include <cstddef>

#include "call_site.hpp"
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

}  // namespace upc::detail
