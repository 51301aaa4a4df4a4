// What each thread of a conformance case holds before the collective call
// (coll_harness.hpp): the source and destination patterns, the permutation, the
// reductions' elements and user functions, the sort's elements and comparison.
// All are functions of (thread, index, seed), so the checks (coll_checks.hpp)
// can give the model (tests/support/coll_model.hpp) the memory before the call
// without keeping a copy of it.
#pragma once
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../support/coll_model.hpp"
#include "conformance_hashing.hpp"
#include "upc.h"
#include "upc_collective.h"

namespace conf {

using upc::shared_address;

// ---------------------------------------------------------------------------
// Patterns

using conformance::fill_pattern;
using conformance::hash3;
using conformance::mix;

// Source bytes and destination poison: different functions of (thread, byte, seed),
// with no period a misplaced block could hide in: byte i is byte i%8 of a hash of
// (seed, thread, i/8), so a fill costs one hash per 8 bytes.
inline std::uint64_t src_word(int t, std::uint64_t w, std::uint32_t seed) {
  return mix((static_cast<std::uint64_t>(seed) << 40) ^ (static_cast<std::uint64_t>(t) << 32) ^ w);
}
inline std::uint64_t dst_word(int t, std::uint64_t w, std::uint32_t seed) {
  return mix((static_cast<std::uint64_t>(seed ^ 0x5bd1e995u) << 40) ^ (static_cast<std::uint64_t>(t + 977) << 32) ^ w);
}
inline std::uint8_t src_byte(int t, std::uint64_t i, std::uint32_t seed) {
  return static_cast<std::uint8_t>(src_word(t, i >> 3, seed) >> (8 * (i & 7)));
}
inline std::uint8_t dst_byte(int t, std::uint64_t i, std::uint32_t seed) {
  return static_cast<std::uint8_t>(dst_word(t, i >> 3, seed) >> (8 * (i & 7)));
}

// A permutation of 0..T-1 chosen by the seed (the same on every thread).
inline std::vector<int> make_perm(std::uint32_t seed, int T) {
  std::vector<int> p(T);
  for (int i = 0; i < T; ++i) p[i] = i;
  for (int i = T - 1; i > 0; --i) std::swap(p[i], p[hash3(seed, 77, i) % (i + 1)]);
  return p;
}

// ---------------------------------------------------------------------------
// Addresses in the threads' partitions

// The local address of byte `offset` of the calling thread's partition.
inline std::uint8_t* local_bytes(std::uint64_t offset) {
  shared_address a;
  a.offset = offset;
  a.thread = static_cast<std::uint32_t>(MYTHREAD);
  return reinterpret_cast<std::uint8_t*>(upc::sptr<char, upc::indefinite>(a).local());
}

inline shared_address address(int thread, std::uint64_t offset, std::uint32_t phase = 0) {
  shared_address a;
  a.thread = static_cast<std::uint32_t>(thread);
  a.offset = offset;
  a.phase = phase;
  return a;
}

// ---------------------------------------------------------------------------
// Reductions: the elements and the user functions

// The user functions: UPC_FUNC gets a commutative one; UPC_NONCOMM_FUNC gets
// "first non-zero" (associative, not commutative: the result is the first
// non-zero element in index order) or, on floating types, a plain sum whose
// rounding shows the grouping.
enum class func_kind { none, comm, first_nonzero, float_sum };

template <class T>
T user_comm(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a + b;
  } else if constexpr (std::is_unsigned_v<T>) {  // (a+1)(b+1)-1 mod 2^w
    const std::uint64_t x = a, y = b;
    return static_cast<T>(x + y + x * y);
  } else {
    return static_cast<T>(static_cast<long long>(a) + static_cast<long long>(b));
  }
}
template <class T>
T first_nonzero(T a, T b) {
  return a != 0 ? a : b;
}
template <class T>
T float_sum(T a, T b) {
  return a + b;
}

inline const char* func_name(func_kind f) {
  switch (f) {
    case func_kind::none: return "";
    case func_kind::comm: return "(commutative fn)";
    case func_kind::first_nonzero: return "(first non-zero)";
    case func_kind::float_sum: return "(sum as non-commutative fn)";
  }
  return "";
}

struct op_choice {
  upc_op_t op;
  func_kind func;
};

// Every op the spec defines for T (the bitwise ones only on integer types).
template <class T>
std::vector<op_choice> ops_for() {
  std::vector<op_choice> v = {{UPC_ADD, func_kind::none}, {UPC_MULT, func_kind::none}};
  if constexpr (std::is_integral_v<T>) {
    v.push_back({UPC_AND, func_kind::none});
    v.push_back({UPC_OR, func_kind::none});
    v.push_back({UPC_XOR, func_kind::none});
  }
  v.push_back({UPC_LOGAND, func_kind::none});
  v.push_back({UPC_LOGOR, func_kind::none});
  v.push_back({UPC_MIN, func_kind::none});
  v.push_back({UPC_MAX, func_kind::none});
  v.push_back({UPC_FUNC, func_kind::comm});
  v.push_back({UPC_NONCOMM_FUNC, func_kind::first_nonzero});
  if constexpr (std::is_floating_point_v<T>) v.push_back({UPC_NONCOMM_FUNC, func_kind::float_sum});
  return v;
}

template <class T>
auto func_pointer(func_kind f) -> T (*)(T, T) {
  switch (f) {
    case func_kind::none: return nullptr;
    case func_kind::comm: return &user_comm<T>;
    case func_kind::first_nonzero: return &first_nonzero<T>;
    case func_kind::float_sum: return &float_sum<T>;
  }
  return nullptr;
}

// Element j of the source arrays, chosen per op so that the result is
// interesting: floating sums mix +-huge and small values (the order of the
// additions changes the rounded result), products stay in range, AND/OR do not
// saturate at once, logical ops see a few zeros, "first non-zero" sees mostly
// zeros. Signed int/long data stay small enough never to overflow.
template <class T>
T element_value(op_choice o, std::uint64_t j, std::uint32_t seed) {
  const std::uint64_t h = hash3(seed, j, 0x7e57);
  const int sign = ((h >> 40) & 1) ? -1 : 1;
  if constexpr (std::is_floating_point_v<T>) {
    const T big = std::is_same_v<T, float> ? T(1e8) : std::is_same_v<T, double> ? T(1e16) : T(1e20L);
    switch (o.op) {
      case UPC_MULT: {
        static const double f[] = {0.75, 0.8, 0.9, 1.1, 1.25, 1.3};
        return static_cast<T>(sign * f[(h >> 8) % 6]);
      }
      case UPC_LOGAND: return h % 50 == 0 ? T(0) : T(1.5);
      case UPC_LOGOR: return h % 50 == 0 ? T(-2.5) : T(0);
      case UPC_MIN:
      case UPC_MAX: {
        const long long x = static_cast<long long>((h >> 11) % 2000001) - 1000000;
        return static_cast<T>(x == 0 ? 1 : x) / T(7);
      }
      case UPC_NONCOMM_FUNC:
        if (o.func == func_kind::first_nonzero) return h % 7 == 0 ? static_cast<T>((h >> 9) % 1000 + 1) / T(4) : T(0);
        [[fallthrough]];
      default: {  // ADD, FUNC, the non-commutative sum: +-huge, and 2^-12..2^12 with random mantissas
        const unsigned r = static_cast<unsigned>(h % 10);
        if (r < 3) return big * static_cast<T>(sign * static_cast<int>(1 + (h >> 8) % 4));
        const double mantissa = 1.0 + static_cast<double>((h >> 12) & 0xfffff) / 1048576.0;
        return static_cast<T>(sign * std::ldexp(mantissa, static_cast<int>((h >> 32) % 25) - 12));
      }
    }
  } else {
    using U = std::make_unsigned_t<T>;
    const U bits_all = static_cast<U>(h >> 3);
    const T random = static_cast<T>(bits_all);
    constexpr unsigned bits = 8 * sizeof(T);
    constexpr bool small_signed = std::is_signed_v<T> && sizeof(T) >= sizeof(int);  // int, long: no overflow allowed
    switch (o.op) {
      case UPC_ADD:
      case UPC_FUNC: return small_signed ? static_cast<T>(static_cast<long long>(h % 2001) - 1000) : random;
      case UPC_MULT:
        if constexpr (small_signed) return static_cast<T>(j % 61 == 7 ? 3 : sign);
        if constexpr (std::is_same_v<T, unsigned short>) return static_cast<T>(bits_all & 0x7fff);
        return random;
      case UPC_AND: return h % 5 == 0 ? random : static_cast<T>(static_cast<U>(~(U(1) << (h % bits))));
      case UPC_OR: return static_cast<T>(static_cast<U>(U(1) << (h % bits)));
      case UPC_XOR: return random;
      case UPC_LOGAND: return h % 50 == 0 ? T(0) : static_cast<T>(bits_all | 1);
      case UPC_LOGOR: return h % 50 == 0 ? static_cast<T>(bits_all | 1) : T(0);
      case UPC_NONCOMM_FUNC: return h % 7 == 0 ? static_cast<T>(bits_all | 1) : T(0);
      default: return random;  // MIN, MAX
    }
  }
}

// The bytes a thread stores for element j (long double padding zeroed, so the
// model knows every byte of the source area).
template <class T>
void element_bytes(op_choice o, std::uint64_t j, std::uint32_t seed, std::uint8_t* out) {
  const T v = element_value<T>(o, j, seed);
  std::memset(out, 0, sizeof(T));
  std::memcpy(out, static_cast<const void*>(&v), coll_model::value_bytes<T>());
}

// ---------------------------------------------------------------------------
// sort: the elements and the comparison

// The comparison the sort gets: the elements' bytes, lexicographically.
inline std::atomic<std::size_t> g_sort_elem_size{1};
inline int compare_elements(upc::sptr<void> a, upc::sptr<void> b) {
  const std::size_t E = g_sort_elem_size.load();
  std::vector<std::uint8_t> x(E), y(E);
  upc_memget(x.data(), a, E);
  upc_memget(y.data(), b, E);
  return std::memcmp(x.data(), y.data(), E);
}

// Element bytes: few distinct values, so that equal elements occur.
inline std::uint8_t sort_byte(std::uint64_t j, std::size_t b, std::uint32_t seed) {
  return static_cast<std::uint8_t>(hash3(seed, j % 41 == 3 ? 3 : j, b) % 7);
}

}  // namespace conf
