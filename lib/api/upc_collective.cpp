// <upc_collective.h>: validate the user's arguments (clear errors naming the
// function, the argument and the thread), turn the call into an engine request,
// and run it. The 22 typed reductions are generated from one table.
#include "upc_collective.h"

#include <optional>
#include <string>
#include <vector>

#include "../coll/blocks.hpp"
#include "../coll/registry.hpp"
#include "../runtime/collective_call.hpp"
#include "../runtime/control.hpp"
#include "../runtime/heap_index.hpp"
#include "../runtime/op_names.hpp"
#include "../runtime/single_valued.hpp"

namespace upc::coll {

using detail::fail;

namespace {

std::string str(std::size_t v) { return std::to_string(v); }

// Flags: known bits only, at most one IN and one OUT choice, at most one algorithm bit.
void check_flags(const char* fn, upc_flag_t flags) {
  const upc_flag_t known = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC |
                           UPC_OUT_NOSYNC | UPC_PULL | UPC_PUSH | UPC_MULTICORE;
  if (flags & ~known) fail(fn, "flags has unknown bits " + std::to_string(flags & ~known) + " (flags = " + std::to_string(flags) + ")");
  auto count = [](upc_flag_t f) { return f == 0 ? 0 : (f & (f - 1)) == 0 ? 1 : 2; };  // 0, 1 or "more"
  if (count(flags & (UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC)) > 1)
    fail(fn, "flags combines more than one of UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC");
  if (count(flags & (UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC)) > 1)
    fail(fn, "flags combines more than one of UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC");
}

void check_pointer(const char* fn, const char* arg, const shared_address& a) {
  if (a == shared_address{}) fail(fn, std::string(arg) + " is a null pointer-to-shared");
  if (a.thread >= static_cast<std::uint32_t>(detail::g_threads))
    fail(fn, std::string(arg) + " names thread " + str(a.thread) + ", but THREADS is " + str(detail::g_threads));
}

// [offset, offset + bytes) of thread `thr` must lie in its partition.
// The bytes [offset, offset + bytes) of thread thr lie inside one live shared
// object, the one that holds their first byte: an argument points into an object
// and the call may not run past its end (issue 8.8: a broadcast larger than the
// destination blocks). `known` carries the object found for another block of the
// same argument: a symmetric one answers for every thread without a new lookup.
void check_in_object(const char* fn, const char* arg, int thr, std::uint64_t offset, std::uint64_t bytes,
                     std::optional<detail::allocation>* known) {
  if (bytes == 0) return;
  const shared_address a{offset, static_cast<std::uint32_t>(thr), 0};
  std::optional<detail::allocation> found;
  const detail::allocation* object = nullptr;
  if (known && *known && (*known)->symmetric && (*known)->bytes_from(a) > 0) {
    object = &**known;
  } else {
    found = detail::find_allocation(a.thread, offset);
    if (known) *known = found;
    object = found ? &*found : nullptr;
  }
  if (!object)
    fail(fn, std::string(arg) + ": the " + str(bytes) + " bytes at offset " + str(offset) + " of thread " + str(thr) +
                 " are not inside any live shared object (freed, or never allocated)");
  const std::uint64_t room = object->bytes_from(a);
  if (room < bytes)
    fail(fn, std::string(arg) + ": " + str(bytes) + " bytes at offset " + str(offset) + " of thread " + str(thr) +
                 " run past the end of the object it points into, " + object->describe() + " (" + str(room) +
                 " bytes of it from there on that thread)");
}

// [offset, offset + bytes) of thread thr: inside its shared heap, then inside one object.
void check_range(const char* fn, const char* arg, int thr, std::uint64_t offset, std::uint64_t bytes,
                 std::optional<detail::allocation>* known = nullptr) {
  if (offset > detail::g_partition_bytes || bytes > detail::g_partition_bytes - offset)
    fail(fn, std::string(arg) + ": " + str(bytes) + " bytes at offset " + str(offset) + " of thread " + str(thr) +
                 " run past the end of its shared heap (" + str(detail::g_partition_bytes) + " bytes per thread)");
  check_in_object(fn, arg, thr, offset, bytes, known);
}

// Areas already found inside their objects stay so until something is freed
// (the heap's generation moves): a loop of collectives on the same buffers pays
// for the object checks once. Kept per thread, keyed by the area's shape.
enum class area_shape : std::uint32_t { range, blocked, array };
struct verified_area {
  const void* run = nullptr;
  std::uint64_t generation = 0, offset = 0, bytes = 0, block = 0;
  std::uint32_t thread = 0, phase = 0;
  area_shape shape = area_shape::range;
};
constexpr int verified_areas = 8;
thread_local verified_area tl_verified[verified_areas];
thread_local int tl_next_verified = 0;

std::uint64_t heap_generation() { return detail::control().heap_generation.load(std::memory_order_acquire); }

bool already_verified(const shared_address& a, std::uint64_t bytes, area_shape shape, std::uint64_t block = 0) {
  const std::uint64_t generation = heap_generation();
  for (const verified_area& v : tl_verified)
    if (v.run == detail::g_control && v.generation == generation && v.offset == a.offset && v.thread == a.thread &&
        v.phase == a.phase && v.bytes == bytes && v.shape == shape && v.block == block)
      return true;
  return false;
}
void remember_verified(const shared_address& a, std::uint64_t bytes, area_shape shape, std::uint64_t generation,
                       std::uint64_t block = 0) {
  tl_verified[tl_next_verified] = verified_area{detail::g_control, generation, a.offset, bytes, block, a.thread, a.phase, shape};
  tl_next_verified = (tl_next_verified + 1) % verified_areas;
}

// One area of one thread (check_range), remembered once found good.
void check_area(const char* fn, const char* arg, int thr, std::uint64_t offset, std::uint64_t bytes) {
  const shared_address a{offset, static_cast<std::uint32_t>(thr), 0};
  if (already_verified(a, bytes, area_shape::range)) return;
  const std::uint64_t generation = heap_generation();
  check_range(fn, arg, thr, offset, bytes);
  remember_verified(a, bytes, area_shape::range, generation);
}

bool overlap(std::uint64_t a, std::uint64_t an, std::uint64_t b, std::uint64_t bn) { return a < b + bn && b < a + an; }

// a × b, or a clear error naming what overflowed.
std::uint64_t product(const char* fn, const std::string& what, std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail(fn, what + " overflows (" + str(a) + " x " + str(b) + ")");
  return r;
}

// A size argument that converted from a negative int looks like this.
std::string negative_hint(std::uint64_t v) {
  return v > (std::uint64_t{1} << 63) ? " (a negative value converted to size_t?)" : "";
}

// nbytes, or nbytes × THREADS when one thread holds a row of blocks: at most
// one thread's whole shared heap (which also keeps every later sum in range).
void check_block_bytes(const char* fn, std::size_t nbytes, bool row) {
  if (nbytes == 0) fail(fn, "nbytes must be > 0");
  const std::uint64_t P = detail::g_partition_bytes;
  if (nbytes > P)
    fail(fn, "nbytes " + str(nbytes) + negative_hint(nbytes) + " is larger than a thread's whole shared heap (" + str(P) +
                 " bytes per thread)");
  if (row) {
    const std::uint64_t bytes = product(fn, "nbytes x THREADS", nbytes, std::uint64_t(threads()));
    if (bytes > P)
      fail(fn, "nbytes x THREADS = " + str(bytes) + " bytes (nbytes " + str(nbytes) + ") is larger than a thread's whole "
                   "shared heap (" + str(P) + " bytes per thread), where one thread holds THREADS blocks");
  }
}

// Reductions and sort: blk_size within UPC_MAX_BLOCK_SIZE, and nelems elements
// of elem_size bytes no more than all the shared heaps together, so that the
// blocked-array arithmetic (blk_size × THREADS × elem_size, ...) cannot wrap.
void check_array_extent(const char* fn, const char* blk_arg, std::size_t nelems, std::size_t blk_size, std::size_t elem) {
  if (nelems == 0) fail(fn, "nelems must be > 0");
  constexpr std::uint64_t max_block = std::uint64_t{1} << 32;  // UPC_MAX_BLOCK_SIZE
  if (blk_size > max_block)
    fail(fn, std::string(blk_arg) + " " + str(blk_size) + negative_hint(blk_size) +
                 " is larger than UPC_MAX_BLOCK_SIZE (4294967296)");
  const std::uint64_t bytes = product(fn, "nelems x element size", nelems, elem);
  const std::uint64_t all = std::uint64_t(threads()) * detail::g_partition_bytes;
  if (bytes > all)
    fail(fn, "nelems " + str(nelems) + negative_hint(nelems) + " elements of " + str(elem) + " bytes (" + str(bytes) +
                 " bytes) do not fit in the shared heaps of all threads (" + str(all) + " bytes)");
}

void fail_overlap(const char* fn, int thr) {
  fail(fn, "src and dst overlap on thread " + str(thr) + " (the UPC collectives require distinct areas)");
}

// Offset of the block with affinity to `thr` in an area of blocks of `block` bytes.
std::uint64_t block_offset(const shared_address& base, std::size_t block, int thr) {
  const int T = detail::g_threads;
  const int k = (thr - static_cast<int>(base.thread) + T) % T;
  const shared_address a = layout::advance({base.offset, base.thread, 0}, std::ptrdiff_t(k) * std::ptrdiff_t(block), 1, block, T);
  return a.offset;
}

// Every thread's block of an area of `block` bytes per thread must fit.
void check_blocked(const char* fn, const char* arg, const shared_address& base, std::size_t block) {
  if (already_verified(base, block, area_shape::blocked)) return;
  const std::uint64_t generation = heap_generation();
  std::optional<detail::allocation> object;  // found once for a symmetric object
  for (int t = 0; t < detail::g_threads; ++t) check_range(fn, arg, t, block_offset(base, block, t), block, &object);
  remember_verified(base, block, area_shape::blocked, generation);
}

// The elements of shared [blk] T (nelems of `elem` bytes from `base`): each
// thread's run inside its shared heap and inside the object `base` points into.
void check_array(const char* fn, const char* arg, const shared_address& base, std::size_t elem, std::size_t blk,
                 std::size_t nelems) {
  const std::uint64_t bytes = std::uint64_t(nelems) * elem;  // checked not to overflow by the caller
  if (already_verified(base, bytes, area_shape::array, blk)) return;
  const std::uint64_t generation = heap_generation();
  const blocked_array a{base, elem, blk, nelems, threads()};
  std::optional<detail::allocation> object;
  for (int t = 0; t < threads(); ++t) {
    const std::uint64_t n = a.count_on(t);
    if (n) check_range(fn, arg, t, (blk ? a.row_start() : base.offset) + a.first_local(t) * elem, n * elem, &object);
  }
  remember_verified(base, bytes, area_shape::array, generation, blk);
}

// Under --check: every single-valued argument of the call (UPC 1.3 §7.4: all
// of them), compared with thread 0's after a world barrier (the call itself and
// its size, root and flags are compared in every run: runtime/collective_call.hpp).
detail::single_valued single_valued_args(const request& rq, const shared_address* perm) {
  detail::single_valued f(rq.function);
  auto add_pointer = [&](const char* thread, const char* address, const char* phase, const shared_address& a) {
    f.add(thread, a.thread).add(address, a.offset).add(phase, a.phase);
  };
  const bool sort = rq.kind == collective::sort;
  if (sort) {
    add_pointer("argument A (thread)", "argument A (address)", "argument A (phase)", rq.dst);
  } else {
    add_pointer("argument dst (thread)", "argument dst (address)", "argument dst (phase)", rq.dst);
    add_pointer("argument src (thread)", "argument src (address)", "argument src (phase)", rq.src);
  }
  if (rq.nbytes) f.add("argument nbytes", rq.nbytes);
  if (perm) add_pointer("argument perm (thread)", "argument perm (address)", "argument perm (phase)", *perm);
  if (rq.nelems) {
    f.add("argument nelems", rq.nelems);
    f.add("argument blk_size", rq.blk_size);
    if (sort) f.add("argument elem_size", rq.red.size);
    else f.add("argument op", rq.op_arg);
    f.add("argument func", reinterpret_cast<std::uintptr_t>(rq.func));
  }
  f.add("argument flags", static_cast<std::uint64_t>(rq.flags));
  return f;
}

void check_single_valued(const request& rq, const shared_address* perm = nullptr) {
  if (!check_enabled()) return;
  const detail::single_valued f = single_valued_args(rq, perm);
  const std::uint32_t round = detail::my_slot().collective_seq++;
  f.publish(round);
  team::world().barrier(rq.function);
  f.verify(round, 0);
}

void start(const request& rq, const shared_address* perm = nullptr) {
  check_single_valued(rq, perm);
  run(rq);
}

// ---- data movement --------------------------------------------------------------

request movement(collective kind, const char* fn, sptr<void> dst, sptr<const void> src, std::size_t nbytes, upc_flag_t flags,
                 bool row) {
  check_flags(fn, flags);
  check_pointer(fn, "dst", dst.address());
  check_pointer(fn, "src", src.address());
  check_block_bytes(fn, nbytes, row);
  request rq{};
  rq.kind = kind;
  rq.function = fn;
  rq.dst = dst.address();
  rq.src = src.address();
  rq.nbytes = nbytes;
  rq.flags = flags;
  return rq;
}

}  // namespace
}  // namespace upc::coll

using namespace upc;
using namespace upc::coll;

// The call's record (runtime/collective_call.hpp): compared with the other
// threads' in every run, wherever the call synchronises anyway.
#define UPCEMU_CALL(fn, ...) detail::collective_call call(fn, where, {__VA_ARGS__})

void upc_all_broadcast(sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags, const std::source_location& where) {
  UPCEMU_CALL("upc_all_broadcast", {"nbytes", nbytes}, {"root (the thread of src)", src.address().thread}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::broadcast, "upc_all_broadcast", dst, src, nbytes, flags, false);
  check_area(rq.function, "src", rq.src.thread, rq.src.offset, nbytes);
  check_blocked(rq.function, "dst", rq.dst, nbytes);
  if (overlap(rq.src.offset, nbytes, block_offset(rq.dst, nbytes, rq.src.thread), nbytes)) fail_overlap(rq.function, rq.src.thread);
  start(rq);
}

void upc_all_scatter(sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags, const std::source_location& where) {
  UPCEMU_CALL("upc_all_scatter", {"nbytes", nbytes}, {"root (the thread of src)", src.address().thread}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::scatter, "upc_all_scatter", dst, src, nbytes, flags, true);
  const std::uint64_t total = std::uint64_t(nbytes) * threads();
  check_area(rq.function, "src", rq.src.thread, rq.src.offset, total);
  check_blocked(rq.function, "dst", rq.dst, nbytes);
  if (overlap(rq.src.offset, total, block_offset(rq.dst, nbytes, rq.src.thread), nbytes)) fail_overlap(rq.function, rq.src.thread);
  start(rq);
}

void upc_all_gather(sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags, const std::source_location& where) {
  UPCEMU_CALL("upc_all_gather", {"nbytes", nbytes}, {"root (the thread of dst)", dst.address().thread}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::gather, "upc_all_gather", dst, src, nbytes, flags, true);
  const std::uint64_t total = std::uint64_t(nbytes) * threads();
  check_area(rq.function, "dst", rq.dst.thread, rq.dst.offset, total);
  check_blocked(rq.function, "src", rq.src, nbytes);
  if (overlap(rq.dst.offset, total, block_offset(rq.src, nbytes, rq.dst.thread), nbytes)) fail_overlap(rq.function, rq.dst.thread);
  start(rq);
}

void upc_all_gather_all(sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags, const std::source_location& where) {
  UPCEMU_CALL("upc_all_gather_all", {"nbytes", nbytes}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::gather_all, "upc_all_gather_all", dst, src, nbytes, flags, true);
  const std::size_t row = nbytes * std::size_t(threads());
  check_blocked(rq.function, "src", rq.src, nbytes);
  check_blocked(rq.function, "dst", rq.dst, row);
  for (int t = 0; t < threads(); ++t)
    if (overlap(block_offset(rq.src, nbytes, t), nbytes, block_offset(rq.dst, row, t), row)) fail_overlap(rq.function, t);
  start(rq);
}

void upc_all_exchange(sptr<void> dst, sptr<const void> src, size_t nbytes, upc_flag_t flags, const std::source_location& where) {
  UPCEMU_CALL("upc_all_exchange", {"nbytes", nbytes}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::exchange, "upc_all_exchange", dst, src, nbytes, flags, true);
  const std::size_t row = nbytes * std::size_t(threads());
  check_blocked(rq.function, "src", rq.src, row);
  check_blocked(rq.function, "dst", rq.dst, row);
  for (int t = 0; t < threads(); ++t)
    if (overlap(block_offset(rq.src, row, t), row, block_offset(rq.dst, row, t), row)) fail_overlap(rq.function, t);
  start(rq);
}

void upc_all_permute(sptr<void> dst, sptr<const void> src, sptr<const int> perm, size_t nbytes, upc_flag_t flags,
                     const std::source_location& where) {
  UPCEMU_CALL("upc_all_permute", {"nbytes", nbytes}, {"flags", std::uint64_t(flags)});
  request rq = movement(collective::permute, "upc_all_permute", dst, src, nbytes, flags, false);
  if (perm.is_null()) fail(rq.function, "perm is a null pointer-to-shared");
  check_pointer(rq.function, "perm", perm.address());
  check_blocked(rq.function, "src", rq.src, nbytes);
  check_blocked(rq.function, "dst", rq.dst, nbytes);
  for (int t = 0; t < threads(); ++t)
    if (overlap(block_offset(rq.src, nbytes, t), nbytes, block_offset(rq.dst, nbytes, t), nbytes)) fail_overlap(rq.function, t);
  // perm is shared int[THREADS] (block size 1 from perm): every element in its heap.
  for (int i = 0; i < threads(); ++i) {
    const shared_address e = layout::advance(perm.address(), i, sizeof(int), 1, threads());
    check_area(rq.function, "perm", static_cast<int>(e.thread), e.offset, sizeof(int));
  }
  // perm is shared int[THREADS], an input like src: under IN_ALLSYNC or IN_MYSYNC
  // it may be read only once its owners have entered, and every rank needs all of
  // it (to find who sends to whom), so wait for everyone, then read it and let
  // the data movement start without further IN synchronisation.
  if (!(flags & UPC_IN_NOSYNC)) {
    team::world().barrier(rq.function);
    rq.flags = (rq.flags & ~(UPC_IN_ALLSYNC | UPC_IN_MYSYNC)) | UPC_IN_NOSYNC;
  }
  static thread_local std::vector<int> p;
  p.assign(static_cast<std::size_t>(threads()), 0);
  std::vector<int> seen(static_cast<std::size_t>(threads()), -1);
  for (int i = 0; i < threads(); ++i) {
    const int v = perm[i];
    if (v < 0 || v >= threads())
      fail(rq.function, "perm is not a permutation of 0..THREADS-1: perm[" + std::to_string(i) + "] = " + std::to_string(v));
    if (seen[static_cast<std::size_t>(v)] >= 0)
      fail(rq.function, "perm is not a permutation of 0..THREADS-1: perm[" + std::to_string(i) + "] = " + std::to_string(v) +
                            " repeats perm[" + std::to_string(seen[static_cast<std::size_t>(v)]) + "]");
    seen[static_cast<std::size_t>(v)] = i;
    p[static_cast<std::size_t>(i)] = v;
  }
  rq.perm = p.data();
  const shared_address perm_at = perm.address();
  start(rq, &perm_at);
}

// ---- reductions ---------------------------------------------------------------------

namespace {

// The ops a reduction accepts (upc_types.h has more: MINLOC, the atomic ops).
bool reduction_op(upc_op_t op) {
  switch (op) {
    case UPC_ADD: case UPC_MULT: case UPC_AND: case UPC_OR: case UPC_XOR: case UPC_LOGAND:
    case UPC_LOGOR: case UPC_MIN: case UPC_MAX: case UPC_FUNC: case UPC_NONCOMM_FUNC: return true;
    default: return false;
  }
}

// The engine's element type of each of the eleven reduction types, and its op
// of each reduction op (lib/coll/element_ops.hpp: the one table).
template <class T>
constexpr elem_type element_type_of() {
  if constexpr (std::is_same_v<T, signed char>) return elem_type::s_char;
  else if constexpr (std::is_same_v<T, unsigned char>) return elem_type::u_char;
  else if constexpr (std::is_same_v<T, short>) return elem_type::s_short;
  else if constexpr (std::is_same_v<T, unsigned short>) return elem_type::u_short;
  else if constexpr (std::is_same_v<T, int>) return elem_type::s_int;
  else if constexpr (std::is_same_v<T, unsigned int>) return elem_type::u_int;
  else if constexpr (std::is_same_v<T, long>) return elem_type::s_long;
  else if constexpr (std::is_same_v<T, unsigned long>) return elem_type::u_long;
  else if constexpr (std::is_same_v<T, float>) return elem_type::r_float;
  else if constexpr (std::is_same_v<T, double>) return elem_type::r_double;
  else return elem_type::r_ldouble;
}

elem_op element_op_of(upc_op_t op) {
  switch (op) {
    case UPC_ADD: return elem_op::add;
    case UPC_MULT: return elem_op::mult;
    case UPC_AND: return elem_op::bit_and;
    case UPC_OR: return elem_op::bit_or;
    case UPC_XOR: return elem_op::bit_xor;
    case UPC_LOGAND: return elem_op::log_and;
    case UPC_LOGOR: return elem_op::log_or;
    case UPC_MIN: return elem_op::min;
    case UPC_MAX: return elem_op::max;
    default: return elem_op::value_function;  // UPC_FUNC, UPC_NONCOMM_FUNC
  }
}

template <class T>
request reduction_request(collective kind, const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op,
                          std::size_t nelems, std::size_t blk_size, T (*func)(T, T), upc_flag_t flags) {
  check_flags(fn, flags);
  check_pointer(fn, "dst", dst.address());
  check_pointer(fn, "src", src.address());
  if (!reduction_op(op)) fail(fn, "op " + std::to_string(op) + " is not one of UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR, UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX, UPC_FUNC, UPC_NONCOMM_FUNC");
  if (!std::is_integral_v<T> && (op == UPC_AND || op == UPC_OR || op == UPC_XOR))
    fail(fn, std::string("op ") + detail::op_name(op) + " is a bitwise operation and needs an integer type");
  if ((op == UPC_FUNC || op == UPC_NONCOMM_FUNC) && !func) fail(fn, std::string("op ") + detail::op_name(op) + " needs func, got a null pointer");
  check_array_extent(fn, "blk_size", nelems, blk_size, sizeof(T));
  request rq{};
  rq.kind = kind;
  rq.function = fn;
  rq.dst = dst.address();
  rq.src = src.address();
  rq.nelems = nelems;
  rq.blk_size = blk_size;
  rq.flags = flags;
  rq.red = bind(element_type_of<T>(), element_op_of(op), reinterpret_cast<const void*>(func), 0, op != UPC_NONCOMM_FUNC);
  rq.op_arg = op;
  rq.func = reinterpret_cast<const void*>(func);
  // The source array must fit in every partition it touches, and not overlap dst.
  if (blk_size == 0 && rq.src.phase != 0) fail(fn, "src has phase " + std::to_string(rq.src.phase) + " but blk_size is 0 (indefinite)");
  if (blk_size != 0 && rq.src.phase >= blk_size)
    fail(fn, "src has phase " + std::to_string(rq.src.phase) + ", not below blk_size " + std::to_string(blk_size));
  check_array(fn, "src", rq.src, sizeof(T), blk_size, nelems);
  return rq;
}

template <class T>
void reduce(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems, std::size_t blk_size,
            T (*func)(T, T), upc_flag_t flags) {
  request rq = reduction_request<T>(collective::reduce, fn, dst, src, op, nelems, blk_size, func, flags);
  check_area(fn, "dst", rq.dst.thread, rq.dst.offset, sizeof(T));
  const blocked_array a{rq.src, sizeof(T), blk_size, nelems, threads()};
  const int td = static_cast<int>(rq.dst.thread);
  if (a.count_on(td) &&
      overlap(rq.dst.offset, sizeof(T), (blk_size ? a.row_start() : rq.src.offset) + a.first_local(td) * sizeof(T),
              a.count_on(td) * sizeof(T)))
    fail_overlap(fn, td);
  start(rq);
}

// dst + i (shared TYPE *, block size 1) for every thread i: THREADS elements,
// each in its heap and clear of the source elements on its thread.
template <class T>
void reduce_all(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems,
                std::size_t blk_size, T (*func)(T, T), upc_flag_t flags) {
  request rq = reduction_request<T>(collective::allreduce, fn, dst, src, op, nelems, blk_size, func, flags);
  const blocked_array a{rq.src, sizeof(T), blk_size, nelems, threads()};
  for (int i = 0; i < threads(); ++i) {
    const shared_address e = layout::advance({rq.dst.offset, rq.dst.thread, 0}, i, sizeof(T), 1, threads());
    const int t = static_cast<int>(e.thread);
    check_area(fn, "dst", t, e.offset, sizeof(T));
    if (a.count_on(t) &&
        overlap(e.offset, sizeof(T), (blk_size ? a.row_start() : rq.src.offset) + a.first_local(t) * sizeof(T),
                a.count_on(t) * sizeof(T)))
      fail_overlap(fn, t);
  }
  start(rq);
}

template <class T>
void prefix_reduce(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems,
                   std::size_t blk_size, T (*func)(T, T), upc_flag_t flags) {
  request rq = reduction_request<T>(collective::prefix_reduce, fn, dst, src, op, nelems, blk_size, func, flags);
  if (blk_size == 0 && rq.dst.phase != 0) fail(fn, "dst has phase " + std::to_string(rq.dst.phase) + " but blk_size is 0 (indefinite)");
  if (blk_size != 0 && rq.dst.phase >= blk_size)
    fail(fn, "dst has phase " + std::to_string(rq.dst.phase) + ", not below blk_size " + std::to_string(blk_size));
  const blocked_array s{rq.src, sizeof(T), blk_size, nelems, threads()};
  const blocked_array d{rq.dst, sizeof(T), blk_size, nelems, threads()};
  check_array(fn, "dst", rq.dst, sizeof(T), blk_size, nelems);
  for (int t = 0; t < threads(); ++t) {
    const std::uint64_t dn = d.count_on(t), sn = s.count_on(t);
    if (!dn) continue;
    const std::uint64_t doff = (blk_size ? d.row_start() : rq.dst.offset) + d.first_local(t) * sizeof(T);
    if (sn && overlap(doff, dn * sizeof(T), (blk_size ? s.row_start() : rq.src.offset) + s.first_local(t) * sizeof(T), sn * sizeof(T)))
      fail_overlap(fn, t);
  }
  start(rq);
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
    fail(fn, "elem_size " + str(elem_size) + negative_hint(elem_size) + " is larger than a thread's whole shared heap");
  check_array_extent(fn, "blk_size", nelems, blk_size, elem_size);
  request rq{};
  rq.kind = collective::sort;
  rq.function = fn;
  rq.dst = rq.src = A.address();
  rq.nelems = nelems;
  rq.blk_size = blk_size;
  rq.red.size = elem_size;
  rq.func = reinterpret_cast<const void*>(func);  // compared under --check
  rq.flags = flags;
  // Every element must lie inside the shared heap of its thread.
  if (blk_size != 0 && rq.dst.phase >= blk_size)
    fail(fn, "A has phase " + std::to_string(rq.dst.phase) + ", not below blk_size " + std::to_string(blk_size));
  check_array(fn, "A", rq.dst, elem_size, blk_size, nelems);
  static thread_local sort_context ctx;
  ctx = sort_context{func, A.address(), elem_size, blk_size};
  rq.sort_cmp = compare_indices;
  rq.sort_ctx = &ctx;
  start(rq);
}
#pragma GCC diagnostic pop
