// Dynamic shared memory (UPC 1.3 §7.2.2): the C-style names are in <upc.h>.
#pragma once
#include <cstddef>
#include <source_location>

#include "upc/sptr.hpp"

namespace upc {
// Collective: shared [nbytes] char[nblocks*nbytes], the same pointer on every thread.
// `where` (the caller's line) is what reports name.
sptr<void> all_alloc(std::size_t nblocks, std::size_t nbytes,
                     const std::source_location& where = std::source_location::current());
// The same space, allocated by one thread.
sptr<void> global_alloc(std::size_t nblocks, std::size_t nbytes,
                        const std::source_location& where = std::source_location::current());
// shared [] char[nbytes] with affinity to the calling thread.
sptr<void> alloc(std::size_t nbytes, const std::source_location& where = std::source_location::current());
// UPC 1.2's upc_local_alloc: upc_alloc(nblocks * nbytes), the product overflow-checked.
// Deprecated in UPC 1.3; <upc.h>'s upc_local_alloc warns at compile time.
sptr<void> local_alloc(std::size_t nblocks, std::size_t nbytes,
                       const std::source_location& where = std::source_location::current());
void free(sptr<void> p, const std::source_location& where = std::source_location::current());
// Collective free (UPC 1.3): every thread calls it with the same pointer.
void all_free(sptr<void> p, const std::source_location& where = std::source_location::current());
}  // namespace upc
