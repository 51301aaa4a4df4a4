/* <upc_mr.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"; docs/mapreduce.md): UPC-MR, the MapReduce framework of seed 003
 * (Teijeiro's thesis, chapter 4), with the C interface of Listing 4.1: the
 * user writes a map and a reduce function in plain C and hands them, with the
 * input as a void *, to the two collective management functions. The
 * constants and upc_mr_item are the runtime's own (include/upc_mr_types.h);
 * lib/capi/headers_mr.cpp calls the C++ framework (lib/mapreduce/).
 *
 *   int   ApplyMap(mapfunc, inputElems, nelems, userDefDistrFlag, algorithm, weights);
 *   void *ApplyReduce(reducefunc, nelems, gathFlag, collFlag, sizeKey, sizeValue);
 *   int   upc_mr_emit(key, value, keyData, sizeKey, valueData, sizeValue);  (inside mapfunc)
 *
 * None of these takes a pointer-to-shared, so their C symbols are renamed
 * (upcemu_*): the C++ functions have the same parameters. */
#ifndef UPCC_UPC_MR_H
#define UPCC_UPC_MR_H
#include <upc_mr_types.h>

int ApplyMap(int (*mapfunc)(void *, void *, void *), void *inputElems, int nelems, int userDefDistrFlag, int algorithm,
             int *weights) __asm__("upcemu_ApplyMap");
void *ApplyReduce(int (*reducefunc)(void *, void *, int, void *), int nelems, int gathFlag, int collFlag, int sizeKey,
                  int sizeValue) __asm__("upcemu_ApplyReduce");
int upc_mr_emit(void *key, void *value, const void *keyData, int sizeKey, const void *valueData, int sizeValue)
    __asm__("upcemu_upc_mr_emit");
int upc_mr_distribute(int threads, int nelems, int algorithm, const int *weights, int *owner)
    __asm__("upcemu_upc_mr_distribute");
long long upc_mr_max_load_difference(int threads, int nelems, const int *owner, const int *weights)
    __asm__("upcemu_upc_mr_max_load_difference");
int upc_mr_last_algorithm(void) __asm__("upcemu_upc_mr_last_algorithm");

/* The collective calls with the caller's file and line, so that a report (a
 * bad argument, one that differs between threads) names the UPC program's line. */
#define ApplyMap(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(ApplyMap(__VA_ARGS__)))
#define ApplyReduce(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_ptr(ApplyReduce(__VA_ARGS__)))
#endif
