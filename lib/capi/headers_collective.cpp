// The C side of <upc_collective.h> for upcc (tools/upcc/include/upc_collective.h,
// docs/upcc.md "Library headers"): extern "C" wrappers with the C ABI that upcc
// gives the UPC prototypes (a pointer-to-shared is upcemu_sptr), calling the C++
// runtime's collectives (include/upc_collective.h, lib/api/upc_collective.cpp).
// A C-linkage overload beside the C++ one of the same name: the C++ call inside
// each wrapper picks the C++ overload by its argument types.
#include <cstddef>
#include <type_traits>

#include "upcemu_c.h"

#include "upc_collective.h"

static_assert(std::is_same_v<upc_flag_t, int> && std::is_same_v<upc_op_t, unsigned long>);

namespace {
upc::shared_address addr(upcemu_sptr p) { return upc::shared_address{p.offset, p.thread, p.phase}; }
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(addr(p)); }
upc::sptr<const void> cptr(upcemu_sptr p) { return upc::sptr<const void>(addr(p)); }

// upc_all_sort's comparison takes two pointers-to-shared: in C two upcemu_sptr,
// in C++ two upc::sptr<void>, which is one shared_address and trivially
// copyable, so both pass the same bytes the same way (the x86-64 / AArch64 C ABI
// of a 16-byte struct of integers) and the user's function is given to the C++
// runtime as it is (which keeps --check's single-valued test of func).
using c_sort_func = int (*)(upcemu_sptr, upcemu_sptr);
using cpp_sort_func = int (*)(upc::sptr<void>, upc::sptr<void>);
static_assert(std::is_trivially_copyable_v<upc::sptr<void>> && sizeof(upc::sptr<void>) == sizeof(upcemu_sptr) &&
              alignof(upc::sptr<void>) == alignof(upcemu_sptr) &&
              std::is_standard_layout_v<upc::sptr<void>>);
}  // namespace

extern "C" {

void upc_all_broadcast(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  upc_all_broadcast(vptr(dst), cptr(src), nbytes, flags);
}
void upc_all_scatter(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  upc_all_scatter(vptr(dst), cptr(src), nbytes, flags);
}
void upc_all_gather(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  upc_all_gather(vptr(dst), cptr(src), nbytes, flags);
}
void upc_all_gather_all(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  upc_all_gather_all(vptr(dst), cptr(src), nbytes, flags);
}
void upc_all_exchange(upcemu_sptr dst, upcemu_sptr src, size_t nbytes, upc_flag_t flags) {
  upc_all_exchange(vptr(dst), cptr(src), nbytes, flags);
}
void upc_all_permute(upcemu_sptr dst, upcemu_sptr src, upcemu_sptr perm, size_t nbytes, upc_flag_t flags) {
  upc_all_permute(vptr(dst), cptr(src), upc::sptr<const int, 1, upc::relaxed>(addr(perm)), nbytes, flags);
}

#define UPCC_REDUCE_WRAPPERS(T, TYPE)                                                                           \
  void upc_all_reduce##T(upcemu_sptr dst, upcemu_sptr src, upc_op_t op, size_t nelems, size_t blk_size,        \
                         TYPE (*func)(TYPE, TYPE), upc_flag_t flags) {                                         \
    upc_all_reduce##T(vptr(dst), cptr(src), op, nelems, blk_size, func, flags);                                \
  }                                                                                                            \
  void upc_all_prefix_reduce##T(upcemu_sptr dst, upcemu_sptr src, upc_op_t op, size_t nelems, size_t blk_size, \
                                TYPE (*func)(TYPE, TYPE), upc_flag_t flags) {                                  \
    upc_all_prefix_reduce##T(vptr(dst), cptr(src), op, nelems, blk_size, func, flags);                         \
  }                                                                                                            \
  void upc_all_reduce##T##_all(upcemu_sptr dst, upcemu_sptr src, upc_op_t op, size_t nelems, size_t blk_size,  \
                               TYPE (*func)(TYPE, TYPE), upc_flag_t flags) {                                   \
    upc_all_reduce##T##_all(vptr(dst), cptr(src), op, nelems, blk_size, func, flags);                          \
  }
UPCEMU_COLLECTIVE_TYPES(UPCC_REDUCE_WRAPPERS)
#undef UPCC_REDUCE_WRAPPERS

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void upc_all_sort(upcemu_sptr A, size_t elem_size, size_t nelems, size_t blk_size, c_sort_func func,
                  upc_flag_t flags) {
  upc_all_sort(vptr(A), elem_size, nelems, blk_size, reinterpret_cast<cpp_sort_func>(reinterpret_cast<void (*)()>(func)), flags);
}
#pragma GCC diagnostic pop

}  // extern "C"
