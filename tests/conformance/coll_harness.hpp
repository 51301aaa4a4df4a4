// The conformance harness of the standard collectives: builds the case matrix from
// the algorithm registry, runs each case on the calling UPC threads and checks
// every byte of the areas it touches against tests/support/coll_model.hpp.
//
// One case = one collective call. Each thread fills its own partition of a source
// area (a pattern of thread, byte index and seed) and of a destination area
// (a different "poison" pattern), calls the collective with the case's sync flags,
// and checks its partition of both areas against the model: the destination bytes
// the spec defines, everything else (bytes before and after the destination, the
// source) untouched. The sync flags are honoured, not worked around:
//   IN_NOSYNC          data set up, then upc_barrier, then the call
//   IN_MYSYNC/ALLSYNC  each thread sets up its own data and calls at once
//                      (optionally after a delay: `late`)
//   OUT_NOSYNC         upc_barrier after the call, then the checks
//   OUT_MYSYNC         the caller checks its own partition as soon as it returns,
//                      then scribbles over its source (nobody may still read it)
//   OUT_ALLSYNC        as MYSYNC, and the caller also checks its right
//                      neighbour's destination at once
// and a barrier ends every case. A mismatch stops the run with the case, the
// algorithm, and the first mismatching bytes (thread, index, expected, actual).
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "../support/coll_model.hpp"
#include "../support/spmd.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upc_collective.h"
#include "xupc_collective.h"

namespace conf {

using coll_model::movement;
using upc::shared_address;

// ---------------------------------------------------------------------------
// Sync flags

// The nine IN × OUT combinations, then flags with a missing part (which means
// ALLSYNC): 0, IN only, OUT only.
inline const std::vector<upc_flag_t>& sync_flag_values() {
  static const std::vector<upc_flag_t> v = {
      UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC, UPC_IN_ALLSYNC | UPC_OUT_NOSYNC,
      UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,  UPC_IN_MYSYNC | UPC_OUT_MYSYNC,  UPC_IN_MYSYNC | UPC_OUT_NOSYNC,
      UPC_IN_NOSYNC | UPC_OUT_ALLSYNC,  UPC_IN_NOSYNC | UPC_OUT_MYSYNC,  UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
      0,                                UPC_IN_MYSYNC,                  UPC_OUT_NOSYNC};
  return v;
}

inline bool in_nosync(upc_flag_t f) { return (f & UPC_IN_NOSYNC) != 0; }
inline bool out_nosync(upc_flag_t f) { return (f & UPC_OUT_NOSYNC) != 0; }
inline bool out_mysync(upc_flag_t f) { return (f & UPC_OUT_MYSYNC) != 0; }

inline std::string flags_name(upc_flag_t f) {
  std::string in = (f & UPC_IN_NOSYNC) ? "UPC_IN_NOSYNC" : (f & UPC_IN_MYSYNC) ? "UPC_IN_MYSYNC"
                                       : (f & UPC_IN_ALLSYNC)                   ? "UPC_IN_ALLSYNC"
                                                                                : "(IN_ALLSYNC)";
  std::string out = (f & UPC_OUT_NOSYNC) ? "UPC_OUT_NOSYNC" : (f & UPC_OUT_MYSYNC) ? "UPC_OUT_MYSYNC"
                                         : (f & UPC_OUT_ALLSYNC)                    ? "UPC_OUT_ALLSYNC"
                                                                                    : "(OUT_ALLSYNC)";
  return in + "|" + out;
}

// ---------------------------------------------------------------------------
// Patterns

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
inline std::uint64_t hash3(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return mix(a * 0x100000001b3ull ^ mix(b * 0xc2b2ae3d27d4eb4full ^ mix(c)));
}
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
// Bytes [from, from+n) of a pattern into p.
template <std::uint64_t (*Word)(int, std::uint64_t, std::uint32_t)>
void fill_pattern(std::uint8_t* p, std::size_t n, int t, std::uint32_t seed, std::uint64_t from = 0) {
  std::size_t i = 0;
  while (i < n) {
    const std::uint64_t x = from + i, w = Word(t, x >> 3, seed);
    for (std::uint64_t b = x & 7; b < 8 && i < n; ++b, ++i) p[i] = static_cast<std::uint8_t>(w >> (8 * b));
  }
}

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

inline std::string hex(unsigned v) {
  static const char* d = "0123456789abcdef";
  return std::string("0x") + d[(v >> 4) & 15] + d[v & 15];
}

// One checked area: `len` bytes from `base` in every partition; pointers into it
// start `skew` bytes in.
struct area {
  const char* name;
  std::uint64_t base;
  std::size_t len;
  std::size_t skew;
};

// Compares partition `p` of an area with the model; returns "" or a report.
inline std::string check_area(const coll_model::effect& e, const coll_model::memory& before, int p, const area& a) {
  if (a.len == 0) return "";
  const coll_model::window w = coll_model::expected_bytes(e, before, p, a.base, a.len);
  std::vector<std::uint8_t> got(a.len);
  if (p == MYTHREAD) {
    std::memcpy(got.data(), local_bytes(a.base), a.len);
  } else {
    upc_memget(got.data(), upc::sptr<void>(address(p, a.base)), a.len);
  }
  if (w.all_care && std::memcmp(w.bytes.data(), got.data(), a.len) == 0) return "";
  std::ostringstream s;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.len; ++i) {
    if (!w.care[i] || w.bytes[i] == got[i]) continue;
    if (bad < 6) {
      s << (bad ? "; " : "") << a.name << " on thread " << p << " byte " << i << " (index "
        << static_cast<long long>(i) - static_cast<long long>(a.skew) << " from the pointer): expected "
        << hex(w.bytes[i]) << ", got " << hex(got[i]);
      if (bad == 0) {  // where the model takes that byte from
        const std::uint64_t x = a.base + i;
        bool copied = false;
        for (const coll_model::block_copy& c : e.copies)
          if (static_cast<int>(c.dst.thread) == p && x >= c.dst.offset && x < c.dst.offset + c.bytes) {
            s << " [copied from thread " << c.src.thread << ", byte " << (x - c.dst.offset) << " of the block at offset "
              << c.src.offset << "]";
            copied = true;
          }
        if (!copied) s << " [outside every destination block: must stay untouched]";
      }
    }
    ++bad;
  }
  if (!bad) return "";
  std::ostringstream r;
  r << bad << " byte(s) differ from the model: " << s.str();
  return r.str();
}

[[noreturn]] inline void fail_case(const std::string& what, const std::string& algo, const std::string& report) {
  throw spmd::check_failed(what + " | forced algorithm " + algo + ", ran " + upc::coll::last_algorithm() +
                           " | thread " + std::to_string(MYTHREAD) + " of " + std::to_string(THREADS) +
                           " checking: " + report);
}

// The last algorithm must be the forced one.
inline void check_algorithm(const std::string& what, const std::string& algo) {
  if (algo == "auto") return;
  const std::string ran = upc::coll::last_algorithm();
  if (ran != algo) fail_case(what, algo, "the collective ran algorithm '" + ran + "', not the forced one");
}

// How late a late thread enters: long enough for everyone else to be inside.
constexpr int late_ms = 10;
inline void sleep_ms(int ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// ---------------------------------------------------------------------------
// Data movement

struct movement_case {
  movement kind = movement::broadcast;
  std::size_t nbytes = 1;
  upc_flag_t flags = 0;
  int root = 0;           // the thread of the shared [] side (broadcast/scatter src, gather dst)
  int blocked = 0;        // the thread the blocked side(s) start on (the spec's case: 0)
  std::size_t skew = 0;   // both pointers start this many bytes into their areas
  bool phased = false;    // the blocked-side pointers carry a non-zero phase (the spec: taken as 0)
  int late = -1;          // this thread enters late (-1: nobody)
  std::uint32_t seed = 1;
  bool xupc = false;      // call seed 001's xupc_all_* name (the same engine path, its own front door)
};

inline std::string describe(const movement_case& c) {
  std::ostringstream s;
  s << (c.xupc ? "xupc_all_" : "upc_all_") << coll_model::name(c.kind) << " nbytes=" << c.nbytes << " flags=" << flags_name(c.flags)
    << " root=" << c.root << " blocked side on thread " << c.blocked << " skew=" << c.skew
    << (c.phased ? " phased" : "") << (c.late >= 0 ? " late thread " + std::to_string(c.late) : std::string())
    << " seed=" << c.seed;
  return s.str();
}

// How many nbytes-blocks each side of a collective spans in one partition (one
// row; two when the blocked side does not start on thread 0 and wraps).
inline std::size_t src_blocks(movement k, int T) {
  return (k == movement::scatter || k == movement::exchange) ? static_cast<std::size_t>(T) : 1;
}
inline std::size_t dst_blocks(movement k, int T) {
  return (k == movement::gather || k == movement::gather_all || k == movement::exchange) ? static_cast<std::size_t>(T)
                                                                                          : 1;
}
inline bool src_single(movement k) { return k == movement::broadcast || k == movement::scatter; }
inline bool dst_single(movement k) { return k == movement::gather; }
constexpr std::size_t guard = 24;  // bytes checked after the last byte a call may write
// The bytes of each area set up and checked on thread t. A shared [] side lives
// on the root only; elsewhere its area gets just the guard bytes.
inline std::size_t src_window(const movement_case& c, int T, int t) {
  if (src_single(c.kind) && t != c.root) return c.skew + guard;
  const std::size_t rows = (!src_single(c.kind) && c.blocked != 0) ? 2 : 1;
  return c.skew + rows * c.nbytes * src_blocks(c.kind, T) + guard;
}
inline std::size_t dst_window(const movement_case& c, int T, int t) {
  if (dst_single(c.kind) && t != c.root) return c.skew + guard;
  const std::size_t rows = (!dst_single(c.kind) && c.blocked != 0) ? 2 : 1;
  return c.skew + rows * c.nbytes * dst_blocks(c.kind, T) + guard;
}

// A permutation of 0..T-1 chosen by the seed (the same on every thread).
inline std::vector<int> make_perm(std::uint32_t seed, int T) {
  std::vector<int> p(T);
  for (int i = 0; i < T; ++i) p[i] = i;
  for (int i = T - 1; i > 0; --i) std::swap(p[i], p[hash3(seed, 77, i) % (i + 1)]);
  return p;
}

inline void call_movement(movement k, upc::sptr<void> dst, upc::sptr<const void> src, upc::sptr<const int> perm,
                          std::size_t n, upc_flag_t f, bool xupc = false) {
  if (xupc) {
    switch (k) {
      case movement::broadcast: xupc_all_broadcast(dst, src, n, f); break;
      case movement::scatter: xupc_all_scatter(dst, src, n, f); break;
      case movement::gather: xupc_all_gather(dst, src, n, f); break;
      case movement::gather_all: xupc_all_gather_all(dst, src, n, f); break;
      case movement::exchange: xupc_all_exchange(dst, src, n, f); break;
      case movement::permute: xupc_all_permute(dst, src, perm, n, f); break;
    }
    return;
  }
  switch (k) {
    case movement::broadcast: upc_all_broadcast(dst, src, n, f); break;
    case movement::scatter: upc_all_scatter(dst, src, n, f); break;
    case movement::gather: upc_all_gather(dst, src, n, f); break;
    case movement::gather_all: upc_all_gather_all(dst, src, n, f); break;
    case movement::exchange: upc_all_exchange(dst, src, n, f); break;
    case movement::permute: upc_all_permute(dst, src, perm, n, f); break;
  }
}

// Runs the cases, in order, on every thread (a run body).
inline void movement_body(const std::vector<movement_case>& cases, const std::string& algo) {
  const int T = THREADS, me = MYTHREAD;
  std::size_t src_cap = 1, dst_cap = 1;
  for (const movement_case& c : cases) {
    src_cap = std::max(src_cap, src_window(c, T, c.root));
    dst_cap = std::max(dst_cap, dst_window(c, T, c.root));
  }
  const upc::sptr<void> src_area = upc_all_alloc(T, src_cap), dst_area = upc_all_alloc(T, dst_cap);
  const upc::sptr<void> perm_area = upc_all_alloc(T, sizeof(int));  // shared int[THREADS]
  const std::uint64_t src_base = src_area.address().offset, dst_base = dst_area.address().offset;
  std::uint8_t* my_src = local_bytes(src_base);
  std::uint8_t* my_dst = local_bytes(dst_base);

  for (const movement_case& c : cases) {
    const std::size_t sw = src_window(c, T, me), dw = dst_window(c, T, me), n = c.nbytes;
    const std::string what = describe(c);
    const std::vector<int> perm = make_perm(c.seed, T);

    // The pointers. shared [] sides sit on the root; blocked sides start on thread
    // `blocked`, with a phase the collective must ignore when phased.
    const std::uint32_t phase = (c.phased && n > 1) ? 1 : 0;
    const shared_address src_at = src_single(c.kind) ? address(c.root, src_base + c.skew)
                                                     : address(c.blocked, src_base + c.skew, phase);
    const shared_address dst_at = dst_single(c.kind) ? address(c.root, dst_base + c.skew)
                                                     : address(c.blocked, dst_base + c.skew, phase);

    if (c.late == me) sleep_ms(late_ms);
    fill_pattern<src_word>(my_src, sw, me, c.seed);
    fill_pattern<dst_word>(my_dst, dw, me, c.seed);
    if (c.kind == movement::permute) {
      shared_address pa = perm_area.address();
      pa.thread = static_cast<std::uint32_t>(me);  // perm[MYTHREAD] has affinity to this thread
      *upc::sptr<int, upc::indefinite>(pa).local() = perm[me];
    }
    if (in_nosync(c.flags)) upc_barrier;

    call_movement(c.kind, upc::sptr<void>(dst_at), upc::sptr<const void>(src_at), upc::sptr<const int>(perm_area.address()),
                  n, c.flags, c.xupc);
    check_algorithm(what, algo);

    coll_model::movement_call call;
    call.kind = c.kind;
    call.dst = dst_at;
    call.src = src_at;
    call.nbytes = n;
    call.perm = perm;
    call.threads = T;
    const coll_model::effect e = coll_model::relocalize(call);
    coll_model::memory before = [&](int t, std::uint64_t off) -> std::uint8_t {
      if (off >= src_base && off < src_base + src_window(c, T, t)) return src_byte(t, off - src_base, c.seed);
      if (off >= dst_base && off < dst_base + dst_window(c, T, t)) return dst_byte(t, off - dst_base, c.seed);
      return 0xA5;  // outside the windows: the model never reads there
    };
    before.read = [&](int t, std::uint64_t off, std::size_t len, std::uint8_t* out) {
      if (off >= src_base && off + len <= src_base + src_window(c, T, t)) {
        fill_pattern<src_word>(out, len, t, c.seed, off - src_base);
      } else if (off >= dst_base && off + len <= dst_base + dst_window(c, T, t)) {
        fill_pattern<dst_word>(out, len, t, c.seed, off - dst_base);
      } else {
        for (std::size_t i = 0; i < len; ++i) out[i] = before.byte(t, off + i);
      }
    };
    const area src_a{"src area", src_base, sw, c.skew}, dst_a{"dst area", dst_base, dw, c.skew};
    const int right = (me + 1) % T;
    const area right_dst_a{"dst area", dst_base, dst_window(c, T, right), c.skew};

    if (out_nosync(c.flags)) upc_barrier;
    std::string report = check_area(e, before, me, dst_a);
    if (report.empty()) report = check_area(e, before, me, src_a);
    if (report.empty() && !out_nosync(c.flags) && !out_mysync(c.flags) && T > 1)
      report = check_area(e, before, right, right_dst_a);
    if (!report.empty()) fail_case(what, algo, report);
    if (!out_nosync(c.flags))  // nobody may read this thread's source any more
      for (std::size_t i = 0; i < sw; ++i) my_src[i] = static_cast<std::uint8_t>(~my_src[i]);
    upc_barrier;
  }
  upc_all_free(perm_area);
  upc_all_free(dst_area);
  upc_all_free(src_area);
}

// ---------------------------------------------------------------------------
// Reductions

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

struct reduce_case {
  std::size_t type = 0;  // index into reduce_types()
  op_choice op{UPC_ADD, func_kind::none};
  bool prefix = false;
  std::size_t nelems = 1, blk_size = 1;
  std::size_t start = 0;  // src (and a prefix dst) = element `start` of their arrays
  int root = 0;           // blk_size 0: the arrays' thread; reduce: dst's thread
  std::size_t dst_shift = 0;  // prefix: dst = element start + dst_shift of its array (blk_size 0: on the next thread)
  upc_flag_t flags = 0;
  int late = -1;
  std::uint32_t seed = 1;
};

struct reduce_type {
  const char* suffix;  // C UC S ... LD
  std::size_t size;
  bool floating;
  std::vector<op_choice> ops;
  void (*run)(const reduce_case&, const std::string& algo, std::uint64_t src_base, std::uint64_t dst_base);
};
const std::vector<reduce_type>& reduce_types();

inline std::string describe(const reduce_case& c) {
  const reduce_type& t = reduce_types()[c.type];
  std::ostringstream s;
  s << (c.prefix ? "upc_all_prefix_reduce" : "upc_all_reduce") << t.suffix << " op=" << coll_model::op_name(c.op.op)
    << func_name(c.op.func) << " nelems=" << c.nelems << " blk_size=" << c.blk_size << " src=element " << c.start
    << " root=" << c.root << (c.dst_shift ? " dst shifted by " + std::to_string(c.dst_shift) : std::string())
    << " flags=" << flags_name(c.flags) << (c.late >= 0 ? " late thread " + std::to_string(c.late) : std::string()) << " seed=" << c.seed;
  return s.str();
}

// Elements the source array holds (a few beyond the reduced range, which must
// not count) and the bytes of it in each partition.
inline std::size_t reduce_count(const reduce_case& c) { return c.start + c.dst_shift + c.nelems + 3; }
inline std::size_t reduce_src_window(const reduce_case& c, int T) {
  const std::size_t E = reduce_types()[c.type].size;
  if (c.blk_size == 0) return reduce_count(c) * E;
  return upc::layout::local_bytes(reduce_count(c), E, c.blk_size, T);
}
constexpr std::size_t reduce_dst_skew = 16;
inline std::size_t reduce_dst_window(const reduce_case& c, int T) {
  if (c.prefix) return reduce_src_window(c, T);
  return reduce_dst_skew + reduce_types()[c.type].size + guard;
}

// Which element of a shared [blk] array (elements of E bytes, element 0 on thread
// 0 at phase 0; blk 0: all on one thread) lives at byte `rel` of partition t.
inline std::uint64_t slot_index(std::size_t E, std::size_t blk, int t, std::uint64_t rel, int T) {
  if (blk == 0) return rel / E;
  const std::uint64_t block_bytes = blk * E, row = rel / block_bytes, phase = (rel % block_bytes) / E;
  return (row * static_cast<std::uint64_t>(T) + static_cast<std::uint64_t>(t)) * blk + phase;
}
inline std::uint64_t element_index(const reduce_case& c, int t, std::uint64_t rel, int T) {
  return slot_index(reduce_types()[c.type].size, c.blk_size, t, rel, T);
}

template <class T>
std::string value_text(T v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) {
    s.precision(std::numeric_limits<T>::max_digits10);
    s << v;
  } else {
    s << static_cast<long long>(v);
  }
  return s.str();
}

// The results the model writes in this thread's partition that differ, as values.
template <class T>
std::string wrong_values(const coll_model::effect& e, bool prefix) {
  std::ostringstream s;
  int shown = 0;
  for (std::size_t k = 0; k < e.writes.size() && shown < 4; ++k) {
    const coll_model::write& w = e.writes[k];
    if (static_cast<int>(w.at.thread) != MYTHREAD) continue;
    const std::uint8_t* got = local_bytes(w.at.offset);
    bool same = true;
    for (std::size_t i = 0; i < sizeof(T); ++i) same = same && (!w.care[i] || w.bytes[i] == got[i]);
    if (same) continue;
    T g, x;
    std::memcpy(static_cast<void*>(&g), got, sizeof(T));
    std::memcpy(static_cast<void*>(&x), w.bytes.data(), sizeof(T));
    s << (shown ? "; " : " | in values: ") << (prefix ? "dst[" + std::to_string(k) + "]" : std::string("the result"))
      << " is " << value_text(g) << ", the model says " << value_text(x);
    ++shown;
  }
  return s.str();
}

template <class T>
using reduce_fn = void (*)(upc::sptr<void>, upc::sptr<const void>, upc_op_t, std::size_t, std::size_t, T (*)(T, T),
                           upc_flag_t, const std::source_location&);

template <class T, reduce_fn<T> Reduce, reduce_fn<T> Prefix>
void reduce_one(const reduce_case& c, const std::string& algo, std::uint64_t src_base, std::uint64_t dst_base) {
  const int T_ = THREADS, me = MYTHREAD;
  constexpr std::size_t E = sizeof(T);
  const std::string what = describe(c);
  const std::size_t sw = reduce_src_window(c, T_), dw = reduce_dst_window(c, T_);
  std::uint8_t* my_src = local_bytes(src_base);
  std::uint8_t* my_dst = local_bytes(dst_base);

  // The arrays: shared [blk_size] T, element 0 on thread 0 (blk_size 0: all on root).
  shared_address src_at, dst_at;
  const std::size_t dst_start = c.start + c.dst_shift;
  if (c.blk_size == 0) {
    src_at = address(c.root, src_base + c.start * E);
    dst_at = c.prefix ? address((c.root + (c.dst_shift ? 1 : 0)) % T_, dst_base + dst_start * E)
                      : address(c.root, dst_base + reduce_dst_skew);
  } else {
    src_at = coll_model::element_at(address(0, src_base), c.start, E, c.blk_size, T_);
    dst_at = c.prefix ? coll_model::element_at(address(0, dst_base), dst_start, E, c.blk_size, T_)
                      : address(c.root, dst_base + reduce_dst_skew);
  }

  if (c.late == me) sleep_ms(late_ms);
  for (std::uint64_t rel = 0; rel + E <= sw; rel += E)
    element_bytes<T>(c.op, element_index(c, me, rel, T_), c.seed, my_src + rel);
  for (std::size_t i = 0; i < dw; ++i) my_dst[i] = dst_byte(me, i, c.seed);
  if (in_nosync(c.flags)) upc_barrier;

  T (*const func)(T, T) = func_pointer<T>(c.op.func);
  (c.prefix ? Prefix : Reduce)(upc::sptr<void>(dst_at), upc::sptr<const void>(src_at), c.op.op, c.nelems, c.blk_size,
                               func, c.flags, std::source_location::current());
  check_algorithm(what, algo);

  const coll_model::memory before = [&](int t, std::uint64_t off) -> std::uint8_t {
    if (off >= src_base && off < src_base + sw) {
      const std::uint64_t rel = off - src_base;
      std::uint8_t b[E];
      element_bytes<T>(c.op, element_index(c, t, rel - rel % E, T_), c.seed, b);
      return b[rel % E];
    }
    if (off >= dst_base && off < dst_base + dw) return dst_byte(t, off - dst_base, c.seed);
    return 0xA5;
  };
  coll_model::reduce_call<T> rc;
  rc.dst = dst_at;
  rc.src = src_at;
  rc.op = c.op.op;
  rc.nelems = c.nelems;
  rc.blk_size = c.blk_size;
  rc.func = func;
  rc.threads = T_;
  const coll_model::effect e = c.prefix ? coll_model::prefix_reduce(rc, before) : coll_model::reduce(rc, before);
  const std::size_t dskew = c.prefix ? 0 : reduce_dst_skew;
  const area src_a{"src area", src_base, sw, 0}, dst_a{"dst area", dst_base, dw, dskew};

  if (out_nosync(c.flags)) upc_barrier;
  std::string report = check_area(e, before, me, dst_a);
  if (report.empty()) report = check_area(e, before, me, src_a);
  if (report.empty() && !out_nosync(c.flags) && !out_mysync(c.flags) && T_ > 1)
    report = check_area(e, before, (me + 1) % T_, dst_a);
  if (!report.empty()) fail_case(what, algo, report + wrong_values<T>(e, c.prefix));
  if (!out_nosync(c.flags))
    for (std::size_t i = 0; i < sw; ++i) my_src[i] = static_cast<std::uint8_t>(~my_src[i]);
  upc_barrier;
}

#define CONF_REDUCE_TYPE(S, TYPE) \
  reduce_type{#S, sizeof(TYPE), std::is_floating_point_v<TYPE>, ops_for<TYPE>(), &reduce_one<TYPE, &upc_all_reduce##S, &upc_all_prefix_reduce##S>},
inline const std::vector<reduce_type>& reduce_types() {
  static const std::vector<reduce_type> v = {UPCEMU_COLLECTIVE_TYPES(CONF_REDUCE_TYPE)};
  return v;
}
#undef CONF_REDUCE_TYPE

inline void reduce_body(const std::vector<reduce_case>& cases, const std::string& algo) {
  const int T = THREADS;
  std::size_t src_cap = 1, dst_cap = 1;
  for (const reduce_case& c : cases) {
    src_cap = std::max(src_cap, reduce_src_window(c, T));
    dst_cap = std::max(dst_cap, reduce_dst_window(c, T));
  }
  const upc::sptr<void> src_area = upc_all_alloc(T, src_cap), dst_area = upc_all_alloc(T, dst_cap);
  for (const reduce_case& c : cases)
    reduce_types()[c.type].run(c, algo, src_area.address().offset, dst_area.address().offset);
  upc_all_free(dst_area);
  upc_all_free(src_area);
}

// ---------------------------------------------------------------------------
// sort (Collectives spec v1.0, deprecated)

struct sort_case {
  std::size_t elem_size = 4, nelems = 1, blk_size = 1;
  upc_flag_t flags = 0;
  std::uint32_t seed = 1;
};

inline std::string describe(const sort_case& c) {
  std::ostringstream s;
  s << "upc_all_sort elem_size=" << c.elem_size << " nelems=" << c.nelems << " blk_size=" << c.blk_size
    << " flags=" << flags_name(c.flags) << " seed=" << c.seed;
  return s.str();
}

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

inline std::size_t sort_window(const sort_case& c, int T) {
  const std::size_t count = c.nelems + 2;  // two elements beyond the array must stay put
  if (c.blk_size == 0) return count * c.elem_size;
  return upc::layout::local_bytes(count, c.elem_size, c.blk_size, T);
}

inline void sort_one(const sort_case& c, const std::string& algo, std::uint64_t base) {
  const int T = THREADS, me = MYTHREAD;
  const std::string what = describe(c);
  const std::size_t w = sort_window(c, T), E = c.elem_size;
  std::uint8_t* mine = local_bytes(base);
  for (std::uint64_t rel = 0; rel + E <= w; rel += E)
    for (std::size_t b = 0; b < E; ++b) mine[rel + b] = sort_byte(slot_index(E, c.blk_size, me, rel, T), b, c.seed);
  g_sort_elem_size.store(E);
  if (in_nosync(c.flags)) upc_barrier;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  upc_all_sort(upc::sptr<void>(address(0, base)), E, c.nelems, c.blk_size, &compare_elements, c.flags);
#pragma GCC diagnostic pop
  check_algorithm(what, algo);

  const coll_model::memory before = [&](int t, std::uint64_t off) -> std::uint8_t {
    if (off < base || off >= base + w) return 0xA5;
    const std::uint64_t rel = off - base;
    return sort_byte(slot_index(E, c.blk_size, t, rel - rel % E, T), rel % E, c.seed);
  };
  coll_model::sort_call sc;
  sc.a = address(0, base);
  sc.elem_size = E;
  sc.nelems = c.nelems;
  sc.blk_size = c.blk_size;
  sc.compare = [E](const std::uint8_t* x, const std::uint8_t* y) { return std::memcmp(x, y, E); };
  sc.threads = T;
  const coll_model::effect e = coll_model::sort(sc, before);
  if (out_nosync(c.flags)) upc_barrier;
  std::string report = check_area(e, before, me, area{"array", base, w, 0});
  if (report.empty() && !out_nosync(c.flags) && !out_mysync(c.flags) && T > 1)
    report = check_area(e, before, (me + 1) % T, area{"array", base, w, 0});
  if (!report.empty()) fail_case(what, algo, report);
  upc_barrier;
}

inline void sort_body(const std::vector<sort_case>& cases, const std::string& algo) {
  std::size_t cap = 1;
  for (const sort_case& c : cases) cap = std::max(cap, sort_window(c, THREADS));
  const upc::sptr<void> a = upc_all_alloc(THREADS, cap);
  for (const sort_case& c : cases) sort_one(c, algo, a.address().offset);
  upc_all_free(a);
}

// ---------------------------------------------------------------------------
// The matrix

// quick: the default suite (every case at THREADS <= 4, a sample above);
// full: every case everywhere (the opt-in suite).
enum class level { quick, full };

constexpr movement movements[] = {movement::broadcast, movement::scatter,  movement::gather,
                                  movement::gather_all, movement::exchange, movement::permute};
constexpr std::size_t movement_sizes[] = {1, 13, 1021, 65536 + 3};

inline std::uint32_t seed_of(std::uint64_t salt, std::uint64_t i) {
  return static_cast<std::uint32_t>(hash3(salt, i, 0xC011) | 1);
}

// Keeps `keep` cases of `all`, chosen by the salt (and always the first one).
template <class Case>
std::vector<Case> sample(const std::vector<Case>& all, std::size_t keep, std::uint64_t salt) {
  if (all.size() <= keep) return all;
  std::vector<std::size_t> idx(all.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  for (std::size_t i = idx.size() - 1; i > 1; --i) std::swap(idx[i], idx[1 + hash3(salt, i, 5) % i]);
  idx.resize(keep);
  std::sort(idx.begin(), idx.end());
  std::vector<Case> out;
  for (std::size_t i : idx) out.push_back(all[i]);
  return out;
}

// Every size × sync flags × placement: (root, blocked-side thread, skew, phase).
inline std::vector<movement_case> movement_matrix(movement k, int T, level lv, bool sampled, std::uint64_t salt) {
  struct placement {
    int root, blocked;
    std::size_t skew;
    bool phased;
  };
  std::vector<placement> places = {{0, 0, 0, false}, {T - 1, 0, 5, true}};
  if (T > 1) places.push_back({T / 2, 1, 3, false});
  std::vector<movement_case> small, big;
  for (std::size_t n : movement_sizes)
    for (upc_flag_t f : sync_flag_values())
      for (const placement& p : places) {
        movement_case c;
        c.kind = k;
        c.nbytes = n;
        c.flags = f;
        c.root = p.root;
        c.blocked = p.blocked;
        c.skew = p.skew;
        c.phased = p.phased;
        c.seed = seed_of(salt, small.size() + big.size());
        c.xupc = (c.seed >> 7) & 1;  // half the cases through the xupc names (issue 11)
        (n > 4096 ? big : small).push_back(c);
      }
  if (lv == level::full) {
    small.insert(small.end(), big.begin(), big.end());
    return small;
  }
  if (sampled || T > 4) {
    std::vector<movement_case> v = sample(small, 10, salt);
    if (T <= 8) {
      const std::vector<movement_case> b = sample(big, 1, salt + 1);
      v.insert(v.end(), b.begin(), b.end());
    }
    return v;
  }
  std::vector<movement_case> b = sample(big, 2, salt + 1);
  small.insert(small.end(), b.begin(), b.end());
  return small;
}

// The reduction cases: every type × op × blk_size {0, 1, 3, nelems} × nelems
// {1, 10, 37, 1021} × placement (element 0 at thread 0 phase 0; src on another
// thread with a non-zero phase and dst elsewhere; the same with a prefix dst not
// aligned with src); the sync flags cycle.
// quick keeps one nelems and placement per (type, op, blk_size) at THREADS <= 4.
inline std::vector<reduce_case> reduce_matrix(bool prefix, int T, level lv, bool sampled, std::uint64_t salt) {
  const std::size_t nelems_set[] = {1, 10, 37, 1021};
  const std::vector<upc_flag_t>& flags = sync_flag_values();
  std::vector<reduce_case> all, quick;
  for (std::size_t ty = 0; ty < reduce_types().size(); ++ty)
    for (const op_choice& op : reduce_types()[ty].ops)
      for (int bk = 0; bk < 4; ++bk) {
        const std::size_t pick = hash3(salt, all.size(), 9) % 12;  // quick's choice of (nelems, placement)
        for (std::size_t ni = 0; ni < 4; ++ni)
          for (int pl = 0; pl < 3; ++pl) {
            reduce_case c;
            c.type = ty;
            c.op = op;
            c.prefix = prefix;
            c.nelems = nelems_set[ni];
            const std::size_t b = bk == 0 ? 0 : bk == 1 ? 1 : bk == 2 ? 3 : c.nelems;
            c.blk_size = b;
            if (pl == 0) {  // element 0 on thread 0, phase 0; dst on thread 0
              c.start = 0;
              c.root = 0;
            } else if (pl == 1) {  // src on thread T/2 with phase 1 (when the block allows it)
              c.start = b == 0 ? 3 : b * static_cast<std::size_t>(T / 2) + (b > 1 ? 1 : 0);
              c.root = T - 1;
            } else {  // src on the last thread, phase 2; a prefix dst one element further on
              c.start = b == 0 ? 1 : b * static_cast<std::size_t>(T - 1) + (b > 2 ? 2 : 0);
              c.root = T / 2;
              c.dst_shift = prefix ? 1 : 0;
            }
            c.flags = flags[all.size() % flags.size()];
            c.seed = seed_of(salt, all.size());
            if (ni * 3 + static_cast<std::size_t>(pl) == pick) quick.push_back(c);
            all.push_back(c);
          }
      }
  if (lv == level::full) return all;
  if (sampled || T > 4) return sample(quick, 60, salt);
  return quick;
}

inline std::vector<sort_case> sort_matrix(int T, level lv, bool sampled, std::uint64_t salt) {
  const std::vector<upc_flag_t>& flags = sync_flag_values();
  std::vector<sort_case> all;
  for (std::size_t E : {1, 4, 12})
    for (std::size_t n : {1, 13, 100})
      for (std::size_t blk : {std::size_t{0}, std::size_t{1}, std::size_t{3}, n}) {
        sort_case c;
        c.elem_size = E;
        c.nelems = n;
        c.blk_size = blk;
        c.flags = flags[all.size() % flags.size()];
        c.seed = seed_of(salt, all.size());
        all.push_back(c);
      }
  if (lv == level::full || (!sampled && T <= 4)) return all;
  return sample(all, 8, salt);
}

// ---------------------------------------------------------------------------
// Running the matrix

inline upc::launch_options run_options(int threads, upc::backend_kind b) {
  upc::launch_options o = spmd::options(threads, b);
  o.heap_per_thread = 16u << 20;
  o.timeout_seconds = 120;
  return o;
}

// The virtual topologies of the matrix (issue 11): one node, two nodes of
// consecutive threads, one thread per node, uneven nodes, a cyclic map.
struct topology {
  const char* name;
  int nodes;        // 0: one per thread
  const char* map;
};
inline const topology topologies[] = {{"1 node", 1, "block"}, {"2 nodes", 2, "block"}, {"THREADS nodes", 0, "block"},
                                      {"3 uneven nodes", 3, "block"}, {"2 cyclic nodes", 2, "cyclic"}};
inline void apply(const topology& tp, upc::launch_options& o) {
  o.nodes = tp.nodes == 0 ? o.threads : std::min(tp.nodes, o.threads);
  o.node_map = tp.map;
}

// One run of `body` with `algorithm` forced for `collective` (outside the run),
// on one of the topologies (node-aware algorithms: on each of them).
inline void run_forced(const std::string& collective, const std::string& algorithm, upc::backend_kind b, int threads,
                       const std::function<void()>& body) {
  if (spmd::skip_run(threads, b)) return;
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : collective + "/" + algorithm) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  const std::size_t n = std::size(topologies);
  const std::size_t pick = (h + static_cast<std::uint64_t>(threads) * 7 + static_cast<std::uint64_t>(b)) % n;
  const bool every = algorithm == "multicore" || algorithm == "binomial_flat";  // node-aware: every topology
  for (std::size_t i = 0; i < n; ++i) {
    if (!every && i != pick) continue;
    upc::launch_options o = run_options(threads, b);
    apply(topologies[i], o);
    upc::coll::force_algorithm(collective, algorithm);
    const upc::run_result r = upc::run(o, body);
    upc::coll::reset_algorithms();
    INFO("collective ", collective, ", algorithm ", algorithm, ", backend ", spmd::name(b), ", THREADS ", threads,
         ", topology ", topologies[i].name);
    CHECK_MESSAGE(r.ok(), r.error);
  }
}

// The algorithms to test: every registered one, then "auto" (sampled in quick).
inline std::vector<std::string> algorithms_of(const std::string& collective) {
  std::vector<std::string> v = upc::coll::algorithms(collective);
  v.push_back("auto");
  return v;
}

inline std::uint64_t salt_of(const std::string& collective, const std::string& algo, upc::backend_kind b, int T) {
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : collective + "/" + algo) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return hash3(h, static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(T));
}

// The THREADS counts of the matrix: both sides of every power of two up to 8, and 16.
inline constexpr int all_counts[] = {1, 2, 3, 4, 5, 7, 8, 16};

inline void run_movement_matrix(movement k, level lv, std::span<const int> counts = all_counts) {
  const std::string coll = coll_model::name(k);
  for (const std::string& algo : algorithms_of(coll))
    for (upc::backend_kind b : spmd::backends)
      for (int T : counts) {
        const std::vector<movement_case> cases =
            movement_matrix(k, T, lv, algo == "auto", salt_of(coll, algo, b, T));
        run_forced(coll, algo, b, T, [&] { movement_body(cases, algo); });
      }
}

inline void run_reduce_matrix(bool prefix, level lv, std::span<const int> counts = all_counts) {
  const std::string coll = prefix ? "prefix_reduce" : "reduce";
  for (const std::string& algo : algorithms_of(coll))
    for (upc::backend_kind b : spmd::backends)
      for (int T : counts) {
        const std::vector<reduce_case> cases = reduce_matrix(prefix, T, lv, algo == "auto", salt_of(coll, algo, b, T));
        run_forced(coll, algo, b, T, [&] { reduce_body(cases, algo); });
      }
}

inline void run_sort_matrix(level lv, std::span<const int> counts = all_counts) {
  for (const std::string& algo : algorithms_of("sort"))
    for (upc::backend_kind b : spmd::backends)
      for (int T : counts) {
        const std::vector<sort_case> cases = sort_matrix(T, lv, algo == "auto", salt_of("sort", algo, b, T));
        run_forced("sort", algo, b, T, [&] { sort_body(cases, algo); });
      }
}

}  // namespace conf
