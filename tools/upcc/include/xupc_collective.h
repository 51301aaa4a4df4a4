/* <xupc_collective.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): include/xupc_collective.h in UPC syntax; lib/capi/headers_xupc.cpp.
 *
 * <xupc_collective.h>: the xupc collective library of seed 001 (Andión,
 * Taboada, Touriño, Doallo), over the same engine as <upc_collective.h>.
 * docs/xupc.md describes every function with its figure from the seed.
 *
 * Algorithm flags, or-ed into `flags` next to the sync flags (seed 001 §III.A):
 *   UPC_PULL       every thread copies what it receives (the reference pull)
 *   UPC_PUSH       every thread copies what it sends (the reference push)
 *   UPC_MULTICORE  a root per node of the virtual topology does the copies
 *                  between nodes, the node's threads the rest (§III.B;
 *                  upcrun --nodes, docs/topology.md)
 * Without one, the engine chooses (multicore when the run spans several nodes).
 *
 * Data movement (the standard signatures): xupc_all_broadcast, _scatter,
 * _gather, _gather_all, _exchange, _permute — the upc_all_* calls under xupc's
 * names.
 * xupc_all_broadcast_in_place(buffer, nbytes, flags) (Figure 7): the block of
 *   nbytes of buffer's thread is copied to every other thread's block of
 *   `shared [nbytes] char buffer[nbytes * THREADS]`, like MPI_Bcast on one
 *   buffer. The same call as the thesis's upc_all_broadcast_in_place.
 * xupc_all_reduceT_all (allreduce): upc_all_reduceT's arguments; the result is
 *   stored at dst + i (dst taken as shared TYPE *, block size 1) for every
 *   thread i: a reduction, then a broadcast of the result whose algorithm the
 *   flags choose. The same call as upc_all_reduceT_all.
 * xupc_all_reduceT_mpi (Figure 5, like MPI_Reduce): src is
 *   `shared [blk_size] TYPE[blk_size * THREADS]` (nelems must be
 *   blk_size * THREADS: each thread's block is its array); dst, on one thread,
 *   receives blk_size elements, dst[i] = the fold over threads 0, 1, ... of
 *   element i of their blocks.
 * xupc_all_reduceT_mpi_all (like MPI_Allreduce): the same reduction into the
 *   block of dst's thread of `shared [blk_size] TYPE dst[blk_size * THREADS]`,
 *   then xupc_all_broadcast_in_place of that block (the flags choose its
 *   algorithm): every thread's block holds the result.
 * xupc_all_broadcast_v (Figure 8): the thesis's upc_all_broadcast_v: nelems
 *   elements of src to thread i's block of dst (dst_blk elements) at index
 *   ddisp[i] of dst.
 * xupc_all_gather_v (Figure 9): nelems[i] elements of thread i from index
 *   sdisp[i] of src (an index of the whole array, in thread i's block of
 *   src_blk elements) to dst's thread's area at element ddisp[i] (dst_blk: the
 *   area's size, 0 = unchecked).
 * xupc_all_gather_all_v: the same pieces into every thread's block of dst
 *   (dst_blk elements each), piece i at element ddisp[i] of the block.
 * xupc_all_suffix_reduceT (Figure 6): upc_all_prefix_reduceT's arguments;
 *   dst[i] = src[i] op src[i+1] op ... op src[nelems-1] (folded from the end,
 *   block by block: docs/xupc.md).
 * T: C, UC, S, US, I, UI, L, UL, F, D, LD, as for the standard reductions. */
#ifndef UPCC_XUPC_COLLECTIVE_H
#define UPCC_XUPC_COLLECTIVE_H
#include <stddef.h>

#include <upc.h>
#include <upc_collective.h>
#include <upc_types.h>

void xupc_all_broadcast(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void xupc_all_scatter(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void xupc_all_gather(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void xupc_all_gather_all(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void xupc_all_exchange(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void xupc_all_permute(shared void *dst, shared const void *src, shared const int *perm,
                      size_t nbytes, upc_flag_t flags);
void xupc_all_broadcast_in_place(shared void *buffer, size_t nbytes, upc_flag_t flags);

/* Vector variants (Figures 8, 9). Displacements and counts are shared arrays
 * of THREADS entries (block size 1), in elements of typesize bytes; dst_blk
 * and src_blk are the arrays' block sizes in elements. */
void xupc_all_broadcast_v(shared void *dst, shared const void *src, shared int *ddisp, size_t nelems,
                          size_t dst_blk, size_t typesize, upc_flag_t flags);
void xupc_all_gather_v(shared void *dst, shared const void *src, shared int *ddisp,
                       shared int *sdisp, shared size_t *nelems, size_t dst_blk,
                       size_t src_blk, size_t typesize, upc_flag_t flags);
void xupc_all_gather_all_v(shared void *dst, shared const void *src, shared int *ddisp,
                           shared int *sdisp, shared size_t *nelems, size_t dst_blk,
                           size_t src_blk, size_t typesize, upc_flag_t flags);

#define UPCEMU_DECLARE_XUPC_REDUCE(T, TYPE)                                                                      \
  void xupc_all_reduce##T##_all(shared void *dst, shared const void *src, upc_op_t op, size_t nelems,     \
                                size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);     \
  void xupc_all_reduce##T##_mpi(shared void *dst, shared const void *src, upc_op_t op, size_t nelems,     \
                                size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);     \
  void xupc_all_reduce##T##_mpi_all(shared void *dst, shared const void *src, upc_op_t op, size_t nelems, \
                                    size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);     \
  void xupc_all_suffix_reduce##T(shared void *dst, shared const void *src, upc_op_t op, size_t nelems,    \
                                 size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);
UPCEMU_DECLARE_XUPC_REDUCE(C, signed char)
UPCEMU_DECLARE_XUPC_REDUCE(UC, unsigned char)
UPCEMU_DECLARE_XUPC_REDUCE(S, short)
UPCEMU_DECLARE_XUPC_REDUCE(US, unsigned short)
UPCEMU_DECLARE_XUPC_REDUCE(I, int)
UPCEMU_DECLARE_XUPC_REDUCE(UI, unsigned int)
UPCEMU_DECLARE_XUPC_REDUCE(L, long)
UPCEMU_DECLARE_XUPC_REDUCE(UL, unsigned long)
UPCEMU_DECLARE_XUPC_REDUCE(F, float)
UPCEMU_DECLARE_XUPC_REDUCE(D, double)
UPCEMU_DECLARE_XUPC_REDUCE(LD, long double)
#undef UPCEMU_DECLARE_XUPC_REDUCE

/* Each call with the caller's file and line (upcemu_site_enter/leave), so that a
 * report (a bad argument, a mismatch between threads) names the UPC program's
 * line; as in <upc_collective.h>. A call that returns a value hands it through
 * upcemu_site_leave_<type>, which leaves the site once the call has returned. The
 * macro's own name is not expanded again: the call inside is the real function,
 * which also stays callable through its address. */
#define xupc_all_broadcast(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_broadcast(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_scatter(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_scatter(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_gather(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_gather(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_gather_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_gather_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_exchange(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_exchange(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_permute(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_permute(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_broadcast_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_broadcast_in_place(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_broadcast_v(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_broadcast_v(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_gather_v(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_gather_v(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_gather_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_gather_all_v(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceC_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceC_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceC_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceC_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceC_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceC_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceC(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceC(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUC_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUC_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUC_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUC_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUC_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUC_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceUC(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceUC(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceS_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceS_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceS_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceS_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceS_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceS_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceS(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceS(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUS_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUS_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUS_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUS_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUS_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUS_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceUS(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceUS(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceI_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceI_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceI_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceI_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceI_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceI_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceI(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceI(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUI_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUI_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUI_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUI_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUI_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUI_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceUI(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceUI(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceL_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceL_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceL_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceL_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceL_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceL_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceL(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceL(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUL_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUL_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUL_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUL_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceUL_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceUL_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceUL(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceUL(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceF_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceF_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceF_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceF_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceF_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceF_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceF(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceF(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceD_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceD_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceD_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceD_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceD_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceD_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceD(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceD(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceLD_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceLD_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceLD_mpi(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceLD_mpi(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_reduceLD_mpi_all(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_reduceLD_mpi_all(__VA_ARGS__), upcemu_site_leave())
#define xupc_all_suffix_reduceLD(...) (upcemu_site_enter(__FILE__, __LINE__), xupc_all_suffix_reduceLD(__VA_ARGS__), upcemu_site_leave())
#endif
