// The 23 data types of upccoll_dtype_t and the predefined ops, mapped onto the
// engine's one table of element types and operations (lib/coll/element_ops.hpp):
// which (type, op) pairs exist, and how they compute, is decided there.
#pragma once
#include <cstddef>
#include <optional>

#include "../coll/engine.hpp"
#include "upccoll.h"

namespace upc::coll::upccoll_types {

struct dtype_info {
  upccoll_dtype_t value;
  const char* name;      // "UPC_DOUBLE"
  elem_type type;        // the engine's type
  std::size_t size;
};

// nullptr when dt is not one of the 23.
const dtype_info* find_dtype(upccoll_dtype_t dt) noexcept;
// Every type, in the paper's order.
const dtype_info* dtypes_begin() noexcept;
const dtype_info* dtypes_end() noexcept;

// The engine op of a predefined op (the paper's eleven and UPC_LOGXOR), or none.
std::optional<elem_op> predefined(upccoll_op_t op) noexcept;
// "UPC_ADD" for a predefined op (UPC_LOGXOR included), else nullptr.
const char* op_name(upccoll_op_t op) noexcept;

// The bound operation of a predefined op on a type (invalid when the op does
// not apply to it: docs/teams-and-collectives-2.md).
element_op predefined_op(upccoll_op_t op, const dtype_info& t) noexcept;
// A user function (MPI's convention: fn(in, inout, n, dt) computes inout = in op inout).
element_op user_op(upccoll_user_fun* fn, const dtype_info& t) noexcept;

}  // namespace upc::coll::upccoll_types
