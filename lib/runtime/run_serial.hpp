// The serial number of the current run in this process: bumped when a run
// allocates its shared objects (static_objects.cpp, before any thread starts),
// read by per-thread caches (the heap's lookups, remap, UPC-IO) so that what one
// run cached is never taken for another's. A unit of its own so that the heap,
// which reads it, does not depend on the registry of shared objects, which
// allocates from the heap.
#pragma once
#include <atomic>
#include <cstdint>

namespace upc::detail {

inline std::atomic<std::uint64_t> g_run_serial{0};

inline std::uint64_t run_serial() noexcept { return g_run_serial.load(std::memory_order_relaxed); }
inline void begin_next_run_serial() noexcept { g_run_serial.fetch_add(1); }

}  // namespace upc::detail
