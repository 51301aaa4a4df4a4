// What each thread of a <upccoll.h> conformance case holds before the call
// (upccoll_harness.hpp): the hashing every choice and byte comes from, the user
// operations and the reduction items chosen per (type, op), the window
// patterns, and where a run's windows are. All are functions of (thread, index,
// seed), so the checks (upccoll_checks.hpp) can give the model
// (tests/support/upccoll_model.hpp) the memory before the call without a copy.
#pragma once
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "../support/upccoll_model.hpp"
#include "conformance_hashing.hpp"
#include "upc.h"
#include "upccoll.h"

namespace uconf {

namespace M = upccoll_model;
using M::collective;

// ---------------------------------------------------------------------------
// Hashing (deterministic data, seeds and choices): conformance_hashing.hpp's, and
// a hash of four words

using conformance::hash3;
using conformance::mix;

inline std::uint64_t h4(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  return hash3(hash3(a, b, c), d, 0x44);
}

// ---------------------------------------------------------------------------
// User operations (upccoll_op_create), all associative

// Calls with a data type the op was not made for (checked at the end of a run).
inline std::atomic<int> g_bad_user_calls{0};

// Affine maps x -> a*x + b (mod 2^32) as UPC_2INT items {a, b}; in op inout =
// in ∘ inout (apply inout first). Not commutative.
inline void affine_compose(void* in, void* inout, std::size_t len, upccoll_dtype_t dt) {
  if (dt != UPC_2INT) g_bad_user_calls.fetch_add(1);
  auto* x = static_cast<unsigned char*>(in);
  auto* y = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < len; ++i) {
    std::uint32_t f[2], g[2];
    std::memcpy(f, x + 8 * i, 8);
    std::memcpy(g, y + 8 * i, 8);
    const std::uint32_t r[2] = {f[0] * g[0], f[0] * g[1] + f[1]};
    std::memcpy(y + 8 * i, r, 8);
  }
}

// 2x2 matrices of uint32 (mod 2^32), row-major, as UPC_DBLCPLX items (16 bytes);
// in op inout = in × inout. Not commutative.
inline void matrix_product(void* in, void* inout, std::size_t len, upccoll_dtype_t dt) {
  if (dt != UPC_DBLCPLX) g_bad_user_calls.fetch_add(1);
  auto* x = static_cast<unsigned char*>(in);
  auto* y = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < len; ++i) {
    std::uint32_t a[4], b[4];
    std::memcpy(a, x + 16 * i, 16);
    std::memcpy(b, y + 16 * i, 16);
    const std::uint32_t r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                                a[2] * b[1] + a[3] * b[3]};
    std::memcpy(y + 16 * i, r, 16);
  }
}

// A double sum declared commutative: rounding makes the order of the additions
// visible, and the result must still be the left fold in rank order.
inline void double_sum(void* in, void* inout, std::size_t len, upccoll_dtype_t dt) {
  if (dt != UPC_DOUBLE) g_bad_user_calls.fetch_add(1);
  auto* x = static_cast<unsigned char*>(in);
  auto* y = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < len; ++i) {
    double a, b;
    std::memcpy(&a, x + 8 * i, 8);
    std::memcpy(&b, y + 8 * i, 8);
    const double r = a + b;
    std::memcpy(y + 8 * i, &r, 8);
  }
}

// Stand-ins for the user ops in case descriptions; a run maps them to the ops it
// creates (upccoll_op_create) at its start.
constexpr upccoll_op_t op_affine = 0x7001, op_matrix = 0x7002, op_dsum = 0x7003;
inline bool is_user_marker(upccoll_op_t op) { return op == op_affine || op == op_matrix || op == op_dsum; }
inline upccoll_user_fun* user_function(upccoll_op_t marker) {
  return marker == op_affine ? &affine_compose : marker == op_matrix ? &matrix_product : marker == op_dsum ? &double_sum
                                                                                                         : nullptr;
}
inline int user_commute(upccoll_op_t marker) { return marker == op_dsum ? 1 : 0; }
inline std::string op_text(upccoll_op_t op) {
  if (op == op_affine) return "user op (affine maps, non-commutative)";
  if (op == op_matrix) return "user op (2x2 matrix product, non-commutative)";
  if (op == op_dsum) return "user op (double sum, commute=1)";
  return M::op_name(op);
}

// ---------------------------------------------------------------------------
// Reduction items: chosen per (type, op) so that the result is interesting:
// floating sums mix ±huge and small values (the order of additions changes the
// rounded result), products stay in range, AND/OR do not saturate at once,
// logical ops see a few zeros, MINLOC/MAXLOC see many ties (and indices in no
// order), signed int/long data never overflow. Padding bytes are zero.

template <class R>
R real_item(upccoll_op_t op, std::uint64_t h) {
  const int sign = ((h >> 40) & 1) ? -1 : 1;
  const R big = std::is_same_v<R, float> ? R(1e8) : std::is_same_v<R, double> ? R(1e16) : R(1e20L);
  switch (op) {
    case UPC_MULT: {
      static const double f[] = {0.75, 0.8, 0.9, 1.1, 1.25, 1.3};
      return static_cast<R>(sign * f[(h >> 8) % 6]);
    }
    case UPC_LOGAND: return h % 50 == 0 ? R(0) : R(1.5);
    case UPC_LOGXOR: return h % 3 == 0 ? R(0) : R(-0.25);
    case UPC_LOGOR: return h % 50 == 0 ? R(-2.5) : R(0);
    case UPC_MIN:
    case UPC_MAX:
    case UPC_MINLOC:
    case UPC_MAXLOC: {
      const long long x = static_cast<long long>((h >> 11) % 2000001) - 1000000;
      return static_cast<R>(x == 0 ? 1 : x) / R(7);
    }
    default: {  // ADD and the double sum: ±huge, and 2^-12..2^12 with random mantissas
      const unsigned r = static_cast<unsigned>(h % 10);
      if (r < 3) return big * static_cast<R>(sign * static_cast<int>(1 + (h >> 8) % 4));
      const double mantissa = 1.0 + static_cast<double>((h >> 12) & 0xfffff) / 1048576.0;
      return static_cast<R>(sign * std::ldexp(mantissa, static_cast<int>((h >> 32) % 25) - 12));
    }
  }
}

template <class T>
T int_item(upccoll_op_t op, std::uint64_t h, std::uint64_t i) {
  using U = std::make_unsigned_t<T>;
  const U bits_all = static_cast<U>(h >> 3);
  const T random = static_cast<T>(bits_all);
  constexpr unsigned bits = 8 * sizeof(T);
  constexpr bool small_signed = std::is_signed_v<T> && sizeof(T) >= sizeof(int);  // int, long: no overflow allowed
  const int sign = ((h >> 40) & 1) ? -1 : 1;
  switch (op) {
    case UPC_ADD: return small_signed ? static_cast<T>(static_cast<long long>(h % 2001) - 1000) : random;
    case UPC_MULT:
      if constexpr (small_signed) return static_cast<T>(i % 61 == 7 ? 3 : sign);
      if constexpr (std::is_same_v<T, unsigned short> || std::is_same_v<T, short>) return static_cast<T>(bits_all & 0x7fff);
      return random;
    case UPC_AND: return h % 5 == 0 ? random : static_cast<T>(static_cast<U>(~(U(1) << (h % bits))));
    case UPC_OR: return static_cast<T>(static_cast<U>(U(1) << (h % bits)));
    case UPC_LOGAND: return h % 50 == 0 ? T(0) : static_cast<T>(bits_all | 1);
    case UPC_LOGOR: return h % 50 == 0 ? static_cast<T>(bits_all | 1) : T(0);
    case UPC_LOGXOR: return h % 3 == 0 ? T(0) : static_cast<T>(bits_all | 2);
    default: return random;  // XOR, MIN, MAX
  }
}

// The bytes of item i of world thread t's send buffer for (dt, op).
inline void make_item(upccoll_dtype_t dt, upccoll_op_t op, std::uint32_t seed, int t, std::uint64_t i, std::uint8_t* out) {
  const std::uint64_t h = h4(seed, static_cast<std::uint64_t>(t), i, 0x17e);
  M::with_type(dt, [&](auto tag) {
    using T = decltype(tag);
    std::memset(out, 0, sizeof(T));
    if (op == op_affine) {  // {a, b}: a odd (so that the product keeps information), b any
      const std::uint32_t v[2] = {static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32)};
      std::memcpy(out, v, 8);
    } else if (op == op_matrix) {  // small entries, so that products are not all zero mod 2^32
      std::uint32_t v[4];
      for (int k = 0; k < 4; ++k) v[k] = static_cast<std::uint32_t>((h >> (8 * k)) % 5);
      v[0] |= 1;
      std::memcpy(out, v, 16);
    } else if (op == op_dsum) {
      const double d = real_item<double>(UPC_ADD, h);
      std::memcpy(out, &d, 8);
    } else if constexpr (M::is_pair_v<T>) {
      using V = decltype(T{}.value);
      V v;
      if constexpr (std::is_floating_point_v<V>) {
        static const double vals[] = {0.5, 1.5, -2.25, 1.5, 0.5, 3.0};
        v = static_cast<V>(vals[(h >> 4) % 6]);
      } else {
        v = static_cast<V>(static_cast<int>((h >> 4) % 5) - 2);
      }
      const int index = static_cast<int>((h >> 20) % 1000);
      std::memcpy(out + offsetof(T, value), &v, M::value_bytes<V>());
      std::memcpy(out + offsetof(T, index), &index, sizeof(int));
    } else if constexpr (M::is_cplx<T>::value) {
      using R = decltype(T{}.re);
      R re, im;
      if (op == UPC_MULT) {  // |z| about 1, random mantissas: the products round
        const double fr = static_cast<double>((h >> 8) & 0xfffff) / 1048576.0;
        const double fi = static_cast<double>((h >> 28) & 0xfffff) / 1048576.0;
        re = static_cast<R>(((h >> 50) & 1 ? -1 : 1) * (0.55 + 0.3 * fr));
        im = static_cast<R>(((h >> 51) & 1 ? -1 : 1) * (0.55 + 0.3 * fi));
      } else {
        re = real_item<R>(op, h);
        im = real_item<R>(op, mix(h));
      }
      std::memcpy(out, &re, M::value_bytes<R>());
      std::memcpy(out + sizeof(R), &im, M::value_bytes<R>());
    } else if constexpr (std::is_floating_point_v<T>) {
      const T v = real_item<T>(op, h);
      std::memcpy(out, &v, M::value_bytes<T>());
    } else {
      const T v = int_item<T>(op, h, i);
      std::memcpy(out, &v, sizeof(T));
    }
    return 0;
  });
}

// ---------------------------------------------------------------------------
// Windows: their patterns, and where a run keeps them

// Window patterns: bytes of (thread, index, seed), different for send and receive.
inline std::uint64_t send_word(int t, std::uint64_t w, std::uint32_t seed) { return h4(seed, t, w, 0x5e11d); }
inline std::uint64_t recv_word(int t, std::uint64_t w, std::uint32_t seed) { return h4(seed, t + 977, w, 0x9ec1); }
using conformance::fill_pattern;

inline upc::shared_address address(int thread, std::uint64_t offset) {
  upc::shared_address a;
  a.thread = static_cast<std::uint32_t>(thread);
  a.offset = offset;
  a.phase = 0;
  return a;
}
inline std::uint8_t* local_bytes(std::uint64_t offset) {
  return static_cast<std::uint8_t*>(upc::sptr<void>(address(MYTHREAD, offset)).local());
}

// The shared areas of a run, as offsets in every thread's partition: the send
// windows, the receive windows, and the stamps of barrier cases.
// Barrier cases: every thread stamps its slot before entering; after completion
// every member's stamp must be visible.
struct areas {
  std::uint64_t send = 0, recv = 0, stamps = 0;
};

}  // namespace uconf
