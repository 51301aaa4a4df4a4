// Launcher side of the namespace-scope shared object registry.
#pragma once
#include "run_serial.hpp"  // run_serial(), which lib/remap and lib/io reach through this header

namespace upc::detail {
void allocate_static_objects();          // in declaration order, before workers start
void release_static_objects() noexcept;  // after the run
}  // namespace upc::detail
