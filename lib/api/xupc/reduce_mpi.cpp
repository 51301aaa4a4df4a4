// xupc_all_reduceT_mpi and _mpi_all (seed 001, Figure 5; <xupc_collective.h>):
// MPI_Reduce / MPI_Allreduce over arrays of blk_size elements, one per thread
// (its block of src). The blocks travel to the root through the engine's
// general data movement (request::chunks: the root's private buffer, block t
// at t × blk_size); the root folds them element by element in thread order
// (left fold: the same bits on every backend, THREADS layout and algorithm)
// and its result goes to dst as one more chunk. _mpi_all then broadcasts the
// root's block in place, with the algorithm the flags choose.
#include <string>
#include <vector>

#include "../../coll/engine.hpp"
#include "../../runtime/collective_call.hpp"
#include "../collective_checks.hpp"
#include "upc/error.hpp"
#include "upc/layout.hpp"
#include "chunks.hpp"
#include "xupc_collective.h"

using namespace upc;
using upc::detail::fail;

namespace {

std::string str(unsigned long long v) { return std::to_string(v); }

constexpr upc_flag_t in_bits = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC;
constexpr upc_flag_t out_bits = UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC;
constexpr upc_flag_t algorithm_bits = UPC_PULL | UPC_PUSH | UPC_MULTICORE;

coll::place shared_place(const shared_address& a) { return coll::place{a.offset, static_cast<std::int32_t>(a.thread), false}; }

// The reduction into `dst` (blk_size elements on dst's thread). move_flags
// carry the caller's IN choice and the algorithm bits of the gather.
template <class T>
void reduce_blocks(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems,
                   std::size_t blk_size, T (*func)(T, T), upc_flag_t flags, upc_flag_t final_out) {
  coll::check_sync_flags(fn, flags);
  coll::check_shared_pointer(fn, "dst", dst.address());
  coll::check_shared_pointer(fn, "src", src.address());
  coll::check_reduction_op(fn, op, coll::element_type_of<T>(), reinterpret_cast<const void*>(func));
  const int T_ = threads();
  if (blk_size == 0) fail(fn, "blk_size must be > 0: each thread's array has blk_size elements");
  if (nelems / static_cast<std::size_t>(T_) != blk_size || nelems % static_cast<std::size_t>(T_) != 0)
    fail(fn, "nelems is " + str(nelems) + ", but must be blk_size x THREADS = " + str(blk_size) + " x " + str(T_) +
                 ": each thread's block of src is its array of blk_size elements");
  coll::check_reduction_extent(fn, nelems, blk_size, sizeof(T));
  if (src.address().phase != 0) fail(fn, "src has phase " + str(src.address().phase) + ": it must point to the start of a block");
  const std::size_t E = sizeof(T), bytes = blk_size * E;
  const int root = static_cast<int>(dst.address().thread);
  const int me = MYTHREAD;

  // every thread's block, into the root's buffer in thread order
  std::vector<coll::chunk> in;
  const shared_address s0 = src.address();
  for (int t = 0; t < T_; ++t) {
    const std::ptrdiff_t k = static_cast<std::ptrdiff_t>(((t - static_cast<int>(s0.thread) + T_) % T_) * blk_size);
    const shared_address first = layout::advance(s0, k, E, blk_size, T_);
    in.push_back(coll::chunk{shared_place(first), coll::place{static_cast<std::uint64_t>(t) * bytes, root, true}, bytes});
  }
  std::vector<char> blocks(me == root ? bytes * static_cast<std::size_t>(T_) : 1);
  xupc::move_chunks(fn, in, nullptr, blocks.data(), (flags & (in_bits | algorithm_bits)) | UPC_OUT_NOSYNC);

  // the root folds them in thread order and writes dst
  std::vector<coll::chunk> out;
  if (me == root) {
    const coll::element_op eop =
        coll::bind(coll::element_type_of<T>(), coll::element_op_of(op), reinterpret_cast<const void*>(func), 0, op != UPC_NONCOMM_FUNC);
    for (int t = 1; t < T_; ++t) eop.combine(blocks.data(), blocks.data() + static_cast<std::size_t>(t) * bytes, blk_size);
  }
  out.push_back(coll::chunk{coll::place{0, root, true}, shared_place(dst.address()), bytes});
  xupc::move_chunks(fn, out, me == root ? blocks.data() : nullptr, nullptr, UPC_IN_NOSYNC | final_out | (flags & algorithm_bits));
}

template <class T>
void reduce_mpi(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems, std::size_t blk_size,
                T (*func)(T, T), upc_flag_t flags, const std::source_location& where) {
  detail::collective_call call(fn, where,
                               {{"nelems", nelems}, {"blk_size", blk_size}, {"root (the thread of dst)", dst.address().thread},
                                {"op", static_cast<std::uint64_t>(op)}, {"flags", static_cast<std::uint64_t>(flags)}});
  const upc_flag_t out = (flags & out_bits) ? (flags & out_bits) : UPC_OUT_ALLSYNC;
  coll::race_call races(coll::team::world(), flags, fn);  // --check=races: the call as one collective
  reduce_blocks<T>(fn, dst, src, op, nelems, blk_size, func, flags, out);
  races.finish();
}

// dst: shared [blk_size] TYPE[blk_size x THREADS]; the result in its block on
// dst's thread, then in every block.
template <class T>
void reduce_mpi_all(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems,
                    std::size_t blk_size, T (*func)(T, T), upc_flag_t flags, const std::source_location& where) {
  detail::collective_call call(fn, where,
                               {{"nelems", nelems}, {"blk_size", blk_size}, {"root (the thread of dst)", dst.address().thread},
                                {"op", static_cast<std::uint64_t>(op)}, {"flags", static_cast<std::uint64_t>(flags)}});
  if (dst.address().phase != 0) fail(fn, "dst has phase " + str(dst.address().phase) + ": it must point to the start of a block");
  coll::race_call races(coll::team::world(), flags, fn);  // --check=races: the call as one collective
  // the reduction: its gather keeps the caller's IN choice, no algorithm bits (they are the broadcast's)
  reduce_blocks<T>(fn, dst, src, op, nelems, blk_size, func, flags & ~algorithm_bits, UPC_OUT_NOSYNC);
  // the broadcast in place: everyone waits for the root to have written its block (IN_MYSYNC)
  const upc_flag_t out = (flags & out_bits) ? (flags & out_bits) : UPC_OUT_ALLSYNC;
  xupc_all_broadcast_in_place(dst, blk_size * sizeof(T), UPC_IN_MYSYNC | out | (flags & algorithm_bits), where);
  races.finish();
}

}  // namespace

#define UPCEMU_DEFINE_XUPC_MPI(T, TYPE)                                                                                   \
  void xupc_all_reduce##T##_mpi(sptr<void> dst, sptr<const void> src, upc_op_t op, size_t nelems, size_t blk_size,       \
                                TYPE (*func)(TYPE, TYPE), upc_flag_t flags, const std::source_location& where) {          \
    reduce_mpi<TYPE>("xupc_all_reduce" #T "_mpi", dst, src, op, nelems, blk_size, func, flags, where);                    \
  }                                                                                                                       \
  void xupc_all_reduce##T##_mpi_all(sptr<void> dst, sptr<const void> src, upc_op_t op, size_t nelems, size_t blk_size,   \
                                    TYPE (*func)(TYPE, TYPE), upc_flag_t flags, const std::source_location& where) {      \
    reduce_mpi_all<TYPE>("xupc_all_reduce" #T "_mpi_all", dst, src, op, nelems, blk_size, func, flags, where);            \
  }
UPCEMU_COLLECTIVE_TYPES(UPCEMU_DEFINE_XUPC_MPI)
#undef UPCEMU_DEFINE_XUPC_MPI
