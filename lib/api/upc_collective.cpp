// <upc_collective.h>: the UPC 1.3 standard collectives as a front-end of the
// engine. Each call checks its scalar arguments (clear errors naming the
// function, the argument and the thread), describes its endpoints in the
// standard layouts, and submits the request: the engine's one validator checks
// every area it touches (inside the heap, inside one object, no overlap), the
// single-valued checker compares the arguments under --check, and the engine
// reads permute's perm only after the IN synchronisation (lib/coll/submit.cpp).
// The 22 typed reductions are generated from one table.
#include "upc_collective.h"
#include "xupc_collective.h"

#include <string>
#include <vector>

#include "../coll/engine.hpp"
#include "collective_checks.hpp"
#include "standard_collectives.hpp"
#include "../runtime/collective_call.hpp"
#include "../runtime/control.hpp"
#include "../runtime/op_names.hpp"

namespace upc::coll {

using detail::fail;

namespace {

std::string number(std::size_t v) { return std::to_string(v); }

void check_flags(const char* fn, upc_flag_t flags) { check_sync_flags(fn, flags); }

void check_pointer(const char* fn, const char* arg, const shared_address& a) { check_shared_pointer(fn, arg, a); }

// nbytes, or nbytes × THREADS when one thread holds a row of blocks: at most
// one thread's whole shared heap (which also keeps every later sum in range).
void check_block_bytes(const char* fn, std::size_t nbytes, bool row) {
  if (nbytes == 0) fail(fn, "nbytes must be > 0");
  const std::uint64_t P = detail::g_partition_bytes;
  if (nbytes > P)
    fail(fn, "nbytes " + number(nbytes) + negative_hint(nbytes) + " is larger than a thread's whole shared heap (" + number(P) +
                 " bytes per thread)");
  if (row) {
    const std::uint64_t bytes = checked_product(fn, "nbytes x THREADS", nbytes, std::uint64_t(threads()));
    if (bytes > P)
      fail(fn, "nbytes x THREADS = " + number(bytes) + " bytes (nbytes " + number(nbytes) + ") is larger than a thread's whole "
                   "shared heap (" + number(P) + " bytes per thread), where one thread holds THREADS blocks");
  }
}

void check_array_extent(const char* fn, const char* blk_arg, std::size_t nelems, std::size_t blk_size, std::size_t elem) {
  check_reduction_extent(fn, nelems, blk_size, elem, blk_arg);
}
void check_phase(const char* fn, const char* arg, const shared_address& a, std::size_t blk_size) {
  check_reduction_phase(fn, arg, a, blk_size);
}

// The standard layouts of UPC 1.3 §7.4, in THREADS of the run.
endpoint single(sptr<const void> p) { return endpoint{p.address(), 0, threads(), false}; }
endpoint blocked(sptr<const void> p, std::size_t block) { return endpoint{p.address(), block, threads(), false}; }

request movement(collective kind, const char* fn, sptr<void> dst, sptr<const void> src, std::size_t nbytes, upc_flag_t flags,
                 bool row) {
  check_flags(fn, flags);
  check_pointer(fn, "dst", dst.address());
  check_pointer(fn, "src", src.address());
  check_block_bytes(fn, nbytes, row);
  request rq{};
  rq.kind = kind;
  rq.function = fn;
  rq.nbytes = nbytes;
  rq.flags = flags;
  return rq;
}

// permute's perm, read after the IN synchronisation (submit.hpp): every element
// a thread number, each thread once.
void read_perm(request& rq, const team&) {
  static thread_local std::vector<int> p;
  const int T = threads();
  p.assign(static_cast<std::size_t>(T), 0);
  std::vector<int> seen(static_cast<std::size_t>(T), -1);
  for (int i = 0; i < T; ++i) {
    const int v = *reinterpret_cast<const int*>(raw(layout::advance(rq.args_at, i, sizeof(int), 1, T)));
    if (v < 0 || v >= T)
      fail(rq.function, "perm is not a permutation of 0..THREADS-1: perm[" + std::to_string(i) + "] = " + std::to_string(v));
    if (seen[static_cast<std::size_t>(v)] >= 0)
      fail(rq.function, "perm is not a permutation of 0..THREADS-1: perm[" + std::to_string(i) + "] = " + std::to_string(v) +
                            " repeats perm[" + std::to_string(seen[static_cast<std::size_t>(v)]) + "]");
    seen[static_cast<std::size_t>(v)] = i;
    p[static_cast<std::size_t>(i)] = v;
  }
  rq.perm = p.data();
}

}  // namespace
}  // namespace upc::coll

using namespace upc;
using namespace upc::coll;

// The call's record (runtime/collective_call.hpp): compared with the other
// threads' in every run, wherever the call synchronises anyway.
#define UPCEMU_CALL(fn, ...) detail::collective_call call(fn, where, {__VA_ARGS__})

namespace {
// broadcast and scatter: from the root's src (the root is src's thread) onto
// dst's blocks, one block each (scatter's src is a row of THREADS blocks).
void from_root(collective kind, bool row, const char* fn, sptr<void> dst, sptr<const void> src, size_t nbytes,
               upc_flag_t flags, const std::source_location& where) {
  UPCEMU_CALL(fn, {"nbytes", nbytes}, {"root (the thread of src)", src.address().thread}, {"flags", std::uint64_t(flags)});
  request rq = movement(kind, fn, dst, src, nbytes, flags, row);
  rq.src = single(src);
  rq.dst = blocked(dst, nbytes);
  rq.root = static_cast<int>(src.address().thread);
  submit(rq);
}
}  // namespace

void upc::coll::standard::broadcast(const char* fn, sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags,
                                    const std::source_location& where) {
  from_root(collective::broadcast, false, fn, dst, src, nbytes, flags, where);
}

void upc::coll::standard::scatter(const char* fn, sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags,
                                  const std::source_location& where) {
  from_root(collective::scatter, true, fn, dst, src, nbytes, flags, where);
}

void upc::coll::standard::gather(const char* fn, sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags,
                                 const std::source_location& where) {
  UPCEMU_CALL(fn, {"nbytes", nbytes}, {"root (the thread of dst)", dst.address().thread}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::gather, fn, dst, src, nbytes, flags, true);
  rq.src = blocked(src, nbytes);
  rq.dst = single(dst);
  rq.root = static_cast<int>(dst.address().thread);
  submit(rq);
}

void upc::coll::standard::gather_all(const char* fn, sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags,
                                 const std::source_location& where) {
  UPCEMU_CALL(fn, {"nbytes", nbytes}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::gather_all, fn, dst, src, nbytes, flags, true);
  rq.src = blocked(src, nbytes);
  rq.dst = blocked(dst, nbytes * std::size_t(threads()));
  submit(rq);
}

void upc::coll::standard::exchange(const char* fn, sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags,
                                 const std::source_location& where) {
  UPCEMU_CALL(fn, {"nbytes", nbytes}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::exchange, fn, dst, src, nbytes, flags, true);
  rq.src = blocked(src, nbytes * std::size_t(threads()));
  rq.dst = blocked(dst, nbytes * std::size_t(threads()));
  submit(rq);
}

void upc::coll::standard::permute(const char* fn, sptr<void> dst, sptr<const void> src, sptr<const int> perm, size_t nbytes,
                                 upc_flag_t flags, const std::source_location& where) {
  UPCEMU_CALL(fn, {"nbytes", nbytes}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::permute, fn, dst, src, nbytes, flags, false);
  if (perm.is_null()) fail(rq.function, "perm is a null pointer-to-shared");
  check_pointer(rq.function, "perm", perm.address());
  rq.src = blocked(src, nbytes);
  rq.dst = blocked(dst, nbytes);
  // perm is shared int[THREADS], an input like src: the engine reads it only
  // after the IN synchronisation.
  rq.args_at = perm.address();
  rq.read_args = read_perm;
  submit(rq);
}


// The reference implementation's (and xupc's) one-time initialisation: nothing
// to set up, the topology the multicore algorithms need being known before the
// threads start (docs/xupc.md). C linkage: translated UPC calls it too.
extern "C" void upc_coll_init(void) {}

// The standard names; xupc's (<xupc_collective.h>) are the same calls under theirs.
UPCEMU_STANDARD_MOVEMENTS(upc_all_)
void upc_all_permute(sptr<void> dst, sptr<const void> src, sptr<const int> perm, size_t nbytes, upc_flag_t flags,
                     const std::source_location& where) {
  standard::permute("upc_all_permute", dst, src, perm, nbytes, flags, where);
}

// ---- reductions ---------------------------------------------------------------------

namespace {

// The request of a reduction over `src`, shared [blk_size] T with nelems elements.
template <class T>
request reduction_request(collective kind, const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op,
                          std::size_t nelems, std::size_t blk_size, T (*func)(T, T), upc_flag_t flags) {
  check_flags(fn, flags);
  check_pointer(fn, "dst", dst.address());
  check_pointer(fn, "src", src.address());
  check_reduction_op(fn, op, element_type_of<T>(), reinterpret_cast<const void*>(func));
  check_array_extent(fn, "blk_size", nelems, blk_size, sizeof(T));
  check_phase(fn, "src", src.address(), blk_size);
  request rq{};
  rq.kind = kind;
  rq.function = fn;
  rq.flags = flags;
  rq.in = blocked_array{src.address(), sizeof(T), blk_size, nelems, threads()};
  rq.red = bind(element_type_of<T>(), element_op_of(op), reinterpret_cast<const void*>(func), 0, op != UPC_NONCOMM_FUNC);
  rq.op_arg = op;
  rq.func = reinterpret_cast<const void*>(func);
  return rq;
}

template <class T>
void reduce(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems, std::size_t blk_size,
            T (*func)(T, T), upc_flag_t flags) {
  request rq = reduction_request<T>(collective::reduce, fn, dst, src, op, nelems, blk_size, func, flags);
  rq.result = dst.address();
  rq.root = static_cast<int>(dst.address().thread);
  submit(rq);
}

// dst + i (shared TYPE *, block size 1) for every thread i: THREADS elements,
// the reduction's result at dst's own and copied to the others.
template <class T>
void reduce_all(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems,
                std::size_t blk_size, T (*func)(T, T), upc_flag_t flags) {
  request rq = reduction_request<T>(collective::allreduce, fn, dst, src, op, nelems, blk_size, func, flags);
  shared_address d = dst.address();
  d.phase = 0;
  rq.dst = endpoint{d, sizeof(T), threads(), false};
  rq.result = dst.address();
  rq.root = static_cast<int>(dst.address().thread);
  rq.to_all = true;
  submit(rq);
}

template <class T>
void prefix_reduce(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems,
                   std::size_t blk_size, T (*func)(T, T), upc_flag_t flags) {
  request rq = reduction_request<T>(collective::prefix_reduce, fn, dst, src, op, nelems, blk_size, func, flags);
  check_phase(fn, "dst", dst.address(), blk_size);
  rq.out = blocked_array{dst.address(), sizeof(T), blk_size, nelems, threads()};
  submit(rq);
}

}  // namespace

#define UPCEMU_REDUCE_ARGS                                                                                     \
  {"nelems", nelems}, {"root (the thread of dst)", dst.address().thread}, {"op", op}, {"flags", std::uint64_t(flags)}
#define UPCEMU_DEFINE_REDUCE(T, TYPE)                                                                              \
  void upc_all_reduce##T(sptr<void> dst, sptr<const void> src, upc_op_t op, size_t nelems, size_t blk_size,      \
                         TYPE (*func)(TYPE, TYPE), upc_flag_t flags, const std::source_location& where) {         \
    UPCEMU_CALL("upc_all_reduce" #T, UPCEMU_REDUCE_ARGS);                                                         \
    reduce<TYPE>("upc_all_reduce" #T, dst, src, op, nelems, blk_size, func, flags);                               \
  }                                                                                                               \
  void upc_all_prefix_reduce##T(sptr<void> dst, sptr<const void> src, upc_op_t op, size_t nelems, size_t blk_size, \
                                TYPE (*func)(TYPE, TYPE), upc_flag_t flags, const std::source_location& where) {  \
    UPCEMU_CALL("upc_all_prefix_reduce" #T, {"nelems", nelems}, {"blk_size", blk_size}, {"op", op},               \
                {"flags", std::uint64_t(flags)});                                                                 \
    prefix_reduce<TYPE>("upc_all_prefix_reduce" #T, dst, src, op, nelems, blk_size, func, flags);                 \
  }                                                                                                               \
  void upc_all_reduce##T##_all(sptr<void> dst, sptr<const void> src, upc_op_t op, size_t nelems, size_t blk_size, \
                               TYPE (*func)(TYPE, TYPE), upc_flag_t flags, const std::source_location& where) {   \
    UPCEMU_CALL("upc_all_reduce" #T "_all", UPCEMU_REDUCE_ARGS);                                                  \
    reduce_all<TYPE>("upc_all_reduce" #T "_all", dst, src, op, nelems, blk_size, func, flags);                    \
  }                                                                                                               \
  /* xupc's name for the same allreduce (<xupc_collective.h>): the flags choose how the result spreads */        \
  void xupc_all_reduce##T##_all(sptr<void> dst, sptr<const void> src, upc_op_t op, size_t nelems, size_t blk_size, \
                                TYPE (*func)(TYPE, TYPE), upc_flag_t flags, const std::source_location& where) {  \
    UPCEMU_CALL("xupc_all_reduce" #T "_all", UPCEMU_REDUCE_ARGS);                                                 \
    reduce_all<TYPE>("xupc_all_reduce" #T "_all", dst, src, op, nelems, blk_size, func, flags);                   \
  }
UPCEMU_COLLECTIVE_TYPES(UPCEMU_DEFINE_REDUCE)
#undef UPCEMU_DEFINE_REDUCE
#undef UPCEMU_REDUCE_ARGS

// ---- sort (Collectives v1.0) ------------------------------------------------------------

namespace {
struct sort_context {
  int (*func)(sptr<void>, sptr<void>);
  shared_address base;
  std::size_t elem, blk;
};
int compare_indices(const void* i, const void* j, const void* ctx) {
  const auto& c = *static_cast<const sort_context*>(ctx);
  const int T = threads();
  const auto a = layout::advance(c.base, static_cast<std::ptrdiff_t>(*static_cast<const std::uint64_t*>(i)), c.elem, c.blk, T);
  const auto b = layout::advance(c.base, static_cast<std::ptrdiff_t>(*static_cast<const std::uint64_t*>(j)), c.elem, c.blk, T);
  return c.func(sptr<void>(a), sptr<void>(b));
}
}  // namespace

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void upc_all_sort(sptr<void> A, size_t elem_size, size_t nelems, size_t blk_size, int (*func)(sptr<void>, sptr<void>),
                  upc_flag_t flags, const std::source_location& where) {
  const char* fn = "upc_all_sort";
  UPCEMU_CALL(fn, {"nelems", nelems}, {"elem_size", elem_size}, {"blk_size", blk_size}, {"flags", std::uint64_t(flags)});
  check_flags(fn, flags);
  check_pointer(fn, "A", A.address());
  if (!func) fail(fn, "func is a null pointer");
  if (elem_size == 0) fail(fn, "elem_size must be > 0");
  if (elem_size > detail::g_partition_bytes)
    fail(fn, "elem_size " + number(elem_size) + negative_hint(elem_size) + " is larger than a thread's whole shared heap");
  check_array_extent(fn, "blk_size", nelems, blk_size, elem_size);
  if (blk_size != 0 && A.address().phase >= blk_size)
    fail(fn, "A has phase " + std::to_string(A.address().phase) + ", not below blk_size " + std::to_string(blk_size));
  request rq{};
  rq.kind = collective::sort;
  rq.function = fn;
  rq.in = blocked_array{A.address(), elem_size, blk_size, nelems, threads()};
  rq.red.size = elem_size;
  rq.func = reinterpret_cast<const void*>(func);  // compared under --check
  rq.flags = flags;
  static thread_local sort_context ctx;
  ctx = sort_context{func, A.address(), elem_size, blk_size};
  rq.sort_cmp = compare_indices;
  rq.sort_ctx = &ctx;
  submit(rq);
}
#pragma GCC diagnostic pop
