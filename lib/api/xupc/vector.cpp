// xupc's vector-variant collectives (seed 001, Figures 8 and 9), on the
// extended collectives' path (lib/api/ext/movement.cpp, chunk lists):
//   xupc_all_broadcast_v   the thesis's upc_all_broadcast_v (same arguments):
//                          nelems elements from src to thread i's block of dst at
//                          index ddisp[i]
//   xupc_all_gather_v      nelems[i] elements of thread i from index sdisp[i] of
//                          src (in its block) to the root's area at dst (dst's
//                          thread) from element ddisp[i]
//   xupc_all_gather_all_v  the same pieces into every thread's block of dst,
//                          piece i at element ddisp[i] of each block
// The thesis's gather_v has no ddisp (pieces packed in thread order) and its
// gather_all_v's ddisp[j] is where thread j's row starts; xupc places each
// piece itself (docs/xupc.md).
#include "../ext/call.hpp"
#include "xupc_collective.h"

using namespace upc;

namespace {
using int_array = sptr<int, 1, relaxed>;
using size_array = sptr<size_t, 1, relaxed>;
ext::arg_array ints(const int_array& a, const char* name) { return ext::shared_array(a.address(), sizeof(int), true, name); }
ext::arg_array sizes(const size_array& a, const char* name) { return ext::shared_array(a.address(), sizeof(size_t), false, name); }
}  // namespace

void xupc_all_broadcast_v(sptr<void> dst, sptr<const void> src, int_array ddisp, size_t nelems, size_t dst_blk, size_t typesize,
                          upc_flag_t flags, const std::source_location& where) {
  ext::call c("xupc_all_broadcast_v", where, ext::family::broadcast, ext::variant::v);
  c.dst = ext::shared_side(dst.address());
  c.src = ext::shared_side(src.address());
  c.ddisp = ints(ddisp, "ddisp");
  c.count = nelems;
  c.dst_blk = dst_blk;
  c.typesize = typesize;
  c.flags = flags;
  ext::run(c);
}

namespace {
// The two gathers share every argument; xupc places each piece by ddisp.
void gather_v(const char* fn, ext::family fam, sptr<void> dst, sptr<const void> src, int_array ddisp, int_array sdisp,
              size_array nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t flags,
              const std::source_location& where) {
  ext::call c(fn, where, fam, ext::variant::v);
  c.dst = ext::shared_side(dst.address());
  c.src = ext::shared_side(src.address());
  c.ddisp = ints(ddisp, "ddisp");
  c.sdisp = ints(sdisp, "sdisp");
  c.counts = sizes(nelems, "nelems");
  c.dst_blk = dst_blk;
  c.src_blk = src_blk;
  c.typesize = typesize;
  c.flags = flags;
  c.ddisp_per_source = true;
  ext::run(c);
}
}  // namespace

void xupc_all_gather_v(sptr<void> dst, sptr<const void> src, int_array ddisp, int_array sdisp, size_array nelems, size_t dst_blk,
                       size_t src_blk, size_t typesize, upc_flag_t flags, const std::source_location& where) {
  gather_v("xupc_all_gather_v", ext::family::gather, dst, src, ddisp, sdisp, nelems, dst_blk, src_blk, typesize, flags, where);
}

void xupc_all_gather_all_v(sptr<void> dst, sptr<const void> src, int_array ddisp, int_array sdisp, size_array nelems,
                           size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t flags, const std::source_location& where) {
  if (dst_blk == 0) detail::fail("xupc_all_gather_all_v", "dst_blk must be > 0: every thread's block of dst receives the pieces");
  gather_v("xupc_all_gather_all_v", ext::family::gather_all, dst, src, ddisp, sdisp, nelems, dst_blk, src_blk, typesize, flags,
           where);
}
