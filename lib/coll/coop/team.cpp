#include "team.hpp"

#include "../../runtime/epoch_wait.hpp"
#include "../../runtime/futex.hpp"

namespace upc::coll::coop {

team::team(std::vector<char*> blocks, std::vector<int> threads, int rank, bool world)
    : blocks_(std::move(blocks)), threads_(std::move(threads)), rank_(rank), world_(world) {}

void team::notify() const noexcept {
  team_words& w = words();
  if (w.sleepers.load(std::memory_order_seq_cst) > 0) {
    w.activity.fetch_add(1, std::memory_order_seq_cst);
    detail::futex_wake_all(&w.activity);
  }
}

void team::barrier(const char* function) {
  team_words& w = words();
  const std::uint32_t phase = ++barrier_phase_;
  if (w.barrier_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(size())) {
    w.barrier_arrived.store(0, std::memory_order_relaxed);
    detail::publish_epoch(w.barrier_generation, phase, w.sleepers);
  }
  detail::wait_epoch(w.barrier_generation, phase, w.sleepers, detail::wait_site{function, -1, -1});
}

}  // namespace upc::coll::coop
