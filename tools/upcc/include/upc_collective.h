/* <upc_collective.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): the UPC 1.3 standard collectives (§7.4) in UPC syntax, plus
 * upc_all_sort (Collectives spec v1.0) and upc_all_reduceT_all (the allreduce
 * of the extended collectives). upcc translates these prototypes like the
 * program's own (pointers-to-shared become upcemu_sptr);
 * lib/capi/headers_collective.cpp calls the C++ runtime's <upc_collective.h>.
 * Semantics, checks and sync flags: docs/collectives.md. */
#ifndef UPCC_UPC_COLLECTIVE_H
#define UPCC_UPC_COLLECTIVE_H
#include <stddef.h>
#include <upc_types.h>

#define __UPC_COLLECTIVE__ 1

/* The Michigan Tech reference implementation's (and xupc's) one-time
 * initialisation: a no-op here (docs/xupc.md). */
void upc_coll_init(void);

void upc_all_broadcast(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void upc_all_scatter(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void upc_all_gather(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void upc_all_gather_all(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void upc_all_exchange(shared void *dst, shared const void *src, size_t nbytes, upc_flag_t flags);
void upc_all_permute(shared void *dst, shared const void *src, shared const int *perm, size_t nbytes,
                     upc_flag_t flags);

/* upc_all_reduceT, upc_all_prefix_reduceT and upc_all_reduceT_all for the 11
 * types of the spec: C (signed char), UC, S, US, I, UI, L, UL, F, D, LD. */
#define UPCC_COLLECTIVE_REDUCE(T, TYPE)                                                                       \
  void upc_all_reduce##T(shared void *dst, shared const void *src, upc_op_t op, size_t nelems,               \
                         size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);                       \
  void upc_all_prefix_reduce##T(shared void *dst, shared const void *src, upc_op_t op, size_t nelems,        \
                                size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);                \
  void upc_all_reduce##T##_all(shared void *dst, shared const void *src, upc_op_t op, size_t nelems,         \
                               size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);
UPCC_COLLECTIVE_REDUCE(C, signed char)
UPCC_COLLECTIVE_REDUCE(UC, unsigned char)
UPCC_COLLECTIVE_REDUCE(S, short)
UPCC_COLLECTIVE_REDUCE(US, unsigned short)
UPCC_COLLECTIVE_REDUCE(I, int)
UPCC_COLLECTIVE_REDUCE(UI, unsigned int)
UPCC_COLLECTIVE_REDUCE(L, long)
UPCC_COLLECTIVE_REDUCE(UL, unsigned long)
UPCC_COLLECTIVE_REDUCE(F, float)
UPCC_COLLECTIVE_REDUCE(D, double)
UPCC_COLLECTIVE_REDUCE(LD, long double)
#undef UPCC_COLLECTIVE_REDUCE

/* Collectives spec v1.0 (deprecated there, not in UPC 1.3): sorts A, shared
 * [blk_size] of nelems elements of elem_size bytes; func(a, b) > 0 when *a must
 * come after *b. */
void upc_all_sort(shared void *A, size_t elem_size, size_t nelems, size_t blk_size,
                  int (*func)(shared void *, shared void *), upc_flag_t flags);

/* Each call with the caller's file and line (upcemu_site_enter/leave), so that a
 * report (a mismatch between threads, a bad argument) names the UPC program's
 * line. The macro's own name is not expanded again: the call inside is the real
 * function, which also stays callable through its address. */
#define upc_all_broadcast(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all(__VA_ARGS__), upcemu_site_leave())
#define upc_all_sort(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_sort(__VA_ARGS__), upcemu_site_leave())
#endif
