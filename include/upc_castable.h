/* UPC 1.3 <upc_castable.h> (UPC Optional Library Specifications §7.7): which
 * shared objects a thread may reach through an ordinary local pointer.
 *
 * Here every shared address is castable by every thread: the whole shared heap is
 * one mapping, at the same address in every thread (threads backend) and process
 * (processes backend). So upc_cast never returns NULL for a valid pointer, and
 * upc_thread_info reports UPC_CASTABLE_ALL, guaranteed, for every thread.
 *
 *   shared [] double *remote = ...;               upc::sptr<double, upc::indefinite> remote = ...;
 *   double *p = upc_cast(remote);                 auto *p = static_cast<double*>(upc_cast(remote));
 *
 * This is the sanctioned way to reach another thread's data through a local
 * pointer; sptr::local() and the explicit casts to T* keep UPC's rule that the
 * pointed-to object must have affinity to the calling thread, and fail otherwise.
 * Accesses through the local pointer are relaxed, unsynchronised loads and stores:
 * order them with upc_barrier, locks, upc_fence or atomics as usual. */
#pragma once
#include <cstddef>

#include "upc/sptr.hpp"

#define __UPC_CASTABLE__ 1

/* Kinds of shared objects, as bits of upc_thread_info_t's fields. */
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

/* The local address of *ptr, or NULL for a null pointer. A pointer that names no
 * thread or lies outside its thread's shared heap is an error. */
void* upc_cast(upc::sptr<void> ptr);

/* Castability of objects with affinity to threadId (0 <= threadId < THREADS). */
upc_thread_info_t upc_thread_info(std::size_t threadId);
