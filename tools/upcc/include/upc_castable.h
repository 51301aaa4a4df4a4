/* <upc_castable.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): UPC 1.3 castability (Optional Library Specifications §7.7) in UPC
 * syntax; lib/capi/headers_castable.cpp calls the C++ runtime's
 * <upc_castable.h>. Every shared address is castable by every thread here (one
 * mapping of the shared heap), so upc_cast never returns NULL for a valid
 * pointer and upc_thread_info reports UPC_CASTABLE_ALL for every thread. */
#ifndef UPCC_UPC_CASTABLE_H
#define UPCC_UPC_CASTABLE_H
#include <stddef.h>

#include <upc_castable_types.h> /* the constants and upc_thread_info_t: the runtime's, plain C */

/* The local address of *ptr, or NULL for a null pointer. */
void *upc_cast(const shared void *ptr);
/* Castability of objects with affinity to threadId (0 <= threadId < THREADS).
 * (Renamed C symbol: the C++ runtime has a function of the same parameters.) */
upc_thread_info_t upc_thread_info(size_t threadId) __asm__("upcemu_upc_thread_info");
#endif
