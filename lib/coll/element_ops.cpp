#include "element_ops.hpp"

#include <cstring>
#include <type_traits>
#include <vector>

namespace upc::coll {

namespace {

const type_info g_types[] = {
#define UPCEMU_TYPE_ROW(id, T, cls) {elem_type::id, #id, sizeof(T), alignof(T), type_class::cls},
    UPCEMU_ELEMENT_TYPES(UPCEMU_TYPE_ROW)
#undef UPCEMU_TYPE_ROW
};

const char* const g_op_names[] = {
#define UPCEMU_OP_NAME(id) #id,
    UPCEMU_ELEMENT_OPS(UPCEMU_OP_NAME)
#undef UPCEMU_OP_NAME
};

template <class T>
T load(const void* p) {
  T v;
  std::memcpy(static_cast<void*>(&v), p, sizeof(T));
  return v;
}
template <class T>
void store(void* p, const T& v) {
  std::memcpy(p, static_cast<const void*>(&v), sizeof(T));
}

template <class T>
constexpr bool is_pair = false;
template <class V>
constexpr bool is_pair<value_index<V>> = true;

// a op b; a is the left (lower index, lower rank) operand.
template <class T, elem_op Op>
T apply(const T& a, const T& b, const element_op& e) {
  if constexpr (Op == elem_op::value_function) {
    return reinterpret_cast<T (*)(T, T)>(const_cast<void*>(e.fn))(a, b);
  } else if constexpr (Op == elem_op::minloc || Op == elem_op::maxloc) {
    const bool take_b = Op == elem_op::minloc ? (b.value < a.value) : (a.value < b.value);
    if (take_b) return b;
    if (!(a.value < b.value) && !(b.value < a.value) && b.index < a.index) return b;
    return a;
  } else if constexpr (Op == elem_op::add || Op == elem_op::mult) {
    if constexpr (std::is_integral_v<T>) {  // wrapping, never undefined
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(Op == elem_op::add ? static_cast<U>(static_cast<U>(a) + static_cast<U>(b))
                                               : static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    } else {
      return Op == elem_op::add ? static_cast<T>(a + b) : static_cast<T>(a * b);
    }
  } else if constexpr (Op == elem_op::log_and) {
    return static_cast<T>(a && b);
  } else if constexpr (Op == elem_op::log_or) {
    return static_cast<T>(a || b);
  } else if constexpr (Op == elem_op::log_xor) {
    return static_cast<T>((a != T(0)) != (b != T(0)));
  } else if constexpr (Op == elem_op::min) {
    return b < a ? b : a;
  } else if constexpr (Op == elem_op::max) {
    return a < b ? b : a;
  } else if constexpr (Op == elem_op::bit_and) {
    return static_cast<T>(a & b);
  } else if constexpr (Op == elem_op::bit_or) {
    return static_cast<T>(a | b);
  } else {
    static_assert(Op == elem_op::bit_xor);
    return static_cast<T>(a ^ b);
  }
}

template <class T, elem_op Op>
void combine(void* acc, const void* in, std::size_t n, const element_op& e) {
  if constexpr (std::is_arithmetic_v<T>) {
    // Aligned plain types: typed pointers let the compiler vectorise.
    if (reinterpret_cast<std::uintptr_t>(acc) % alignof(T) == 0 && reinterpret_cast<std::uintptr_t>(in) % alignof(T) == 0) {
      T* a = static_cast<T*>(acc);
      const T* b = static_cast<const T*>(in);
      for (std::size_t i = 0; i < n; ++i) a[i] = apply<T, Op>(a[i], b[i], e);
      return;
    }
  }
  char* a = static_cast<char*>(acc);
  const char* b = static_cast<const char*>(in);
  for (std::size_t i = 0; i < n; ++i) store(a + i * sizeof(T), apply<T, Op>(load<T>(a + i * sizeof(T)), load<T>(b + i * sizeof(T)), e));
}

template <class T, elem_op Op>
void fold(void* acc, const void* in, std::size_t n, const element_op& e) {
  T a = load<T>(acc);
  const char* b = static_cast<const char*>(in);
  for (std::size_t i = 0; i < n; ++i) a = apply<T, Op>(a, load<T>(b + i * sizeof(T)), e);
  store(acc, a);
}

template <class T, elem_op Op>
void scan(void* out, const void* in, std::size_t n, const void* prefix, const element_op& e) {
  if (n == 0) return;
  char* o = static_cast<char*>(out);
  const char* b = static_cast<const char*>(in);
  T run = load<T>(b);
  const bool has_prefix = prefix != nullptr;
  const T p = has_prefix ? load<T>(prefix) : run;
  for (std::size_t i = 0;;) {
    store(o + i * sizeof(T), has_prefix ? apply<T, Op>(p, run, e) : run);
    if (++i == n) break;
    run = apply<T, Op>(run, load<T>(b + i * sizeof(T)), e);
  }
}

// The MPI form: fn(in, inout, n, type) computes inout = in op inout; acc op x
// is fn(acc, copy of x), result in the copy.
void buffer_combine(void* acc, const void* in, std::size_t n, const element_op& e) {
  if (n == 0) return;
  thread_local std::vector<char> tmp;
  const std::size_t bytes = n * e.size;
  if (tmp.size() < bytes) tmp.resize(bytes);
  std::memcpy(tmp.data(), in, bytes);
  reinterpret_cast<void (*)(void*, void*, std::size_t, int)>(const_cast<void*>(e.fn))(acc, tmp.data(), n, e.fn_type);
  std::memcpy(acc, tmp.data(), bytes);
}
void buffer_fold(void* acc, const void* in, std::size_t n, const element_op& e) {
  for (std::size_t i = 0; i < n; ++i) buffer_combine(acc, static_cast<const char*>(in) + i * e.size, 1, e);
}
void buffer_scan(void* out, const void* in, std::size_t n, const void* prefix, const element_op& e) {
  if (n == 0) return;
  thread_local std::vector<char> run;
  run.assign(static_cast<const char*>(in), static_cast<const char*>(in) + e.size);
  char* o = static_cast<char*>(out);
  for (std::size_t i = 0;;) {
    if (prefix) {
      std::memcpy(o + i * e.size, prefix, e.size);
      buffer_combine(o + i * e.size, run.data(), 1, e);
    } else {
      std::memcpy(o + i * e.size, run.data(), e.size);
    }
    if (++i == n) break;
    buffer_combine(run.data(), static_cast<const char*>(in) + i * e.size, 1, e);
  }
}

constexpr bool applies(elem_op op, type_class c) noexcept {
  switch (op) {
    case elem_op::add:
    case elem_op::mult: return c != type_class::pair;
    case elem_op::bit_and:
    case elem_op::bit_or:
    case elem_op::bit_xor: return c == type_class::integer;
    case elem_op::log_and:
    case elem_op::log_or:
    case elem_op::log_xor:
    case elem_op::min:
    case elem_op::max:
    case elem_op::value_function: return c == type_class::integer || c == type_class::real;
    case elem_op::minloc:
    case elem_op::maxloc: return c == type_class::pair;
    case elem_op::buffer_function: return true;
  }
  return false;
}

template <class T, type_class C, elem_op Op>
void bind_one(element_op& e) {
  if constexpr (applies(Op, C) && Op != elem_op::buffer_function) {
    e.combine_ = combine<T, Op>;
    e.fold_ = fold<T, Op>;
    e.scan_ = scan<T, Op>;
  }
}

template <class T, type_class C>
void bind_typed(element_op& e) {
  switch (e.op) {
#define UPCEMU_OP_CASE(id)                    \
  case elem_op::id:                           \
    bind_one<T, C, elem_op::id>(e);           \
    break;
    UPCEMU_ELEMENT_OPS(UPCEMU_OP_CASE)
#undef UPCEMU_OP_CASE
  }
}

}  // namespace

const type_info& info(elem_type t) noexcept { return g_types[static_cast<int>(t)]; }
const char* name_of(elem_op op) noexcept { return g_op_names[static_cast<int>(op)]; }

bool defined(elem_op op, elem_type t) noexcept { return applies(op, info(t).cls); }

element_op bind(elem_type t, elem_op op, const void* fn, int fn_type, bool commutative) noexcept {
  element_op e;
  e.type = t;
  e.op = op;
  e.size = info(t).size;
  e.fn = fn;
  e.fn_type = fn_type;
  e.commutative = commutative;
  if (!defined(op, t)) return e;
  if ((op == elem_op::value_function || op == elem_op::buffer_function) && !fn) return e;
  if (op == elem_op::buffer_function) {
    e.combine_ = buffer_combine;
    e.fold_ = buffer_fold;
    e.scan_ = buffer_scan;
    return e;
  }
  switch (t) {
#define UPCEMU_TYPE_CASE(id, T, cls)        \
  case elem_type::id:                       \
    bind_typed<T, type_class::cls>(e);      \
    break;
    UPCEMU_ELEMENT_TYPES(UPCEMU_TYPE_CASE)
#undef UPCEMU_TYPE_CASE
  }
  return e;
}

}  // namespace upc::coll
