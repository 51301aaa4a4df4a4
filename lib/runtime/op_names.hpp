// The one table of upc_op_t values (upc_types.h, and <upccoll_types.h>'s
// UPC_LOGXOR): each bit once, with its name, the engine's element operation and
// the libraries that accept it. Every mapping of an op value reads these rows:
// the names in messages (atomics and every collective library), the ops a
// library accepts and what they compute (lib/api/collective_checks.cpp,
// lib/api/upccoll_types.cpp).
//
// The element operation is an id of lib/coll/element_ops.hpp's elem_op,
// written here as a bare name (`none`: the op combines no elements) so that
// the runtime, the lowest layer, includes nothing of the engine; the front-ends
// expand the same rows with the engine's type (collective_checks.cpp).
#pragma once
#include <cstddef>

#include "upc_types.h"
#include "upccoll_types.h"  // UPC_LOGXOR

// bit, element op, accepted by: the UPC collectives (<upc_collective.h>,
// <upc_collective_ext.h>, xupc), <upccoll.h> (its predefined ops), <upc_atomic.h>
#define UPCEMU_UPC_OPS(X)                       \
  X(UPC_ADD, add, 1, 1, 1)                      \
  X(UPC_MULT, mult, 1, 1, 1)                    \
  X(UPC_AND, bit_and, 1, 1, 1)                  \
  X(UPC_OR, bit_or, 1, 1, 1)                    \
  X(UPC_XOR, bit_xor, 1, 1, 1)                  \
  X(UPC_LOGAND, log_and, 1, 1, 0)               \
  X(UPC_LOGOR, log_or, 1, 1, 0)                 \
  X(UPC_MIN, min, 1, 1, 1)                      \
  X(UPC_MAX, max, 1, 1, 1)                      \
  X(UPC_FUNC, value_function, 1, 0, 0)          \
  X(UPC_NONCOMM_FUNC, value_function, 1, 0, 0)  \
  X(UPC_MINLOC, minloc, 0, 1, 0)                \
  X(UPC_MAXLOC, maxloc, 0, 1, 0)                \
  X(UPC_GET, none, 0, 0, 1)                     \
  X(UPC_SET, none, 0, 0, 1)                     \
  X(UPC_CSWAP, none, 0, 0, 1)                   \
  X(UPC_SUB, none, 0, 0, 1)                     \
  X(UPC_INC, none, 0, 0, 1)                     \
  X(UPC_DEC, none, 0, 0, 1)                     \
  X(UPC_LOGXOR, log_xor, 0, 1, 0)

namespace upc::detail {

// The libraries of a row (upc_op_row::libraries).
namespace op_library {
constexpr unsigned upc_collectives = 1u << 0, upccoll = 1u << 1, atomics = 1u << 2;
}  // namespace op_library

struct upc_op_row {
  upc_op_t bit;
  const char* name;    // "UPC_ADD"
  unsigned libraries;  // op_library bits
  constexpr bool accepted_by(unsigned library) const noexcept { return (libraries & library) != 0; }
};

inline constexpr upc_op_row upc_ops[] = {
#define UPCEMU_UPC_OP_ROW(bit, element, collectives, upccoll_, atomics_)                                  \
  {bit, #bit,                                                                                           \
   (collectives ? op_library::upc_collectives : 0u) | (upccoll_ ? op_library::upccoll : 0u) | \
       (atomics_ ? op_library::atomics : 0u)},
    UPCEMU_UPC_OPS(UPCEMU_UPC_OP_ROW)
#undef UPCEMU_UPC_OP_ROW
};
inline constexpr std::size_t upc_op_count = sizeof upc_ops / sizeof upc_ops[0];

// The row of `bit`; nullptr for a value that is not exactly one known bit.
constexpr const upc_op_row* find_op(upc_op_t bit) noexcept {
  for (const upc_op_row& r : upc_ops)
    if (r.bit == bit) return &r;
  return nullptr;
}

// "UPC_ADD" for UPC_ADD; nullptr for a value that is not exactly one known bit.
constexpr const char* op_name(upc_op_t bit) noexcept {
  const upc_op_row* r = find_op(bit);
  return r ? r->name : nullptr;
}

}  // namespace upc::detail
