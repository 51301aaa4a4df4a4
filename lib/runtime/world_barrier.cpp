#include "world_barrier.hpp"

#include "barrier_hosts.hpp"
#include "collective_call.hpp"
#include "control.hpp"
#include "epoch_wait.hpp"
#include "hosts.hpp"
#include "race_check.hpp"

namespace upc::detail {

namespace {
// The name of this thread's collective call, as a number the hosts compare
// (the arguments may differ: only single-valued ones must match, and those
// are compared where the call is checked).
std::uint64_t call_name_hash() {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char* p = this_call().function; p && *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ULL;
  return h;
}
}  // namespace

std::uint32_t world_barrier_arrive() {
  control_block& c = control();
  barrier_state& b = c.world_barrier;
  const std::uint32_t phase = ++my_slot().world_phase;
  if (several_hosts()) {
    hosts_world_arrive();
    return phase;
  }
  if (g_races) race_release(race_barrier_key(&b.generation, phase));
  // Thread 0 leaves its call's fingerprint for the others to compare with.
  if (tl_mythread == 0) b.call_hash[phase & 1].store(this_call().hash, std::memory_order_relaxed);
  if (b.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(c.threads)) {
    b.arrived.store(0, std::memory_order_relaxed);
    publish_epoch(b.generation, phase, b.sleepers);
  }
  return phase;
}

bool world_barrier_passed(std::uint32_t phase) {
  if (several_hosts()) return hosts_world_passed();
  barrier_state& b = control().world_barrier;
  if (!epoch_reached(b.generation.load(std::memory_order_acquire), phase)) return false;
  if (g_races) race_acquire(race_barrier_key(&b.generation, phase));
  match_after_world_barrier(b.call_hash[phase & 1].load(std::memory_order_relaxed));
  return true;
}

const std::atomic<std::uint32_t>& world_barrier_word() noexcept { return control().world_barrier.generation; }
std::atomic<std::uint32_t>& world_barrier_sleepers() noexcept { return control().world_barrier.sleepers; }

void world_barrier(const char* function) {
  if (several_hosts()) {
    ++my_slot().world_phase;
    hosts_world_barrier(this_call().function ? this_call().function : function, call_name_hash());
    return;
  }
  const std::uint32_t phase = world_barrier_arrive();
  barrier_state& b = control().world_barrier;
  wait_epoch(b.generation, phase, b.sleepers, wait_site{function, -1, -2});
  if (g_races) race_acquire(race_barrier_key(&b.generation, phase));
  match_after_world_barrier(b.call_hash[phase & 1].load(std::memory_order_relaxed));
}

}  // namespace upc::detail
