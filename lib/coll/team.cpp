#include "team.hpp"

#include <cstring>
#include <memory>

#include "../runtime/control.hpp"
#include "../runtime/epoch_wait.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/runtime.hpp"
#include "upc/sync.hpp"

namespace upc::coll {

using namespace upc::detail;

namespace {
thread_local std::unique_ptr<team> tl_world;
thread_local const void* tl_world_run = nullptr;  // the run the team belongs to

std::size_t round64(std::size_t x) { return (x + 63) & ~std::size_t{63}; }
}  // namespace

team::team(int size, int rank, std::uint64_t sync_offset) : size_(size), rank_(rank), sync_offset_(sync_offset) {
  ack_off = done_off + round64(4 * std::size_t(size));
  check_off = ack_off + round64(4 * std::size_t(size));
}

team& team::world() {
  // A new run (or a new process of the processes backend) starts a new team.
  if (tl_world && tl_world_run == g_control) return *tl_world;
  const int T = threads();
  const std::size_t done_bytes = round64(4 * std::size_t(T));
  const std::size_t bytes = done_off + 2 * done_bytes + check_slots * sizeof(std::uint64_t);
  const std::uint64_t off = collective_symmetric_alloc(bytes, "collective (team setup)");
  std::memset(g_partitions + mythread() * g_partition_bytes + off, 0, bytes);
  upc::barrier();
  tl_world.reset(new team(T, mythread(), off));
  tl_world_run = g_control;
  return *tl_world;
}

char* team::at(int rank, std::uint64_t offset) const noexcept {
  return g_partitions + static_cast<std::uint64_t>(thread_of(rank)) * g_partition_bytes + offset;
}

void team::wait_for(const std::atomic<std::uint32_t>& flag, int rank, const char* function) const {
  wait_epoch(flag, epoch_, sleepers(), wait_site{function, static_cast<std::int64_t>(epoch_), thread_of(rank)});
}

void team::publish(std::atomic<std::uint32_t>& flag) const { publish_epoch(flag, epoch_, sleepers()); }
void team::publish(std::atomic<std::uint32_t>& flag, std::uint32_t value) const { publish_epoch(flag, value, sleepers()); }

char* team::scratch(int rank) const noexcept { return at(rank, scratch_offset_); }

void team::ensure_scratch(std::size_t bytes) {
  if (bytes <= scratch_bytes_) return;
  std::size_t grown = round64(std::max(bytes, 2 * scratch_bytes_));
  // Everyone is done with the old scratch once all have arrived here.
  barrier("collective (scratch)");
  if (scratch_bytes_) collective_free(shared_address{scratch_offset_, 0, 0}, "collective (scratch)");
  // Forget the old scratch before allocating: if the allocation fails (on every
  // rank alike), the team is left consistently without scratch, never with a
  // freed one that a later call would free again.
  scratch_offset_ = 0;
  scratch_bytes_ = 0;
  scratch_offset_ = collective_symmetric_alloc(grown, "collective (scratch)");
  scratch_bytes_ = grown;
}

std::uint32_t team::barrier_arrive() {
  const std::uint32_t phase = ++barrier_phase_;
  auto& arrived = word(0, barrier_arrived_off);
  if (arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(size_)) {
    arrived.store(0, std::memory_order_relaxed);
    publish_epoch(word(0, barrier_generation_off), phase, sleepers());
  }
  return phase;
}

bool team::barrier_done(std::uint32_t phase) const {
  return epoch_reached(barrier_word().load(std::memory_order_acquire), phase);
}

void team::barrier(const char* function) {
  const std::uint32_t phase = barrier_arrive();
  wait_epoch(barrier_word(), phase, sleepers(), wait_site{function, -1, -2});
}

void team::wait_word(const std::atomic<std::uint32_t>& w, std::uint32_t target, int rank, const char* function) const {
  wait_epoch(w, target, sleepers(), wait_site{function, static_cast<std::int64_t>(target), rank >= 0 ? thread_of(rank) : rank});
}

}  // namespace upc::coll
