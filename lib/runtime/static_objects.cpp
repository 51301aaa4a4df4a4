// Registry of namespace-scope shared objects, and the storage behind shared_array
// and shared<T>: registered objects are allocated by the launcher before the run;
// objects created inside the run are allocated collectively.
#include "static_objects.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <vector>

#include "control.hpp"
#include "upc/shared_array.hpp"
#include "upc/sync.hpp"

namespace upc::detail {

// From heap.cpp: declared objects' chunks are marked so that upc_free and
// upc_all_free refuse them, and are given back by the object alone.
void mark_declared_object(const shared_address& a);
void collective_free_declared_object(const shared_address& a, const char* function);

namespace {
std::vector<static_object*>& registry() {
  static std::vector<static_object*> objects;
  return objects;
}
bool g_static_allocated = false;
}  // namespace

bool run_active() noexcept { return g_control != nullptr; }

void register_static_object(static_object* obj) { registry().push_back(obj); }

void unregister_static_object(static_object* obj) noexcept {
  auto& r = registry();
  r.erase(std::remove(r.begin(), r.end(), obj), r.end());
}

void allocate_static_objects() {
  g_static_allocated = true;
  for (static_object* o : registry()) o->allocate();
}

void release_static_objects() noexcept {
  if (!g_static_allocated) return;
  for (static_object* o : registry()) o->release();
  g_static_allocated = false;
}

// ---- shared_storage ---------------------------------------------------------

shared_storage::shared_storage(std::function<std::size_t()> count, std::size_t elem_size, std::size_t block,
                               const void* initial_element)
    : count_fn_(std::move(count)), elem_size_(elem_size), block_(block) {
  if (initial_element) initial_.assign(static_cast<const char*>(initial_element), elem_size);
  if (tl_mythread >= 0) {
    in_run_scope_ = true;
    allocate_collectively();
  } else if (run_active()) {
    throw upc::error("shared_array", "shared objects cannot be created by the launcher while a program runs", -1);
  } else {
    register_static_object(this);
  }
}

shared_storage::~shared_storage() {
  if (!in_run_scope_) {
    unregister_static_object(this);
    return;
  }
  // Collective free at the end of the scope, unless the run is being torn down.
  if (std::uncaught_exceptions() > 0 || !g_control || g_control->abort.load() || tl_mythread < 0) return;
  try {
    collective_free_declared_object(base_, "shared_array (end of scope)");
  } catch (...) {
  }
}

void shared_storage::allocate() {
  count_ = count_fn_();
  const int T = threads();
  if (block_ == 0) {
    // Indefinite block size: everything on thread 0, from its local heap.
    base_ = shared_address{local_alloc(0, std::max<std::size_t>(count_ * elem_size_, 1), "shared_array"), 0, 0};
  } else {
    base_ = shared_address{symmetric_alloc(layout::local_bytes(count_, elem_size_, block_, T), "shared_array"), 0, 0};
  }
  mark_declared_object(base_);
  if (!initial_.empty()) std::memcpy(raw_address(base_), initial_.data(), initial_.size());
}

void shared_storage::release() noexcept { base_ = shared_address{}; }

void shared_storage::allocate_collectively() {
  count_ = count_fn_();
  const int T = threads();
  const std::size_t bytes = block_ == 0 ? count_ * elem_size_ : layout::local_bytes(count_, elem_size_, block_, T);
  // Under --check the element count must be the same on every thread (equal byte
  // counts, which the allocation itself compares, do not imply it).
  const std::uint32_t seq = my_slot().collective_seq;
  if (check_enabled()) my_slot().check_args[seq & 1][1].store(count_, std::memory_order_relaxed);
  // Indefinite arrays declared in the body are still symmetric so that the pointer
  // is the same everywhere; only thread 0's part is used.
  base_ = shared_address{collective_symmetric_alloc(bytes, "shared_array"), 0, 0};
  if (check_enabled()) {
    const std::uint64_t zeros = control().slots[0].check_args[seq & 1][1].load(std::memory_order_relaxed);
    if (zeros != count_)
      fail("shared_array", "the element count must be single-valued (the same on every thread): this thread declared " +
                               std::to_string(count_) + " elements, thread 0 declared " + std::to_string(zeros));
  }
  if (tl_mythread == 0) mark_declared_object(base_);
  // Zero-fill my own part, then make sure nobody reads before everyone has.
  std::memset(g_partitions + tl_mythread * g_partition_bytes + base_.offset, 0, std::max<std::size_t>(bytes, 1));
  if (!initial_.empty() && tl_mythread == 0) std::memcpy(raw_address(base_), initial_.data(), initial_.size());
  upc::barrier();
}

// ---- error helpers of sptr/shared_array ---------------------------------------


void fail_not_local(const char* function, const shared_address& a) {
  fail(function, "the pointer-to-shared has affinity to thread " + std::to_string(a.thread) +
                     ", not to the calling thread; use upc_memget/upc_memput or upc_cast for remote data");
}
void fail_null(const char* function) { fail(function, "null pointer-to-shared"); }
void fail_outside_partition(const char* function, const shared_address& a, std::size_t bytes) {
  fail(function, "access of " + std::to_string(bytes) + " bytes at thread " + std::to_string(a.thread) + ", offset " +
                     std::to_string(a.offset) + " is outside the shared heap (THREADS " + std::to_string(g_threads) +
                     ", " + std::to_string(g_partition_bytes) + " bytes per thread)");
}
void fail_index(const char* function, std::size_t index, std::size_t size) {
  fail(function, "index " + std::to_string(index) + " is out of bounds for a shared array of " + std::to_string(size) +
                     " elements");
}

}  // namespace upc::detail
