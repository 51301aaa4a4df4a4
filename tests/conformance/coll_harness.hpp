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
#include <cstdint>
#include <cstring>
#include <functional>
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

namespace conf {

using coll_model::movement;
using upc::shared_address;

// ---------------------------------------------------------------------------
// Sync flags

// The nine IN × OUT combinations, then 0 (a missing part means ALLSYNC).
inline const std::vector<upc_flag_t>& sync_flag_values() {
  static const std::vector<upc_flag_t> v = {
      UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC, UPC_IN_ALLSYNC | UPC_OUT_NOSYNC,
      UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,  UPC_IN_MYSYNC | UPC_OUT_MYSYNC,  UPC_IN_MYSYNC | UPC_OUT_NOSYNC,
      UPC_IN_NOSYNC | UPC_OUT_ALLSYNC,  UPC_IN_NOSYNC | UPC_OUT_MYSYNC,  UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
      0};
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
// Source bytes and destination poison: different functions of (thread, byte, seed).
inline std::uint8_t src_byte(int t, std::uint64_t i, std::uint32_t seed) {
  return static_cast<std::uint8_t>(hash3(seed, static_cast<std::uint64_t>(t), i) >> 24);
}
inline std::uint8_t dst_byte(int t, std::uint64_t i, std::uint32_t seed) {
  return static_cast<std::uint8_t>(hash3(seed ^ 0x5bd1e995u, static_cast<std::uint64_t>(t) + 977, i) >> 32);
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
  std::ostringstream s;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.len; ++i) {
    if (!w.care[i] || w.bytes[i] == got[i]) continue;
    if (bad < 6) {
      s << (bad ? "; " : "") << a.name << " on thread " << p << " byte " << i << " (index "
        << static_cast<long long>(i) - static_cast<long long>(a.skew) << " from the pointer): expected "
        << hex(w.bytes[i]) << ", got " << hex(got[i]);
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

// Sleep in a late-entering thread.
inline void sleep_ms(int ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// ---------------------------------------------------------------------------
// Data movement

struct movement_case {
  movement kind = movement::broadcast;
  std::size_t nbytes = 1;
  upc_flag_t flags = 0;
  int root = 0;           // broadcast/scatter: src's thread; gather: dst's thread
  std::size_t skew = 0;   // both pointers start this many bytes into their areas
  bool phased = false;    // the blocked-side pointers carry a non-zero phase (ignored by the spec)
  int late = -1;          // this thread enters 25 ms late (-1: nobody)
  std::uint32_t seed = 1;
};

inline std::string describe(const movement_case& c) {
  std::ostringstream s;
  s << "upc_all_" << coll_model::name(c.kind) << " nbytes=" << c.nbytes << " flags=" << flags_name(c.flags)
    << " root=" << c.root << " skew=" << c.skew << (c.phased ? " phased" : "")
    << (c.late >= 0 ? " late thread " + std::to_string(c.late) : std::string()) << " seed=" << c.seed;
  return s.str();
}

// How many nbytes-blocks each side of a collective spans in one partition.
inline std::size_t src_blocks(movement k, int T) {
  return (k == movement::scatter || k == movement::exchange) ? static_cast<std::size_t>(T) : 1;
}
inline std::size_t dst_blocks(movement k, int T) {
  return (k == movement::gather || k == movement::gather_all || k == movement::exchange) ? static_cast<std::size_t>(T)
                                                                                          : 1;
}
constexpr std::size_t guard = 24;  // bytes checked after the last byte a call may write
inline std::size_t src_window(const movement_case& c, int T) { return c.skew + c.nbytes * src_blocks(c.kind, T) + guard; }
inline std::size_t dst_window(const movement_case& c, int T) { return c.skew + c.nbytes * dst_blocks(c.kind, T) + guard; }

// A permutation of 0..T-1 chosen by the seed (the same on every thread).
inline std::vector<int> make_perm(std::uint32_t seed, int T) {
  std::vector<int> p(T);
  for (int i = 0; i < T; ++i) p[i] = i;
  for (int i = T - 1; i > 0; --i) std::swap(p[i], p[hash3(seed, 77, i) % (i + 1)]);
  return p;
}

inline void call_movement(movement k, upc::sptr<void> dst, upc::sptr<const void> src, upc::sptr<const int> perm,
                          std::size_t n, upc_flag_t f) {
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
    src_cap = std::max(src_cap, src_window(c, T));
    dst_cap = std::max(dst_cap, dst_window(c, T));
  }
  const upc::sptr<void> src_area = upc_all_alloc(T, src_cap), dst_area = upc_all_alloc(T, dst_cap);
  const upc::sptr<void> perm_area = upc_all_alloc(T, sizeof(int));  // shared int[THREADS]
  const std::uint64_t src_base = src_area.address().offset, dst_base = dst_area.address().offset;
  std::uint8_t* my_src = local_bytes(src_base);
  std::uint8_t* my_dst = local_bytes(dst_base);

  for (const movement_case& c : cases) {
    const std::size_t sw = src_window(c, T), dw = dst_window(c, T), n = c.nbytes;
    const std::string what = describe(c);
    const std::vector<int> perm = make_perm(c.seed, T);

    // The pointers. Single-thread sides (shared [] char) sit on the root; blocked
    // sides start on thread 0, with a phase the collective must ignore if phased.
    const bool src_single = c.kind == movement::broadcast || c.kind == movement::scatter;
    const bool dst_single = c.kind == movement::gather;
    const std::uint32_t phase = (c.phased && n > 1) ? 1 : 0;
    const shared_address src_at = src_single ? address(c.root, src_base + c.skew) : address(0, src_base + c.skew, phase);
    const shared_address dst_at = dst_single ? address(c.root, dst_base + c.skew) : address(0, dst_base + c.skew, phase);

    if (c.late == me) sleep_ms(25);
    for (std::size_t i = 0; i < sw; ++i) my_src[i] = src_byte(me, i, c.seed);
    for (std::size_t i = 0; i < dw; ++i) my_dst[i] = dst_byte(me, i, c.seed);
    if (c.kind == movement::permute) {
      shared_address pa = perm_area.address();
      pa.thread = static_cast<std::uint32_t>(me);  // perm[MYTHREAD] has affinity to this thread
      *upc::sptr<int, upc::indefinite>(pa).local() = perm[me];
    }
    if (in_nosync(c.flags)) upc_barrier;

    call_movement(c.kind, upc::sptr<void>(dst_at), upc::sptr<const void>(src_at), upc::sptr<const int>(perm_area.address()),
                  n, c.flags);
    check_algorithm(what, algo);

    coll_model::movement_call call;
    call.kind = c.kind;
    call.dst = dst_at;
    call.src = src_at;
    call.nbytes = n;
    call.perm = perm;
    call.threads = T;
    const coll_model::effect e = coll_model::relocalize(call);
    const coll_model::memory before = [&](int t, std::uint64_t off) -> std::uint8_t {
      if (off >= src_base && off < src_base + sw) return src_byte(t, off - src_base, c.seed);
      if (off >= dst_base && off < dst_base + dw) return dst_byte(t, off - dst_base, c.seed);
      return 0xA5;  // outside the windows: the model never reads there
    };
    const area src_a{"src area", src_base, sw, c.skew}, dst_a{"dst area", dst_base, dw, c.skew};

    if (out_nosync(c.flags)) upc_barrier;
    std::string report = check_area(e, before, me, dst_a);
    if (report.empty()) report = check_area(e, before, me, src_a);
    if (report.empty() && !out_nosync(c.flags) && !out_mysync(c.flags) && T > 1)
      report = check_area(e, before, (me + 1) % T, dst_a);
    if (!report.empty()) fail_case(what, algo, report);
    if (!out_nosync(c.flags))  // nobody may read this thread's source any more
      for (std::size_t i = 0; i < sw; ++i) my_src[i] = static_cast<std::uint8_t>(~src_byte(me, i, c.seed));
    upc_barrier;
  }
  upc_all_free(perm_area);
  upc_all_free(dst_area);
  upc_all_free(src_area);
}

}  // namespace conf
