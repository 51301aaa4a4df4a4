// The normalised request every collective API reduces to (DESIGN.md §3.2): what
// moves where, an optional reduction, and the sync flags. Front-ends validate the
// user's arguments and fill this in; algorithms read it to build plans.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kinds.hpp"
#include "upc/layout.hpp"
#include "upc_types.h"

namespace upc::coll {


// Combines n elements: acc[i] = acc[i] op in[i] (in this order: acc is the left operand).
using combine_fn = void (*)(void* acc, const void* in, std::size_t n, const void* user_fn);
// Left fold of n contiguous elements into one: *acc = ((*acc op in[0]) op in[1]) ...
using fold_fn = void (*)(void* acc, const void* in, std::size_t n, const void* user_fn);
// Inclusive scan of n contiguous elements: out[i] = prefix op (in[0] op ... op in[i]),
// or the fold alone when prefix is null.
using scan_fn = void (*)(void* out, const void* in, std::size_t n, const void* prefix, const void* user_fn);

struct reduction {
  int type = 0;                    // UPC_CHAR … UPC_LONG_DOUBLE (upc_types.h)
  std::size_t elem_size = 0;
  upc_op_t op = 0;
  const void* user_fn = nullptr;   // TYPE (*)(TYPE, TYPE) for UPC_FUNC / UPC_NONCOMM_FUNC
  bool commutative = true;
  combine_fn combine = nullptr;
  fold_fn fold = nullptr;
  scan_fn scan = nullptr;
};

struct request {
  collective kind;
  const char* function;            // the API name, for messages ("upc_all_broadcast")
  shared_address dst, src;         // as passed (phase kept for reductions)
  std::size_t nbytes = 0;          // data movement: bytes per block
  const int* perm = nullptr;       // permute: perm[i] for thread i (read from shared memory)
  // reductions and sort
  reduction red;
  std::size_t nelems = 0, blk_size = 0;
  int (*sort_cmp)(const void*, const void*, const void* ctx) = nullptr;
  const void* sort_ctx = nullptr;
  upc_flag_t flags = 0;
  // Bytes per thread, for size-ranged algorithm rules (UPCEMU_COLL ...:lo-hi).
  std::size_t size_for_selection() const noexcept { return nbytes ? nbytes : nelems * red.elem_size; }
};

}  // namespace upc::coll
