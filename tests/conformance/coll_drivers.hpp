// The drivers of the conformance harness of the standard collectives
// (coll_harness.hpp): each thread sets up its data (coll_inputs.hpp), calls the
// collective as the case's sync flags say, and checks its areas against the
// model (coll_checks.hpp); then the matrix (coll_cases.hpp) runs for every
// algorithm, backend, THREADS count and virtual topology.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <source_location>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "../support/coll_model.hpp"
#include "../support/spmd.hpp"
#include "coll_cases.hpp"
#include "coll_checks.hpp"
#include "coll_inputs.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upc_collective.h"
#include "xupc_collective.h"

namespace conf {

using coll_model::movement;
using upc::shared_address;

// How late a late thread enters: long enough for everyone else to be inside.
constexpr int late_ms = 10;
inline void sleep_ms(int ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// ---------------------------------------------------------------------------
// Data movement

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
// sort

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
