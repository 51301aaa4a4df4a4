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

#include "upc_castable_types.h" /* the constants and upc_thread_info_t, one table for C++ and UPC */

/* The local address of *ptr, or NULL for a null pointer. A pointer that names no
 * thread or lies outside its thread's shared heap is an error. */
void* upc_cast(upc::sptr<void> ptr);

/* Castability of objects with affinity to threadId (0 <= threadId < THREADS). */
upc_thread_info_t upc_thread_info(std::size_t threadId);
