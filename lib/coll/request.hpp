// The normalised request every collective API reduces to (DESIGN.md §3.2): what
// moves where, an optional reduction, and the sync flags. Front-ends validate the
// user's arguments and fill this in; algorithms read it to build plans.
#pragma once
#include <cstddef>
#include <cstdint>

#include "element_ops.hpp"
#include "kinds.hpp"
#include "upc/layout.hpp"
#include "upc_types.h"

namespace upc::coll {


struct request {
  collective kind;
  const char* function;            // the API name, for messages ("upc_all_broadcast")
  shared_address dst, src;         // as passed (phase kept for reductions)
  std::size_t nbytes = 0;          // data movement: bytes per block
  const int* perm = nullptr;       // permute: perm[i] for thread i (read from shared memory)
  // reductions and sort
  element_op red;                  // the bound operation; red.size is the element size (sort: only that)
  std::uint64_t op_arg = 0;        // the op as the caller passed it (single-valued checks)
  const void* func = nullptr;      // the caller's function, if any (single-valued checks)
  std::size_t nelems = 0, blk_size = 0;
  int (*sort_cmp)(const void*, const void*, const void* ctx) = nullptr;
  const void* sort_ctx = nullptr;
  upc_flag_t flags = 0;
  // Bytes per thread, for size-ranged algorithm rules (UPCEMU_COLL ...:lo-hi).
  std::size_t size_for_selection() const noexcept { return nbytes ? nbytes : nelems * red.size; }
};

}  // namespace upc::coll
