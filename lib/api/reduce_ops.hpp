// The element operations of upc_all_reduceT / prefix_reduceT: one combine
// function per (type, op), generated from templates. acc = acc op in, acc on the
// left, so non-commutative functions see their operands in index order.
#pragma once
#include <cstring>
#include <type_traits>

#include "../coll/request.hpp"

namespace upc::coll::ops {

template <class T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T, upc_op_t Op>
T apply(T a, T b, const void* fn) {
  if constexpr (Op == UPC_ADD) return static_cast<T>(a + b);
  else if constexpr (Op == UPC_MULT) return static_cast<T>(a * b);
  else if constexpr (Op == UPC_LOGAND) return static_cast<T>(a && b);
  else if constexpr (Op == UPC_LOGOR) return static_cast<T>(a || b);
  else if constexpr (Op == UPC_MIN) return b < a ? b : a;
  else if constexpr (Op == UPC_MAX) return a < b ? b : a;
  else if constexpr (Op == UPC_FUNC || Op == UPC_NONCOMM_FUNC) return reinterpret_cast<T (*)(T, T)>(const_cast<void*>(fn))(a, b);
  else if constexpr (std::is_integral_v<T>) {
    if constexpr (Op == UPC_AND) return static_cast<T>(a & b);
    else if constexpr (Op == UPC_OR) return static_cast<T>(a | b);
    else return static_cast<T>(a ^ b);
  } else {
    return a;  // bitwise ops on floating types are refused before we get here
  }
}

template <class T, upc_op_t Op>
void combine(void* acc, const void* in, std::size_t n, const void* fn) {
  auto* a = static_cast<char*>(acc);
  auto* b = static_cast<const char*>(in);
  for (std::size_t i = 0; i < n; ++i) {
    T r = apply<T, Op>(load<T>(a + i * sizeof(T)), load<T>(b + i * sizeof(T)), fn);
    std::memcpy(a + i * sizeof(T), &r, sizeof(T));
  }
}

template <class T, upc_op_t Op>
void fold(void* acc, const void* in, std::size_t n, const void* fn) {
  T a = load<T>(acc);
  auto* b = static_cast<const char*>(in);
  for (std::size_t i = 0; i < n; ++i) a = apply<T, Op>(a, load<T>(b + i * sizeof(T)), fn);
  std::memcpy(acc, &a, sizeof(T));
}

template <class T, upc_op_t Op>
void scan(void* out, const void* in, std::size_t n, const void* prefix, const void* fn) {
  auto* o = static_cast<char*>(out);
  auto* b = static_cast<const char*>(in);
  if (n == 0) return;
  T run = load<T>(b);
  if (prefix) {
    const T p = load<T>(prefix);
    for (std::size_t i = 0;;) {
      const T r = apply<T, Op>(p, run, fn);
      std::memcpy(o + i * sizeof(T), &r, sizeof(T));
      if (++i == n) break;
      run = apply<T, Op>(run, load<T>(b + i * sizeof(T)), fn);
    }
  } else {
    for (std::size_t i = 0;;) {
      std::memcpy(o + i * sizeof(T), &run, sizeof(T));
      if (++i == n) break;
      run = apply<T, Op>(run, load<T>(b + i * sizeof(T)), fn);
    }
  }
}

template <class T>
scan_fn scan_for(upc_op_t op) {
  switch (op) {
    case UPC_ADD: return scan<T, UPC_ADD>;
    case UPC_MULT: return scan<T, UPC_MULT>;
    case UPC_AND: return scan<T, UPC_AND>;
    case UPC_OR: return scan<T, UPC_OR>;
    case UPC_XOR: return scan<T, UPC_XOR>;
    case UPC_LOGAND: return scan<T, UPC_LOGAND>;
    case UPC_LOGOR: return scan<T, UPC_LOGOR>;
    case UPC_MIN: return scan<T, UPC_MIN>;
    case UPC_MAX: return scan<T, UPC_MAX>;
    case UPC_FUNC: return scan<T, UPC_FUNC>;
    case UPC_NONCOMM_FUNC: return scan<T, UPC_NONCOMM_FUNC>;
    default: return nullptr;
  }
}

// The fold function for (T, op); nullptr for an op that is not one bit of the list.
template <class T>
fold_fn fold_for(upc_op_t op) {
  switch (op) {
    case UPC_ADD: return fold<T, UPC_ADD>;
    case UPC_MULT: return fold<T, UPC_MULT>;
    case UPC_AND: return fold<T, UPC_AND>;
    case UPC_OR: return fold<T, UPC_OR>;
    case UPC_XOR: return fold<T, UPC_XOR>;
    case UPC_LOGAND: return fold<T, UPC_LOGAND>;
    case UPC_LOGOR: return fold<T, UPC_LOGOR>;
    case UPC_MIN: return fold<T, UPC_MIN>;
    case UPC_MAX: return fold<T, UPC_MAX>;
    case UPC_FUNC: return fold<T, UPC_FUNC>;
    case UPC_NONCOMM_FUNC: return fold<T, UPC_NONCOMM_FUNC>;
    default: return nullptr;
  }
}

// The combine function for (T, op); nullptr for an op that is not one bit of the list.
template <class T>
combine_fn combine_for(upc_op_t op) {
  switch (op) {
    case UPC_ADD: return combine<T, UPC_ADD>;
    case UPC_MULT: return combine<T, UPC_MULT>;
    case UPC_AND: return combine<T, UPC_AND>;
    case UPC_OR: return combine<T, UPC_OR>;
    case UPC_XOR: return combine<T, UPC_XOR>;
    case UPC_LOGAND: return combine<T, UPC_LOGAND>;
    case UPC_LOGOR: return combine<T, UPC_LOGOR>;
    case UPC_MIN: return combine<T, UPC_MIN>;
    case UPC_MAX: return combine<T, UPC_MAX>;
    case UPC_FUNC: return combine<T, UPC_FUNC>;
    case UPC_NONCOMM_FUNC: return combine<T, UPC_NONCOMM_FUNC>;
    default: return nullptr;
  }
}

}  // namespace upc::coll::ops
