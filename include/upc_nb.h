/* UPC 1.3 <upc_nb.h> (UPC Optional Library Specifications §7.9): non-blocking
 * bulk transfers, with explicit handles (upc_mem*_nb + upc_sync) or implicit ones
 * (upc_mem*_nbi + upc_synci).
 *
 *   upc_handle_t h = upc_memget_nb(buf, src, n);
 *   ... other work ...
 *   upc_sync(h);                        // buf now holds the data
 *
 * Eager completion: every transfer here is one memcpy inside the shared segment
 * (all partitions are mapped in every thread and process), so it has completed
 * when the call returns; upc_sync_attempt and upc_synci_attempt always return 1.
 * The handles are still real: each explicit handle is recorded for the thread
 * that issued it, and syncing it twice, syncing a value that was never issued,
 * or syncing another thread's handle is an error (with the function, the handle
 * and the thread in the message), so programs that are wrong on a truly
 * asynchronous implementation are caught here too. A handle that is never
 * synced is not reported (nothing is left pending). The shared side of each call must lie in one thread's partition,
 * as for upc_memcpy (shared [] char). */
#pragma once
#include <cstddef>
#include <cstdint>

#include "upc/sptr.hpp"

#define __UPC_NB__ 1

/* Opaque: the issuing thread and a serial number. */
typedef std::uint64_t upc_handle_t;
#define UPC_COMPLETE_HANDLE ((upc_handle_t)0)

upc_handle_t upc_memcpy_nb(upc::sptr<void> dst, upc::sptr<void> src, std::size_t n);
upc_handle_t upc_memget_nb(void* dst, upc::sptr<void> src, std::size_t n);
upc_handle_t upc_memput_nb(upc::sptr<void> dst, const void* src, std::size_t n);
upc_handle_t upc_memset_nb(upc::sptr<void> dst, int c, std::size_t n);

/* Completes the operation of `handle` (UPC_COMPLETE_HANDLE: returns at once). */
void upc_sync(upc_handle_t handle);
/* 1 when the operation has completed (the handle is then retired), 0 if not yet. */
int upc_sync_attempt(upc_handle_t handle);

void upc_memcpy_nbi(upc::sptr<void> dst, upc::sptr<void> src, std::size_t n);
void upc_memget_nbi(void* dst, upc::sptr<void> src, std::size_t n);
void upc_memput_nbi(upc::sptr<void> dst, const void* src, std::size_t n);
void upc_memset_nbi(upc::sptr<void> dst, int c, std::size_t n);

/* Completes every implicit-handle operation the calling thread has issued. */
void upc_synci(void);
/* 1 when they have all completed, 0 if not yet. */
int upc_synci_attempt(void);
