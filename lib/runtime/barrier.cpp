// The world barrier, split into notify and wait (UPC 1.3 §6.6.1).
//
// Centralised counter with a generation number: notify adds one arrival; the last
// arriver resets the count and bumps the generation; wait spins, then yields,
// then sleeps on a process-shared futex on the generation word. The spin/yield
// budget comes from wait_policy (short when THREADS exceed the cores).
//
// Above tree_wake_from THREADS the sleepers are woken as a tree: the last arriver
// wakes two, and every sleeper that wakes to a completed phase wakes two more
// before it leaves. One FUTEX_WAKE of every sleeper was preempted by the sleepers
// it woke (4096 processes on 2 cores: seconds inside the call while the rest still
// slept). Up to there the last arriver still wakes them all in one call: a few
// dozen wakes are quick, and a tree adds a scheduling round per level.
// Sleepers of phase p sleep with bit p & 1 of a futex bitset, so a phase's wakes
// never land on an early sleeper of the next phase, which would not pass them on
// (every wake of phase p ends before its waker leaves wait(p), so no sleeper of
// phase p + 2 exists yet). Each sleeper woken passes two on, so the wakes go on
// while anyone of the phase is asleep. An abort or an ended thread still wakes
// every sleeper at once (futex_wake_all matches any bitset), so a thread that dies
// before passing its wakes on leaves nobody asleep.
//
// Ids: every phase has a slot holding the first id notified in it and the thread
// that gave it (one 64-bit word, so an error report never names a thread from an
// older phase); a later notify or a wait with a different id is the error the spec
// requires. Slots alternate between even and odd phases; the last arriver of phase
// p clears the slot of phase p+1, which nobody can still be reading (they all
// finished wait(p-1)).
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <string>

#include "barrier_hosts.hpp"
#include "call_site.hpp"
#include "control.hpp"
#include "futex.hpp"
#include "hosts.hpp"
#include "libc_state.hpp"
#include "race_check.hpp"
#include "upc/sync.hpp"

namespace upc {

using namespace detail;

namespace {
// Inside barrier(), errors and the watchdog name both halves "upc_barrier".
thread_local bool tl_in_barrier = false;
const char* notify_name() { return tl_in_barrier ? "upc_barrier" : "upc_notify"; }
const char* wait_name() { return tl_in_barrier ? "upc_barrier" : "upc_wait"; }
constexpr std::uint64_t has_id = 1ULL << 32;
constexpr int thread_shift = 33;
std::uint64_t encode(int id, int thread) {
  return has_id | (static_cast<std::uint64_t>(thread) << thread_shift) | static_cast<std::uint32_t>(id);
}
int decode(std::uint64_t v) { return static_cast<int>(static_cast<std::uint32_t>(v)); }
int decode_thread(std::uint64_t v) { return static_cast<int>(v >> thread_shift); }

// Spin at most this long (a few microseconds) before yielding, whatever the
// policy allows: THREADS <= CPUs does not mean every thread has a core (other
// programs, a CPU quota, taskset), and a waiter that spins while the thread it
// waits for is descheduled wastes its whole budget each barrier (measured on
// 2 busy cores: 400 us per barrier for 2 threads with 20000 spins, 11 us with 512).
// When every thread does have a core, yielding instead costs one short syscall.
constexpr int max_spin = 512;

// The tree's fan-out: each waker wakes this many sleepers of its phase.
constexpr int wakes_per_waker = 2;
constexpr int tree_wake_from = 256;
bool wake_as_tree(int threads) { return threads > tree_wake_from; }
std::uint32_t phase_bit(std::uint32_t phase) { return 1u << (phase & 1); }

// Sleeps while generation == phase, at most timeout_ns (none when <= 0), among
// the sleepers of this phase's parity.
void sleep_in_phase(const std::atomic<std::uint32_t>& generation, std::uint32_t phase, long timeout_ns) {
  timespec deadline{};
  if (timeout_ns > 0) {  // FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    const long ns = deadline.tv_nsec + timeout_ns % 1'000'000'000L;
    deadline.tv_sec += timeout_ns / 1'000'000'000L + ns / 1'000'000'000L;
    deadline.tv_nsec = ns % 1'000'000'000L;
  }
  syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(&generation), FUTEX_WAIT_BITSET, phase,
          timeout_ns > 0 ? &deadline : nullptr, nullptr, phase_bit(phase));
}
void wake_in_phase(const std::atomic<std::uint32_t>& generation, std::uint32_t phase, int count) {
  syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(&generation), FUTEX_WAKE_BITSET, count,
          nullptr, nullptr, phase_bit(phase));
}

std::string at(const src& w) { return std::string(" at ") + file_of(w) + ":" + std::to_string(line_of(w)); }

// A phase cannot complete if some thread has already returned from main. `done`
// is checked again after finding one: the phase may have completed, and the
// thread returned, between the caller's last look and ours.
template <class Done>
void check_can_complete(const char* fn, const src& w, const Done& done) {
  control_block& c = control();
  check_abort();
  if (c.exited.load(std::memory_order_acquire) == 0) return;
  for (int t = 0; t < c.threads; ++t)
    if (static_cast<thread_state>(c.slots[t].state.load()) == thread_state::finished) {
      if (done()) return;
      fail(fn, "thread " + std::to_string(t) + " has already " + how_thread_ended(t) +
                   ", so this barrier can never complete" + at(w));
    }
}
}  // namespace

void notify(std::optional<int> id, const src& where) {
  enter_runtime(notify_name(), where);
  control_block& c = control();
  thread_slot& me = my_slot();
  if (me.notified)
    fail(notify_name(), std::string(tl_in_barrier ? "called between upc_notify and its upc_wait"
                                                  : "called twice without an intervening upc_wait") +
                            at(where));
  check_abort();
  const std::uint32_t phase = me.phase;
  barrier_state& b = c.barrier;
  if (id) {
    std::uint64_t expected = 0;
    auto& slot = b.id_slot[phase & 1];
    if (!slot.compare_exchange_strong(expected, encode(*id, tl_mythread)) && decode(expected) != *id)
      fail(notify_name(), "barrier id mismatch: this thread notifies with id " + std::to_string(*id) + " but thread " +
                               std::to_string(decode_thread(expected)) + " notified with id " +
                               std::to_string(decode(expected)) + " in the same phase" + at(where));
  }
  if (g_races) race_release(race_barrier_key(&b.generation, phase));  // before the arrival that may complete the phase
  me.notified = 1;
  me.notify_has_id = id.has_value();
  me.notify_id = id.value_or(0);
  if (several_hosts()) {  // the id is compared at the wait
    hosts_notify();
    return;
  }
  if (b.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(c.threads)) {
    b.arrived.store(0, std::memory_order_relaxed);
    b.id_slot[(phase + 1) & 1].store(0, std::memory_order_relaxed);
    b.generation.store(phase + 1, std::memory_order_seq_cst);
    c.progress.fetch_add(1, std::memory_order_relaxed);
    if (b.sleepers.load(std::memory_order_seq_cst) > 0)
      wake_in_phase(b.generation, phase, wake_as_tree(c.threads) ? wakes_per_waker : INT_MAX);
  }
}

void wait(std::optional<int> id, const src& where) {
  enter_runtime(wait_name(), where);
  control_block& c = control();
  thread_slot& me = my_slot();
  if (!me.notified) fail(wait_name(), "called without a preceding upc_notify" + at(where));
  const std::uint32_t phase = me.phase;
  barrier_state& b = c.barrier;
  auto done = [&] { return b.generation.load(std::memory_order_acquire) != phase; };

  if (several_hosts()) {
    const std::optional<int> notified = me.notify_has_id ? std::optional<int>(me.notify_id) : std::nullopt;
    hosts_wait(notified, id, wait_name(), file_of(where), line_of(where));
  } else if (!done()) {
    // Marked as waiting from the start (not only once asleep), so reports never
    // count a thread that is polling here as one that has not arrived.
    const std::int64_t shown_id = id ? *id : (me.notify_has_id ? me.notify_id : INT64_MIN);
    blocked_scope blocked(blocked_kind::barrier_wait, shown_id, wait_name(), file_of(where), line_of(where));
    const wait_policy& pol = current_wait_policy();
    for (int i = 0; i < std::min(pol.spin_iterations, max_spin) && !done(); ++i) cpu_relax();
    for (int i = 0; i < pol.yield_iterations && !done(); ++i) {
      sched_yield();
      if ((i & 15) == 15) check_abort();
    }
    if (!done()) {
      b.sleepers.fetch_add(1, std::memory_order_seq_cst);
      try {
        while (!done()) {
          sleep_in_phase(b.generation, phase, pol.sleep_ns);
          if (!done()) check_can_complete(wait_name(), where, done);
        }
      } catch (...) {
        b.sleepers.fetch_sub(1);
        throw;
      }
      // Others still counted may be asleep in this phase: pass the wake on.
      if (b.sleepers.fetch_sub(1, std::memory_order_seq_cst) > 1 && wake_as_tree(c.threads))
        wake_in_phase(b.generation, phase, wakes_per_waker);
    }
  }
  if (g_races) race_acquire(race_barrier_key(&b.generation, phase));
  me.notified = 0;
  me.phase = phase + 1;
  const std::uint64_t slot = several_hosts() ? 0 : b.id_slot[phase & 1].load(std::memory_order_acquire);
  if (id && (slot & has_id) && decode(slot) != *id)
    fail(wait_name(), "barrier id mismatch: this thread waits with id " + std::to_string(*id) + " but thread " +
                           std::to_string(decode_thread(slot)) + " notified with id " + std::to_string(decode(slot)) +
                           at(where));
  if (id && me.notify_has_id && me.notify_id != *id)
    fail(wait_name(), "barrier id mismatch: this thread notified with id " + std::to_string(me.notify_id) +
                         " but waits with id " + std::to_string(*id) + at(where));
}

void barrier(std::optional<int> id, const src& where) {
  struct in_barrier {
    in_barrier() { tl_in_barrier = true; }
    ~in_barrier() { tl_in_barrier = false; }
  } scope;
  notify(id, where);
  wait(id, where);
}

}  // namespace upc
