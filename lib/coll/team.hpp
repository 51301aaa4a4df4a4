// A team as the collective engine sees it: size, rank, and the shared flags that
// collectives synchronise with. Every rank's flags live in its own partition
// (a symmetric allocation made collectively on first use):
//
//   entered      the epoch of the last collective this rank entered (IN_MYSYNC)
//   ready        the epoch whose data this rank has produced (algorithm stages)
//   ready2       a second stage flag (two-phase algorithms)
//   done[from]   OUT_MYSYNC: `from` finished touching this rank's data
//   ack[from]    algorithm-internal: `from` finished reading this rank's buffers
//   scratch      per-rank bytes for partial results, grown collectively
//
// Flags hold epochs (one per collective call, the same sequence on every rank), so
// back-to-back collectives never confuse each other's flags. Only the world team
// exists for now; sub-teams come with the team-based APIs.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "upc/layout.hpp"

namespace upc::coll {

class team {
 public:
  static team& world();  // the world team (made by the launcher, nothing collective)

  int size() const noexcept { return size_; }
  int rank() const noexcept { return rank_; }
  int thread_of(int rank) const noexcept { return rank; }   // world: rank == thread
  int rank_of(int thread) const noexcept { return thread; }

  // Takes the next `n` epochs (one per collective; a multi-stage plan takes one
  // per stage) and returns the first.
  std::uint32_t next_epoch(std::uint32_t n = 1) noexcept {
    const std::uint32_t first = epoch_ + 1;
    epoch_ += n;
    return first;
  }
  std::uint32_t epoch() const noexcept { return epoch_; }

  std::atomic<std::uint32_t>& entered(int rank) const noexcept { return word(rank, entered_off); }
  // The fingerprint of the call a rank entered last, in its "entered" line.
  std::atomic<std::uint64_t>& entered_hash(int rank) const noexcept {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(at(rank, sync_offset_ + entered_off + 8));
  }
  std::atomic<std::uint32_t>& ready(int rank) const noexcept { return word(rank, ready_off); }
  std::atomic<std::uint32_t>& ready2(int rank) const noexcept { return word(rank, ready2_off); }
  std::atomic<std::uint32_t>& done(int owner, int from) const noexcept { return word(owner, done_off + 4 * std::size_t(from)); }
  std::atomic<std::uint32_t>& ack(int owner, int from) const noexcept { return word(owner, ack_off + 4 * std::size_t(from)); }
  std::atomic<std::uint32_t>& sleepers() const noexcept { return word(0, sleepers_off); }
  // --check: each rank's copy of its single-valued arguments, compared with rank 0's.
  static constexpr int check_slots = 24;
  std::atomic<std::uint64_t>* check_area(int rank) const noexcept {
    return reinterpret_cast<std::atomic<std::uint64_t>*>(at(rank, sync_offset_ + check_off));
  }

  // Waits (yield, then futex) until the flag, which `rank` moves, reaches the
  // current epoch; fails clearly if that rank's thread has returned from main.
  void wait_for(const std::atomic<std::uint32_t>& flag, int rank, const char* function) const;
  void publish(std::atomic<std::uint32_t>& flag) const;  // flag = current epoch
  void publish(std::atomic<std::uint32_t>& flag, std::uint32_t value) const;  // flag = value (an epoch)

  // Per-rank scratch; ensure_scratch is collective and must get the same value
  // on every rank (derived from single-valued arguments).
  char* scratch(int rank) const noexcept;
  std::size_t scratch_bytes() const noexcept { return scratch_bytes_; }
  void ensure_scratch(std::size_t bytes);

  // A barrier of this team only (separate from upc_barrier, so a thread in a
  // collective never pairs with one in a user barrier). Split form: arrive
  // returns the phase to test or wait for.
  void barrier(const char* function);
  std::uint32_t barrier_arrive();
  bool barrier_done(std::uint32_t phase) const;  // may fail: passing compares the threads' calls
  const std::atomic<std::uint32_t>& barrier_word() const noexcept;

  // Sleeps until `word` reaches `target` (rank: who moves it; -2: any rank).
  void wait_word(const std::atomic<std::uint32_t>& word, std::uint32_t target, int rank, const char* function) const;

  // Machine address of `offset` in `rank`'s partition.
  char* at(int rank, std::uint64_t offset) const noexcept;

  // Bytes of flags per rank for a team of `threads`.
  static std::size_t sync_bytes(int threads);

 private:
  team(int size, int rank, std::uint64_t sync_offset);
  std::atomic<std::uint32_t>& word(int rank, std::size_t off) const noexcept {
    return *reinterpret_cast<std::atomic<std::uint32_t>*>(at(rank, sync_offset_ + off));
  }

  static constexpr std::size_t entered_off = 0, ready_off = 64, ready2_off = 128, sleepers_off = 192, done_off = 256;
  std::size_t ack_off = 0, check_off = 0;

  int size_, rank_;
  std::uint64_t sync_offset_;
  std::uint64_t scratch_offset_ = 0;
  std::size_t scratch_bytes_ = 0;
  std::uint32_t epoch_ = 0;
};

}  // namespace upc::coll
