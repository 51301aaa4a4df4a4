// The C side of upcc's <xupc_collectiveav.h> (tools/upcc/include/xupc_collectiveav.h,
// docs/upcc.md "Library headers"): extern "C" wrappers over the untyped calls of
// the C++ runtime's <xupc_collectiveav.h> (lib/api/xupc/values.cpp). The UPC
// header's macros pass TYPE as nelems * sizeof(TYPE) bytes for data movement,
// and as its letter ("I", "LD", ... chosen by _Generic) and size for reductions;
// a reduction's result is written to the caller's `result` (a compound literal
// of TYPE), whose address is returned. The report site is the UPC program's line
// (upcemu_site_enter in the macro), read by the runtime instead of `where`.
#include <cstddef>
#include <source_location>
#include <string>

#include "at_c_site.hpp"
#include "upc/error.hpp"
#include "upcemu_c.h"
#include "xupc_collectiveav.h"

namespace {
using upc::capi::at_c_site;
}  // namespace

extern "C" {
void upcemu_xupcv_broadcast(void* values, size_t bytes, int root) {
  at_c_site([&] { upc::xupcv::broadcast(values, bytes, root, std::source_location::current()); });
}
void upcemu_xupcv_scatter(void* dst, const void* rootsrc, size_t bytes, int root) {
  at_c_site([&] { upc::xupcv::scatter(dst, rootsrc, bytes, root, std::source_location::current()); });
}
void upcemu_xupcv_gather(void* rootdst, const void* src, size_t bytes, int root) {
  at_c_site([&] { upc::xupcv::gather(rootdst, src, bytes, root, std::source_location::current()); });
}
void upcemu_xupcv_gather_all(void* dst, const void* src, size_t bytes) {
  at_c_site([&] { upc::xupcv::gather_all(dst, src, bytes, std::source_location::current()); });
}
void upcemu_xupcv_exchange(void* dst, const void* src, size_t bytes) {
  at_c_site([&] { upc::xupcv::exchange(dst, src, bytes, std::source_location::current()); });
}
void upcemu_xupcv_permute(void* dst, const void* src, size_t bytes, int tothread) {
  at_c_site([&] { upc::xupcv::permute(dst, src, bytes, tothread, std::source_location::current()); });
}
void* upcemu_xupcv_reduce(void* result, const void* src, size_t nelems, int root, upc_op_t op, const char* letter,
                          size_t size) {
  at_c_site([&] {
    upc::xupcv::check_root("xupc_allv_reduce", root);
    upc::xupcv::reduce_all("xupc_allv_reduce", result, src, nelems, op, letter, size, std::source_location::current());
  });
  return result;
}
void* upcemu_xupcv_reduce_all(void* result, const void* src, size_t nelems, upc_op_t op, const char* letter,
                              size_t size) {
  at_c_site([&] { upc::xupcv::reduce_all("xupc_allv_reduce_all", result, src, nelems, op, letter, size, std::source_location::current()); });
  return result;
}
void upcemu_xupcv_prefix_reduce(void* dst, const void* src, size_t nelems, upc_op_t op, const char* letter,
                                size_t size) {
  at_c_site([&] { upc::xupcv::prefix_reduce(dst, src, nelems, op, letter, size, std::source_location::current()); });
}
}  // extern "C"
