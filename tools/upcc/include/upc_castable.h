/* <upc_castable.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): UPC 1.3 castability (Optional Library Specifications §7.7) in UPC
 * syntax; lib/capi/headers_castable.cpp calls the C++ runtime's
 * <upc_castable.h>. Every shared address is castable by every thread here (one
 * mapping of the shared heap), so upc_cast never returns NULL for a valid
 * pointer and upc_thread_info reports UPC_CASTABLE_ALL for every thread. */
#ifndef UPCC_UPC_CASTABLE_H
#define UPCC_UPC_CASTABLE_H
#include <stddef.h>

#define __UPC_CASTABLE__ 1

#define UPC_CASTABLE_ALL_ALLOC    (1 << 0) /* upc_all_alloc */
#define UPC_CASTABLE_GLOBAL_ALLOC (1 << 1) /* upc_global_alloc */
#define UPC_CASTABLE_ALLOC        (1 << 2) /* upc_alloc */
#define UPC_CASTABLE_STATIC       (1 << 3) /* statically declared shared objects */
#define UPC_CASTABLE_ALL \
  (UPC_CASTABLE_ALL_ALLOC | UPC_CASTABLE_GLOBAL_ALLOC | UPC_CASTABLE_ALLOC | UPC_CASTABLE_STATIC)

typedef struct {
  int guaranteedCastable; /* kinds always castable by the caller when owned by the thread asked about */
  int probablyCastable;   /* kinds usually castable (a superset of the guaranteed ones) */
} upc_thread_info_t;

/* The local address of *ptr, or NULL for a null pointer. */
void *upc_cast(const shared void *ptr);
/* Castability of objects with affinity to threadId (0 <= threadId < THREADS).
 * (Renamed C symbol: the C++ runtime has a function of the same parameters.) */
upc_thread_info_t upc_thread_info(size_t threadId) __asm__("upcemu_upc_thread_info");
#endif
