#include "upccoll_types.hpp"

#include <type_traits>

#include "../runtime/op_names.hpp"
#include "collective_checks.hpp"

namespace upc::coll::upccoll_types {

namespace {

// The pairs are laid out as the engine's value_index structs.
static_assert(sizeof(upccoll_double_int_t) == sizeof(value_index<double>) &&
              offsetof(upccoll_double_int_t, index) == offsetof(value_index<double>, index));
static_assert(sizeof(upccoll_long_double_int_t) == sizeof(value_index<long double>) &&
              offsetof(upccoll_long_double_int_t, index) == offsetof(value_index<long double>, index));
static_assert(sizeof(upccoll_short_int_t) == sizeof(value_index<short>));

#define UPCCOLL_TYPES(X)                   \
  X(UPC_BYTE, u_char)                      \
  X(UPC_CHAR, p_char)                      \
  X(UPC_UCHAR, u_char)                     \
  X(UPC_SHORT, s_short)                    \
  X(UPC_USHORT, u_short)                   \
  X(UPC_INT, s_int)                        \
  X(UPC_UINT, u_int)                       \
  X(UPC_LONG, s_long)                      \
  X(UPC_ULONG, u_long)                     \
  X(UPC_LONGLONG, s_llong)                 \
  X(UPC_ULONGLONG, u_llong)                \
  X(UPC_FLOAT, r_float)                    \
  X(UPC_DOUBLE, r_double)                  \
  X(UPC_LONGDOUBLE, r_ldouble)             \
  X(UPC_CPLX, c_float)                     \
  X(UPC_DBLCPLX, c_double)                 \
  X(UPC_LONGDBLCPLX, c_ldouble)            \
  X(UPC_FLOAT_INT, float_int)              \
  X(UPC_DOUBLE_INT, double_int)            \
  X(UPC_LONG_INT, long_int)                \
  X(UPC_2INT, int_int)                     \
  X(UPC_SHORT_INT, short_int)              \
  X(UPC_LONG_DOUBLE_INT, ldouble_int)

const dtype_info g_types[] = {
#define ROW(V, E) {V, #V, elem_type::E, 0},
    UPCCOLL_TYPES(ROW)
#undef ROW
};

struct sized_table {
  dtype_info rows[sizeof g_types / sizeof g_types[0]];
  sized_table() {
    for (std::size_t i = 0; i < sizeof g_types / sizeof g_types[0]; ++i) {
      rows[i] = g_types[i];
      rows[i].size = info(rows[i].type).size;
    }
  }
};
const sized_table& table() {
  static const sized_table t;
  return t;
}

}  // namespace

const dtype_info* find_dtype(upccoll_dtype_t dt) noexcept {
  for (const dtype_info& t : table().rows)
    if (t.value == dt) return &t;
  return nullptr;
}
const dtype_info* dtypes_begin() noexcept { return std::begin(table().rows); }
const dtype_info* dtypes_end() noexcept { return std::end(table().rows); }

// The predefined ops are the op table's rows that <upccoll.h> accepts
// (lib/runtime/op_names.hpp).
std::optional<elem_op> predefined(upccoll_op_t op) noexcept {
  return element_op_for(op, upc::detail::op_library::upccoll);
}

const char* op_name(upccoll_op_t op) noexcept {
  const upc::detail::upc_op_row* row = upc::detail::find_op(op);
  return row && row->accepted_by(upc::detail::op_library::upccoll) ? row->name : nullptr;
}

element_op predefined_op(upccoll_op_t op, const dtype_info& t) noexcept {
  const std::optional<elem_op> e = predefined(op);
  if (!e) return element_op{};
  return bind(t.type, *e);
}

element_op user_op(upccoll_user_fun* fn, const dtype_info& t) noexcept {
  return bind(t.type, elem_op::buffer_function, reinterpret_cast<const void*>(fn), t.value, true);
}

}  // namespace upc::coll::upccoll_types
