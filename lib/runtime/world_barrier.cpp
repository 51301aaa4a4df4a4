#include "world_barrier.hpp"

#include "collective_call.hpp"
#include "control.hpp"
#include "epoch_wait.hpp"

namespace upc::detail {

std::uint32_t world_barrier_arrive() noexcept {
  control_block& c = control();
  barrier_state& b = c.world_barrier;
  const std::uint32_t phase = ++my_slot().world_phase;
  // Thread 0 leaves its call's fingerprint for the others to compare with.
  if (tl_mythread == 0) b.call_hash[phase & 1].store(this_call().hash, std::memory_order_relaxed);
  if (b.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(c.threads)) {
    b.arrived.store(0, std::memory_order_relaxed);
    publish_epoch(b.generation, phase, b.sleepers);
  }
  return phase;
}

bool world_barrier_passed(std::uint32_t phase) {
  barrier_state& b = control().world_barrier;
  if (!epoch_reached(b.generation.load(std::memory_order_acquire), phase)) return false;
  match_after_world_barrier(b.call_hash[phase & 1].load(std::memory_order_relaxed));
  return true;
}

const std::atomic<std::uint32_t>& world_barrier_word() noexcept { return control().world_barrier.generation; }
std::atomic<std::uint32_t>& world_barrier_sleepers() noexcept { return control().world_barrier.sleepers; }

void world_barrier(const char* function) {
  const std::uint32_t phase = world_barrier_arrive();
  barrier_state& b = control().world_barrier;
  wait_epoch(b.generation, phase, b.sleepers, wait_site{function, -1, -2});
  match_after_world_barrier(b.call_hash[phase & 1].load(std::memory_order_relaxed));
}

}  // namespace upc::detail
