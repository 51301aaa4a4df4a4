// The cases of the conformance harness of the standard collectives
// (coll_harness.hpp): what one call is (collective, sizes, sync flags, where the
// pointers start, seed), how it reads as text, which bytes of each thread's
// areas it touches, and the matrix of cases each run gets (every case, or a
// sample of them chosen by a salt).
#pragma once
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "../support/coll_model.hpp"
#include "coll_inputs.hpp"
#include "conformance_hashing.hpp"
#include "upc/layout.hpp"
#include "upc_collective.h"

namespace conf {

using coll_model::movement;

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

// ---------------------------------------------------------------------------
// Reductions

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

inline std::size_t sort_window(const sort_case& c, int T) {
  const std::size_t count = c.nelems + 2;  // two elements beyond the array must stay put
  if (c.blk_size == 0) return count * c.elem_size;
  return upc::layout::local_bytes(count, c.elem_size, c.blk_size, T);
}

// ---------------------------------------------------------------------------
// The matrix

// quick: the default suite (every case at THREADS <= 4, a sample above);
// full: every case everywhere (the opt-in suite).
enum class level { quick, full };

constexpr movement movements[] = {movement::broadcast, movement::scatter,  movement::gather,
                                  movement::gather_all, movement::exchange, movement::permute};
constexpr std::size_t movement_sizes[] = {1, 13, 1021, 65536 + 3};

using conformance::sample;
using conformance::seed_of;

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

}  // namespace conf
