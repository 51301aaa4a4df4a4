#include "upccoll_types.hpp"

#include "reduce_ops.hpp"
#include "../runtime/op_names.hpp"

#include <complex>
#include <cstring>
#include <type_traits>
#include <vector>

namespace upc::coll::coop {

namespace {

#define UPCCOLL_TYPES(X)                                                         \
  X(UPC_BYTE, unsigned char, integer)                                           \
  X(UPC_CHAR, char, integer)                                                    \
  X(UPC_UCHAR, unsigned char, integer)                                          \
  X(UPC_SHORT, short, integer)                                                  \
  X(UPC_USHORT, unsigned short, integer)                                        \
  X(UPC_INT, int, integer)                                                      \
  X(UPC_UINT, unsigned int, integer)                                            \
  X(UPC_LONG, long, integer)                                                    \
  X(UPC_ULONG, unsigned long, integer)                                          \
  X(UPC_LONGLONG, long long, integer)                                           \
  X(UPC_ULONGLONG, unsigned long long, integer)                                 \
  X(UPC_FLOAT, float, real)                                                     \
  X(UPC_DOUBLE, double, real)                                                   \
  X(UPC_LONGDOUBLE, long double, real)                                          \
  X(UPC_CPLX, std::complex<float>, complex)                                     \
  X(UPC_DBLCPLX, std::complex<double>, complex)                                 \
  X(UPC_LONGDBLCPLX, std::complex<long double>, complex)                        \
  X(UPC_FLOAT_INT, upccoll_float_int_t, pair)                                   \
  X(UPC_DOUBLE_INT, upccoll_double_int_t, pair)                                 \
  X(UPC_LONG_INT, upccoll_long_int_t, pair)                                     \
  X(UPC_2INT, upccoll_2int_t, pair)                                             \
  X(UPC_SHORT_INT, upccoll_short_int_t, pair)                                   \
  X(UPC_LONG_DOUBLE_INT, upccoll_long_double_int_t, pair)

const dtype_info g_types[] = {
#define ROW(V, T, C) {V, #V, sizeof(T), type_class::C},
    UPCCOLL_TYPES(ROW)
#undef ROW
};

using ops::load;

// a op b for predefined ops; a is the left (lower-rank) operand.
template <class T, upc_op_t Op>
T apply(const T& a, const T& b) {
  if constexpr (Op == UPC_MINLOC || Op == UPC_MAXLOC) {
    // MPI: the better value; on equal values the lower index.
    const bool take_b = Op == UPC_MINLOC ? (b.value < a.value) : (a.value < b.value);
    if (take_b) return b;
    if (!(a.value < b.value) && !(b.value < a.value) && b.index < a.index) return b;
    return a;
  } else if constexpr (Op == UPC_ADD) {
    return static_cast<T>(a + b);
  } else if constexpr (Op == UPC_MULT) {
    return static_cast<T>(a * b);
  } else if constexpr (Op == UPC_LOGAND) {
    return static_cast<T>(a && b);
  } else if constexpr (Op == UPC_LOGOR) {
    return static_cast<T>(a || b);
  } else if constexpr (Op == UPC_LOGXOR) {
    return static_cast<T>((a != T(0)) != (b != T(0)));
  } else if constexpr (Op == UPC_MIN) {
    return b < a ? b : a;
  } else if constexpr (Op == UPC_MAX) {
    return a < b ? b : a;
  } else if constexpr (Op == UPC_AND) {
    return static_cast<T>(a & b);
  } else if constexpr (Op == UPC_OR) {
    return static_cast<T>(a | b);
  } else {
    static_assert(Op == UPC_XOR);
    return static_cast<T>(a ^ b);
  }
}

template <class T, upc_op_t Op>
void combine(void* acc, const void* in, std::size_t n, const element_op&) {
  if constexpr (std::is_arithmetic_v<T>) {
    // Plain types: typed pointers let the compiler vectorise the integer ops
    // (the buffers are suitably aligned: they come from the shared heap).
    T* a = static_cast<T*>(acc);
    const T* b = static_cast<const T*>(in);
    for (std::size_t i = 0; i < n; ++i) a[i] = apply<T, Op>(a[i], b[i]);
  } else {
    char* a = static_cast<char*>(acc);
    const char* b = static_cast<const char*>(in);
    for (std::size_t i = 0; i < n; ++i) {
      const T r = apply<T, Op>(load<T>(a + i * sizeof(T)), load<T>(b + i * sizeof(T)));
      std::memcpy(a + i * sizeof(T), &r, sizeof(T));
    }
  }
}

template <class T, type_class C>
element_op::combine_fn pick(upccoll_op_t op) {
  if constexpr (C == type_class::pair) {
    if (op == UPC_MINLOC) return combine<T, UPC_MINLOC>;
    if (op == UPC_MAXLOC) return combine<T, UPC_MAXLOC>;
    return nullptr;
  } else {
    if (op == UPC_ADD) return combine<T, UPC_ADD>;
    if (op == UPC_MULT) return combine<T, UPC_MULT>;
    if constexpr (C == type_class::integer || C == type_class::real) {
      if (op == UPC_LOGAND) return combine<T, UPC_LOGAND>;
      if (op == UPC_LOGOR) return combine<T, UPC_LOGOR>;
      if (op == UPC_LOGXOR) return combine<T, UPC_LOGXOR>;
      if (op == UPC_MIN) return combine<T, UPC_MIN>;
      if (op == UPC_MAX) return combine<T, UPC_MAX>;
    }
    if constexpr (C == type_class::integer) {
      if (op == UPC_AND) return combine<T, UPC_AND>;
      if (op == UPC_OR) return combine<T, UPC_OR>;
      if (op == UPC_XOR) return combine<T, UPC_XOR>;
    }
    return nullptr;
  }
}

element_op::combine_fn combine_for(upccoll_op_t op, const dtype_info& t) {
  switch (t.value) {
#define CASE(V, T, C) \
  case V: return pick<T, type_class::C>(op);
    UPCCOLL_TYPES(CASE)
#undef CASE
  }
  return nullptr;
}

void user_combine(void* acc, const void* in, std::size_t n, const element_op& e) {
  thread_local std::vector<char> tmp;
  const std::size_t bytes = n * e.elem_size;
  if (tmp.size() < bytes) tmp.resize(bytes);
  std::memcpy(tmp.data(), in, bytes);
  e.user_fn(acc, tmp.data(), n, e.dtype);  // tmp = acc op in
  std::memcpy(acc, tmp.data(), bytes);
}

}  // namespace

const dtype_info* find_dtype(upccoll_dtype_t dt) noexcept {
  for (const dtype_info& t : g_types)
    if (t.value == dt) return &t;
  return nullptr;
}

bool op_applies(upccoll_op_t op, const dtype_info& t) noexcept { return combine_for(op, t) != nullptr; }

bool is_predefined_op(upccoll_op_t op) noexcept {
  for (upccoll_op_t p : {UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR, UPC_LOGAND, UPC_LOGOR, UPC_LOGXOR, UPC_MIN,
                         UPC_MAX, UPC_MINLOC, UPC_MAXLOC})
    if (op == p) return true;
  return false;
}

const char* op_name(upccoll_op_t op) noexcept {
  if (op == UPC_LOGXOR) return "UPC_LOGXOR";
  return upc::detail::op_name(op);
}

element_op predefined_op(upccoll_op_t op, const dtype_info& t) noexcept {
  element_op e;
  e.elem_size = t.size;
  e.combine = combine_for(op, t);
  e.dtype = t.value;
  return e;
}

element_op user_op(upccoll_user_fun* fn, const dtype_info& t) noexcept {
  element_op e;
  e.elem_size = t.size;
  e.combine = user_combine;
  e.user_fn = fn;
  e.dtype = t.value;
  return e;
}

}  // namespace upc::coll::coop
