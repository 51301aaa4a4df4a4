// Registry of namespace-scope shared objects, and the storage behind shared_array
// and shared<T>. Where the C++ object lives decides how its shared storage is made:
//
// - constructed outside a run (namespace scope, before main): registered; the
//   launcher allocates it before every run, before any thread starts;
// - constructed by a UPC thread in static storage (a block-scope `static`, GUPC
//   bug 323's test): C++ constructs it once per process, on whichever thread gets
//   there first while the others wait in the local-static guard, so a collective
//   allocation would wait for them forever. It is allocated by that thread alone,
//   once per run, and found again by its address when another process of the
//   processes backend constructs its own copy; then registered, so that later runs
//   in this process (whose C++ object already exists) allocate it like a
//   namespace-scope object;
// - constructed by a UPC thread anywhere else (its stack, the heap): every thread
//   declares it, collectively, and it is freed collectively at the end of its scope.
#include "static_objects.hpp"
#include "run_serial.hpp"
#include "shared_names.hpp"

#include "call_site.hpp"
#include "single_valued.hpp"

#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <mutex>
#include <vector>

#include "collective_call.hpp"
#include "control.hpp"
#include "launch_replay.hpp"
#include "upc/shared_array.hpp"
#include "run_globals.hpp"
#include "world_barrier.hpp"
#include "upc/sync.hpp"

namespace upc::detail {

namespace {
std::string elements_text(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " element" : " elements"); }
}  // namespace

namespace {
struct object_registry {
  std::mutex mutex;  // UPC threads register block-scope statics concurrently
  std::vector<static_object*> objects;
};
// Never destroyed: objects unregister from their destructors at exit, in any order.
object_registry& registry() {
  static object_registry* r = new object_registry;
  return *r;
}
bool g_static_allocated = false;

enum class storage_duration { automatic_or_dynamic, static_storage, thread_storage };

// Whether `p` is on the calling UPC thread's stack, between this frame and the
// frame that started the thread's program (the stack grows down). The bound
// keeps a call on another stack (a signal handler's) from taking a huge span.
__attribute__((noinline)) bool on_my_upc_stack(const void* p) {
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  const char* top = tl_upc_stack_top;
  const char* q = static_cast<const char*>(p);
  return top && here < top && static_cast<std::size_t>(top - here) < (std::size_t{1} << 32) && q >= here && q < top;
}

// Where `p` lives: in a writable loaded segment of the executable or a library
// (static storage), in the calling thread's TLS block of one of them, or elsewhere
// (a stack or the heap). An object on the thread's own stack, the usual case, is
// known without walking the loaded objects: that walk touches pages of every
// library, which costs each process of a 4096-process start a few copied pages.
storage_duration storage_of(const void* p) {
  if (on_my_upc_stack(p)) return storage_duration::automatic_or_dynamic;
  struct query {
    std::uintptr_t address;
    storage_duration found;
  } q{reinterpret_cast<std::uintptr_t>(p), storage_duration::automatic_or_dynamic};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t size, void* data) -> int {
        query& q = *static_cast<query*>(data);
        const bool has_tls_data = size >= offsetof(dl_phdr_info, dlpi_tls_data) + sizeof(info->dlpi_tls_data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          std::uintptr_t lo = 0;
          if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W)) lo = info->dlpi_addr + ph.p_vaddr;
          else if (ph.p_type == PT_TLS && has_tls_data && info->dlpi_tls_data)
            lo = reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data);
          else continue;
          if (q.address >= lo && q.address - lo < ph.p_memsz) {
            q.found = ph.p_type == PT_TLS ? storage_duration::thread_storage : storage_duration::static_storage;
            return 1;
          }
        }
        return 0;
      },
      &q);
  return q.found;
}
}  // namespace

bool run_active() noexcept { return g_control != nullptr; }

void register_static_object(static_object* obj) {
  object_registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mutex);
  r.objects.push_back(obj);
}

void unregister_static_object(static_object* obj) noexcept {
  object_registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mutex);
  r.objects.erase(std::remove(r.objects.begin(), r.objects.end(), obj), r.objects.end());
}

void allocate_static_objects() {
  begin_next_run_serial();
  g_static_allocated = true;
  std::vector<static_object*> objects;
  {
    object_registry& r = registry();
    std::lock_guard<std::mutex> guard(r.mutex);
    objects = r.objects;  // size expressions (user code) run without the lock
  }
  for (static_object* o : objects) o->allocate();
}

void release_static_objects() noexcept {
  if (!g_static_allocated) return;
  object_registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mutex);
  for (static_object* o : r.objects) o->release();
  g_static_allocated = false;
}

std::size_t per_thread_count(std::size_t n) {
  std::size_t count = 0;
  if (__builtin_mul_overflow(n, static_cast<std::size_t>(threads()), &count))
    fail("upc::per_thread", "the element count " + std::to_string(n) + " * THREADS (" + std::to_string(threads()) +
                                ") overflows" +
                                (n > static_cast<std::size_t>(PTRDIFF_MAX) ? " (is it a negative number converted to size_t?)"
                                                                           : ""));
  return count;
}

// ---- shared_storage ---------------------------------------------------------

shared_storage::shared_storage(std::function<std::size_t()> count, const declared_type& type,
                               const std::source_location& where, const void* initial_element)
    : count_fn_(std::move(count)), type_(&type), file_(file_of(where)), line_(line_of(where)) {
  if (initial_element) initial_.assign(static_cast<const char*>(initial_element), type.elem_size);
  if (tl_mythread >= 0) {
    switch (storage_of(this)) {
      case storage_duration::static_storage:
        allocate_block_static();
        break;
      case storage_duration::thread_storage:
        fail(name().c_str(), "a thread_local shared object is not supported (each thread would declare its own, "
                             "at a different time): declare it static, for one object shared by all threads, or "
                             "as an ordinary local variable that every thread declares");
      default:
        in_run_scope_ = true;
        allocate_collectively();
    }
  } else if (run_active()) {
    throw upc::error(name(), "shared objects cannot be created by the launcher while a program runs", -1);
  } else {
    register_static_object(this);
    registered_ = true;
  }
}

shared_storage::~shared_storage() {
  if (registered_) {  // namespace scope or block-scope static: nothing to free
    unregister_static_object(this);
    return;
  }
  if (!in_run_scope_) return;
  // Collective free at the end of the scope, unless the run is being torn down.
  if (std::uncaught_exceptions() > 0 || !g_control || g_control->abort.load() || tl_mythread < 0) return;
  try {
    collective_free_declared_object(base_, shared_name(name() + " (end of scope)", "shared_array (end of scope)"));
  } catch (...) {
  }
}

std::string shared_storage::name() const {
  return declared_type_name(*type_) + " (declared at " + file_ + ":" + std::to_string(line_) + ")";
}

allocation_label shared_storage::label() const {
  allocation_label l;
  l.kind = allocation_kind::declared;
  l.type = type_;
  l.file = file_;
  l.line = line_;
  l.count = count_;
  return l;
}

// Evaluates the size expression and validates it: the bytes each partition must
// hold, computed without wrapping (a negative count converted to size_t must not
// become a small allocation that later writes run past).
std::size_t shared_storage::bytes_per_thread(int threads) const {
  const std::size_t E = type_->elem_size, B = type_->block;
  std::size_t total = 0;
  if (count_ > static_cast<std::size_t>(PTRDIFF_MAX))
    fail(name().c_str(), "the element count " + std::to_string(count_) +
                             " is too large (is it a negative number converted to size_t?)");
  if (__builtin_mul_overflow(count_, E, &total))
    fail(name().c_str(), "the element count " + std::to_string(count_) + " is too large: " + std::to_string(count_) +
                             " elements of " + std::to_string(E) + " bytes overflow size_t");
  const std::size_t bytes = B == 0 ? total : layout::local_bytes(count_, E, B, threads);
  if (bytes == SIZE_MAX)
    fail(name().c_str(), "the element count " + std::to_string(count_) + " is too large: whole rows of blocks of " +
                             std::to_string(B) + " elements of " + std::to_string(E) + " bytes overflow size_t");
  return bytes;
}

namespace {
// The size expression may throw: name the object it belongs to.
template <class F>
std::size_t evaluate_count(const F& count_fn, const std::string& name) {
  try {
    return count_fn();
  } catch (const upc::error& e) {
    fail(name.c_str(), e.function() + ": " + e.message());
  } catch (const std::exception& e) {
    fail(name.c_str(), std::string("its size expression threw: ") + e.what());
  }
}
}  // namespace

void shared_storage::allocate() {
  count_ = evaluate_count(count_fn_, name());
  const std::size_t bytes = bytes_per_thread(threads());
  const char* fn = shared_name(name(), "shared_array");
  if (type_->block == 0) {
    // Indefinite block size: everything on thread 0, from its local heap.
    base_ = shared_address{local_alloc(0, std::max<std::size_t>(bytes, 1), fn, label()), 0, 0};
  } else {
    base_ = shared_address{symmetric_alloc(bytes, fn, label()), 0, 0};
  }
  // The segment is fresh and zero: only the initial value is left to write
  // (once, by rank 0, on the mpi backend: another host's partitions are not
  // this rank's to write before the run starts).
  if (!initial_.empty() && !replaying_launch()) std::memcpy(raw_address(base_), initial_.data(), initial_.size());
}

void shared_storage::release() noexcept { base_ = shared_address{}; }

void shared_storage::allocate_block_static() {
  count_ = evaluate_count(count_fn_, name());
  const std::size_t bytes = bytes_per_thread(threads());
  const char* fn = shared_name(name(), "shared_array");
  const bool symmetric = type_->block != 0;
  base_ = shared_address{static_alloc_once(reinterpret_cast<std::uintptr_t>(this),
                                           symmetric ? bytes : std::max<std::size_t>(bytes, 1), symmetric, initial_,
                                           fn, label()),
                         0, 0};
  register_static_object(this);
  registered_ = true;
}

void shared_storage::allocate_collectively() {
  // A declaration in the body is a collective call like upc_all_alloc.
  collective_call call("shared_array declaration", file_, line_);
  count_ = evaluate_count(count_fn_, name());
  const std::size_t bytes = bytes_per_thread(threads());
  const char* fn = shared_name(name(), "shared_array");
  // Under --check the element count must be the same on every thread (equal byte
  // counts, which the allocation itself compares, do not imply it).
  single_valued args(fn);
  if (check_enabled()) args.add("the element count", count_, elements_text, "declared");
  // Indefinite arrays declared in the body are still symmetric so that the pointer
  // is the same everywhere; only thread 0's part is used.
  base_ = shared_address{collective_symmetric_alloc(bytes, fn, label(), args), 0, 0};
  // Zero-fill my own part, then make sure nobody reads before everyone has. An
  // indefinite array lives on thread 0 alone: the other threads' parts stay
  // untouched (never paged in), not THREADS copies of zeros.
  if (type_->block != 0 || tl_mythread == 0)
    std::memset(g_partitions + tl_mythread * g_partition_bytes + base_.offset, 0, std::max<std::size_t>(bytes, 1));
  if (!initial_.empty() && tl_mythread == 0) std::memcpy(raw_address(base_), initial_.data(), initial_.size());
  world_barrier(fn);
}

// Thread 0's element count and block size of a run-time layout (upc/shared_md.hpp),
// compared on every thread through a scratch allocation.
void check_single_valued_layout(std::size_t elements, std::size_t block_elems) {
  const char* fn = "shared_array";
  single_valued args(fn);
  args.add("the element count", elements, elements_text, "declared").add("the block size", block_elems, nullptr, "chose");
  const std::uint32_t round = my_slot().collective_seq++;
  args.publish(round);
  world_barrier(fn);
  args.verify(round);
}

// ---- error helpers of sptr/shared_array ---------------------------------------

void fail_not_local(const char* function, const shared_address& a) {
  fail(function, "the pointer-to-shared has affinity to thread " + std::to_string(a.thread) +
                     ", not to the calling thread; use upc_memget/upc_memput or upc_cast for remote data");
}
void fail_null(const char* function) { fail(function, "null pointer-to-shared"); }
void fail_index(const char* function, std::size_t index, std::size_t size) {
  fail(function, "index " + std::to_string(index) + " is out of bounds for a shared array of " + std::to_string(size) +
                     " elements");
}

}  // namespace upc::detail
