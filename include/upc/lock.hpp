// UPC locks (UPC 1.3 §7.2.4). A lock lives in the shared heap; upc_lock_t* is valid
// in every thread and process of the run (the segment is at the same address).
#pragma once
#include <source_location>

struct upc_lock_t;  // opaque

namespace upc {
// `where` (the caller's line) is what reports name.
upc_lock_t* global_lock_alloc(const std::source_location& where = std::source_location::current());  // by one thread
// Collective: every thread gets the same lock.
upc_lock_t* all_lock_alloc(const std::source_location& where = std::source_location::current());
void lock_free(upc_lock_t* lock);
void all_lock_free(upc_lock_t* lock, const std::source_location& where = std::source_location::current());
void lock(upc_lock_t* lock, const std::source_location& where = std::source_location::current());
int lock_attempt(upc_lock_t* lock);    // 1: acquired, 0: held by someone
void unlock(upc_lock_t* lock);
}  // namespace upc
