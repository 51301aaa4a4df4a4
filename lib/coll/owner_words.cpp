#include "owner_words.hpp"

#include "../runtime/epoch_wait.hpp"
#include "../runtime/host_words.hpp"

namespace upc::coll {

using namespace upc::detail;

std::size_t owner_words::bytes(int team_size) { return done_off + 2 * flags_bytes(team_size); }

const team_section owner_section{"owner executor", owner_words::bytes};

void owner_words::publish(std::atomic<std::uint32_t>& flag, std::uint32_t epoch) const {
  if (several_hosts()) remote_publish_word(flag, epoch);  // sleepers() may be on another host
  else publish_epoch(flag, epoch, sleepers());
}

void owner_words::wait(const std::atomic<std::uint32_t>& w, std::uint32_t target, int rank, const char* function) const {
  // The team barrier's word has its own sleepers count.
  std::atomic<std::uint32_t>& s = &w == &t_.barrier_word() ? t_.barrier_sleepers() : sleepers();
  wait_epoch(w, target, s, wait_site{function, static_cast<std::int64_t>(target), rank >= 0 ? t_.thread_of(rank) : rank});
}

}  // namespace upc::coll
