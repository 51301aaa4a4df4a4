// The collective benchmarks' buffers: one upc_all_alloc(THREADS, block) each,
// every thread's part at the same offset.
#pragma once
#include <cstddef>

#include "upc.h"

namespace bench {

// Thread t's block of such an allocation, as a pointer with phase 0 (with
// affinity to t): a root's buffer, or a thread's own.
inline upc::sptr<void> on_thread(upc::sptr<void> base, int t, std::size_t block) {
  return upc::sptr<void>(upc::layout::advance(base.address(),
                                              static_cast<std::ptrdiff_t>(t) * static_cast<std::ptrdiff_t>(block), 1,
                                              block, THREADS));
}

}  // namespace bench
