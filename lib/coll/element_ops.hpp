// Element types × operations: the one table under every reduction of every
// library (issue 9). A front-end maps its own type and op values onto these
// (lib/api/*), binds them into an element_op, and every algorithm, task and test
// model uses that. acc = acc op in with acc on the left, so a non-commutative
// function sees its operands in index (rank) order.
//
// Which ops apply to which types (by class):
//   add, mult                      integer, real, complex
//   bit_and, bit_or, bit_xor       integer
//   log_and, log_or, log_xor, min, max   integer, real
//   minloc, maxloc                 pair (ties: the lower index, as MPI)
//   value_function                 integer, real: the UPC form T f(T, T)
//   buffer_function                every type: the MPI form f(in, inout, n, type),
//                                  computing inout = in op inout
// Integer add and mult wrap (they are computed in the unsigned type of the same
// width, so an overflow is never undefined behaviour).
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace upc::coll {

enum class type_class : std::uint8_t { integer, real, complex, pair };

// The value-and-index pairs of MINLOC / MAXLOC, laid out as the C structs
// { V value; int index; } (MPI_DOUBLE_INT & co.).
template <class V>
struct value_index {
  V value;
  int index;
};

// id, C type, class
#define UPCEMU_ELEMENT_TYPES(X)                       \
  X(s_char, signed char, integer)                     \
  X(u_char, unsigned char, integer)                   \
  X(p_char, char, integer)                            \
  X(s_short, short, integer)                          \
  X(u_short, unsigned short, integer)                 \
  X(s_int, int, integer)                              \
  X(u_int, unsigned int, integer)                     \
  X(s_long, long, integer)                            \
  X(u_long, unsigned long, integer)                   \
  X(s_llong, long long, integer)                      \
  X(u_llong, unsigned long long, integer)             \
  X(r_float, float, real)                             \
  X(r_double, double, real)                           \
  X(r_ldouble, long double, real)                     \
  X(c_float, std::complex<float>, complex)            \
  X(c_double, std::complex<double>, complex)          \
  X(c_ldouble, std::complex<long double>, complex)    \
  X(float_int, value_index<float>, pair)              \
  X(double_int, value_index<double>, pair)            \
  X(long_int, value_index<long>, pair)                \
  X(int_int, value_index<int>, pair)                  \
  X(short_int, value_index<short>, pair)              \
  X(ldouble_int, value_index<long double>, pair)

enum class elem_type : std::uint8_t {
#define UPCEMU_TYPE_ID(id, T, cls) id,
  UPCEMU_ELEMENT_TYPES(UPCEMU_TYPE_ID)
#undef UPCEMU_TYPE_ID
};

#define UPCEMU_ELEMENT_OPS(X) \
  X(add) X(mult) X(bit_and) X(bit_or) X(bit_xor) X(log_and) X(log_or) X(log_xor) X(min) X(max) X(minloc) X(maxloc) \
  X(value_function) X(buffer_function)

enum class elem_op : std::uint8_t {
#define UPCEMU_OP_ID(id) id,
  UPCEMU_ELEMENT_OPS(UPCEMU_OP_ID)
#undef UPCEMU_OP_ID
};

struct type_info {
  elem_type id;
  const char* name;     // "s_int"
  std::size_t size;
  std::size_t align;
  type_class cls;
};
const type_info& info(elem_type t) noexcept;
const char* name_of(elem_op op) noexcept;  // "add"

// Whether `op` applies to `t` (the table above).
bool defined(elem_op op, elem_type t) noexcept;

struct element_op;
// acc[i] = acc[i] op in[i], i < n
using combine_fn = void (*)(void* acc, const void* in, std::size_t n, const element_op& self);
// *acc = ((*acc op in[0]) op in[1]) ... op in[n-1]
using fold_fn = void (*)(void* acc, const void* in, std::size_t n, const element_op& self);
// out[i] = prefix op (in[0] op ... op in[i]); without prefix, the fold alone
using scan_fn = void (*)(void* out, const void* in, std::size_t n, const void* prefix, const element_op& self);

// An operation bound to a type: what plans, tasks and models call.
struct element_op {
  elem_type type = elem_type::s_int;
  elem_op op = elem_op::add;
  std::size_t size = 0;            // bytes of one element
  const void* fn = nullptr;        // value_function: T (*)(T, T); buffer_function: void (*)(void*, void*, size_t, int)
  int fn_type = 0;                 // buffer_function: the type value passed to fn (the front-end's)
  bool commutative = true;
  combine_fn combine_ = nullptr;
  fold_fn fold_ = nullptr;
  scan_fn scan_ = nullptr;

  bool valid() const noexcept { return combine_ != nullptr; }
  void combine(void* acc, const void* in, std::size_t n) const { combine_(acc, in, n, *this); }
  void fold(void* acc, const void* in, std::size_t n) const { fold_(acc, in, n, *this); }
  void scan(void* out, const void* in, std::size_t n, const void* prefix) const { scan_(out, in, n, prefix, *this); }
};

// The element type of a C++ type (the front-ends' typed functions).
template <class T>
inline constexpr bool is_element_type = false;
#define UPCEMU_IS_ELEMENT(id, CT, cls) \
  template <>                          \
  inline constexpr bool is_element_type<CT> = true;
UPCEMU_ELEMENT_TYPES(UPCEMU_IS_ELEMENT)
#undef UPCEMU_IS_ELEMENT
template <class T>
constexpr elem_type element_type_of() noexcept {
  static_assert(is_element_type<T>, "not an element type of the engine");
#define UPCEMU_TYPE_OF(id, CT, cls) \
  if constexpr (std::is_same_v<T, CT>) return elem_type::id;
  UPCEMU_ELEMENT_TYPES(UPCEMU_TYPE_OF)
#undef UPCEMU_TYPE_OF
  return elem_type::s_int;
}

// The bound operation; !valid() when `op` does not apply to `t` (or a function
// op has no function).
element_op bind(elem_type t, elem_op op, const void* fn = nullptr, int fn_type = 0, bool commutative = true) noexcept;

}  // namespace upc::coll
