// The C interface of the runtime (include/upcemu_c.h): thin extern "C" wrappers
// over the C++ runtime, for the C that upcc emits (docs/upcc.md). Errors are
// upc::error thrown through the C frames, so upcc compiles C with -fexceptions.
#include "upcemu_c.h"
#include "../runtime/call_site.hpp"
#include "../runtime/locality.hpp"
#include "../runtime/race_check.hpp"
#include "lock_address.hpp"

#include <cstring>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "upc/alloc.hpp"
#include "upc/error.hpp"
#include "upc/lock.hpp"
#include "upc/memops.hpp"
#include "upc/runtime.hpp"
#include "upc/shared_array.hpp"
#include "upc/sptr.hpp"
#include "upc/sync.hpp"

static_assert(sizeof(upcemu_sptr) == sizeof(upc::shared_address));
static_assert(offsetof(upcemu_sptr, offset) == offsetof(upc::shared_address, offset));
static_assert(offsetof(upcemu_sptr, thread) == offsetof(upc::shared_address, thread));
static_assert(offsetof(upcemu_sptr, phase) == offsetof(upc::shared_address, phase));
static_assert(unsigned{UPCEMU_READ} == upc::detail::access_read &&
              unsigned{UPCEMU_WRITE} == upc::detail::access_write &&
              unsigned{UPCEMU_STRICT} == upc::detail::access_strict);

namespace {
using upc::detail::lock_of;
using upc::detail::lock_sptr;
upc::shared_address to_cpp(upcemu_sptr p) { return upc::shared_address{p.offset, p.thread, p.phase}; }
upcemu_sptr to_c(const upc::shared_address& a) { return upcemu_sptr{a.offset, a.thread, a.phase}; }
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(to_cpp(p)); }

// The _at forms (what <upc.h>'s macros call, with the UPC program's __FILE__ and
// __LINE__): the runtime reads the site through file_of/line_of (waits, collective
// mismatches); a report that names no place of its own (upc_unlock of a lock not
// held, a upc_mem* range out of bounds) gets " at file:line" appended here.
template <class F>
auto at_site(const char* file, unsigned line, F&& call) -> decltype(call()) {
  upc::detail::c_site_scope site(file, line);
  try {
    return call();
  } catch (const upc::error& e) {
    const std::string here = std::string(file ? file : "") + ":" + std::to_string(line);
    if (!file || e.message().find(here) != std::string::npos) throw;
    throw upc::error(e.function(), e.message() + upc::detail::location_text(file, line), e.thread());
  }
}

// A declared shared object of a C translation unit: the C++ runtime's
// shared_storage (registered, allocated by the launcher before every run), which
// also publishes its base offset and resolved block size to the C side.
class c_object final : public upc::detail::shared_storage {
 public:
  c_object(upcemu_object* out, upc::detail::declared_type* type, std::size_t (*count)(void), bool star,
           const void* init, std::source_location where)
      : shared_storage([this] { return count_and_block(); }, *type, where, init),
        out_(out), type_(type), count_fn_(count), star_(star) {}
  void allocate() override {
    shared_storage::allocate();
    out_->offset = base().offset;
    out_->count = count();
    out_->block = type_->block;
  }
  void release() noexcept override {
    shared_storage::release();
    out_->offset = 0;
  }

 private:
  std::size_t count_and_block() {
    const std::size_t n = count_fn_();
    if (star_) {
      const auto T = static_cast<std::size_t>(upc::threads());
      type_->block = n == 0 ? 1 : (n + T - 1) / T;  // shared [*]: one block per thread
    }
    return n;
  }
  upcemu_object* out_;
  upc::detail::declared_type* type_;
  std::size_t (*count_fn_)(void);
  bool star_;
};

// upcc -T N: a static object whose "allocation" is the check, so that a mismatch
// stops the run before any thread starts, with a report.
class threads_check final : public upc::detail::static_object {
 public:
  threads_check(int n, const char* file) : n_(n), file_(file) { upc::detail::register_static_object(this); }
  void allocate() override {
    if (upc::threads() != n_)
      upc::detail::fail("upcc -T", std::string(file_) + " was compiled for a static THREADS of " + std::to_string(n_) +
                                       " (upcc -T " + std::to_string(n_) + "), but the run has " +
                                       std::to_string(upc::threads()) + " threads: run it with upcrun -n " +
                                       std::to_string(n_));
  }
  void release() noexcept override {}

 private:
  int n_;
  const char* file_;
};

std::optional<int> id_of(int has_id, int id) { return has_id ? std::optional<int>(id) : std::nullopt; }
}  // namespace

extern "C" {

thread_local int upcemu_tl_forall = 0;  // nested upc_forall (upcemu_forall_enter)

void upcemu_declare(upcemu_object* obj, size_t elem_size, size_t block, size_t (*count)(void), const char* type,
                    const char* file, unsigned line, const void* init) {
  const bool star = block == UPCEMU_BLOCK_STAR;
  // Kept for the life of the process (the registry and reports refer to it); the
  // signature spells the element type the way declared_type_name() reads it.
  auto* signature = new std::string(std::string("[with T = ") + type + "]");
  // Family "upc": reports name the type in UPC's words ("shared [4] int array"),
  // not as the C++ API's shared_array<int, 4> (declared_type_name).
  auto* t = new upc::detail::declared_type{star ? "upc[*]" : "upc", signature->c_str(), elem_size, star ? 1 : block};
  obj->block = t->block;
  // The object's reports ("declared at prog.upc:3") name the UPC declaration.
  upc::detail::c_site_scope site(file, line);
  new c_object(obj, t, count, star, init, std::source_location::current());
}

void upcemu_require_threads(int n, const char* file) { new threads_check(n, file); }

namespace {
std::vector<void (*)(void)>& initializers() {
  static std::vector<void (*)(void)> v;  // filled by constructors, read-only during runs
  return v;
}
}  // namespace

void upcemu_initializer(void (*fn)(void)) { initializers().push_back(fn); }

void upcemu_run_initializers(void) {
  if (initializers().empty()) return;
  if (upc::mythread() == 0)
    for (auto fn : initializers()) fn();
  upc::barrier();
}

void upcemu_init_elems(const upcemu_object* obj, const void* values, size_t n, size_t elem) {
  const upc::shared_address base{obj->offset, 0, 0};
  const size_t count = n < obj->count ? n : obj->count;
  for (size_t i = 0; i < count; i++)
    std::memcpy(upc::detail::raw_address(upc::layout::advance(base, static_cast<std::ptrdiff_t>(i), elem, obj->block,
                                                              upc::threads())),
                static_cast<const char*>(values) + i * elem, elem);
}

void upcemu_check_access(upcemu_sptr p, size_t bytes, int kind, const char* file, unsigned line) {
  const upc::shared_address a = to_cpp(p);
  // Every access comes here under --check or --report=locality (upcemu_addr).
  if (upc::detail::g_check) {
    // The report's name ("shared access at FILE:LINE") is built only when the
    // access fails, by check_access's own tests (the same as these: inside one
    // partition, inside one live object).
    const bool in_partition = a.thread < static_cast<std::uint32_t>(upc::detail::g_threads) &&
                              a.offset <= upc::detail::g_partition_bytes &&
                              bytes <= upc::detail::g_partition_bytes - a.offset;  // never offset + bytes: it wraps
    if (!in_partition || !upc::detail::object_access_ok(a, bytes)) [[unlikely]] {
      const std::string fn = std::string("shared access at ") + file + ":" + std::to_string(line);
      upc::detail::check_access(fn.c_str(), a, bytes);
    }
    if (upc::detail::g_races)
      upc::detail::note_shared_access(upc::detail::raw_address(a), bytes, static_cast<unsigned>(kind),
                                      {file, line, nullptr});
  }
  if (upc::detail::g_locality) upc::detail::locality::note_access(a.thread, bytes, file, line);
}

void upcemu_note_forall_every_thread(const char* file, unsigned line) {
  upc::detail::locality::note_forall_every_thread(file, line);
}

void upcemu_check_local_of(upcemu_sptr p, const char* file, unsigned line) {
  const std::string fn = std::string("cast to a local pointer at ") + file + ":" + std::to_string(line);
  const upc::shared_address a = to_cpp(p);
  if (a.thread != static_cast<std::uint32_t>(upc::mythread())) upc::detail::fail_not_local(fn.c_str(), a);
  if (upc::detail::object_access_ok(a, 0)) return;
  // C lets a pointer one past the end of an array be formed and converted
  // (&a[n] as a bound), though not dereferenced.
  if (a.offset > 0) {
    upc::shared_address last = a;
    last.offset -= 1;
    if (upc::detail::object_access_ok(last, 1)) return;
  }
  upc::detail::check_access(fn.c_str(), a, 0);
}

void upcemu_fail(const char* function, const char* message) { upc::detail::fail(function, message); }

// Reports (barrier mismatches, deadlocks, waits) name the UPC program's line.
void upcemu_barrier(int has_id, int id, const char* file, unsigned line) {
  upc::detail::c_site_scope site(file, line);
  upc::barrier(id_of(has_id, id));
}
void upcemu_notify(int has_id, int id, const char* file, unsigned line) {
  upc::detail::c_site_scope site(file, line);
  upc::notify(id_of(has_id, id));
}
void upcemu_wait(int has_id, int id, const char* file, unsigned line) {
  upc::detail::c_site_scope site(file, line);
  upc::wait(id_of(has_id, id));
}

upcemu_sptr upcemu_global_lock_alloc_at(const char* file, unsigned line) {
  return lock_sptr(at_site(file, line, [] { return upc::global_lock_alloc(); }));
}
upcemu_sptr upcemu_all_lock_alloc_at(const char* file, unsigned line) {
  return lock_sptr(at_site(file, line, [] { return upc::all_lock_alloc(); }));
}
void upcemu_lock_free_at(upcemu_sptr l, const char* file, unsigned line) {
  at_site(file, line, [l] { upc::lock_free(lock_of(l)); });
}
void upcemu_all_lock_free_at(upcemu_sptr l, const char* file, unsigned line) {
  at_site(file, line, [l] { upc::all_lock_free(lock_of(l)); });
}
void upcemu_lock_at(upcemu_sptr l, const char* file, unsigned line) {
  at_site(file, line, [l] { upc::lock(lock_of(l)); });
}
int upcemu_lock_attempt_at(upcemu_sptr l, const char* file, unsigned line) {
  return at_site(file, line, [l] { return upc::lock_attempt(lock_of(l)); });
}
void upcemu_unlock_at(upcemu_sptr l, const char* file, unsigned line) {
  at_site(file, line, [l] { upc::unlock(lock_of(l)); });
}
// The sites of nested library calls (`upc_sync(upc_memget_nb(...))`: the outer
// macro enters, the inner one enters and leaves before the outer call runs) form
// a stack: leave restores the site that enter replaced. Deeper than the saved
// levels, leave keeps the current site (nested calls of one statement share it).
namespace {
constexpr unsigned site_stack_levels = 32;
thread_local upc::detail::c_site tl_site_stack[site_stack_levels];
thread_local unsigned tl_site_depth = 0;
}  // namespace
void upcemu_site_enter(const char* file, unsigned line) {
  if (tl_site_depth < site_stack_levels) tl_site_stack[tl_site_depth] = upc::detail::tl_c_site;
  ++tl_site_depth;
  upc::detail::tl_c_site = {file, line};
}
void upcemu_site_leave(void) {
  if (tl_site_depth == 0) {
    upc::detail::tl_c_site = {};
    return;
  }
  --tl_site_depth;
  if (tl_site_depth < site_stack_levels) upc::detail::tl_c_site = tl_site_stack[tl_site_depth];
}

// The UPC names as functions (&upc_lock works), with the UPC prototypes that
// upcc translates: a lock is a pointer-to-shared.
upcemu_sptr upcemu_upc_global_lock_alloc(void) { return lock_sptr(upc::global_lock_alloc()); }
upcemu_sptr upcemu_upc_all_lock_alloc(void) { return lock_sptr(upc::all_lock_alloc()); }
void upc_lock_free(upcemu_sptr l) { upc::lock_free(lock_of(l)); }
void upc_all_lock_free(upcemu_sptr l) { upc::all_lock_free(lock_of(l)); }
void upc_lock(upcemu_sptr l) { upc::lock(lock_of(l)); }
int upc_lock_attempt(upcemu_sptr l) { return upc::lock_attempt(lock_of(l)); }
void upc_unlock(upcemu_sptr l) { upc::unlock(lock_of(l)); }

void upc_global_exit(int status) { upc::global_exit(status); }

// The library functions whose UPC prototypes (tools/upcc/include/upc.h) take or
// return pointers-to-shared: upcc translates those prototypes to upcemu_sptr.
upcemu_sptr upc_all_alloc(size_t nblocks, size_t nbytes) { return to_c(upc::all_alloc(nblocks, nbytes).address()); }
upcemu_sptr upc_global_alloc(size_t nblocks, size_t nbytes) {
  return to_c(upc::global_alloc(nblocks, nbytes).address());
}
upcemu_sptr upc_alloc(size_t nbytes) { return to_c(upc::alloc(nbytes).address()); }
// UPC 1.2's upc_local_alloc (removed in 1.3, still used by old codes such as GCC UPC's
// tests): upc_alloc(nblocks * nbytes), checked for overflow by upc::local_alloc.
upcemu_sptr upc_local_alloc(size_t nblocks, size_t nbytes) {
  return to_c(upc::local_alloc(nblocks, nbytes).address());
}
void upc_free(upcemu_sptr p) { upc::free(vptr(p)); }
void upc_all_free(upcemu_sptr p) { upc::all_free(vptr(p)); }
void upc_memcpy(upcemu_sptr dst, upcemu_sptr src, size_t n) { upc::memcpy(vptr(dst), vptr(src), n); }
void upc_memget(void* dst, upcemu_sptr src, size_t n) { upc::memget(dst, vptr(src), n); }
void upc_memput(upcemu_sptr dst, const void* src, size_t n) { upc::memput(vptr(dst), src, n); }
void upc_memset(upcemu_sptr dst, int c, size_t n) { upc::memset(vptr(dst), c, n); }
void upcemu_memcpy_at(upcemu_sptr dst, upcemu_sptr src, size_t n, const char* file, unsigned line) {
  at_site(file, line, [&] { upc::memcpy(vptr(dst), vptr(src), n); });
}
void upcemu_memget_at(void* dst, upcemu_sptr src, size_t n, const char* file, unsigned line) {
  at_site(file, line, [&] { upc::memget(dst, vptr(src), n); });
}
void upcemu_memput_at(upcemu_sptr dst, const void* src, size_t n, const char* file, unsigned line) {
  at_site(file, line, [&] { upc::memput(vptr(dst), src, n); });
}
void upcemu_memset_at(upcemu_sptr dst, int c, size_t n, const char* file, unsigned line) {
  at_site(file, line, [&] { upc::memset(vptr(dst), c, n); });
}
size_t upc_threadof(upcemu_sptr p) { return p.thread; }
size_t upc_phaseof(upcemu_sptr p) { return p.phase; }
size_t upc_addrfield(upcemu_sptr p) { return static_cast<size_t>(p.offset); }
upcemu_sptr upc_resetphase(upcemu_sptr p) {
  p.phase = 0;
  return p;
}
size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid) {
  return upc::layout::affinity_size(totalsize, nbytes, static_cast<int>(threadid), upc::threads());
}

}  // extern "C"
