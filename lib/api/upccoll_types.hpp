// The 23 data types of upccoll_dtype_t and the operations defined on them: one
// table gives each type its size and kind, and the element operation (acc op= in)
// for each valid (type, op) pair is generated from templates.
#pragma once
#include <cstddef>

#include "../coll/coop/operation.hpp"
#include "upccoll.h"

namespace upc::coll::coop {

enum class type_class { integer, real, complex, pair };

struct dtype_info {
  upccoll_dtype_t value;
  const char* name;      // "UPC_DOUBLE"
  std::size_t size;
  type_class cls;
};

// nullptr when dt is not one of the 23.
const dtype_info* find_dtype(upccoll_dtype_t dt) noexcept;

// Whether a predefined op applies to the type (docs/teams-and-collectives-2.md):
// ADD, MULT: every type but the pairs; AND, OR, XOR: integers; LOGAND, LOGOR,
// LOGXOR, MIN, MAX: integers and reals; MINLOC, MAXLOC: the pairs only.
bool op_applies(upccoll_op_t op, const dtype_info& t) noexcept;

// Whether op is one of the predefined upccoll ops (the paper's eleven and the
// extension UPC_LOGXOR).
bool is_predefined_op(upccoll_op_t op) noexcept;

// "UPC_ADD" for a predefined op (UPC_LOGXOR included), else nullptr.
const char* op_name(upccoll_op_t op) noexcept;

// The element operation of a predefined op on a type (op_applies must hold).
element_op predefined_op(upccoll_op_t op, const dtype_info& t) noexcept;

// The element operation of a user function: acc = fn(acc, in) in MPI's
// (in, inout) convention, through a copy of `in`.
element_op user_op(upccoll_user_fun* fn, const dtype_info& t) noexcept;

}  // namespace upc::coll::coop
