// Shared objects declared at namespace scope register here when constructed (before
// main); every run allocates them, in declaration order, before any thread starts.
// Block-scope statics register when first constructed inside a run, for later runs.
// Also: the heap's allocation primitives and the labels its chunks record.
#pragma once
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

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

// What a chunk of the shared heap holds (recorded in its header, reported by the
// lookup service of lib/runtime/heap_index.hpp and by --check).
enum class allocation_kind : std::uint32_t { runtime, all_alloc, global_alloc, local_alloc, declared };

// The type of a declared shared object, one constant per instantiation (static
// storage, so its address means the same in every forked process).
struct declared_type {
  const char* family;     // "shared_array", "shared"
  const char* signature;  // a function signature that spells the element type ("... [with T = int]")
  std::size_t elem_size;
  std::size_t block;      // elements per block, 0: indefinite
};
// "shared_array<int>", "shared_array<double, 4>", "shared<long>".
std::string declared_type_name(const declared_type& t);

template <class T>
constexpr const char* type_signature() noexcept {
  return std::source_location::current().function_name();
}
template <class T, std::size_t B>
inline constexpr declared_type declared_array_type{"shared_array", type_signature<T>(), sizeof(T), B};
template <class T>
inline constexpr declared_type declared_scalar_type{"shared", type_signature<T>(), sizeof(T), 1};

// Everything recorded about an allocation besides its size. `function` names the
// caller in errors and reports: it must be a string literal (it is kept).
struct allocation_label {
  allocation_kind kind = allocation_kind::runtime;
  std::uint64_t nblocks = 0, nbytes = 0;   // upc_all_alloc / upc_global_alloc arguments
  const declared_type* type = nullptr;     // declared objects
  const char* file = nullptr;
  std::uint32_t line = 0;
  std::uint64_t count = 0;
};

// The allocation primitives behind every shared object (lib/runtime/heap.cpp).
// They return partition offsets; `function` names the caller in errors.
std::uint64_t symmetric_alloc(std::size_t bytes_per_thread, const char* function, const allocation_label& label = {});
std::uint64_t local_alloc(int thread, std::size_t bytes, const char* function, const allocation_label& label = {});
void heap_free(const shared_address& a, const char* function);
// Collective: every thread calls it with the same size and gets the same offset.
std::uint64_t collective_symmetric_alloc(std::size_t bytes_per_thread, const char* function,
                                         const allocation_label& label = {});
void collective_free(const shared_address& a, const char* function);
// Declared objects: their chunks are refused by upc_free / upc_all_free.
void collective_free_declared_object(const shared_address& a, const char* function);

// A block-scope static shared object: allocated once per run for the whole program
// (symmetric, or on thread 0's local heap for an indefinite one), zero-filled, with
// `initial` written at its start, and found again by `key` (the address of the C++
// object, the same in every forked process) when another process constructs its
// copy. No barrier: the calling thread alone does it, under the allocation mutex.
std::uint64_t static_alloc_once(std::uint64_t key, std::size_t bytes_per_thread, bool symmetric,
                                const std::string& initial, const char* function, const allocation_label& label);

}  // namespace upc::detail
