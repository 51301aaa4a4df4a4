// Shared objects declared at namespace scope register here when constructed (before
// main); every run allocates them, in declaration order, before any thread starts.
#pragma once
#include <cstddef>
#include <cstdint>

#include "upc/layout.hpp"

namespace upc::detail {

class static_object {
 public:
  virtual void allocate() = 0;   // called by the launcher before the workers start
  virtual void release() noexcept = 0;
 protected:
  ~static_object() = default;
};

void register_static_object(static_object* obj);
void unregister_static_object(static_object* obj) noexcept;
bool run_active() noexcept;    // a UPC program is running in this process

// The allocation primitives behind every shared object (lib/runtime/heap.cpp).
// They return partition offsets; `function` names the caller in errors.
std::uint64_t symmetric_alloc(std::size_t bytes_per_thread, const char* function);
std::uint64_t local_alloc(int thread, std::size_t bytes, const char* function);
void heap_free(const shared_address& a, const char* function);
// Collective: every thread calls it with the same size and gets the same offset.
std::uint64_t collective_symmetric_alloc(std::size_t bytes_per_thread, const char* function);
void collective_free(const shared_address& a, const char* function);

}  // namespace upc::detail
