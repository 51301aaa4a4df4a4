// The C side of upcc's <xupc_collective.h> (tools/upcc/include/xupc_collective.h,
// docs/upcc.md "Library headers"): extern "C" wrappers over the C++ runtime's
// <xupc_collective.h> (every function takes a pointer-to-shared, so the C and C++
// overloads differ by their parameters).
#include <source_location>

#include "upcemu_c.h"
#include "xupc_collective.h"

namespace {
upc::shared_address addr(upcemu_sptr p) { return upc::shared_address{p.offset, p.thread, p.phase}; }
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(addr(p)); }
upc::sptr<const void> cptr(upcemu_sptr p) { return upc::sptr<const void>(addr(p)); }
}  // namespace

extern "C" {
void xupc_all_broadcast(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  xupc_all_broadcast(vptr(dst), cptr(src), nbytes, flags, std::source_location::current());
}
void xupc_all_scatter(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  xupc_all_scatter(vptr(dst), cptr(src), nbytes, flags, std::source_location::current());
}
void xupc_all_gather(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  xupc_all_gather(vptr(dst), cptr(src), nbytes, flags, std::source_location::current());
}
void xupc_all_gather_all(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  xupc_all_gather_all(vptr(dst), cptr(src), nbytes, flags, std::source_location::current());
}
void xupc_all_exchange(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  xupc_all_exchange(vptr(dst), cptr(src), nbytes, flags, std::source_location::current());
}
void xupc_all_permute(upcemu_sptr dst, upcemu_sptr src, upcemu_sptr perm, size_t nbytes, upc_flag_t flags) {
  xupc_all_permute(vptr(dst), cptr(src), upc::sptr<const int, 1, upc::relaxed>(addr(perm)), nbytes, flags, std::source_location::current());
}
void xupc_all_broadcast_in_place(upcemu_sptr buffer, size_t nbytes, upc_flag_t flags) {
  xupc_all_broadcast_in_place(vptr(buffer), nbytes, flags, std::source_location::current());
}
void xupc_all_broadcast_v(upcemu_sptr dst, upcemu_sptr src, upcemu_sptr ddisp, size_t nelems, size_t dst_blk, size_t typesize, upc_flag_t flags) {
  xupc_all_broadcast_v(vptr(dst), cptr(src), upc::sptr<int, 1, upc::relaxed>(addr(ddisp)), nelems, dst_blk, typesize, flags, std::source_location::current());
}
void xupc_all_gather_v(upcemu_sptr dst, upcemu_sptr src, upcemu_sptr ddisp, upcemu_sptr sdisp, upcemu_sptr nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t flags) {
  xupc_all_gather_v(vptr(dst), cptr(src), upc::sptr<int, 1, upc::relaxed>(addr(ddisp)), upc::sptr<int, 1, upc::relaxed>(addr(sdisp)), upc::sptr<size_t, 1, upc::relaxed>(addr(nelems)), dst_blk, src_blk, typesize, flags, std::source_location::current());
}
void xupc_all_gather_all_v(upcemu_sptr dst, upcemu_sptr src, upcemu_sptr ddisp, upcemu_sptr sdisp, upcemu_sptr nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t flags) {
  xupc_all_gather_all_v(vptr(dst), cptr(src), upc::sptr<int, 1, upc::relaxed>(addr(ddisp)), upc::sptr<int, 1, upc::relaxed>(addr(sdisp)), upc::sptr<size_t, 1, upc::relaxed>(addr(nelems)), dst_blk, src_blk, typesize, flags, std::source_location::current());
}
#define UPCC_XUPC_REDUCE_WRAPPERS(T, TYPE)                                                                       \
  void xupc_all_reduce##T##_all(upcemu_sptr dst, upcemu_sptr src, upc_op_t op, size_t nelems, size_t blk_size,       \
                                TYPE (*func)(TYPE, TYPE), upc_flag_t flags) {                                        \
    xupc_all_reduce##T##_all(vptr(dst), cptr(src), op, nelems, blk_size, func, flags, std::source_location::current()); \
  }                                                                                                                  \
  void xupc_all_reduce##T##_mpi(upcemu_sptr dst, upcemu_sptr src, upc_op_t op, size_t nelems, size_t blk_size,       \
                                TYPE (*func)(TYPE, TYPE), upc_flag_t flags) {                                        \
    xupc_all_reduce##T##_mpi(vptr(dst), cptr(src), op, nelems, blk_size, func, flags, std::source_location::current()); \
  }                                                                                                                  \
  void xupc_all_reduce##T##_mpi_all(upcemu_sptr dst, upcemu_sptr src, upc_op_t op, size_t nelems, size_t blk_size,   \
                                    TYPE (*func)(TYPE, TYPE), upc_flag_t flags) {                                    \
    xupc_all_reduce##T##_mpi_all(vptr(dst), cptr(src), op, nelems, blk_size, func, flags,                            \
                                 std::source_location::current());                                                   \
  }                                                                                                                  \
  void xupc_all_suffix_reduce##T(upcemu_sptr dst, upcemu_sptr src, upc_op_t op, size_t nelems, size_t blk_size,      \
                                 TYPE (*func)(TYPE, TYPE), upc_flag_t flags) {                                       \
    xupc_all_suffix_reduce##T(vptr(dst), cptr(src), op, nelems, blk_size, func, flags, std::source_location::current()); \
  }
UPCEMU_COLLECTIVE_TYPES(UPCC_XUPC_REDUCE_WRAPPERS)
#undef UPCC_XUPC_REDUCE_WRAPPERS
}  // extern "C"
