// --check of shared element accesses (shared_ref get/put, through which every
// element access goes): the bytes must lie in the part of a live shared object
// that has affinity to the thread they are on. A failure names the object (type
// and declaration for declared ones), the element index and the thread, e.g.
//
//   shared write: element index -2 (thread 0, offset 128) is outside the
//   shared_array<int> of 40 elements declared at prog.cpp:12 (thread 1)
//
// The object is found by the heap's lookup service (heap_index.hpp), so an access
// that wanders into another live object's data is not caught (pointers-to-shared
// carry no bounds), but one into padding, a chunk header, freed or never
// allocated memory, or the runtime's control block is.
#include <string>

#include "control.hpp"
#include "heap_index.hpp"
#include "upc/sptr.hpp"

namespace upc::detail {

namespace {
std::string place(const shared_address& a) {
  return "(thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) + ")";
}

std::int64_t floor_div64(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// The index, in a declared object's own layout, of the element at (thread, offset);
// false when the object is not a declared one or has no elements on that thread.
bool element_index(const allocation& obj, const shared_address& a, std::int64_t& index) {
  if (obj.kind != allocation_kind::declared || !obj.type || obj.type->elem_size == 0) return false;
  const auto E = static_cast<std::int64_t>(obj.type->elem_size);
  const auto B = static_cast<std::int64_t>(obj.type->block);
  const std::int64_t r = static_cast<std::int64_t>(a.offset) - static_cast<std::int64_t>(obj.start);
  if (B == 0) {  // indefinite: every element on thread 0
    if (a.thread != 0) return false;
    index = floor_div64(r, E);
    return true;
  }
  const std::int64_t row = floor_div64(r, B * E);
  const std::int64_t phase = (r - row * B * E) / E;
  index = (row * g_threads + static_cast<std::int64_t>(a.thread)) * B + phase;
  return true;
}

std::string affinity_text(const allocation& obj, std::uint32_t thread) {
  const std::uint64_t mine = obj.affinity_bytes(thread);
  if (mine == 0) return " (thread " + std::to_string(thread) + " holds none of it)";
  return " (thread " + std::to_string(thread) + " holds " + std::to_string(mine) + " bytes of it, from offset " +
         std::to_string(obj.start) + ")";
}
}  // namespace

std::string describe_element_at(const shared_address& a) {
  const std::optional<allocation> obj = find_allocation(a.thread, a.offset);
  if (!obj) return "shared memory " + place(a) + " outside any live object";
  std::int64_t index = 0;
  if (element_index(*obj, a, index)) return "element " + std::to_string(index) + " " + place(a) + " of " + obj->describe();
  return "the byte " + place(a) + " of " + obj->describe();
}

void fail_outside_partition(const char* function, const shared_address& a, std::size_t bytes) {
  fail(function, "access of " + std::to_string(bytes) + " bytes at thread " + std::to_string(a.thread) + ", offset " +
                     std::to_string(a.offset) + " is outside the shared heap (THREADS " + std::to_string(g_threads) +
                     ", " + std::to_string(g_partition_bytes) + " bytes per thread)");
}

bool object_access_ok(const shared_address& a, std::size_t bytes) noexcept {
  if (!g_check || !g_control) return true;  // safe to call (or to speculate) anywhere
  const std::optional<allocation> obj = find_allocation(a.thread, a.offset);
  return obj && obj->contains(a, bytes);
}

void fail_object_access(const char* function, const shared_address& a, std::size_t bytes) {
  const std::optional<allocation> obj = find_allocation(a.thread, a.offset);
  const std::string access = "access of " + std::to_string(bytes) + (bytes == 1 ? " byte at " : " bytes at ") + place(a);
  if (!obj) fail(function, access + " is not inside any live shared object (freed or never allocated)");
  std::int64_t index = 0;
  if (obj->type && bytes <= obj->type->elem_size && element_index(*obj, a, index))
    fail(function, "element index " + std::to_string(index) + " " + place(a) + " is outside " + obj->describe());
  fail(function, access + " is outside " + obj->describe() + affinity_text(*obj, a.thread));
}

}  // namespace upc::detail
