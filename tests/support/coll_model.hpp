// A sequential reference model of the UPC standard collectives (UPC 1.3 required
// library §7.4, plus upc_all_sort from Collectives spec v1.0), written from the
// specification text and not from the engine.
//
// The model sees shared memory as a function from (thread, byte offset in that
// thread's partition) to a byte: `memory` below, the state before the call. From
// it and the call's arguments it computes the `effect` of the call: which bytes of
// which partitions change, and to what. `expected_bytes` then gives the bytes of
// any window of any partition after the call, so a test can compare a partition
// (or just a destination) with what the specification says, byte by byte.
//
// Data movement (the spec's "treated as if" types, in bytes). Blocks of the
// blocked areas are named, as in the spec, by the thread they have affinity to:
//   broadcast   src: shared [] char[n] (any thread, any offset)
//               dst: shared [n] char[n*THREADS], phase taken as 0;
//               src -> the block of dst with affinity to each thread
//   scatter     src: shared [] char[n*THREADS]; dst as for broadcast;
//               bytes [i*n, (i+1)*n) of src -> the dst block with affinity to thread i
//   gather      src: shared [n] char[n*THREADS], phase taken as 0;
//               dst: shared [] char[n*THREADS]; src block of thread i -> bytes [i*n, (i+1)*n) of dst
//   gather_all  src as for gather; dst: shared [n*THREADS] char[n*THREADS*THREADS];
//               src block of thread i -> block i of every thread's dst row
//   exchange    src, dst: shared [n*THREADS] char[n*THREADS*THREADS];
//               block j of thread i's src row -> block i of thread j's dst row
//   permute     src, dst: shared [n] char[n*THREADS]; the src block of thread i ->
//               the dst block of thread perm[i]
// The spec has the blocked pointers on thread 0, where "block i" and "the block
// of thread i" coincide. The model (like the engine) also takes a blocked pointer
// on thread r: the area then starts there, and the blocks of threads 0..r-1 are
// one row further on (addrfield + block bytes), as UPC pointer arithmetic with
// that block size gives (upc/layout.hpp).
//
// Reductions: element k of src is src + k in the arithmetic of shared [blk_size]
// TYPE (blk_size 0: indefinite, everything on src's thread), starting from src's
// own phase and affinity. The grouping is the engine's determinism contract
// (docs/collectives.md), reproduced exactly so that floating-point results can be
// compared bit for bit:
//   reduce, commutative op (all but UPC_NONCOMM_FUNC):
//       p_t = left fold, in increasing index, of the elements with affinity to t;
//       result = p_0 op p_1 op ... op p_{THREADS-1} (left fold; threads owning no
//       element are skipped)
//   reduce, UPC_NONCOMM_FUNC:
//       left fold, in index order, of the block partials; a block partial is the
//       left fold of one block (the elements between two phase-0 positions; the
//       first block is short when src has a non-zero phase; one block when
//       blk_size is 0)
//   prefix_reduce, any op: dst[k] = F op q, where q is the left fold of k's block
//       from its start up to k, and F the left fold of the totals of the blocks
//       before k's block (F omitted for the first block). dst[k] is dst + k in the
//       same arithmetic.
// sort: the nelems elements (elem_size bytes each, element k at A + k with block
// size blk_size) end up in ascending order of the comparison.
#pragma once
#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "upc/layout.hpp"
#include "upc_types.h"
#include "../../lib/coll/kinds.hpp"         // the one table of collective kinds
#include "../../lib/runtime/op_names.hpp"  // the one table of op names

namespace coll_model {

using upc::shared_address;

// The shared memory before the call: the byte at (thread, offset). A test may
// add `read`, which gives n consecutive bytes at once (it must agree with the
// per-byte function; it only makes megabyte-sized checks cheaper).
struct memory {
  std::function<std::uint8_t(int thread, std::uint64_t offset)> byte;
  std::function<void(int thread, std::uint64_t offset, std::size_t n, std::uint8_t* out)> read;

  template <class F, class = std::enable_if_t<std::is_invocable_r_v<std::uint8_t, F&, int, std::uint64_t>>>
  memory(F f) : byte(std::move(f)) {}  // NOLINT: a lambda is a memory
  std::uint8_t operator()(int thread, std::uint64_t offset) const { return byte(thread, offset); }
  void get(int thread, std::uint64_t offset, std::size_t n, std::uint8_t* out) const {
    if (read) {
      read(thread, offset, n, out);
    } else {
      for (std::size_t i = 0; i < n; ++i) out[i] = byte(thread, offset + i);
    }
  }
};

// One contiguous copy implied by the semantics: `bytes` bytes from src to dst,
// each side within one partition.
struct block_copy {
  shared_address dst, src;
  std::size_t bytes;
};

// Bytes the call writes that do not come from shared memory (reduction results).
// `care[i]` false: byte i may hold anything afterwards (padding of long double).
struct write {
  shared_address at;
  std::vector<std::uint8_t> bytes;
  std::vector<bool> care;
};

// What a call does to shared memory. Destinations never overlap one another
// (the spec forbids overlapping arguments), so the order does not matter.
struct effect {
  std::vector<block_copy> copies;
  std::vector<write> writes;
};

// ---------------------------------------------------------------------------
// Addresses

// Byte i of a shared [block] char array whose byte 0 is at `base`, with base's
// phase taken as 0 (the relocalization collectives ignore the phase).
inline shared_address byte_at(shared_address base, std::size_t i, std::size_t block, int threads) {
  base.phase = 0;
  return upc::layout::advance(base, static_cast<std::ptrdiff_t>(i), 1, block, threads);
}

// Element k of a shared [blk_size] T array that starts at `base`, keeping base's
// phase (reductions respect it). blk_size 0: indefinite.
inline shared_address element_at(shared_address base, std::size_t k, std::size_t elem_size, std::size_t blk_size,
                                 int threads) {
  if (blk_size == 0) base.phase = 0;
  return upc::layout::advance(base, static_cast<std::ptrdiff_t>(k), elem_size, blk_size, threads);
}

// ---------------------------------------------------------------------------
// Data movement

enum class movement { broadcast, scatter, gather, gather_all, exchange, permute };

// The engine's kind of each (its name is what the registry and UPCEMU_COLL use).
inline upc::coll::collective engine_kind(movement m) {
  using C = upc::coll::collective;
  switch (m) {
    case movement::broadcast: return C::broadcast;
    case movement::scatter: return C::scatter;
    case movement::gather: return C::gather;
    case movement::gather_all: return C::gather_all;
    case movement::exchange: return C::exchange;
    case movement::permute: return C::permute;
  }
  return C::broadcast;
}
inline const char* name(movement m) { return upc::coll::name_of(engine_kind(m)); }

struct movement_call {
  movement kind = movement::broadcast;
  shared_address dst, src;
  std::size_t nbytes = 0;
  std::vector<int> perm;  // permute: the block of thread i goes to thread perm[i]
  int threads = 1;
};

// The block of `block` bytes with affinity to thread t in a shared [block] char
// area that starts at `base` (phase taken as 0): the area has one block on each
// thread, (t - threadof(base)) mod THREADS blocks after the first.
inline shared_address block_on(shared_address base, std::size_t block, int t, int threads) {
  const int k = ((t - static_cast<int>(base.thread)) % threads + threads) % threads;
  shared_address a = byte_at(base, static_cast<std::size_t>(k) * block, block, threads);
  a.phase = 0;
  return a;
}

inline effect relocalize(const movement_call& c) {
  const std::size_t n = c.nbytes;
  const int T = c.threads;
  const std::size_t row = n * static_cast<std::size_t>(T);  // bytes per thread of the 2-D layouts
  effect e;
  auto add = [&](shared_address d, shared_address s) {  // byte locations: the phase means nothing here
    d.phase = s.phase = 0;
    e.copies.push_back({d, s, n});
  };
  shared_address src = c.src, dst = c.dst;
  src.phase = dst.phase = 0;
  auto bytes_on = [](shared_address a, std::size_t i) {  // byte i of a shared [] area
    a.offset += i;
    return a;
  };
  switch (c.kind) {
    case movement::broadcast:  // src -> the block of every thread
      for (int i = 0; i < T; ++i) add(block_on(dst, n, i, T), src);
      break;
    case movement::scatter:  // block i of src -> the block with affinity to thread i
      for (int i = 0; i < T; ++i) add(block_on(dst, n, i, T), bytes_on(src, i * n));
      break;
    case movement::gather:  // the block with affinity to thread i -> block i of dst
      for (int i = 0; i < T; ++i) add(bytes_on(dst, i * n), block_on(src, n, i, T));
      break;
    case movement::gather_all:  // thread i's block -> block i of every thread's row
      for (int j = 0; j < T; ++j)
        for (int i = 0; i < T; ++i) add(bytes_on(block_on(dst, row, j, T), i * n), block_on(src, n, i, T));
      break;
    case movement::exchange:  // block j of thread i's row -> block i of thread j's row
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j)
          add(bytes_on(block_on(dst, row, j, T), i * n), bytes_on(block_on(src, row, i, T), j * n));
      break;
    case movement::permute:  // thread i's block -> thread perm[i]'s block
      if (static_cast<int>(c.perm.size()) != T) throw std::invalid_argument("coll_model: perm needs THREADS entries");
      for (int i = 0; i < T; ++i) add(block_on(dst, n, c.perm[i], T), block_on(src, n, i, T));
      break;
  }
  return e;
}

// ---------------------------------------------------------------------------
// Bytes after the call

// The `len` bytes at [lo, lo+len) of `thread`'s partition after the call, and
// which of them must match (care[i] 0: anything goes; all_care: none of those).
struct window {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint8_t> care;
  bool all_care = true;
};

inline window expected_bytes(const effect& e, const memory& before, int thread, std::uint64_t lo, std::size_t len) {
  window w;
  w.bytes.resize(len);
  w.care.assign(len, 1);
  std::vector<std::uint8_t> written(len, 0);
  const std::uint64_t hi = lo + len;
  for (const block_copy& c : e.copies) {
    if (static_cast<int>(c.dst.thread) != thread) continue;
    const std::uint64_t a = std::max<std::uint64_t>(lo, c.dst.offset);
    const std::uint64_t b = std::min<std::uint64_t>(hi, c.dst.offset + c.bytes);
    if (a >= b) continue;
    before.get(static_cast<int>(c.src.thread), c.src.offset + (a - c.dst.offset), b - a, &w.bytes[a - lo]);
    std::fill(written.begin() + static_cast<std::ptrdiff_t>(a - lo), written.begin() + static_cast<std::ptrdiff_t>(b - lo), 1);
  }
  for (const write& wr : e.writes) {
    if (static_cast<int>(wr.at.thread) != thread) continue;
    for (std::size_t i = 0; i < wr.bytes.size(); ++i) {
      const std::uint64_t x = wr.at.offset + i;
      if (x < lo || x >= hi) continue;
      w.bytes[x - lo] = wr.bytes[i];
      written[x - lo] = 1;
      if (!wr.care.empty() && !wr.care[i]) {
        w.care[x - lo] = 0;
        w.all_care = false;
      }
    }
  }
  for (std::size_t i = 0; i < len;) {  // everything else keeps its bytes
    if (written[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < len && !written[j]) ++j;
    before.get(thread, lo + i, j - i, &w.bytes[i]);
    i = j;
  }
  return w;
}

// ---------------------------------------------------------------------------
// Reductions

template <class T>
constexpr bool is_floating = std::is_floating_point_v<T>;

// Which ops the spec defines for T: the bitwise ones only on integer types.
inline bool op_valid_for(upc_op_t op, bool floating) {
  if (floating && (op == UPC_AND || op == UPC_OR || op == UPC_XOR)) return false;
  return true;
}

inline const char* op_name(upc_op_t op) {
  const char* name = upc::detail::op_name(op);
  return name ? name : "?";
}

// a op b, as C computes it for TYPE (the result converted back to TYPE).
template <class T>
T combine(upc_op_t op, T (*func)(T, T), T a, T b) {
  switch (op) {
    case UPC_ADD: return static_cast<T>(a + b);
    case UPC_MULT: return static_cast<T>(a * b);
    case UPC_LOGAND: return static_cast<T>(a && b);
    case UPC_LOGOR: return static_cast<T>(a || b);
    case UPC_MIN: return a < b ? a : b;
    case UPC_MAX: return a > b ? a : b;
    case UPC_FUNC:
    case UPC_NONCOMM_FUNC: return func(a, b);
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case UPC_AND: return static_cast<T>(a & b);
      case UPC_OR: return static_cast<T>(a | b);
      case UPC_XOR: return static_cast<T>(a ^ b);
      default: break;
    }
  }
  throw std::invalid_argument(std::string("coll_model: op ") + op_name(op) + " is not defined for this type");
}

template <class T>
T read_value(const memory& m, shared_address a) {
  std::uint8_t b[sizeof(T)];
  for (std::size_t i = 0; i < sizeof(T); ++i) b[i] = m(static_cast<int>(a.thread), a.offset + i);
  T v;
  std::memcpy(static_cast<void*>(&v), b, sizeof(T));
  return v;
}

// Bytes of T that carry its value (long double on x86 has 6 bytes of padding).
template <class T>
constexpr std::size_t value_bytes() {
  if constexpr (std::is_same_v<T, long double> && LDBL_MANT_DIG == 64) return 10;
  return sizeof(T);
}

template <class T>
write value_write(shared_address at, T v) {
  write w;
  w.at = at;
  w.bytes.resize(sizeof(T));
  std::memcpy(w.bytes.data(), static_cast<const void*>(&v), sizeof(T));
  w.care.assign(sizeof(T), false);
  for (std::size_t i = 0; i < value_bytes<T>(); ++i) w.care[i] = true;
  return w;
}

// Two values of T with the same bits (padding ignored).
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(static_cast<const void*>(&a), static_cast<const void*>(&b), value_bytes<T>()) == 0;
}

template <class T>
struct reduce_call {
  shared_address dst, src;
  upc_op_t op = UPC_ADD;
  std::size_t nelems = 0, blk_size = 0;
  T (*func)(T, T) = nullptr;
  int threads = 1;
};

// True when element k starts a new block (k > 0, definite block size, phase 0).
inline bool starts_block(const shared_address& a, std::size_t k, std::size_t blk_size) {
  return k > 0 && blk_size > 0 && a.phase == 0;
}

template <class T>
T reduce_value(const reduce_call<T>& c, const memory& before) {
  if (c.nelems == 0) throw std::invalid_argument("coll_model: reduce of no elements");
  if (c.op != UPC_NONCOMM_FUNC) {
    std::vector<T> partial(c.threads);
    std::vector<bool> has(c.threads, false);
    for (std::size_t k = 0; k < c.nelems; ++k) {
      const shared_address a = element_at(c.src, k, sizeof(T), c.blk_size, c.threads);
      const T v = read_value<T>(before, a);
      partial[a.thread] = has[a.thread] ? combine(c.op, c.func, partial[a.thread], v) : v;
      has[a.thread] = true;
    }
    T r{};
    bool any = false;
    for (int t = 0; t < c.threads; ++t) {
      if (!has[t]) continue;
      r = any ? combine(c.op, c.func, r, partial[t]) : partial[t];
      any = true;
    }
    return r;
  }
  T total{}, block{};
  bool any_block = false;
  for (std::size_t k = 0; k < c.nelems; ++k) {
    const shared_address a = element_at(c.src, k, sizeof(T), c.blk_size, c.threads);
    const T v = read_value<T>(before, a);
    if (k == 0) {
      block = v;
    } else if (starts_block(a, k, c.blk_size)) {
      total = any_block ? combine(c.op, c.func, total, block) : block;
      any_block = true;
      block = v;
    } else {
      block = combine(c.op, c.func, block, v);
    }
  }
  return any_block ? combine(c.op, c.func, total, block) : block;
}

template <class T>
effect reduce(const reduce_call<T>& c, const memory& before) {
  effect e;
  shared_address d = c.dst;
  d.phase = 0;
  e.writes.push_back(value_write<T>(d, reduce_value(c, before)));
  return e;
}

// prefix_reduce: dst and src are both shared [blk_size] TYPE[nelems].
template <class T>
std::vector<T> prefix_values(const reduce_call<T>& c, const memory& before) {
  std::vector<T> out(c.nelems);
  T done{}, block{};  // fold of the totals of earlier blocks; fold of this block so far
  bool any_done = false;
  for (std::size_t k = 0; k < c.nelems; ++k) {
    const shared_address a = element_at(c.src, k, sizeof(T), c.blk_size, c.threads);
    const T v = read_value<T>(before, a);
    if (k == 0) {
      block = v;
    } else if (starts_block(a, k, c.blk_size)) {
      done = any_done ? combine(c.op, c.func, done, block) : block;
      any_done = true;
      block = v;
    } else {
      block = combine(c.op, c.func, block, v);
    }
    out[k] = any_done ? combine(c.op, c.func, done, block) : block;
  }
  return out;
}

template <class T>
effect prefix_reduce(const reduce_call<T>& c, const memory& before) {
  effect e;
  const std::vector<T> v = prefix_values(c, before);
  for (std::size_t k = 0; k < c.nelems; ++k)
    e.writes.push_back(value_write<T>(element_at(c.dst, k, sizeof(T), c.blk_size, c.threads), v[k]));
  return e;
}

// ---------------------------------------------------------------------------
// sort (Collectives spec v1.0)

struct sort_call {
  shared_address a;
  std::size_t elem_size = 1, nelems = 0, blk_size = 0;
  // < 0: x before y; > 0: x after y (the user function's answer for the two elements).
  std::function<int(const std::uint8_t* x, const std::uint8_t* y)> compare;
  int threads = 1;
};

inline effect sort(const sort_call& c, const memory& before) {
  std::vector<std::vector<std::uint8_t>> elems(c.nelems, std::vector<std::uint8_t>(c.elem_size));
  std::vector<shared_address> where(c.nelems);
  for (std::size_t k = 0; k < c.nelems; ++k) {
    where[k] = element_at(c.a, k, c.elem_size, c.blk_size, c.threads);
    for (std::size_t b = 0; b < c.elem_size; ++b) elems[k][b] = before(static_cast<int>(where[k].thread), where[k].offset + b);
  }
  std::stable_sort(elems.begin(), elems.end(),
                   [&](const std::vector<std::uint8_t>& x, const std::vector<std::uint8_t>& y) {
                     return c.compare(x.data(), y.data()) < 0;
                   });
  effect e;
  for (std::size_t k = 0; k < c.nelems; ++k) e.writes.push_back({where[k], elems[k], {}});
  return e;
}

}  // namespace coll_model
