// The C side of <bupc_extensions.h> for upcc (tools/upcc/include/bupc_extensions.h,
// docs/upcc.md "Berkeley UPC extensions"): Berkeley UPC's timers, thread
// distance, handle arrays and access regions, semaphores, atomics and
// pointer-to-shared utilities, each as Berkeley documents it, on the C++
// runtime. Functions without a pointer-to-shared parameter have C symbols of
// their own (upcemu_bupc_*, __asm__ labels in the UPC header).
#include <errno.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

#include "upcemu_c.h"
#include "upc.h"
#include "upc_castable.h"
#include "upc_nb.h"
#include "../runtime/futex.hpp"
#include "../runtime/hosts.hpp"
#include "../runtime/nb_region.hpp"
#include "../runtime/race_check.hpp"
#include "../runtime/remote_ops.hpp"

namespace {

using upc::detail::fail;

upc::shared_address addr(upcemu_sptr p) { return upc::shared_address{p.offset, p.thread, p.phase}; }
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(addr(p)); }
upcemu_sptr c_sptr(const upc::shared_address& a) { return upcemu_sptr{a.offset, a.thread, a.phase}; }

std::string str(std::uint64_t v) { return std::to_string(v); }

// A pointer-to-shared that must name `bytes` of shared memory, aligned to `align`.
void check_target(const char* fn, const char* arg, upcemu_sptr p, std::size_t bytes, std::size_t align) {
  if (p.offset == 0 && p.thread == 0 && p.phase == 0) fail(fn, std::string(arg) + " is a null pointer-to-shared");
  if (p.thread >= static_cast<std::uint32_t>(upc::threads()))
    fail(fn, std::string(arg) + " names thread " + str(p.thread) + ", but THREADS is " + str(static_cast<std::uint64_t>(upc::threads())));
  if (p.offset > upc::detail::g_partition_bytes || bytes > upc::detail::g_partition_bytes - p.offset)
    fail(fn, std::string(arg) + " (thread " + str(p.thread) + ", offset " + str(p.offset) + ") is outside that thread's shared heap");
  if (p.offset % align)
    fail(fn, std::string(arg) + " (offset " + str(p.offset) + ") is not aligned to " + str(align) + " bytes");
}

std::uint64_t now_ns() noexcept {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

// ---- atomics: on this host's memory with the compiler's atomics, on another
// host's through its server (remote_ops), as a compare-and-swap loop ----

enum class aop { read, set, swap, cswap, add, and_, or_, xor_, not_ };

template <class T>
T apply(aop op, T old, T v) {
  switch (op) {
    case aop::set:
    case aop::swap: return v;
    case aop::add: return static_cast<T>(old + v);
    case aop::and_: return static_cast<T>(old & v);
    case aop::or_: return static_cast<T>(old | v);
    case aop::xor_: return static_cast<T>(old ^ v);
    case aop::not_: return static_cast<T>(~old);
    default: return old;
  }
}

template <class T>
T atomic_on(const char* fn, upcemu_sptr p, aop op, T v, T expected, bool strict) {
  check_target(fn, "ptr", p, sizeof(T), sizeof(T));
  if (strict) upc::fence();
  T old;
  if (upc::detail::on_my_host(static_cast<int>(p.thread))) {
    T* at = reinterpret_cast<T*>(upc::detail::raw_address(addr(p)));
    std::atomic_ref<T> ref(*at);
    const auto order = strict ? std::memory_order_seq_cst : std::memory_order_relaxed;
    switch (op) {
      case aop::read: old = ref.load(order); break;
      case aop::set: ref.store(v, order); old = v; break;
      case aop::swap: old = ref.exchange(v, order); break;
      case aop::cswap: old = expected; ref.compare_exchange_strong(old, v, order); break;
      case aop::add: old = ref.fetch_add(v, order); break;
      case aop::and_: old = ref.fetch_and(v, order); break;
      case aop::or_: old = ref.fetch_or(v, order); break;
      case aop::xor_: old = ref.fetch_xor(v, order); break;
      default: {  // not
        old = ref.load(std::memory_order_relaxed);
        while (!ref.compare_exchange_weak(old, static_cast<T>(~old), order)) {
        }
      }
    }
  } else {
    using upc::detail::remote_op;
    const void* at = upc::detail::raw_address(addr(p));
    const bool wide = sizeof(T) == 8;
    auto word = [](T x) { return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(x)); };
    const int owner = static_cast<int>(p.thread);
    if (op == aop::read) {
      old = static_cast<T>(upc::detail::remote_atomic(owner, wide ? remote_op::load64 : remote_op::load32, at, 0));
    } else if (op == aop::cswap) {
      old = static_cast<T>(upc::detail::remote_atomic(owner, wide ? remote_op::compare_exchange64 : remote_op::compare_exchange32,
                                                      at, word(v), word(expected)));
    } else {
      old = static_cast<T>(upc::detail::remote_atomic(owner, wide ? remote_op::load64 : remote_op::load32, at, 0));
      while (true) {
        const T seen = static_cast<T>(upc::detail::remote_atomic(
            owner, wide ? remote_op::compare_exchange64 : remote_op::compare_exchange32, at, word(apply(op, old, v)), word(old)));
        if (seen == old) break;
        old = seen;
      }
      if (op == aop::set) old = v;
    }
  }
  if (strict) upc::fence();
  return old;
}

// ---- semaphores: one record in the allocating thread's shared memory ----

constexpr std::uint32_t sem_magic = 0x5e3a90c1u;
struct sem_record {
  std::atomic<std::uint32_t> value;  // also the futex word waiters sleep on
  std::uint32_t flags;
  std::uint32_t magic;
  std::atomic<std::uint32_t> producer;  // thread + 1 of the first post / wait (S* checks)
  std::atomic<std::uint32_t> consumer;
};

sem_record& sem_of(const char* fn, upcemu_sptr s) {
  check_target(fn, "s", s, sizeof(sem_record), alignof(sem_record));
  if (!upc::detail::on_my_host(static_cast<int>(s.thread)))
    fail(fn, "the semaphore is on thread " + str(s.thread) + ", on another host: semaphores are supported within one host");
  sem_record& r = *reinterpret_cast<sem_record*>(upc::detail::raw_address(addr(s)));
  if (r.magic != sem_magic) fail(fn, "s is not a semaphore from bupc_sem_alloc (or it was freed)");
  return r;
}

// The one thread a single-producer (-consumer) semaphore allows.
void single_party(const char* fn, std::atomic<std::uint32_t>& who, bool single, const char* role) {
  if (!single) return;
  const std::uint32_t me = static_cast<std::uint32_t>(upc::mythread()) + 1;
  std::uint32_t first = 0;
  if (who.compare_exchange_strong(first, me) || first == me) return;
  fail(fn, std::string("the semaphore was allocated with BUPC_SEM_S") + role + " but thread " + str(first - 1) +
               " and this thread both " + (role[0] == 'P' ? "post" : "wait on") + " it");
}

// BUPC_SEM_* values, as tools/upcc/include/bupc_extensions.h has them.
constexpr int sem_boolean = 1, sem_integer = 2, sem_sproducer = 4, sem_mproducer = 8, sem_sconsumer = 16,
              sem_mconsumer = 32, sem_mask = 63;
constexpr std::uint32_t sem_maxvalue = 65535;

void sem_post(const char* fn, upcemu_sptr s, std::size_t n, bool counted) {
  sem_record& r = sem_of(fn, s);
  if (counted && (r.flags & sem_boolean)) fail(fn, "the semaphore is BUPC_SEM_BOOLEAN: the N forms are for BUPC_SEM_INTEGER ones");
  // The semaphore's own thread posting it does not count: Berkeley's check
  // (upcr_sem.c, UPCR_SEM_DEBUG) registers only the signals of other threads,
  // and its benchmarks/bupc_semperf.upc posts its own SPRODUCER semaphores.
  if (static_cast<std::uint32_t>(upc::mythread()) != s.thread)
    single_party(fn, r.producer, r.flags & sem_sproducer, "PRODUCER");
  const std::uint32_t max = (r.flags & sem_boolean) ? 1 : sem_maxvalue;
  upc::fence();  // what was written before the post is seen by the waiter
  if (upc::detail::g_races) upc::detail::race_release(&r);  // a post orders what came before it for the taker
  std::uint32_t v = r.value.load(std::memory_order_relaxed);
  do {
    if (n > max - v)
      fail(fn, "posting " + str(n) + " to a semaphore holding " + str(v) + " passes its largest value " + str(max) +
                   ((r.flags & sem_boolean) ? " (BUPC_SEM_BOOLEAN)" : " (BUPC_SEM_MAXVALUE)"));
  } while (!r.value.compare_exchange_weak(v, v + static_cast<std::uint32_t>(n), std::memory_order_seq_cst));
  upc::detail::futex_wake_all(&r.value);
}

bool sem_take(sem_record& r, std::size_t n) {
  std::uint32_t v = r.value.load(std::memory_order_relaxed);
  while (v >= n)
    if (r.value.compare_exchange_weak(v, v - static_cast<std::uint32_t>(n), std::memory_order_seq_cst)) return true;
  return false;
}

void sem_check_take(const char* fn, sem_record& r, std::size_t n, bool counted) {
  if (counted && (r.flags & sem_boolean)) fail(fn, "the semaphore is BUPC_SEM_BOOLEAN: the N forms are for BUPC_SEM_INTEGER ones");
  const std::uint32_t max = (r.flags & sem_boolean) ? 1 : sem_maxvalue;
  if (n > max) fail(fn, "waiting for " + str(n) + ", more than the semaphore can hold (" + str(max) + ")");
  single_party(fn, r.consumer, r.flags & sem_sconsumer, "CONSUMER");
}

void sem_wait(const char* fn, upcemu_sptr s, std::size_t n, bool counted) {
  sem_record& r = sem_of(fn, s);
  sem_check_take(fn, r, n, counted);
  for (int spins = 0; !sem_take(r, n); ++spins) {
    const std::uint32_t seen = r.value.load(std::memory_order_acquire);
    if (seen >= n) continue;
    if (spins < 64) {
      upc::detail::cpu_relax();
      continue;
    }
    upc::poll();  // stops this thread when the run is being stopped
    upc::detail::futex_wait(&r.value, seen, 10'000'000);
  }
  if (upc::detail::g_races) upc::detail::race_acquire(&r);
  upc::fence();
}

int sem_try(const char* fn, upcemu_sptr s, std::size_t n, bool counted) {
  sem_record& r = sem_of(fn, s);
  sem_check_take(fn, r, n, counted);
  const bool took = sem_take(r, n);
  if (took && upc::detail::g_races) upc::detail::race_acquire(&r);
  upc::fence();
  return took ? 1 : 0;
}

thread_local bool tl_in_access_region = false;

// ---- vector, indexed and strided copies (Berkeley's VIS): each piece of the
// destination is filled from the source's bytes taken in order, piece by piece,
// by upc_memcpy / upc_memget / upc_memput; a shared piece lies on its pointer's
// thread from its byte on (as a shared [] char). Done at once: the _async
// forms (macros in the header) return a complete handle. ----

// One side of a copy: a sequence of pieces, shared (sptr) or private (local).
struct side {
  virtual ~side() = default;
  virtual std::size_t count() const = 0;
  virtual std::size_t length(std::size_t i) const = 0;
  virtual upcemu_sptr shared_at(std::size_t, std::size_t) const { return {}; }
  virtual char* local_at(std::size_t, std::size_t) const { return nullptr; }
  virtual bool is_shared() const = 0;
};
struct shared_pieces : side {
  std::size_t n;
  std::function<upcemu_sptr(std::size_t)> base;
  std::function<std::size_t(std::size_t)> len;
  std::size_t count() const override { return n; }
  std::size_t length(std::size_t i) const override { return len(i); }
  upcemu_sptr shared_at(std::size_t i, std::size_t off) const override {
    upcemu_sptr p = base(i);
    p.offset += off;
    p.phase = 0;
    return p;
  }
  bool is_shared() const override { return true; }
};
struct local_pieces : side {
  std::size_t n;
  std::function<char*(std::size_t)> base;
  std::function<std::size_t(std::size_t)> len;
  std::size_t count() const override { return n; }
  std::size_t length(std::size_t i) const override { return len(i); }
  char* local_at(std::size_t i, std::size_t off) const override { return base(i) + off; }
  bool is_shared() const override { return false; }
};

std::size_t total_bytes(const side& s) {
  std::size_t sum = 0;
  for (std::size_t i = 0; i < s.count(); ++i) sum += s.length(i);
  return sum;
}

void check_pieces(const char* fn, const char* which, const side& s) {
  if (!s.is_shared()) return;
  for (std::size_t i = 0; i < s.count(); ++i)
    if (s.length(i) != 0) check_target(fn, (std::string(which) + " piece " + str(i)).c_str(), s.shared_at(i, 0), s.length(i), 1);
}

void copy_pieces(const char* fn, const side& dst, const side& src) {
  const std::size_t dn = total_bytes(dst), sn = total_bytes(src);
  if (dn != sn) fail(fn, "the destination holds " + str(dn) + " bytes but the source " + str(sn) + ": they must be equal");
  check_pieces(fn, "destination", dst);
  check_pieces(fn, "source", src);
  std::size_t di = 0, doff = 0, si = 0, soff = 0;
  for (std::size_t left = dn; left > 0;) {
    while (doff == dst.length(di)) ++di, doff = 0;
    while (soff == src.length(si)) ++si, soff = 0;
    const std::size_t k = std::min(dst.length(di) - doff, src.length(si) - soff);
    if (dst.is_shared() && src.is_shared())
      upc_memcpy(vptr(dst.shared_at(di, doff)), vptr(src.shared_at(si, soff)), k);
    else if (dst.is_shared())
      upc_memput(vptr(dst.shared_at(di, doff)), src.local_at(si, soff), k);
    else
      upc_memget(dst.local_at(di, doff), vptr(src.shared_at(si, soff)), k);
    doff += k, soff += k, left -= k;
  }
}

struct pmemvec { void* addr; size_t len; };
struct smemvec { upcemu_sptr addr; size_t len; };

shared_pieces svec(std::size_t n, const smemvec* v) {
  shared_pieces s;
  s.n = n;
  s.base = [v](std::size_t i) { return v[i].addr; };
  s.len = [v](std::size_t i) { return v[i].len; };
  return s;
}
local_pieces pvec(std::size_t n, const pmemvec* v) {
  local_pieces s;
  s.n = n;
  s.base = [v](std::size_t i) { return static_cast<char*>(v[i].addr); };
  s.len = [v](std::size_t i) { return v[i].len; };
  return s;
}
shared_pieces slist(std::size_t n, const upcemu_sptr* v, std::size_t len) {
  shared_pieces s;
  s.n = n;
  s.base = [v](std::size_t i) { return v[i]; };
  s.len = [len](std::size_t) { return len; };
  return s;
}
local_pieces plist(std::size_t n, const void* const* v, std::size_t len) {
  local_pieces s;
  s.n = n;
  s.base = [v](std::size_t i) { return static_cast<char*>(const_cast<void*>(v[i])); };
  s.len = [len](std::size_t) { return len; };
  return s;
}
shared_pieces schunks(upcemu_sptr a, std::size_t len, std::size_t stride, std::size_t n) {
  shared_pieces s;
  s.n = n;
  s.base = [a, stride](std::size_t i) {
    upcemu_sptr p = a;
    p.offset += i * stride;
    return p;
  };
  s.len = [len](std::size_t) { return len; };
  return s;
}
local_pieces pchunks(void* a, std::size_t len, std::size_t stride, std::size_t n) {
  local_pieces s;
  s.n = n;
  s.base = [a, stride](std::size_t i) { return static_cast<char*>(a) + i * stride; };
  s.len = [len](std::size_t) { return len; };
  return s;
}
// The strided form: count[0] contiguous bytes, count[1..levels] repetitions,
// strides[k] the byte distance between repetitions of level k+1.
std::size_t strided_pieces(const char* fn, const size_t* count, size_t levels) {
  if (levels > 0 && count == nullptr) fail(fn, "count is a null pointer");
  std::size_t n = 1;
  for (size_t k = 1; k <= levels; ++k) n *= count[k];
  return n;
}
std::size_t strided_offset(std::size_t i, const size_t* strides, const size_t* count, size_t levels) {
  std::size_t off = 0;
  for (size_t k = 1; k <= levels; ++k) {
    off += (i % count[k]) * strides[k - 1];
    i /= count[k];
  }
  return off;
}
shared_pieces sstrided(const char* fn, upcemu_sptr a, const size_t* strides, const size_t* count, size_t levels) {
  shared_pieces s;
  s.n = strided_pieces(fn, count, levels);
  s.base = [=](std::size_t i) {
    upcemu_sptr p = a;
    p.offset += strided_offset(i, strides, count, levels);
    return p;
  };
  const std::size_t len = levels == 0 && count == nullptr ? 0 : count[0];
  s.len = [len](std::size_t) { return len; };
  return s;
}
local_pieces pstrided(const char* fn, const void* a, const size_t* strides, const size_t* count, size_t levels) {
  local_pieces s;
  s.n = strided_pieces(fn, count, levels);
  s.base = [=](std::size_t i) {
    return static_cast<char*>(const_cast<void*>(a)) + strided_offset(i, strides, count, levels);
  };
  const std::size_t len = levels == 0 && count == nullptr ? 0 : count[0];
  s.len = [len](std::size_t) { return len; };
  return s;
}

}  // namespace

extern "C" {

// ---- timers ----
uint64_t upcemu_bupc_ticks_now(void) { return now_ns(); }
uint64_t upcemu_bupc_ticks_to_us(uint64_t ticks) { return ticks / 1000; }
uint64_t upcemu_bupc_ticks_to_ns(uint64_t ticks) { return ticks; }
double upcemu_bupc_tick_granularityus(void) {
  static const double g = [] {
    std::uint64_t best = ~0ULL;
    for (int i = 0; i < 100; ++i) {
      const std::uint64_t a = now_ns();
      std::uint64_t b;
      while ((b = now_ns()) == a) {
      }
      best = std::min(best, b - a);
    }
    return static_cast<double>(best) / 1000.0;
  }();
  return g;
}
double upcemu_bupc_tick_overheadus(void) {
  static const double o = [] {
    constexpr int n = 1000;
    const std::uint64_t a = now_ns();
    for (int i = 0; i < n; ++i) (void)now_ns();
    return static_cast<double>(now_ns() - a) / n / 1000.0;
  }();
  return o;
}

// ---- topology ----
unsigned int upcemu_bupc_thread_distance(int x, int y) { return bupc_thread_distance(x, y); }

// ---- handle arrays, access regions ----
void upcemu_bupc_waitsync_all(upc_handle_t* ph, size_t n) {
  if (n && !ph) fail("bupc_waitsync_all", "ph is a null pointer, but n is " + str(n));
  for (size_t i = 0; i < n; ++i) {
    if (ph[i] != UPC_COMPLETE_HANDLE) upc_sync(ph[i]);
    ph[i] = UPC_COMPLETE_HANDLE;
  }
}
int upcemu_bupc_trysync_all(upc_handle_t* ph, size_t n) {
  if (n && !ph) fail("bupc_trysync_all", "ph is a null pointer, but n is " + str(n));
  for (size_t i = 0; i < n; ++i) {
    if (ph[i] == UPC_COMPLETE_HANDLE) continue;
    if (!upc_sync_attempt(ph[i])) return 0;
    ph[i] = UPC_COMPLETE_HANDLE;
  }
  return 1;
}
int upcemu_bupc_trysync_some(upc_handle_t* ph, size_t n) {
  if (n && !ph) fail("bupc_trysync_some", "ph is a null pointer, but n is " + str(n));
  bool some = false, all_done_before = true;
  for (size_t i = 0; i < n; ++i) {
    if (ph[i] == UPC_COMPLETE_HANDLE) continue;
    all_done_before = false;
    if (upc_sync_attempt(ph[i])) {
      ph[i] = UPC_COMPLETE_HANDLE;
      some = true;
    }
  }
  return some || all_done_before ? 1 : 0;
}
void upcemu_bupc_waitsync_some(upc_handle_t* ph, size_t n) {
  while (!upcemu_bupc_trysync_some(ph, n)) upc::poll();
}
// The implicit-handle operations started in a region are completed by its one
// handle (nb_region.hpp). They complete when issued here, so the handle is
// complete too, except under --check=races, where it is a real handle: syncing
// it is where the region's transfers are noted again. The nesting is checked.
void upcemu_bupc_begin_accessregion(void) {
  if (tl_in_access_region) fail("bupc_begin_accessregion", "an access region is already open (they do not nest)");
  tl_in_access_region = true;
  upc::detail::nb_region_begin();
}
upc_handle_t upcemu_bupc_end_accessregion(void) {
  if (!tl_in_access_region) fail("bupc_end_accessregion", "no access region is open (call bupc_begin_accessregion first)");
  tl_in_access_region = false;
  return upc::detail::nb_region_end();
}

// ---- semaphores ----
upcemu_sptr upcemu_bupc_sem_alloc(int flags) {
  const char* F = "bupc_sem_alloc";
  if (flags & ~sem_mask) fail(F, "flags has bits " + str(static_cast<unsigned>(flags & ~sem_mask)) + " that are not BUPC_SEM_* flags");
  auto both = [&](int a, int b) { return (flags & a) && (flags & b); };
  if (both(sem_boolean, sem_integer)) fail(F, "flags has both BUPC_SEM_BOOLEAN and BUPC_SEM_INTEGER");
  if (both(sem_sproducer, sem_mproducer)) fail(F, "flags has both BUPC_SEM_SPRODUCER and BUPC_SEM_MPRODUCER");
  if (both(sem_sconsumer, sem_mconsumer)) fail(F, "flags has both BUPC_SEM_SCONSUMER and BUPC_SEM_MCONSUMER");
  upc::sptr<void> p = upc_alloc(sizeof(sem_record));
  auto* r = new (upc::detail::raw_address(p.address())) sem_record{};
  r->flags = static_cast<std::uint32_t>(flags & sem_mask);
  r->magic = sem_magic;
  return c_sptr(p.address());
}
void bupc_sem_free(upcemu_sptr s) {
  if (s.offset == 0 && s.thread == 0 && s.phase == 0) return;
  sem_of("bupc_sem_free", s).magic = 0;
  upc_free(vptr(s));
}
void bupc_sem_post(upcemu_sptr s) { sem_post("bupc_sem_post", s, 1, false); }
void bupc_sem_postN(upcemu_sptr s, size_t n) { sem_post("bupc_sem_postN", s, n, true); }
void bupc_sem_wait(upcemu_sptr s) { sem_wait("bupc_sem_wait", s, 1, false); }
void bupc_sem_waitN(upcemu_sptr s, size_t n) { sem_wait("bupc_sem_waitN", s, n, true); }
int bupc_sem_try(upcemu_sptr s) { return sem_try("bupc_sem_try", s, 1, false); }
int bupc_sem_tryN(upcemu_sptr s, size_t n) { return sem_try("bupc_sem_tryN", s, n, true); }
static void memput_signal(const char* fn, upcemu_sptr dst, const void* src, size_t nbytes, upcemu_sptr s, size_t n) {
  if (dst.thread != s.thread)
    fail(fn, "dst is on thread " + str(dst.thread) + " but the semaphore s on thread " + str(s.thread) +
                 ": they must be on the same thread");
  sem_of(fn, s);
  upc_memput(vptr(dst), src, nbytes);
  sem_post(fn, s, n, n != 1);
}
void bupc_memput_signal(upcemu_sptr dst, const void* src, size_t nbytes, upcemu_sptr s, size_t n) {
  memput_signal("bupc_memput_signal", dst, src, nbytes, s, n);
}
void bupc_memput_signal_async(upcemu_sptr dst, const void* src, size_t nbytes, upcemu_sptr s, size_t n) {
  memput_signal("bupc_memput_signal_async", dst, src, nbytes, s, n);
}

// ---- atomics ----
// bupc_atomicC_<name>_S(p, v): the fetch-and-op operations, one row each.
#define UPCEMU_BUPC_FETCH(T, C, S, STRICT, name, op)                                                              \
  T bupc_atomic##C##_##name##_##S(upcemu_sptr p, T v) {                                                            \
    return atomic_on<T>("bupc_atomic" #C "_" #name "_" #S, p, aop::op, v, 0, STRICT);                              \
  }
#define UPCEMU_BUPC_ATOMIC(T, C, S, STRICT)                                                                        \
  T bupc_atomic##C##_read_##S(upcemu_sptr p) {                                                                     \
    return atomic_on<T>("bupc_atomic" #C "_read_" #S, p, aop::read, 0, 0, STRICT);                                 \
  }                                                                                                                \
  void bupc_atomic##C##_set_##S(upcemu_sptr p, T v) { atomic_on<T>("bupc_atomic" #C "_set_" #S, p, aop::set, v, 0, STRICT); } \
  T bupc_atomic##C##_swap_##S(upcemu_sptr p, T v) { return atomic_on<T>("bupc_atomic" #C "_swap_" #S, p, aop::swap, v, 0, STRICT); } \
  T bupc_atomic##C##_cswap_##S(upcemu_sptr p, T oldval, T newval) {                                                \
    return atomic_on<T>("bupc_atomic" #C "_cswap_" #S, p, aop::cswap, newval, oldval, STRICT);                     \
  }                                                                                                                \
  UPCEMU_BUPC_FETCH(T, C, S, STRICT, fetchadd, add)                                                               \
  UPCEMU_BUPC_FETCH(T, C, S, STRICT, fetchand, and_)                                                              \
  UPCEMU_BUPC_FETCH(T, C, S, STRICT, fetchor, or_)                                                                \
  UPCEMU_BUPC_FETCH(T, C, S, STRICT, fetchxor, xor_)                                                              \
  T bupc_atomic##C##_fetchnot_##S(upcemu_sptr p) {                                                                 \
    return atomic_on<T>("bupc_atomic" #C "_fetchnot_" #S, p, aop::not_, 0, 0, STRICT);                             \
  }
UPCEMU_BUPC_ATOMIC(uint64_t, U64, relaxed, false)
UPCEMU_BUPC_ATOMIC(uint64_t, U64, strict, true)
UPCEMU_BUPC_ATOMIC(int64_t, I64, relaxed, false)
UPCEMU_BUPC_ATOMIC(int64_t, I64, strict, true)
UPCEMU_BUPC_ATOMIC(uint32_t, U32, relaxed, false)
UPCEMU_BUPC_ATOMIC(uint32_t, U32, strict, true)
UPCEMU_BUPC_ATOMIC(int32_t, I32, relaxed, false)
UPCEMU_BUPC_ATOMIC(int32_t, I32, strict, true)
#undef UPCEMU_BUPC_ATOMIC

// ---- vector, indexed and strided copies ----
void bupc_memcpy_vlist(size_t dn, const smemvec* dl, size_t sn, const smemvec* sl) {
  copy_pieces("bupc_memcpy_vlist", svec(dn, dl), svec(sn, sl));
}
void bupc_memput_vlist(size_t dn, const smemvec* dl, size_t sn, const pmemvec* sl) {
  copy_pieces("bupc_memput_vlist", svec(dn, dl), pvec(sn, sl));
}
void bupc_memget_vlist(size_t dn, const pmemvec* dl, size_t sn, const smemvec* sl) {
  copy_pieces("bupc_memget_vlist", pvec(dn, dl), svec(sn, sl));
}
void bupc_memcpy_ilist(size_t dn, const upcemu_sptr* dl, size_t dlen, size_t sn, const upcemu_sptr* sl, size_t slen) {
  copy_pieces("bupc_memcpy_ilist", slist(dn, dl, dlen), slist(sn, sl, slen));
}
void bupc_memput_ilist(size_t dn, const upcemu_sptr* dl, size_t dlen, size_t sn, const void* const* sl, size_t slen) {
  copy_pieces("bupc_memput_ilist", slist(dn, dl, dlen), plist(sn, sl, slen));
}
void bupc_memget_ilist(size_t dn, void* const* dl, size_t dlen, size_t sn, const upcemu_sptr* sl, size_t slen) {
  copy_pieces("bupc_memget_ilist", plist(dn, dl, dlen), slist(sn, sl, slen));
}
void bupc_memcpy_fstrided(upcemu_sptr d, size_t dlen, size_t dstride, size_t dn, upcemu_sptr s, size_t slen,
                          size_t sstride, size_t sn) {
  copy_pieces("bupc_memcpy_fstrided", schunks(d, dlen, dstride, dn), schunks(s, slen, sstride, sn));
}
void bupc_memput_fstrided(upcemu_sptr d, size_t dlen, size_t dstride, size_t dn, void* s, size_t slen, size_t sstride,
                          size_t sn) {
  copy_pieces("bupc_memput_fstrided", schunks(d, dlen, dstride, dn), pchunks(s, slen, sstride, sn));
}
void bupc_memget_fstrided(void* d, size_t dlen, size_t dstride, size_t dn, upcemu_sptr s, size_t slen, size_t sstride,
                          size_t sn) {
  copy_pieces("bupc_memget_fstrided", pchunks(d, dlen, dstride, dn), schunks(s, slen, sstride, sn));
}
void bupc_memcpy_strided(upcemu_sptr d, const size_t* ds, upcemu_sptr s, const size_t* ss, const size_t* count,
                         size_t levels) {
  const char* F = "bupc_memcpy_strided";
  copy_pieces(F, sstrided(F, d, ds, count, levels), sstrided(F, s, ss, count, levels));
}
void bupc_memput_strided(upcemu_sptr d, const size_t* ds, const void* s, const size_t* ss, const size_t* count,
                         size_t levels) {
  const char* F = "bupc_memput_strided";
  copy_pieces(F, sstrided(F, d, ds, count, levels), pstrided(F, s, ss, count, levels));
}
void bupc_memget_strided(void* d, const size_t* ds, upcemu_sptr s, const size_t* ss, const size_t* count,
                         size_t levels) {
  const char* F = "bupc_memget_strided";
  copy_pieces(F, pstrided(F, d, ds, count, levels), sstrided(F, s, ss, count, levels));
}

// bupc_exit (Berkeley's bupc_extern.h, for programs started by bupc_init): as
// exit, it ends the calling UPC thread.
void upcemu_bupc_exit(int status) { std::exit(status); }

// ---- pointers-to-shared ----
void* bupc_cast(upcemu_sptr p) {
  if (p.offset == 0 && p.thread == 0 && p.phase == 0) return nullptr;
  return upc_cast(vptr(p));
}
int bupc_castable(upcemu_sptr p) {
  if (p.offset == 0 && p.thread == 0 && p.phase == 0) return 1;
  return upc_cast(vptr(p)) != nullptr;
}
int upcemu_bupc_thread_castable(unsigned int thr) {
  if (thr >= static_cast<unsigned>(upc::threads()))
    fail("bupc_thread_castable", "thr " + str(thr) + " is not a thread (THREADS is " + str(static_cast<std::uint64_t>(upc::threads())) + ")");
  return (upc_thread_info(thr).guaranteedCastable & UPC_CASTABLE_ALL) == UPC_CASTABLE_ALL;
}
upcemu_sptr bupc_ptradd(upcemu_sptr p, size_t blockelems, size_t elemsz, ptrdiff_t elemincr) {
  if (elemsz == 0) fail("bupc_ptradd", "elemsz is 0");
  if (blockelems > UPC_MAX_BLOCK_SIZE) fail("bupc_ptradd", "blockelems " + str(blockelems) + " is larger than UPC_MAX_BLOCK_SIZE");
  upc::shared_address a = addr(p);
  if (blockelems && a.phase >= blockelems)
    fail("bupc_ptradd", "p has phase " + str(a.phase) + ", not one of a block of " + str(blockelems) + " elements");
  return c_sptr(upc::layout::advance(a, elemincr, elemsz, blockelems, upc::threads()));
}
upcemu_sptr upcemu_bupc_local_to_shared(void* ptr, int thread, int phase) {
  const char* F = "bupc_local_to_shared";
  const int me = upc::mythread();
  const char* base = upc::detail::raw_address(upc::shared_address{0, static_cast<std::uint32_t>(me), 0});
  const char* at = static_cast<const char*>(ptr);
  if (!ptr || at < base || at >= base + upc::detail::g_partition_bytes)
    fail(F, "ptr is not an address in this thread's shared memory");
  if (thread < 0 || thread >= upc::threads())
    fail(F, "thread " + std::to_string(thread) + " is not a thread (THREADS is " + std::to_string(upc::threads()) + ")");
  if (phase < 0) fail(F, "phase " + std::to_string(phase) + " is negative");
  return upcemu_sptr{static_cast<std::uint64_t>(at - base), static_cast<std::uint32_t>(thread), static_cast<std::uint32_t>(phase)};
}
int bupc_dump_shared(upcemu_sptr p, char* buf, int maxlen) {
  if (!buf || maxlen < 100) {
    errno = EINVAL;
    return -1;
  }
  std::snprintf(buf, static_cast<size_t>(maxlen), "<address=0x%" PRIx64 " (offset in the thread's shared heap), thread=%" PRIu32
                ", phase=%" PRIu32 ">", p.offset, p.thread, p.phase);
  return 0;
}

// ---- the rest ----
char* upcemu_bupc_getenv(const char* name) { return name ? std::getenv(name) : nullptr; }
void upcemu_bupc_trace_setmask(const char*) {}
void upcemu_bupc_stats_setmask(const char*) {}
const char* upcemu_bupc_trace_getmask(void) { return ""; }
const char* upcemu_bupc_stats_getmask(void) { return ""; }
int upcemu_bupc_trace_gettracelocal(void) { return 0; }
void upcemu_bupc_trace_settracelocal(int) {}

}  // extern "C"
