/* UPC 1.3 <upc_collective.h>: the standard collectives (UPC 1.3 §7.4), plus
 * upc_all_sort from Collectives spec v1.0 (deprecated there, kept for old code).
 *
 * Every function is collective: all threads call it with the same single-valued
 * arguments. Arguments follow the spec exactly; `shared void *` is upc::sptr<void>.
 * Sync flags: UPC_IN_{ALL,MY,NO}SYNC | UPC_OUT_{ALL,MY,NO}SYNC; a missing part
 * means ALLSYNC (so 0 is IN_ALLSYNC|OUT_ALLSYNC). UPC_PULL / UPC_PUSH /
 * UPC_MULTICORE may be or-ed in to force an algorithm. See docs/collectives.md. */
#pragma once
#include <cstddef>
#include <source_location>

#include "upc.h"
#include "upc_types.h"

/* The trailing std::source_location is never written by the caller: it is how
 * reports name the line of the call ("thread 1 is waiting in upc_all_broadcast
 * at prog.cpp:12"). */
#define UPCEMU_WHERE const std::source_location& where = std::source_location::current()
/* The one-time initialisation call of the Michigan Tech reference
 * implementation of the collectives, which xupc (seed 001) extends and whose
 * programs call it once per thread before any collective: here a no-op, the
 * topology being known from the start (docs/xupc.md). */
extern "C" void upc_coll_init(void);

void upc_all_broadcast(upc::sptr<void> dst, upc::sptr<const void> src, size_t nbytes, upc_flag_t flags, UPCEMU_WHERE);
void upc_all_scatter(upc::sptr<void> dst, upc::sptr<const void> src, size_t nbytes, upc_flag_t flags, UPCEMU_WHERE);
void upc_all_gather(upc::sptr<void> dst, upc::sptr<const void> src, size_t nbytes, upc_flag_t flags, UPCEMU_WHERE);
void upc_all_gather_all(upc::sptr<void> dst, upc::sptr<const void> src, size_t nbytes, upc_flag_t flags, UPCEMU_WHERE);
void upc_all_exchange(upc::sptr<void> dst, upc::sptr<const void> src, size_t nbytes, upc_flag_t flags, UPCEMU_WHERE);
/* perm's consistency is spelled so that the declaration is the same in a file
 * that includes <upc_strict.h> (upc/consistency.hpp). */
void upc_all_permute(upc::sptr<void> dst, upc::sptr<const void> src, upc::sptr<const int, 1, upc::relaxed> perm,
                     size_t nbytes, upc_flag_t flags, UPCEMU_WHERE);

/* upc_all_reduceT and upc_all_prefix_reduceT for the 11 types of the spec:
 * C (signed char), UC, S, US, I, UI, L, UL, F, D, LD; and upc_all_reduceT_all,
 * the allreduce of the extended collectives (seed 003 §3.1, xupc's
 * xupc_all_reduceT_all, Berkeley's bupc_all_reduce_allT): the arguments of
 * upc_all_reduceT, and the result is stored at dst + i (dst taken as
 * shared TYPE *, block size 1) for every thread i = 0..THREADS-1. */
#define UPCEMU_COLLECTIVE_TYPES(X) \
  X(C, signed char)                \
  X(UC, unsigned char)             \
  X(S, short)                      \
  X(US, unsigned short)            \
  X(I, int)                        \
  X(UI, unsigned int)              \
  X(L, long)                       \
  X(UL, unsigned long)             \
  X(F, float)                      \
  X(D, double)                     \
  X(LD, long double)

#define UPCEMU_DECLARE_REDUCE(T, TYPE)                                                                       \
  void upc_all_reduce##T(upc::sptr<void> dst, upc::sptr<const void> src, upc_op_t op, size_t nelems,        \
                         size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags, UPCEMU_WHERE);        \
  void upc_all_prefix_reduce##T(upc::sptr<void> dst, upc::sptr<const void> src, upc_op_t op, size_t nelems, \
                                size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags, UPCEMU_WHERE); \
  void upc_all_reduce##T##_all(upc::sptr<void> dst, upc::sptr<const void> src, upc_op_t op, size_t nelems,  \
                               size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags, UPCEMU_WHERE);
UPCEMU_COLLECTIVE_TYPES(UPCEMU_DECLARE_REDUCE)
#undef UPCEMU_DECLARE_REDUCE

/* Collectives spec v1.0 (deprecated): sorts A, shared [blk_size] of nelems
 * elements of elem_size bytes, with func(a, b) > 0 when a must come after b. */
[[deprecated("upc_all_sort is from Collectives spec v1.0 and is not in UPC 1.3")]]
void upc_all_sort(upc::sptr<void> A, size_t elem_size, size_t nelems, size_t blk_size,
                  int (*func)(upc::sptr<void>, upc::sptr<void>), upc_flag_t flags, UPCEMU_WHERE);
#undef UPCEMU_WHERE
