// The conformance harness of the UPC Collectives 2.0 API (include/upccoll.h):
// builds cases, runs each on the calling UPC threads and checks every byte of
// every rank's buffers against tests/support/upccoll_model.hpp.
//
// One case = one collective call on one team: the whole world, or the teams of a
// upccoll_team_split (colors and keys drawn from the case's seed), or of a split
// of those. Each thread owns a send window and a receive window (blocks of two
// upc_all_alloc areas, so every thread can read every other's), and passes
// pointers into them at a per-thread skew (the pointers are multi-valued).
// Windows hold a pattern of (thread, byte, seed) before the call; reductions'
// send buffers hold typed items chosen per (type, op) so that a wrong order of
// combination shows. The sync flags are honoured, not worked around:
//   IN_NOSYNC          data set up, then upc_barrier, then the call
//   otherwise          each thread sets up its own data and calls at once
//                      (a `late` thread does so after a sleep)
//   OUT_NOSYNC         upc_barrier after completion, then the checks
//   otherwise          the caller checks its windows as soon as the call is
//                      complete, then scribbles over its send window
//   OUT_ALLSYNC        ... and checks its next team rank's receive window at once
// Completion: blocking (handle NULL), a handle and upccoll_wait/_wait_status, a
// handle polled with upccoll_test, or UPC_ASYNC_FENCE and upccoll_fence. Ranks
// that a collective ignores arguments of (non-roots) pass NULL and garbage there
// in about half of the cases. In-place cases pass UPCCOLL_IN_PLACE where MPI's
// rules put it, with the input copied into the receive window first (and junk
// in the arguments it makes the collective ignore).
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "../support/spmd.hpp"
#include "../support/upccoll_model.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upccoll.h"

namespace uconf {

namespace M = upccoll_model;
using M::collective;

// ---------------------------------------------------------------------------
// Hashing (deterministic data, seeds and choices)

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
inline std::uint64_t h3(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return mix(a * 0x100000001b3ull ^ mix(b * 0xc2b2ae3d27d4eb4full ^ mix(c)));
}
inline std::uint64_t h4(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) { return h3(h3(a, b, c), d, 0x44); }

// ---------------------------------------------------------------------------
// Return codes

inline std::string code_name(int rc) {
  if (rc < 0 || rc > UPCCOLL_ERROR_UNINITIALIZED) return "(code " + std::to_string(rc) + ")";
  const char* n = upccoll_error_name(static_cast<upccoll_return_t>(rc));
  return n ? std::string(n) : "(code " + std::to_string(rc) + ", no name)";
}

[[noreturn]] inline void fail(const std::string& what) {
  throw spmd::check_failed(what + " [thread " + std::to_string(MYTHREAD) + " of " + std::to_string(THREADS) + "]");
}

inline void expect_rc(int got, int want, const std::string& what) {
  if (got != want) fail(what + ": returned " + code_name(got) + ", expected " + code_name(want));
}

}  // namespace uconf

// Inside a body: `expr` (a upccoll call) must return `want`.
#define UC_EXPECT(expr, want) \
  ::uconf::expect_rc(static_cast<int>(expr), static_cast<int>(want), std::string(__FILE__ ":") + std::to_string(__LINE__) + ": " #expr)
#define UC_OK(expr) UC_EXPECT(expr, UPCCOLL_SUCCESS)

namespace uconf {

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

// The user ops of one run (created by every thread after upccoll_initialize).
struct user_ops {
  upccoll_op_t affine = 0, matrix = 0, dsum = 0;
  void create() {
    UC_OK(upccoll_op_create(&affine_compose, 0, &affine));
    UC_OK(upccoll_op_create(&matrix_product, 0, &matrix));
    UC_OK(upccoll_op_create(&double_sum, 1, &dsum));
    if (affine < UPCCOLL_USER_OP_BASE || matrix < UPCCOLL_USER_OP_BASE || dsum < UPCCOLL_USER_OP_BASE)
      fail("upccoll_op_create gave an op below UPCCOLL_USER_OP_BASE");
    if (affine == matrix || matrix == dsum || affine == dsum) fail("upccoll_op_create gave the same op twice");
  }
  void free() {
    UC_OK(upccoll_op_free(affine));
    UC_OK(upccoll_op_free(matrix));
    UC_OK(upccoll_op_free(dsum));
  }
  upccoll_op_t map(upccoll_op_t op) const {
    return op == op_affine ? affine : op == op_matrix ? matrix : op == op_dsum ? dsum : op;
  }
};

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
// Sync flags

// The 16 combinations of {none, NOSYNC, MYSYNC, ALLSYNC} for IN and OUT.
inline const std::vector<upccoll_flag_t>& sync_flag_values() {
  static const std::vector<upccoll_flag_t> v = [] {
    std::vector<upccoll_flag_t> r;
    for (upccoll_flag_t in : {0, UPC_IN_NOSYNC, UPC_IN_MYSYNC, UPC_IN_ALLSYNC})
      for (upccoll_flag_t out : {0, UPC_OUT_NOSYNC, UPC_OUT_MYSYNC, UPC_OUT_ALLSYNC}) r.push_back(in | out);
    return r;
  }();
  return v;
}

inline std::string flags_name(upccoll_flag_t f) {
  std::string s;
  auto add = [&](upccoll_flag_t bit, const char* n) {
    if (!(f & bit)) return;
    if (!s.empty()) s += '|';
    s += n;
  };
  add(UPC_IN_NOSYNC, "UPC_IN_NOSYNC");
  add(UPC_IN_MYSYNC, "UPC_IN_MYSYNC");
  add(UPC_IN_ALLSYNC, "UPC_IN_ALLSYNC");
  add(UPC_OUT_NOSYNC, "UPC_OUT_NOSYNC");
  add(UPC_OUT_MYSYNC, "UPC_OUT_MYSYNC");
  add(UPC_OUT_ALLSYNC, "UPC_OUT_ALLSYNC");
  add(UPC_ASYNC_FENCE, "UPC_ASYNC_FENCE");
  return s.empty() ? "0" : s;
}

// ---------------------------------------------------------------------------
// Teams: a world team, or `levels` nested splits with colors and keys from a seed

struct team_plan {
  int levels = 0;
  std::vector<std::vector<int>> color, key;  // [level][world thread]
  std::vector<std::vector<int>> members;     // [world thread]: the final team, by rank
  std::vector<int> rank;                     // [world thread]: rank in the final team
};

inline team_plan make_team_plan(std::uint32_t seed, int levels, int T) {
  team_plan p;
  p.levels = levels;
  std::vector<std::vector<int>> groups = {{}};
  for (int t = 0; t < T; ++t) groups[0].push_back(t);
  for (int L = 0; L < levels; ++L) {
    p.color.emplace_back(T, 0);
    p.key.emplace_back(T, 0);
    std::vector<std::vector<int>> next;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const std::vector<int>& grp = groups[g];
      const int ncolors = 1 + static_cast<int>(h4(seed, L, g, 1) % std::min<std::size_t>(3, grp.size()));
      std::vector<std::vector<int>> byc(ncolors);
      for (int t : grp) byc[h4(seed, L, t, 2) % ncolors].push_back(t);
      for (int c = 0; c < ncolors; ++c) {
        std::vector<int>& cls = byc[c];
        if (cls.empty()) continue;
        std::vector<int> keys(cls.size());
        for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>(i);
        for (std::size_t i = keys.size(); i > 1; --i) std::swap(keys[i - 1], keys[h4(seed, L, cls[i - 1], 3) % i]);
        std::vector<int> team(cls.size());
        for (std::size_t i = 0; i < cls.size(); ++i) {
          p.color[L][cls[i]] = 1000 * c + 17 * L + 3;  // colors: any ints, not 0..k-1
          p.key[L][cls[i]] = keys[i];
          team[keys[i]] = cls[i];
        }
        next.push_back(team);
      }
    }
    groups = next;
  }
  p.members.assign(T, {});
  p.rank.assign(T, 0);
  for (const std::vector<int>& g : groups)
    for (std::size_t r = 0; r < g.size(); ++r) {
      p.members[g[r]] = g;
      p.rank[g[r]] = static_cast<int>(r);
    }
  return p;
}

// ---------------------------------------------------------------------------
// Cases

enum class completion { blocking, wait, test, fence };
inline const char* completion_name(completion c) {
  switch (c) {
    case completion::blocking: return "blocking";
    case completion::wait: return "handle+wait";
    case completion::test: return "handle+test";
    case completion::fence: return "UPC_ASYNC_FENCE+fence";
  }
  return "?";
}

struct ucase {
  collective kind = collective::barrier;
  upccoll_dtype_t sendtype = UPC_BYTE, recvtype = UPC_BYTE;  // reductions: dt = sendtype
  upccoll_op_t op = UPC_ADD;                                 // or a user op marker
  std::size_t count = 1;  // elements of sendtype (the base of the v variants' irregular counts)
  int root_pick = 0;      // 0: last rank, 1: middle, 2: rank 0, 3: any
  upccoll_flag_t flags = 0;  // sync flags (completion adds UPC_ASYNC_FENCE)
  completion how = completion::blocking;
  int team_levels = 0;  // 0: UPC_TEAM_ALL; 1: a split; 2: a split of a split
  bool garbage = false;  // non-roots pass NULL / garbage where the collective ignores arguments
  int late = -1;         // this world thread enters after a sleep
  bool in_place = false;  // UPCCOLL_IN_PLACE where the collective takes it (the model's call::in_place)
  std::uint32_t seed = 1;
};

// The collectives with an in-place form (all but the barrier).
inline bool has_in_place(collective k) { return k != collective::barrier; }

inline std::string describe(const ucase& c) {
  std::ostringstream s;
  s << M::name(c.kind);
  if (M::is_reduction(c.kind)) {
    s << " dt=" << M::type_name(c.sendtype) << " op=" << op_text(c.op);
  } else if (c.kind != collective::barrier) {
    s << " sendtype=" << M::type_name(c.sendtype) << " recvtype=" << M::type_name(c.recvtype);
  }
  s << " count=" << c.count << " flags=" << flags_name(c.flags) << " " << completion_name(c.how)
    << " team=" << (c.team_levels == 0 ? "UPC_TEAM_ALL" : c.team_levels == 1 ? "split" : "split of a split")
    << " root_pick=" << c.root_pick << (c.garbage ? " garbage-on-non-roots" : "")
    << (c.late >= 0 ? " late thread " + std::to_string(c.late) : std::string()) << (c.in_place ? " UPCCOLL_IN_PLACE" : "")
    << " seed=" << c.seed;
  return s.str();
}

inline std::size_t irregular(std::uint32_t seed, std::uint64_t a, std::uint64_t b, std::size_t base) {
  if (base == 0) return 0;
  const std::uint64_t h = h4(seed, a, b, 0x1e6);
  if (h % 4 == 0) return 0;
  return 1 + static_cast<std::size_t>((h >> 8) % (2 * base));
}

// Displacements for counts k[0..n-1]: blocks laid out in a random order of the
// ranks, with gaps (so neither monotonic nor dense).
inline std::vector<std::size_t> layout(const std::vector<std::size_t>& k, std::uint64_t salt) {
  const std::size_t n = k.size();
  std::vector<std::size_t> order(n), d(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[h3(salt, i, 5) % i]);
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n; ++i) {
    pos += h3(salt, i, 6) % 3;
    d[order[i]] = pos;
    pos += k[order[i]];
  }
  return d;
}

inline int root_of(const ucase& c, int n) {
  switch (c.root_pick) {
    case 0: return n - 1;
    case 1: return n / 2;
    case 2: return 0;
    default: return static_cast<int>(h3(c.seed, n, 0x2007) % static_cast<std::uint64_t>(n));
  }
}

// The model's call for a team of n ranks (`team_salt` tells the teams of one case
// apart, so that they get different irregular counts).
inline M::call make_call(const ucase& c, int n, std::uint64_t team_salt) {
  M::call cl;
  cl.kind = c.kind;
  cl.size = n;
  cl.root = M::is_rooted(c.kind) ? root_of(c, n) : 0;
  cl.in_place = c.in_place;
  const std::uint32_t s = static_cast<std::uint32_t>(h3(c.seed, team_salt, 0x5a17));
  if (c.kind == collective::barrier) return cl;
  if (M::is_reduction(c.kind)) {
    cl.red.dt = c.sendtype;
    cl.red.op = c.op;
    cl.red.fn = user_function(c.op);
    cl.count = c.count;
    if (c.kind == collective::reduce_scatter) {
      const std::size_t base = c.count == 0 ? 0 : std::max<std::size_t>(1, c.count / static_cast<std::size_t>(n));
      for (int t = 0; t < n; ++t) cl.recvcounts.push_back(irregular(s, t, 1, base));
    }
    return cl;
  }
  const std::size_t ss = M::size_of(c.sendtype), rs = M::size_of(c.recvtype);
  auto conv = [&](std::size_t k) { return k * ss / rs; };  // send elements -> receive elements
  cl.ranks.assign(n, {});
  for (M::rank_args& a : cl.ranks) {
    a.sendtype = c.sendtype;
    a.recvtype = c.recvtype;
  }
  switch (c.kind) {
    case collective::bcast:
    case collective::scatter:
    case collective::gather:
    case collective::allgather:
    case collective::alltoall:
      for (M::rank_args& a : cl.ranks) {
        a.sendcount = c.count;
        a.recvcount = conv(c.count);
      }
      break;
    case collective::scatterv: {
      M::rank_args& root = cl.ranks[cl.root];
      for (int t = 0; t < n; ++t) root.sendcnts.push_back(irregular(s, t, 2, c.count));
      root.sdispls = layout(root.sendcnts, h3(s, 3, 0));
      for (int t = 0; t < n; ++t) cl.ranks[t].recvcount = conv(root.sendcnts[t]);
      break;
    }
    case collective::gatherv:
    case collective::allgatherv: {
      std::vector<std::size_t> k;
      for (int t = 0; t < n; ++t) {
        cl.ranks[t].sendcount = irregular(s, t, 4, c.count);
        k.push_back(conv(cl.ranks[t].sendcount));
      }
      const std::vector<std::size_t> d = layout(k, h3(s, 5, 0));
      for (int t = 0; t < n; ++t)
        if (c.kind == collective::allgatherv || t == cl.root) {
          cl.ranks[t].recvcnts = k;
          cl.ranks[t].rdispls = d;
        }
      break;
    }
    case collective::alltoallv:
      for (int t = 0; t < n; ++t) {
        M::rank_args& a = cl.ranks[t];
        // in place, t sends its receive block r to r: the counts are symmetric
        for (int r = 0; r < n; ++r)
          a.sendcnts.push_back(c.in_place ? irregular(s, std::min(t, r) * 1000 + std::max(t, r), 7, c.count)
                                          : irregular(s, t * 1000 + r, 7, c.count));
        a.sdispls = layout(a.sendcnts, h3(s, 8, t));
      }
      for (int r = 0; r < n; ++r) {
        M::rank_args& a = cl.ranks[r];
        for (int t = 0; t < n; ++t) a.recvcnts.push_back(conv(cl.ranks[t].sendcnts[r]));
        a.rdispls = layout(a.recvcnts, h3(s, 9, r));
      }
      break;
    default: break;
  }
  return cl;
}

// Bytes before the pointer and after the extent of each window.
constexpr std::size_t guard = 24;
inline std::size_t skew_of(const ucase& c, int t, int which) {
  const std::uint64_t h = h4(c.seed, t, which, 0x5e);
  const bool byte_typed = c.sendtype == UPC_BYTE && (M::is_reduction(c.kind) || c.recvtype == UPC_BYTE);
  return byte_typed ? h % 13 : 16 * (h % 3);  // typed buffers stay aligned to their type
}

// Bytes of thread t's send window that hold its data: its send buffer, or in
// place the input it holds in its receive window (made in the send window, as
// if sent from there, and copied over before the call).
inline std::size_t data_extent(const M::call& cl, int rank) {
  return std::max(M::send_extent(cl, rank), M::in_place_input(cl, rank).n);
}

// A case prepared for one THREADS count: teams and every team's call.
struct prepared {
  ucase c;
  team_plan plan;
  std::vector<M::call> call_of;  // [world thread]: the call of its team
  std::vector<std::size_t> send_skew, recv_skew, send_win, recv_win;  // [world thread]
};

inline prepared prepare(const ucase& c, int T) {
  prepared p;
  p.c = c;
  p.plan = make_team_plan(c.seed, c.team_levels, T);
  for (int t = 0; t < T; ++t) {
    const std::vector<int>& mem = p.plan.members[t];
    p.call_of.push_back(make_call(c, static_cast<int>(mem.size()), static_cast<std::uint64_t>(mem[0])));
    const int r = p.plan.rank[t];
    p.send_skew.push_back(skew_of(c, t, 0));
    p.recv_skew.push_back(skew_of(c, t, 1));
    p.send_win.push_back(p.send_skew[t] + data_extent(p.call_of[t], r) + guard);
    p.recv_win.push_back(p.recv_skew[t] + M::recv_extent(p.call_of[t], r) + guard);
  }
  return p;
}

// Window patterns: bytes of (thread, index, seed), different for send and receive.
inline std::uint64_t send_word(int t, std::uint64_t w, std::uint32_t seed) { return h4(seed, t, w, 0x5e11d); }
inline std::uint64_t recv_word(int t, std::uint64_t w, std::uint32_t seed) { return h4(seed, t + 977, w, 0x9ec1); }
template <std::uint64_t (*Word)(int, std::uint64_t, std::uint32_t)>
void fill_pattern(std::uint8_t* p, std::size_t n, int t, std::uint32_t seed, std::uint64_t from) {
  std::size_t i = 0;
  while (i < n) {
    const std::uint64_t x = from + i, w = Word(t, x >> 3, seed);
    for (std::uint64_t b = x & 7; b < 8 && i < n; ++b, ++i) p[i] = static_cast<std::uint8_t>(w >> (8 * b));
  }
}

// Bytes [from, from+n) of world thread t's send window before the call.
inline void send_window_bytes(const prepared& p, int t, std::size_t from, std::size_t n, std::uint8_t* out) {
  fill_pattern<send_word>(out, n, t, p.c.seed, from);
  if (!M::is_reduction(p.c.kind)) return;
  const std::size_t E = M::size_of(p.c.sendtype), lo = p.send_skew[t];
  const std::size_t hi = lo + data_extent(p.call_of[t], p.plan.rank[t]);
  const std::size_t a = std::max(from, lo), b = std::min(from + n, hi);
  std::vector<std::uint8_t> item(E);
  for (std::size_t x = a; x < b;) {
    const std::size_t k = (x - lo) / E, in = (x - lo) % E;
    make_item(p.c.sendtype, p.c.op, p.c.seed, t, k, item.data());
    const std::size_t m = std::min(E - in, b - x);
    std::memcpy(out + (x - from), item.data() + in, m);
    x += m;
  }
}

// In place: thread t's input, from its send window, where the call reads it in
// its receive window.
inline void place_input(const prepared& p, int t, std::uint8_t* recv_window) {
  const M::span in = M::in_place_input(p.call_of[t], p.plan.rank[t]);
  if (in.n) send_window_bytes(p, t, p.send_skew[t], in.n, recv_window + p.recv_skew[t] + in.at);
}

inline std::vector<std::uint8_t> recv_window_before(const prepared& p, int t) {
  std::vector<std::uint8_t> v(p.recv_win[t]);
  fill_pattern<recv_word>(v.data(), v.size(), t, p.c.seed, 0);
  place_input(p, t, v.data());
  return v;
}

// What thread t's receive window holds after the call, by the model.
inline M::window expected_window(const prepared& p, int t) {
  const std::vector<std::uint8_t> before = recv_window_before(p, t);
  const std::size_t skew = p.recv_skew[t];
  const std::vector<int>& mem = p.plan.members[t];
  const M::send_source send = [&](int rank, std::size_t off, std::size_t n, std::uint8_t* out) {
    const int from = mem.at(rank);
    send_window_bytes(p, from, p.send_skew[from] + off, n, out);
  };
  M::bytes tail(before.begin() + static_cast<std::ptrdiff_t>(skew), before.end());
  const M::window inner = M::expected_recv(p.call_of[t], p.plan.rank[t], tail, send);
  M::window w{before, std::vector<std::uint8_t>(before.size(), 1)};
  std::copy(inner.data.begin(), inner.data.end(), w.data.begin() + static_cast<std::ptrdiff_t>(skew));
  std::copy(inner.care.begin(), inner.care.end(), w.care.begin() + static_cast<std::ptrdiff_t>(skew));
  return w;
}

inline std::string hex(unsigned v) {
  static const char* d = "0123456789abcdef";
  return std::string("0x") + d[(v >> 4) & 15] + d[v & 15];
}

// "" when got matches, else the first differences.
inline std::string compare(const char* what, int t, std::size_t skew, const std::uint8_t* got, const M::window& w) {
  std::ostringstream s;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < w.data.size(); ++i) {
    if (!w.care[i] || w.data[i] == got[i]) continue;
    if (bad < 6)
      s << (bad ? "; " : "") << what << " of thread " << t << " byte " << static_cast<long long>(i) - static_cast<long long>(skew)
        << " from the pointer: expected " << hex(w.data[i]) << ", got " << hex(got[i]);
    ++bad;
  }
  if (!bad) return "";
  return std::to_string(bad) + " byte(s) differ from the model: " + s.str();
}

// ---------------------------------------------------------------------------
// Calling a collective with one rank's arguments

struct my_args {
  upc::sptr<void> sendbuf, recvbuf;
  std::size_t sendcount = 0, recvcount = 0;
  upccoll_dtype_t sendtype = UPC_BYTE, recvtype = UPC_BYTE;
  std::size_t *sendcnts = nullptr, *sdispls = nullptr, *recvcnts = nullptr, *rdispls = nullptr;
  int root = 0;
  upccoll_dtype_t dt = UPC_INT;
  upccoll_op_t op = UPC_ADD;
  std::size_t count = 0;
  std::size_t* recvcounts = nullptr;
};

inline upccoll_return_t call_collective(collective k, my_args& a, upccoll_team_t team, upccoll_flag_t f,
                                        upccoll_handle_t* h) {
  switch (k) {
    case collective::barrier: return upccoll_barrier(team, f, h);
    case collective::bcast:
      return upccoll_bcast(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root, team, f, h);
    case collective::scatter:
      return upccoll_scatter(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root, team, f, h);
    case collective::scatterv:
      return upccoll_scatterv(a.sendbuf, a.sendcnts, a.sdispls, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root,
                              team, f, h);
    case collective::gather:
      return upccoll_gather(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root, team, f, h);
    case collective::gatherv:
      return upccoll_gatherv(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcnts, a.rdispls, a.recvtype, a.root,
                             team, f, h);
    case collective::allgather:
      return upccoll_allgather(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, team, f, h);
    case collective::allgatherv:
      return upccoll_allgatherv(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcnts, a.rdispls, a.recvtype, team,
                                f, h);
    case collective::alltoall:
      return upccoll_alltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, team, f, h);
    case collective::alltoallv:
      return upccoll_alltoallv(a.sendbuf, a.sendcnts, a.sdispls, a.sendtype, a.recvbuf, a.recvcnts, a.rdispls,
                               a.recvtype, team, f, h);
    case collective::reduce:
      return upccoll_reduce(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, a.root, team, f, h);
    case collective::allreduce: return upccoll_allreduce(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, team, f, h);
    case collective::reduce_scatter:
      return upccoll_reduce_scatter(a.sendbuf, a.recvbuf, a.recvcounts, a.dt, a.op, team, f, h);
    case collective::scan: return upccoll_scan(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, team, f, h);
    case collective::scan_inclusive:
      return upccoll_scan_inclusive(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, team, f, h);
  }
  return UPCCOLL_ERROR;
}

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

// Completes a non-blocking call started with *h (blocking and fence: nothing).
inline void complete(completion how, upccoll_handle_t h, int variant, const std::string& what) {
  if (how == completion::wait) {
    if (h == UPCCOLL_INVALID_HANDLE) fail(what + ": a non-blocking call gave UPCCOLL_INVALID_HANDLE");
    if (variant & 1) {
      upccoll_wait(h);
    } else {
      expect_rc(upccoll_wait_status(h), UPCCOLL_SUCCESS, what + ": upccoll_wait_status");
    }
  } else if (how == completion::test) {
    if (h == UPCCOLL_INVALID_HANDLE) fail(what + ": a non-blocking call gave UPCCOLL_INVALID_HANDLE");
    const auto t0 = std::chrono::steady_clock::now();
    int r;
    while ((r = upccoll_test(h)) == 0) {
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60)) fail(what + ": upccoll_test never gave 1");
      std::this_thread::yield();
    }
    if (r != 1) fail(what + ": upccoll_test returned " + std::to_string(r) + " on a live handle");
    if (upccoll_test(h) != 1) fail(what + ": upccoll_test on a complete, not yet waited handle is not 1");
    expect_rc(upccoll_wait_status(h), UPCCOLL_SUCCESS, what + ": upccoll_wait_status after upccoll_test");
  } else if (how == completion::fence) {
    upccoll_fence();
  }
}

// ---------------------------------------------------------------------------
// Running cases

// Whether to require upc::coll::last_algorithm() == the forced one after a
// blocking call (what shows that forcing reached the collective).
inline bool g_check_algorithm = true;

inline bool in_nosync(upccoll_flag_t f) { return (f & UPC_IN_NOSYNC) != 0; }
inline bool out_nosync(upccoll_flag_t f) { return (f & UPC_OUT_NOSYNC) != 0; }
inline bool out_allsync(upccoll_flag_t f) { return (f & UPC_OUT_ALLSYNC) != 0; }

// Barrier cases: every thread stamps its slot before entering; after completion
// every member's stamp must be visible.
struct areas {
  std::uint64_t send = 0, recv = 0, stamps = 0;
};

// One call in flight on the calling thread: its case, buffers, team, arguments
// (the count and displacement arrays stay alive until it completes) and handle.
struct in_flight {
  const prepared* p = nullptr;
  areas ar;
  std::string what;
  upccoll_team_t team = UPC_TEAM_ALL;
  std::vector<upccoll_team_t> made;  // the splits, outermost first
  std::vector<std::size_t> sendcnts, sdispls, recvcnts, rdispls, recvcounts;
  my_args a;
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
};

// The case's team (splits of UPC_TEAM_ALL), checked with team_rank / team_size.
inline void make_team(in_flight& x) {
  const prepared& p = *x.p;
  const int me = MYTHREAD;
  x.team = UPC_TEAM_ALL;
  for (int L = 0; L < p.plan.levels; ++L) {
    upccoll_team_t nt = nullptr;
    expect_rc(upccoll_team_split(x.team, p.plan.color[L][me], p.plan.key[L][me], &nt), UPCCOLL_SUCCESS, x.what + ": split");
    x.made.push_back(nt);
    x.team = nt;
  }
  const int rank = p.plan.rank[me], n = p.call_of[me].size;
  int r = -1, sz = -1;
  expect_rc(upccoll_team_rank(x.team, &r), UPCCOLL_SUCCESS, x.what + ": upccoll_team_rank");
  expect_rc(upccoll_team_size(x.team, &sz), UPCCOLL_SUCCESS, x.what + ": upccoll_team_size");
  if (r != rank || sz != n)
    fail(x.what + ": the team gives rank " + std::to_string(r) + " of " + std::to_string(sz) + ", the split asked for " +
         std::to_string(rank) + " of " + std::to_string(n));
}

inline void free_team(in_flight& x) {
  for (auto it = x.made.rbegin(); it != x.made.rend(); ++it) upccoll_team_free(*it);
  x.made.clear();
  x.team = UPC_TEAM_ALL;
}

// This thread's windows before the call (after a sleep if it is the late one).
inline void fill_data(in_flight& x) {
  const prepared& p = *x.p;
  const int me = MYTHREAD;
  if (p.c.late == me) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  send_window_bytes(p, me, 0, p.send_win[me], local_bytes(x.ar.send));
  fill_pattern<recv_word>(local_bytes(x.ar.recv), p.recv_win[me], me, p.c.seed, 0);
  place_input(p, me, local_bytes(x.ar.recv));
  if (p.c.kind == collective::barrier) {
    const std::uint64_t stamp = p.c.seed;
    upc_memput(upc::sptr<void>(address(me, x.ar.stamps)), &stamp, sizeof stamp);
    upc_fence;
  }
}

// Builds this rank's arguments and makes the call (its return code checked).
inline void start(in_flight& x, const user_ops& ops) {
  const prepared& p = *x.p;
  const ucase& c = p.c;
  const int me = MYTHREAD;
  const M::call& cl = p.call_of[me];
  const int rank = p.plan.rank[me];
  my_args& a = x.a;
  a.sendbuf = upc::sptr<void>(address(me, x.ar.send + p.send_skew[me]));
  a.recvbuf = upc::sptr<void>(address(me, x.ar.recv + p.recv_skew[me]));
  a.root = cl.root;
  if (M::is_reduction(c.kind)) {
    a.dt = c.sendtype;
    a.op = ops.map(c.op);
    a.count = cl.count;
    x.recvcounts = cl.recvcounts;
    a.recvcounts = x.recvcounts.empty() ? nullptr : x.recvcounts.data();
    if (c.garbage && c.kind == collective::reduce && rank != cl.root) a.recvbuf = nullptr;
  } else if (c.kind != collective::barrier) {
    const M::rank_args& ra = cl.ranks[rank];
    a.sendcount = ra.sendcount;
    a.recvcount = ra.recvcount;
    a.sendtype = ra.sendtype;
    a.recvtype = ra.recvtype;
    x.sendcnts = ra.sendcnts;
    x.sdispls = ra.sdispls;
    x.recvcnts = ra.recvcnts;
    x.rdispls = ra.rdispls;
    // Arrays a rank does not use stay null (or, below, junk).
    a.sendcnts = x.sendcnts.empty() ? nullptr : x.sendcnts.data();
    a.sdispls = x.sdispls.empty() ? nullptr : x.sdispls.data();
    a.recvcnts = x.recvcnts.empty() ? nullptr : x.recvcnts.data();
    a.rdispls = x.rdispls.empty() ? nullptr : x.rdispls.data();
    if (c.garbage && rank != cl.root) {
      switch (c.kind) {
        case collective::bcast:
        case collective::scatter:
        case collective::scatterv:
          a.sendbuf = nullptr;
          a.sendcount = 0xdeadbeefcafeULL;
          a.sendtype = 12345;
          a.sendcnts = a.sdispls = nullptr;
          break;
        case collective::gather:
        case collective::gatherv:
          a.recvbuf = nullptr;
          a.recvcount = 0xdeadbeefcafeULL;
          a.recvtype = -7;
          a.recvcnts = a.rdispls = nullptr;
          break;
        default: break;
      }
    } else if (rank != cl.root && (c.kind == collective::scatterv || c.kind == collective::gatherv)) {
      // arrays that make no sense on non-roots: they must be ignored too
      static std::size_t junk[32] = {std::size_t{1} << 30, 7, std::size_t{1} << 30, 3, 5, 1, 2, std::size_t{1} << 40};
      if (c.kind == collective::scatterv) a.sendcnts = a.sdispls = junk;
      else a.recvcnts = a.rdispls = junk;
    }
  }
  if (M::in_place_rank(cl, rank)) {
    // UPCCOLL_IN_PLACE where the collective takes it; the send side's other
    // arguments (the receive side's for bcast / scatter(v)) are ignored: junk.
    const bool junk = c.garbage;
    if (c.kind == collective::bcast || c.kind == collective::scatter || c.kind == collective::scatterv) {
      a.recvbuf = UPCCOLL_IN_PLACE;
      if (junk) {
        a.recvcount = 0xdeadbeefcafeULL;
        a.recvtype = -7;
      }
    } else {
      a.sendbuf = UPCCOLL_IN_PLACE;
      if (junk) {
        a.sendcount = 0xdeadbeefcafeULL;
        a.sendtype = 12345;
        a.sendcnts = a.sdispls = nullptr;
      }
    }
  }
  upccoll_flag_t f = c.flags;
  if (c.how == completion::fence) f |= UPC_ASYNC_FENCE;
  x.h = reinterpret_cast<upccoll_handle_t>(std::uintptr_t{0x5a5a5a5a});
  const bool pass_handle = c.how == completion::wait || c.how == completion::test ||
                           (c.how == completion::fence && (c.seed & 2));
  const upccoll_return_t rc = call_collective(c.kind, a, x.team, f, pass_handle ? &x.h : nullptr);
  expect_rc(rc, UPCCOLL_SUCCESS, x.what);
  if (c.how == completion::fence && pass_handle && x.h != UPCCOLL_INVALID_HANDLE)
    fail(x.what + ": UPC_ASYNC_FENCE must set *handle to UPCCOLL_INVALID_HANDLE");
}

// This thread's checks once its call is complete ("" or a report): its receive
// window against the model, its send window untouched, and under OUT_ALLSYNC its
// next team rank's receive window too.
inline std::string check(const in_flight& x) {
  const prepared& p = *x.p;
  const ucase& c = p.c;
  const int me = MYTHREAD;
  const int rank = p.plan.rank[me], n = p.call_of[me].size;
  const std::vector<int>& mem = p.plan.members[me];
  if (c.kind == collective::barrier) {
    for (int t : mem) {
      std::uint64_t stamp = 0;
      upc_memget(&stamp, upc::sptr<void>(address(t, x.ar.stamps)), sizeof stamp);
      if (stamp != c.seed)
        return "after the barrier, team member thread " + std::to_string(t) + " has not stamped its slot (not entered?)";
    }
    return "";
  }
  const M::window w = expected_window(p, me);
  std::string report = compare("recv window", me, p.recv_skew[me], local_bytes(x.ar.recv), w);
  if (report.empty()) {
    const std::size_t sw = p.send_win[me];
    M::window sw_expect{M::bytes(sw), std::vector<std::uint8_t>(sw, 1)};
    send_window_bytes(p, me, 0, sw, sw_expect.data.data());
    report = compare("send window (must stay untouched)", me, p.send_skew[me], local_bytes(x.ar.send), sw_expect);
  }
  if (report.empty() && out_allsync(c.flags) && n > 1) {
    const int right = mem[(rank + 1) % n];
    const M::window rwin = expected_window(p, right);
    std::vector<std::uint8_t> got(p.recv_win[right]);
    upc_memget(got.data(), upc::sptr<void>(address(right, x.ar.recv)), got.size());
    report = compare("recv window (OUT_ALLSYNC: complete on every rank)", right, p.recv_skew[right], got.data(), rwin);
  }
  return report;
}

// After the checks of a call that is complete here (not OUT_NOSYNC): nobody may
// read this thread's send buffer any more.
inline void scribble(const in_flight& x) {
  std::uint8_t* s = local_bytes(x.ar.send);
  for (std::size_t i = 0; i < x.p->send_win[MYTHREAD]; ++i) s[i] = static_cast<std::uint8_t>(~s[i]);
}

inline void run_one(const prepared& p, const areas& ar, const user_ops& ops, const std::string& algo, std::size_t index) {
  in_flight x;
  x.p = &p;
  x.ar = ar;
  x.what = "case " + std::to_string(index) + ": " + describe(p.c);
  const ucase& c = p.c;
  make_team(x);
  fill_data(x);
  if (in_nosync(c.flags)) upc_barrier;
  start(x, ops);
  complete(c.how, x.h, static_cast<int>(c.seed >> 3), x.what);
  if (c.how == completion::blocking && g_check_algorithm && algo != "auto") {
    const std::string ran = upc::coll::last_algorithm();
    if (ran != algo) fail(x.what + ": the collective ran algorithm '" + ran + "', not the forced '" + algo + "'");
  }
  if (out_nosync(c.flags)) upc_barrier;
  const std::string report = check(x);
  if (!report.empty())
    fail(x.what + " | forced algorithm " + algo + " | rank " + std::to_string(p.plan.rank[MYTHREAD]) + ": " + report);
  if (!out_nosync(c.flags)) scribble(x);
  upc_barrier;
  free_team(x);
}

// A run body: every case in order, on every thread.
inline void run_cases(const std::vector<ucase>& cases, const std::string& algo) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  user_ops ops;
  ops.create();
  const int T = THREADS;
  std::vector<prepared> ps;
  std::size_t scap = 8, rcap = 8;
  for (const ucase& c : cases) {
    ps.push_back(prepare(c, T));
    for (int t = 0; t < T; ++t) {
      scap = std::max(scap, ps.back().send_win[t]);
      rcap = std::max(rcap, ps.back().recv_win[t]);
    }
  }
  const upc::sptr<void> s = upc_all_alloc(T, scap), r = upc_all_alloc(T, rcap), st = upc_all_alloc(T, 8);
  const areas ar{s.address().offset, r.address().offset, st.address().offset};
  for (std::size_t i = 0; i < ps.size(); ++i) run_one(ps[i], ar, ops, algo, i);
  ops.free();
  UC_OK(upccoll_finalize());
  upc_all_free(st);
  upc_all_free(r);
  upc_all_free(s);
  SPMD_CHECK_EQ(g_bad_user_calls.load(), 0);
}

// Starts every case before completing any (blocking ones complete as they are
// made), then completes the non-blocking ones in an order: 0 the reverse of the
// starts, 1 a random order of this thread's own, 2 the order of the starts; the
// fenced ones at one upccoll_fence. Each is checked as soon as it is complete
// here (OUT_NOSYNC ones after a final upc_barrier). The cases' teams are made
// before anything starts.
inline void run_overlapped(const std::vector<ucase>& cases, int order_kind) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  user_ops ops;
  ops.create();
  const int T = THREADS;
  const std::size_t N = cases.size();
  std::vector<prepared> ps;
  for (const ucase& c : cases) ps.push_back(prepare(c, T));
  std::vector<upc::sptr<void>> allocs;
  std::vector<in_flight> xs(N);
  for (std::size_t i = 0; i < N; ++i) {
    std::size_t scap = 8, rcap = 8;
    for (int t = 0; t < T; ++t) {
      scap = std::max(scap, ps[i].send_win[t]);
      rcap = std::max(rcap, ps[i].recv_win[t]);
    }
    const upc::sptr<void> s = upc_all_alloc(T, scap), r = upc_all_alloc(T, rcap), st = upc_all_alloc(T, 8);
    allocs.insert(allocs.end(), {s, r, st});
    xs[i].p = &ps[i];
    xs[i].ar = areas{s.address().offset, r.address().offset, st.address().offset};
    xs[i].what = "overlapped call " + std::to_string(i) + " of " + std::to_string(N) + ": " + describe(cases[i]);
  }
  for (in_flight& x : xs) make_team(x);
  bool any_in_nosync = false;
  for (in_flight& x : xs) {
    fill_data(x);
    any_in_nosync = any_in_nosync || in_nosync(x.p->c.flags);
  }
  if (any_in_nosync) upc_barrier;
  auto check_now = [&](const in_flight& x) {
    const std::string report = check(x);
    if (!report.empty()) fail(x.what + " | rank " + std::to_string(x.p->plan.rank[MYTHREAD]) + ": " + report);
  };
  for (in_flight& x : xs) {
    start(x, ops);
    if (x.p->c.how == completion::blocking && !out_nosync(x.p->c.flags)) check_now(x);
  }
  std::vector<std::size_t> order(N);
  for (std::size_t i = 0; i < N; ++i) order[i] = order_kind == 0 ? N - 1 - i : i;
  if (order_kind == 1)
    for (std::size_t i = N; i > 1; --i) std::swap(order[i - 1], order[h3(cases[0].seed, MYTHREAD, i) % i]);
  for (std::size_t i : order) {
    in_flight& x = xs[i];
    if (x.p->c.how != completion::wait && x.p->c.how != completion::test) continue;
    complete(x.p->c.how, x.h, static_cast<int>(i), x.what);
    if (!out_nosync(x.p->c.flags)) check_now(x);
  }
  upccoll_fence();
  for (in_flight& x : xs)
    if (x.p->c.how == completion::fence && !out_nosync(x.p->c.flags)) check_now(x);
  upc_barrier;
  for (in_flight& x : xs)
    if (out_nosync(x.p->c.flags)) check_now(x);
  upc_barrier;
  for (auto it = xs.rbegin(); it != xs.rend(); ++it) free_team(*it);
  ops.free();
  UC_OK(upccoll_finalize());
  for (auto it = allocs.rbegin(); it != allocs.rend(); ++it) upc_all_free(*it);
  SPMD_CHECK_EQ(g_bad_user_calls.load(), 0);
}

// ---------------------------------------------------------------------------
// The matrix

enum class level { quick, full };

constexpr std::size_t count_bytes[] = {0, 1, 13, 1021, 16384 + 3};

// (sendtype, recvtype) pairs of data movement: the receiving type's size divides
// the sending type's, so the byte counts of both sides can agree.
inline const std::vector<std::pair<upccoll_dtype_t, upccoll_dtype_t>>& movement_types() {
  static const std::vector<std::pair<upccoll_dtype_t, upccoll_dtype_t>> v = {
      {UPC_BYTE, UPC_BYTE},       {UPC_INT, UPC_INT},           {UPC_DOUBLE, UPC_DOUBLE},
      {UPC_LONGDOUBLE, UPC_LONGDOUBLE}, {UPC_DBLCPLX, UPC_DBLCPLX}, {UPC_DOUBLE_INT, UPC_DOUBLE_INT},
      {UPC_INT, UPC_BYTE},        {UPC_DOUBLE, UPC_2INT},       {UPC_LONGDOUBLE, UPC_DBLCPLX},
      {UPC_SHORT_INT, UPC_UINT}};
  return v;
}

// (dt, op) of the reductions: every type, every op at least once, the user ops.
inline const std::vector<std::pair<upccoll_dtype_t, upccoll_op_t>>& reduction_types() {
  static const std::vector<std::pair<upccoll_dtype_t, upccoll_op_t>> v = {
      {UPC_INT, UPC_ADD},           {UPC_DOUBLE, UPC_ADD},          {UPC_LONGDOUBLE, UPC_ADD},
      {UPC_DBLCPLX, UPC_MULT},      {UPC_DOUBLE_INT, UPC_MINLOC},   {UPC_BYTE, UPC_XOR},
      {UPC_2INT, op_affine},        {UPC_DBLCPLX, op_matrix},       {UPC_DOUBLE, op_dsum},
      {UPC_CHAR, UPC_ADD},          {UPC_UCHAR, UPC_MAX},           {UPC_SHORT, UPC_MULT},
      {UPC_USHORT, UPC_MULT},       {UPC_UINT, UPC_AND},            {UPC_LONG, UPC_MIN},
      {UPC_ULONG, UPC_OR},          {UPC_LONGLONG, UPC_LOGAND},     {UPC_ULONGLONG, UPC_MULT},
      {UPC_FLOAT, UPC_ADD},         {UPC_DOUBLE, UPC_MULT},         {UPC_LONGDOUBLE, UPC_MAX},
      {UPC_FLOAT, UPC_LOGOR},       {UPC_CPLX, UPC_ADD},            {UPC_LONGDBLCPLX, UPC_ADD},
      {UPC_FLOAT_INT, UPC_MAXLOC},  {UPC_LONG_INT, UPC_MINLOC},     {UPC_2INT, UPC_MAXLOC},
      {UPC_SHORT_INT, UPC_MINLOC},  {UPC_LONG_DOUBLE_INT, UPC_MAXLOC}, {UPC_SHORT, UPC_LOGOR},
      {UPC_UINT, UPC_LOGXOR},       {UPC_DOUBLE, UPC_LOGXOR}};
  return v;
}

inline std::uint32_t seed_of(std::uint64_t salt, std::uint64_t i) { return static_cast<std::uint32_t>(h3(salt, i, 0xC011) | 1); }

// Keeps `keep` of `all`, chosen by the salt (always the first).
inline std::vector<ucase> sample(const std::vector<ucase>& all, std::size_t keep, std::uint64_t salt) {
  if (all.size() <= keep) return all;
  std::vector<std::size_t> idx(all.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  for (std::size_t i = idx.size() - 1; i > 1; --i) std::swap(idx[i], idx[1 + h3(salt, i, 5) % i]);
  idx.resize(keep);
  std::sort(idx.begin(), idx.end());
  std::vector<ucase> out;
  for (std::size_t i : idx) out.push_back(all[i]);
  return out;
}

// The cases of one collective for one (algorithm, backend, THREADS) run: every
// count × every type (pair) of the collective, with the sync flags, the
// completion, the team, the root, garbage arguments, a late thread and (a third
// of the cases) UPCCOLL_IN_PLACE cycling through their values. quick keeps `quick_keep` of them, and one of the
// biggest count at THREADS <= 8.
inline std::vector<ucase> matrix(collective k, int T, level lv, std::uint64_t salt, std::size_t quick_keep = 16) {
  std::vector<ucase> all, big;
  const std::vector<upccoll_flag_t>& flags = sync_flag_values();
  const std::size_t ntypes = k == collective::barrier ? 1 : M::is_reduction(k) ? reduction_types().size() : movement_types().size();
  // data movement is cheap: each (count, type) three times, with other flags,
  // completions, teams and roots
  const int reps = M::is_reduction(k) || k == collective::barrier ? 1 : 3;
  std::size_t i = 0;
  for (int rep = 0; rep < reps; ++rep)
  for (std::size_t cb : count_bytes)
    for (std::size_t ty = 0; ty < ntypes; ++ty, ++i) {
      if (k == collective::barrier) continue;
      ucase c;
      c.kind = k;
      if (M::is_reduction(k)) {
        c.sendtype = c.recvtype = reduction_types()[ty].first;
        c.op = reduction_types()[ty].second;
      } else if (k != collective::barrier) {
        c.sendtype = movement_types()[ty].first;
        c.recvtype = movement_types()[ty].second;
      }
      const std::size_t E = M::size_of(c.sendtype);
      c.count = cb == 0 ? 0 : std::max<std::size_t>(1, cb / E);
      c.seed = seed_of(salt, i);
      const std::uint64_t h = h3(salt, i, 0xF1A9);
      c.flags = flags[(i * 7 + h % 3) % flags.size()];
      c.how = static_cast<completion>((i + h / 3) % 4);
      c.team_levels = static_cast<int>((i / 2 + h / 11) % 3);
      if (T == 1) c.team_levels = std::min(c.team_levels, 1);
      c.root_pick = static_cast<int>((i + h / 5) % 4);
      c.garbage = ((h >> 20) & 1) != 0;
      c.late = (h >> 24) % 5 == 0 ? static_cast<int>((h >> 28) % static_cast<std::uint64_t>(T)) : -1;
      c.in_place = has_in_place(k) && (h >> 40) % 3 == 0;
      (cb > 4096 ? big : all).push_back(c);
    }
  if (k == collective::barrier) {  // barriers: every flag × completion × team level
    all.clear();
    for (std::size_t f = 0; f < flags.size(); ++f)
      for (int how = 0; how < 4; ++how) {
        ucase c;
        c.kind = k;
        c.flags = flags[f];
        c.how = static_cast<completion>(how);
        c.team_levels = static_cast<int>((f + how) % 3);
        c.seed = seed_of(salt, 1000 + f * 4 + how);
        c.late = (f + how) % 3 == 0 ? static_cast<int>(c.seed % static_cast<std::uint32_t>(T)) : -1;
        all.push_back(c);
      }
  }
  if (lv == level::full) {
    all.insert(all.end(), big.begin(), big.end());
    return all;
  }
  std::vector<ucase> v = sample(all, quick_keep, salt);
  if (!big.empty() && T <= 8) {
    const std::vector<ucase> b = sample(big, 1, salt + 1);
    v.insert(v.end(), b.begin(), b.end());
  }
  return v;
}

// ---------------------------------------------------------------------------
// Running the matrix

inline upc::launch_options run_options(int threads, upc::backend_kind b) {
  upc::launch_options o = spmd::options(threads, b);
  o.heap_per_thread = 16u << 20;
  o.timeout_seconds = 120;
  return o;
}

// One run of `body` with `algorithm` forced for `collective` (outside the run).
inline void run_forced(const std::string& collective_name, const std::string& algorithm, upc::backend_kind b,
                       int threads, const std::function<void()>& body) {
  if (spmd::skip_run(threads, b)) return;
  upc::coll::force_algorithm(collective_name, algorithm);
  const upc::run_result r = upc::run(run_options(threads, b), body);
  upc::coll::reset_algorithms();
  INFO("collective ", collective_name, ", algorithm ", algorithm, ", backend ", spmd::name(b), ", THREADS ", threads);
  CHECK_MESSAGE(r.ok(), r.error);
}

// The algorithms to test: every registered one, then "auto".
inline std::vector<std::string> algorithms_of(collective k) {
  std::vector<std::string> v = upc::coll::algorithms(M::registry_name(k));
  v.push_back("auto");
  return v;
}

inline std::uint64_t salt_of(collective k, const std::string& algo, upc::backend_kind b, int T) {
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : std::string(M::name(k)) + "/" + algo) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return h3(h, static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(T));
}

inline void run_matrix(collective k, level lv, std::initializer_list<int> counts, std::size_t quick_keep = 16) {
  const std::vector<std::string> algos = algorithms_of(k);
  REQUIRE(algos.size() >= 2);  // at least one registered algorithm
  for (const std::string& algo : algos)
    for (upc::backend_kind b : spmd::backends)
      for (int T : counts) {
        const std::vector<ucase> cases = matrix(k, T, lv, salt_of(k, algo, b, T), quick_keep);
        run_forced(M::registry_name(k), algo, b, T, [&] { run_cases(cases, algo); });
      }
}

// Sets an environment variable for a scope (restoring the old value after).
class env_guard {
 public:
  env_guard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~env_guard() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  env_guard(const env_guard&) = delete;
  env_guard& operator=(const env_guard&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace uconf
