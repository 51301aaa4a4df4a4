// The owner executor's words on a team (its team_section): every member's
// flags live in that member's own block, and hold epochs (one per collective
// call, the same sequence on every member), so back-to-back collectives never
// confuse each other's flags.
//
//   entered      the epoch of the last collective this rank entered (IN_MYSYNC),
//                with the fingerprint of that call beside it
//   ready        the epoch whose data this rank has produced (algorithm stages)
//   ready2       a second stage flag (two-phase algorithms)
//   done[from]   OUT_MYSYNC: `from` finished touching this rank's data
//   ack[from]    algorithm-internal: `from` finished reading this rank's buffers
//   sleepers     (rank 0's) members sleeping on any of these words
#pragma once
#include <atomic>
#include <cstdint>

#include "team.hpp"

namespace upc::coll {

extern const team_section owner_section;

// This member's epoch counter (private).
struct owner_state final : team_attachment {
  std::uint32_t epoch = 0;
};

class owner_words {
 public:
  explicit owner_words(team& t) : t_(t), state_(t.attached<owner_state>()) {}

  team& members() const noexcept { return t_; }

  // Takes the next `n` epochs (one per collective; a multi-stage plan takes one
  // per stage) and returns the first.
  std::uint32_t next_epoch(std::uint32_t n = 1) noexcept {
    const std::uint32_t first = state_.epoch + 1;
    state_.epoch += n;
    return first;
  }

  std::atomic<std::uint32_t>& entered(int rank) const noexcept { return word(rank, entered_off); }
  std::atomic<std::uint64_t>& entered_hash(int rank) const noexcept {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(t_.section(owner_section, rank) + entered_off + 8);
  }
  std::atomic<std::uint32_t>& ready(int rank) const noexcept { return word(rank, ready_off); }
  std::atomic<std::uint32_t>& ready2(int rank) const noexcept { return word(rank, ready2_off); }
  std::atomic<std::uint32_t>& done(int owner, int from) const noexcept { return word(owner, done_off + 4 * std::size_t(from)); }
  std::atomic<std::uint32_t>& ack(int owner, int from) const noexcept { return word(owner, ack_off() + 4 * std::size_t(from)); }
  std::atomic<std::uint32_t>& sleepers() const noexcept { return word(0, sleepers_off); }

  void publish(std::atomic<std::uint32_t>& flag, std::uint32_t epoch) const;
  // Sleeps until `word` reaches `target` (rank: who moves it; -2: any member).
  void wait(const std::atomic<std::uint32_t>& word, std::uint32_t target, int rank, const char* function) const;

  static std::size_t bytes(int team_size);

 private:
  static constexpr std::size_t entered_off = 0, ready_off = 64, ready2_off = 128, sleepers_off = 192, done_off = 256;
  static std::size_t flags_bytes(int team_size) { return (4 * std::size_t(team_size) + 63) & ~std::size_t{63}; }
  std::size_t ack_off() const noexcept { return done_off + flags_bytes(t_.size()); }
  std::atomic<std::uint32_t>& word(int rank, std::size_t off) const noexcept {
    return *reinterpret_cast<std::atomic<std::uint32_t>*>(t_.section(owner_section, rank) + off);
  }

  team& t_;
  owner_state& state_;
};

}  // namespace upc::coll
