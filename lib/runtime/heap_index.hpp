// The heap's lookup service: which live shared allocation holds a given byte of a
// partition, and what it is (who allocated it, its extent on every thread, and for
// a declared shared object its type and declaration). Used by the --check of every
// shared dereference (access_check.cpp) and by argument checks that need the
// extent a pointer-to-shared points into (e.g. "nbytes is larger than the
// destination blocks").
//
// Cost: a thread keeps the last few answers, valid until any allocation is freed
// (a generation counter in the control block); a miss walks the chunks of the one
// heap the byte lies in under the allocation mutex, so the answer is consistent
// with concurrent upc_alloc/upc_free on other threads.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "upc/detail/static_object.hpp"

namespace upc::detail {

struct allocation {
  allocation_kind kind = allocation_kind::runtime;
  const char* function = nullptr;  // the entry point that allocated it ("upc_all_alloc", "shared_array", ...)
  bool symmetric = false;          // at the same offset in every partition; else only in `thread`'s
  std::uint32_t thread = 0;        // local allocations: the partition that holds it
  std::uint64_t start = 0;         // the first byte of the object (what the allocator returned)
  std::uint64_t end = 0;           // the end of its chunk: [start, end) includes rounding padding
  std::uint64_t requested = 0;     // bytes per thread reserved for the object
  std::uint64_t nblocks = 0, nbytes = 0;  // upc_all_alloc / upc_global_alloc arguments
  const declared_type* type = nullptr;    // declared objects: element type, size, block size
  const char* file = nullptr;             // declared objects: where they are declared
  std::uint32_t line = 0;
  std::uint64_t count = 0;                // declared objects: number of elements

  // The bytes of the object with affinity to thread t lie at [start, start + affinity_bytes(t)).
  std::uint64_t affinity_bytes(std::uint32_t t) const noexcept;
  // The access of `bytes` at `a` lies inside the object's part on a.thread.
  bool contains(const shared_address& a, std::uint64_t bytes) const noexcept;
  // Bytes from `a` to the end of the object's part on a.thread (0 when `a` is outside it).
  std::uint64_t bytes_from(const shared_address& a) const noexcept;
  // "the shared_array<int> of 40 elements declared at prog.cpp:12",
  // "the space of upc_all_alloc(nblocks 4, nbytes 1024)", "the 100 bytes of upc_alloc on thread 2", ...
  std::string describe() const;
};

// The live allocation whose chunk (object, padding or header) holds byte `offset`
// of `thread`'s partition; none for a byte in free space, outside the heaps, or of
// a thread that does not exist. Call it from a UPC thread or the launcher while a
// run is active.
std::optional<allocation> find_allocation(std::uint32_t thread, std::uint64_t offset);
// "element 5 (thread 1, offset 20) of the shared_array<int> ... declared at f.cpp:3",
// or the object without an index (access_check.cpp; the race detector's reports).
std::string describe_element_at(const shared_address& a);

// How far each heap reaches into a partition now: the symmetric heap's top
// (bytes from offset 0) and `thread`'s local heap's extent (bytes from the end; 0
// for a thread that does not exist).
struct heap_extents {
  std::uint64_t symmetric = 0;
  std::uint64_t local = 0;
};
heap_extents heap_extent(int thread);

}  // namespace upc::detail
