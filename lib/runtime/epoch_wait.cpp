#include "epoch_wait.hpp"

#include <sched.h>

#include <string>

#include "call_site.hpp"
#include "collective_call.hpp"
#include "futex.hpp"
#include "libc_state.hpp"

namespace upc::detail {

void check_peer_alive(const wait_site& site);

void wait_epoch_slow(const std::atomic<std::uint32_t>& word, std::uint32_t target,
                     std::atomic<std::uint32_t>& sleepers, const wait_site& site) {
  // The watchdog shows the user's call ("upc_all_broadcast at prog.cpp:12"),
  // not the engine's internal step; marked as waiting from the start.
  const current_call& call = this_call();
  blocked_scope blocked(blocked_kind::collective, site.arg, call.function ? call.function : site.function, call.file,
                        call.line);
  const wait_policy& pol = current_wait_policy();
  for (int i = 0; i < pol.spin_iterations; ++i) {
    if (epoch_reached(word.load(std::memory_order_acquire), target)) return;
    cpu_relax();
  }
  for (int i = 0; i < pol.yield_iterations; ++i) {
    if (epoch_reached(word.load(std::memory_order_acquire), target)) return;
    sched_yield();
    if ((i & 15) == 15) check_abort();
  }
  sleepers.fetch_add(1, std::memory_order_seq_cst);
  struct leave {
    std::atomic<std::uint32_t>& s;
    ~leave() { s.fetch_sub(1, std::memory_order_relaxed); }
  } on_exit{sleepers};
  for (;;) {
    std::uint32_t v = word.load(std::memory_order_seq_cst);
    if (epoch_reached(v, target)) return;
    futex_wait(&word, v, pol.sleep_ns);
    check_abort();
    if (epoch_reached(word.load(std::memory_order_acquire), target)) return;
    check_peer_alive(site);
  }
}

// A word that only a finished thread could move will never move.
void check_peer_alive(const wait_site& site) {
  control_block& c = control();
  if (site.peer_thread == -1 || c.exited.load(std::memory_order_acquire) == 0) return;
  for (int t = 0; t < c.threads; ++t) {
    if (site.peer_thread >= 0 && t != site.peer_thread) continue;
    if (static_cast<thread_state>(c.slots[t].state.load()) == thread_state::finished) {
      const current_call& call = this_call();
      fail(call.function ? call.function : site.function,
           "thread " + std::to_string(t) + " has already " + how_thread_ended(t) + ", so this collective call" +
               location_text(call.file, call.line) +
               " can never complete (did every thread make the same collective calls?)");
    }
  }
}

void wake_sleepers(const std::atomic<std::uint32_t>& word) { futex_wake_all(&word); }

}  // namespace upc::detail
