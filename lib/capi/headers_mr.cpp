// The C side of <upc_mr.h> for upcc (tools/upcc/include/upc_mr.h, docs/upcc.md
// "Library headers"): extern "C" wrappers over UPC-MR (include/upc_mr.h,
// lib/mapreduce/). The user's map and reduce functions are C functions with
// the same parameters the C++ framework calls them with, so they are handed on
// as they are; the framework's reports get the UPC program's line
// ("; called at prog.upc:12") from the site the header's macros set.
#include "at_c_site.hpp"
#include "upcemu_c.h"
#include "upc_mr.h"

using upc::capi::at_c_site;

extern "C" {
int upcemu_ApplyMap(int (*mapfunc)(void*, void*, void*), void* inputElems, int nelems, int userDefDistrFlag, int algorithm,
                    int* weights) {
  return at_c_site([&] { return ApplyMap(mapfunc, inputElems, nelems, userDefDistrFlag, algorithm, weights); });
}
void* upcemu_ApplyReduce(int (*reducefunc)(void*, void*, int, void*), int nelems, int gathFlag, int collFlag, int sizeKey,
                         int sizeValue) {
  return at_c_site([&] { return ApplyReduce(reducefunc, nelems, gathFlag, collFlag, sizeKey, sizeValue); });
}
int upcemu_upc_mr_emit(void* key, void* value, const void* keyData, int sizeKey, const void* valueData, int sizeValue) {
  return upc_mr_emit(key, value, keyData, sizeKey, valueData, sizeValue);
}
int upcemu_upc_mr_distribute(int threads, int nelems, int algorithm, const int* weights, int* owner) {
  return upc_mr_distribute(threads, nelems, algorithm, weights, owner);
}
long long upcemu_upc_mr_max_load_difference(int threads, int nelems, const int* owner, const int* weights) {
  return upc_mr_max_load_difference(threads, nelems, owner, weights);
}
int upcemu_upc_mr_last_algorithm(void) { return upc_mr_last_algorithm(); }
}  // extern "C"
