// xupc_all_suffix_reduceT (seed 001, Figure 6): the parallel suffix, the
// mirror of upc_all_prefix_reduceT: dst[i] = src[i] op src[i+1] op … op
// src[nelems-1], for `shared [blk_size] TYPE` src and dst of nelems elements.
// It runs on the extended collectives' reduction path (lib/api/ext/reductions.cpp)
// with its suffix switch: block totals folded from their ends, each block
// scanned from its end with the fold of every later block (S_b = T_b op S_b+1),
// so the grouping is fixed by the layout and the bits are the same on every
// backend, THREADS count and algorithm.
#include "../ext/call.hpp"
#include "xupc_collective.h"

using namespace upc;

namespace {
template <class T>
void suffix_reduce(const char* fn, sptr<void> dst, sptr<const void> src, upc_op_t op, std::size_t nelems, std::size_t blk_size,
                   T (*func)(T, T), upc_flag_t flags, const std::source_location& where) {
  ext::call c(fn, where, ext::family::prefix_reduce, 0);
  c.dst = ext::shared_side(dst.address());
  c.src = ext::shared_side(src.address());
  c.op = op;
  c.count = nelems;
  c.blk_size = blk_size;
  c.func = reinterpret_cast<const void*>(func);
  c.flags = flags;
  c.type = ext::element_type_of<T>();
  c.type_size = sizeof(T);
  c.suffix = true;
  ext::run(c);
}
}  // namespace

#define UPCEMU_DEFINE_XUPC_SUFFIX(T, TYPE)                                                                              \
  void xupc_all_suffix_reduce##T(sptr<void> dst, sptr<const void> src, upc_op_t op, size_t nelems, size_t blk_size,    \
                                 TYPE (*func)(TYPE, TYPE), upc_flag_t flags, const std::source_location& where) {       \
    suffix_reduce<TYPE>("xupc_all_suffix_reduce" #T, dst, src, op, nelems, blk_size, func, flags, where);               \
  }
UPCEMU_COLLECTIVE_TYPES(UPCEMU_DEFINE_XUPC_SUFFIX)
#undef UPCEMU_DEFINE_XUPC_SUFFIX
