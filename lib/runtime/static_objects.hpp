// Launcher side of the namespace-scope shared object registry.
#pragma once
#include <cstdint>

namespace upc::detail {
void allocate_static_objects();          // in declaration order, before workers start
void release_static_objects() noexcept;  // after the run
// Counts runs in this process (bumped when a run allocates its objects), so that
// per-thread caches of one run are never taken for another's.
std::uint64_t run_serial() noexcept;
}  // namespace upc::detail
