#include "team.hpp"

#include <cstring>
#include <memory>

#include "../runtime/control.hpp"
#include "../runtime/epoch_wait.hpp"
#include "../runtime/world_barrier.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/runtime.hpp"

namespace upc::coll {

using namespace upc::detail;

namespace {
thread_local std::unique_ptr<team> tl_world;
thread_local const void* tl_world_run = nullptr;  // the run the team belongs to

std::size_t round64(std::size_t x) { return (x + 63) & ~std::size_t{63}; }

// The world team's flags are allocated by the launcher before any thread runs,
// like a namespace-scope shared array: no collective step is needed to make the
// team, so a thread's first collective cannot pair with anything else, and
// every process of the processes backend inherits the offset.
class world_team_storage final : public static_object {
 public:
  world_team_storage() { register_static_object(this); }
  void allocate() override { offset_ = symmetric_alloc(team::sync_bytes(g_threads), "collective (world team)"); }
  void release() noexcept override { offset_ = 0; }
  std::uint64_t offset() const noexcept { return offset_; }

 private:
  std::uint64_t offset_ = 0;
};
world_team_storage g_world_storage;
}  // namespace

std::size_t team::sync_bytes(int threads) {
  const std::size_t done_bytes = round64(4 * std::size_t(threads));
  return done_off + 2 * done_bytes + check_slots * sizeof(std::uint64_t);
}

team::team(int size, int rank, std::uint64_t sync_offset) : size_(size), rank_(rank), sync_offset_(sync_offset) {
  ack_off = done_off + round64(4 * std::size_t(size));
  check_off = ack_off + round64(4 * std::size_t(size));
}

team& team::world() {
  // A new run (or a new process of the processes backend) starts a new team.
  if (tl_world && tl_world_run == g_control) return *tl_world;
  tl_world.reset(new team(threads(), mythread(), g_world_storage.offset()));
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

// The world team synchronises on the runtime's world barrier (shared with the
// collective allocations, never with upc_barrier).
std::uint32_t team::barrier_arrive() { return world_barrier_arrive(); }

bool team::barrier_done(std::uint32_t phase) const { return world_barrier_passed(phase); }

const std::atomic<std::uint32_t>& team::barrier_word() const noexcept { return world_barrier_word(); }

void team::barrier(const char* function) { world_barrier(function); }

void team::wait_word(const std::atomic<std::uint32_t>& w, std::uint32_t target, int rank, const char* function) const {
  // The world barrier's word has its own sleepers count.
  std::atomic<std::uint32_t>& s = &w == &world_barrier_word() ? world_barrier_sleepers() : sleepers();
  wait_epoch(w, target, s, wait_site{function, static_cast<std::int64_t>(target), rank >= 0 ? thread_of(rank) : rank});
}

}  // namespace upc::coll
