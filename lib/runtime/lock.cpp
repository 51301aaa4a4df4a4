// UPC locks: a futex word in the shared heap (0 free, 1 held, 2 held with
// sleepers) plus the holder's thread for error messages. Waiters spin, yield,
// then sleep on the process-shared futex.
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "call_site.hpp"
#include "collective_call.hpp"
#include "control.hpp"
#include "host_words.hpp"
#include "world_barrier.hpp"
#include "dsm.hpp"
#include "futex.hpp"
#include "hosts.hpp"
#include "libc_state.hpp"
#include "race_check.hpp"
#include "remote_ops.hpp"
#include "upc/alloc.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/lock.hpp"
#include "upc/sync.hpp"

struct upc_lock_t {
  std::atomic<std::uint32_t> word;
  std::atomic<std::int32_t> holder;  // thread holding it, -1 when free
  std::uint64_t magic;
  upc::shared_address self;          // where it was allocated, for upc_lock_free
};

namespace upc {

using namespace detail;

namespace {
constexpr std::uint64_t lock_magic = 0x4c4f434b75706365ULL;  // "LOCKupce"
constexpr std::uint64_t freed_magic = 0x4645455275706365ULL;

std::string name(const upc_lock_t* l) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(l));
  return buf;
}

void validate(const char* function, upc_lock_t* l) {
  if (!l) fail(function, "lock is a null pointer");
  const char* lo = g_partitions;
  const char* hi = g_partitions + static_cast<std::uint64_t>(g_threads) * g_partition_bytes;
  const char* p = reinterpret_cast<const char*>(l);
  if (p < lo || p + sizeof(upc_lock_t) > hi) fail(function, "lock " + name(l) + " is not in the shared heap");
  if (l->magic == freed_magic) fail(function, "lock " + name(l) + " was already freed");
  if (l->magic != lock_magic) fail(function, "lock " + name(l) + " is not a lock made by upc_global_lock_alloc or upc_all_lock_alloc");
}

// A lock whose holder has returned from main can never be released. (Its state is
// read before its holder field: a finished thread changes neither again.)
void check_holder_alive(upc_lock_t* l, const std::source_location& where) {
  const int h = l->holder.load(std::memory_order_acquire);
  if (h < 0 || h >= g_threads) return;
  if (static_cast<thread_state>(control().slots[h].state.load()) != thread_state::finished) return;
  if (l->holder.load(std::memory_order_acquire) != h) return;
  fail("upc_lock", "lock " + name(l) + " is held by thread " + std::to_string(h) +
                       ", which has " + how_thread_ended(h) + " without releasing it, so it can never be acquired at " +
                       file_of(where) + ":" + std::to_string(line_of(where)));
}

// Across hosts, a lock on another host is taken, watched and released through
// its owner (remote_ops.hpp): its word must stay atomic against that host's
// own takers. The page cache is released before an unlock and acquired after
// a lock, as the memory model asks of them.
bool remote_lock(const upc_lock_t* l) { return several_hosts() && remote_address(l); }
int owner(const upc_lock_t* l) { return partition_owner(l); }
bool remote_try(upc_lock_t* l) {
  return remote_atomic(owner(l), remote_op::compare_exchange32, &l->word, 1, 0) == 0;
}
int remote_holder(const upc_lock_t* l) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(remote_atomic(owner(l), remote_op::load32, &l->holder, 0)));
}
void remote_set_holder(upc_lock_t* l, int h) {
  remote_atomic(owner(l), remote_op::store32, &l->holder, static_cast<std::uint32_t>(h));
}

upc_lock_t* init_at(shared_address a) {
  auto* l = reinterpret_cast<upc_lock_t*>(raw_address(a));
  l->word.store(0);
  l->holder.store(-1);
  l->self = a;
  l->magic = lock_magic;
  return l;
}
}  // namespace

namespace detail {
int lock_holder(std::int64_t address) noexcept {
  if (!g_partitions) return -1;
  const auto* p = reinterpret_cast<const char*>(static_cast<std::uintptr_t>(address));
  const char* hi = g_partitions + static_cast<std::uint64_t>(g_threads) * g_partition_bytes;
  if (p < g_partitions || p + sizeof(upc_lock_t) > hi) return -1;
  const auto* l = reinterpret_cast<const upc_lock_t*>(p);
  return l->magic == lock_magic ? l->holder.load(std::memory_order_relaxed) : -1;
}
}  // namespace detail

upc_lock_t* global_lock_alloc(const std::source_location& where) {
  enter_runtime("upc_global_lock_alloc", where);
  return init_at(shared_address{local_alloc(tl_mythread, sizeof(upc_lock_t), "upc_global_lock_alloc"),
                                static_cast<std::uint32_t>(tl_mythread), 0});
}

upc_lock_t* all_lock_alloc(const std::source_location& where) {
  collective_call call("upc_all_lock_alloc", where);
  std::uint64_t off = collective_symmetric_alloc(sizeof(upc_lock_t), "upc_all_lock_alloc");
  shared_address a{off, 0, 0};
  if (mythread() == 0) init_at(a);
  world_barrier("upc_all_lock_alloc");
  return reinterpret_cast<upc_lock_t*>(raw_address(a));
}

void lock_free(upc_lock_t* l) {
  require_upc_thread("upc_lock_free");
  if (!l) return;
  validate("upc_lock_free", l);
  shared_address a = l->self;
  l->magic = freed_magic;
  heap_free(a, "upc_lock_free");
}

void all_lock_free(upc_lock_t* l, const std::source_location& where) {
  collective_call call("upc_all_lock_free", where,
                       {{"lock", static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(l))}});
  world_barrier("upc_all_lock_free");
  if (mythread() == 0) lock_free(l);
  world_barrier("upc_all_lock_free");
}

void lock(upc_lock_t* l, const std::source_location& where) {
  enter_runtime("upc_lock", where);
  validate("upc_lock", l);
  const int me = mythread();
  if ((remote_lock(l) ? remote_holder(l) : l->holder.load(std::memory_order_relaxed)) == me)
    fail("upc_lock", "this thread already holds lock " + name(l) + " (UPC locks are not recursive)");
  if (remote_lock(l)) {
    if (!remote_try(l)) {
      blocked_scope blocked(blocked_kind::lock, static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(l)),
                            "upc_lock", file_of(where), line_of(where));
      for (int round = 0; !remote_try(l); ++round) polite_pause(round);
    }
    remote_set_holder(l, me);
    dsm_acquire();
    return;
  }
  std::uint32_t c = 0;
  if (!l->word.compare_exchange_strong(c, 1, std::memory_order_acquire)) {
    blocked_scope blocked(blocked_kind::lock, static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(l)), "upc_lock",
                          file_of(where), line_of(where));
    const wait_policy& pol = current_wait_policy();
    bool got = false;
    // A short spin (see max_spin in barrier.cpp): the holder may be descheduled.
    for (int i = 0; i < std::min(pol.spin_iterations / 8, 512) && !got; ++i) {
      cpu_relax();
      c = 0;
      got = l->word.compare_exchange_weak(c, 1, std::memory_order_acquire);
    }
    for (int i = 0; i < pol.yield_iterations / 8 && !got; ++i) {
      sched_yield();
      c = 0;
      got = l->word.compare_exchange_weak(c, 1, std::memory_order_acquire);
    }
    if (!got) {
      c = l->word.exchange(2, std::memory_order_acquire);
      while (c != 0) {
        futex_wait(&l->word, 2, pol.sleep_ns);
        check_abort();
        c = l->word.exchange(2, std::memory_order_acquire);
        if (c != 0) check_holder_alive(l, where);
      }
      // Tells the --check watchdog that a sleeper got somewhere; the fast paths
      // skip it so uncontended locks share no cache line.
      control().progress.fetch_add(1, std::memory_order_relaxed);
    }
  }
  l->holder.store(me, std::memory_order_relaxed);
  if (several_hosts()) dsm_acquire();
  if (g_races) race_acquire(l);
}

int lock_attempt(upc_lock_t* l) {
  require_upc_thread("upc_lock_attempt");
  validate("upc_lock_attempt", l);
  if (remote_lock(l)) {
    if (!remote_try(l)) return 0;
    remote_set_holder(l, mythread());
    dsm_acquire();
    return 1;
  }
  if (several_hosts()) dsm_acquire();
  std::uint32_t c = 0;
  if (!l->word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return 0;
  l->holder.store(mythread(), std::memory_order_relaxed);
  if (g_races) race_acquire(l);
  return 1;
}

void unlock(upc_lock_t* l) {
  require_upc_thread("upc_unlock");
  validate("upc_unlock", l);
  const int me = mythread();
  if (several_hosts()) dsm_release();
  const int holder = remote_lock(l) ? remote_holder(l) : l->holder.load(std::memory_order_relaxed);
  if (holder != me)
    fail("upc_unlock", "this thread does not hold lock " + name(l) +
                           (holder < 0 ? std::string(" (it is not held)") : " (thread " + std::to_string(holder) + " holds it)"));
  if (remote_lock(l)) {
    remote_set_holder(l, -1);
    remote_atomic(owner(l), remote_op::release_lock32, &l->word, 0);
    return;
  }
  if (g_races) race_release(l);
  l->holder.store(-1, std::memory_order_relaxed);
  if (l->word.exchange(0, std::memory_order_release) == 2) futex_wake_one(&l->word);
}

}  // namespace upc
