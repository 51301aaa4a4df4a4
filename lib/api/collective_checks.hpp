// Argument checks shared by the UPC-style front-ends (<upc_collective.h> and
// the extended collectives of <upc_collective_ext.h>): each names the function
// and the argument; the runtime adds the thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "../coll/engine.hpp"
#include "upc/layout.hpp"
#include "upc_types.h"

namespace upc::coll {

// Flags: known bits only, at most one IN and one OUT choice.
void check_sync_flags(const char* fn, upc_flag_t flags, const char* arg = "flags");
// Not null, and a thread of the run.
void check_shared_pointer(const char* fn, const char* arg, const shared_address& a);
// a × b, or a clear error naming what overflowed.
std::uint64_t checked_product(const char* fn, const std::string& what, std::uint64_t a, std::uint64_t b);
// " (a negative value converted to size_t?)" for a size that looks like one.
std::string negative_hint(std::uint64_t v);

// Reductions and sort: nelems > 0, blk_size within UPC_MAX_BLOCK_SIZE, and
// nelems elements of elem bytes no more than all the shared heaps together (so
// that the blocked-array arithmetic cannot wrap).
void check_reduction_extent(const char* fn, std::size_t nelems, std::size_t blk_size, std::size_t elem,
                            const char* blk_arg = "blk_size");
// A pointer with a phase inside the block size (0 for an indefinite one).
void check_reduction_phase(const char* fn, const char* arg, const shared_address& a, std::size_t blk_size);
// A reduction op of the UPC collectives (UPC_ADD … UPC_NONCOMM_FUNC), defined
// on the type, with its function when it takes one.
void check_reduction_op(const char* fn, upc_op_t op, elem_type type, const void* func);
// The engine's op of a upc_op_t that `library` accepts (a detail::op_library
// bit), from the one table of ops (lib/runtime/op_names.hpp); none for an op
// the library does not accept or one that combines no elements.
std::optional<elem_op> element_op_for(upc_op_t op, unsigned library) noexcept;
// The engine's op of a UPC collectives' reduction op (UPC_FUNC and
// UPC_NONCOMM_FUNC: value_function, as every value check_reduction_op refuses).
elem_op element_op_of(upc_op_t op) noexcept;

}  // namespace upc::coll
