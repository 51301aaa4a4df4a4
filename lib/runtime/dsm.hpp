// The cache of other hosts' partitions (an mpi run spread over hosts).
//
// Every rank maps the whole segment; another host's partitions are private
// pages here, inaccessible until touched. A touch faults: the page comes from
// its owner (remote_ops.hpp) and is mapped read-only; a write faults again,
// keeps a twin of the page and makes it writable. UPC's relaxed accesses need
// nothing more until a synchronisation point, where
//   release  sends every written page's changed bytes (compared with its twin)
//            to the owner, and waits until they are applied;
//   acquire  forgets every cached page, so the next touch reads fresh bytes.
// Barriers, fences, locks, collectives and the engine's flags call them
// (release before they let others go on, acquire after they were let go).
// Changed bytes only: two hosts writing different bytes of one page between
// two synchronisations both keep their writes (UPC lets them; a race on the
// same byte is the program's).
#pragma once
#include <cstddef>

namespace upc::detail {

// Sets the cache up over [partitions, partitions + threads × partition_bytes)
// after the host's partitions are mapped; the other hosts' become private and
// inaccessible.
void dsm_start(char* partitions, std::size_t partition_bytes, int threads);
void dsm_stop() noexcept;
// Set in threads that must never touch the cache (the server thread).
extern thread_local bool tl_no_cache;
// Called by the crash handler first: true when the fault was a cached page's.
bool dsm_fault(void* address) noexcept;
void dsm_release();
// Forgets the cached pages of [address, address + bytes) (written at home
// directly: the copies here are old).
void dsm_forget(const void* address, std::size_t bytes);
void dsm_acquire();
inline void dsm_sync() {
  dsm_release();
  dsm_acquire();
}

}  // namespace upc::detail
