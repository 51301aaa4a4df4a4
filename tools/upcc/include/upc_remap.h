/* <upc_remap.h> for UPC source compiled by upcc: the remap operator of seed
 * 004 (ZPL's #; docs/remap.md) on UPC shared arrays, as a small C interface
 * (docs/remap.md "From UPC programs"). lib/capi/headers_remap.cpp calls the
 * C++ operator (include/upc/remap.hpp, lib/remap/).
 *
 * An array is its pointer-to-shared (element 0: thread 0, phase 0, as a
 * declared array or upc_all_alloc memory), its block size in elements
 * (shared [block]; 0: indefinite, all on thread 0) and its elements, counted
 * row-major over its dimensions when it has several (UPC lays out
 * `shared [B] T a[R][C]` as R*C elements in blocks of B). A map is a shared
 * array of long with the layout of the array the operator walks: the
 * destination of a gather, the source of a scatter; map j gives, for each
 * element walked, its 0-based index in dimension j of the other array.
 *
 *   D = S#[M1, ..., Mk]   upc_all_remap_gather(D, dblock, n, S, sblock, k, sdims, M, size)
 *                         D[i] = S[M1[i], ..., Mk[i]] for i < n
 *   D#[M1, ..., Mk] = S   upc_all_remap_scatter(D, dblock, k, ddims, S, sblock, n, M, size, 0, 0)
 *                         D[M1[i], ..., Mk[i]] = S[i] for i < n (two writes to one
 *                         element: the last in thread, then element order, wins)
 *   D#[M...] += S         upc_all_remap_scatter(..., UPC_ADD, UPC_DOUBLE)
 *                         (op UPC_ADD, UPC_MULT, UPC_MIN, UPC_MAX, and for integer
 *                         types UPC_AND, UPC_OR, UPC_XOR; type a UPC_* type code
 *                         of <upc_types.h> whose size is elemsize)
 *
 * Both are collective (every thread calls them with the same arguments; they
 * begin and end with a barrier). k is 1 to 4; `maps` is a private array of k
 * pointers-to-shared. A map value outside its dimension stops the run naming
 * the map, the element and the dimension. */
#ifndef UPCC_UPC_REMAP_H
#define UPCC_UPC_REMAP_H
#include <stddef.h>
#include <upc_types.h>

#define UPC_REMAP_ASSIGN 0 /* a scatter's op: plain assignment */

void upc_all_remap_gather(shared void *dst, size_t dst_block, size_t dst_nelems, shared const void *src,
                          size_t src_block, int src_ndims, const size_t *src_dims, shared long *const *maps,
                          size_t elemsize);
void upc_all_remap_scatter(shared void *dst, size_t dst_block, int dst_ndims, const size_t *dst_dims,
                           shared const void *src, size_t src_block, size_t src_nelems, shared long *const *maps,
                           size_t elemsize, upc_op_t op, upc_type_t type);

#define upc_all_remap_gather(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_remap_gather(__VA_ARGS__), upcemu_site_leave())
#define upc_all_remap_scatter(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_remap_scatter(__VA_ARGS__), upcemu_site_leave())
#endif
