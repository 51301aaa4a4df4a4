// A team of the cooperative engine (the upccoll_* API): an ordered set of
// threads, the local handle one member holds, and the shared words the members
// synchronise with. docs/teams-and-collectives-2.md explains the design.
//
// Each member owns one block in its own partition. A collective with sequence
// number s (counted per team, the same on every member) uses slot s % slots of
// every block:
//
//   post      what the member passed (buffers, counts, type, op, root, flags),
//             valid once post.seq == s — its initiation
//   tasks     claim and done words of the collective's tasks, task i living in
//             the block of rank i % size, so claims spread over the members
//
// Rank 0's block also holds the team-wide words: the barrier used by split, free
// and finalize, the error word of each slot, and the activity word sleepers wait
// on. Words hold sequence numbers and only grow, so a slot can be reused without
// clearing it: a claim or done word for sequence s also reads as "past" for any
// earlier sequence.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <vector>

#include "../kinds.hpp"
#include "../team.hpp"

namespace upc::coll::coop {

constexpr int slots = 32;          // collectives in flight per team before an initiation waits
constexpr int tasks_per_rank = 3;  // task capacity of a collective: 3 × team size


// What one member passed to one collective. Pointers are machine addresses in the
// shared mapping, valid in every process of the processes backend. The first 64
// bytes (one cache line) hold seq and everything most collectives need; the tail
// (counts, op) is written and read only by the collectives that use it.
struct post_data {
  std::uint32_t seq;               // see post; accessed through seq_of()
  collective kind;
  std::uint8_t pad_[3];
  std::int32_t status;             // nonzero: this member's call failed with this code
  std::int32_t flags;
  std::int32_t root;               // root / key (split)
  std::int32_t dtype;
  char* send;
  char* recv;
  std::uint64_t send_bytes;        // bytes of one send block (per destination where there are several)
  std::uint64_t recv_bytes;        // bytes of one receive block (reduce_scatter: a hash of recvcounts)
  std::uint64_t count;             // element count / color (split)
  // tail
  const std::uint64_t* meta;       // counts and displacements in bytes (v-variants), in the segment
  std::uint64_t op;
  void (*user_fn)(void*, void*, std::size_t, int);
  std::uint64_t stage_bytes;       // in place, staged: bytes of recv copied to send before any task reads send
};
constexpr std::size_t post_head_bytes = 64;
static_assert(offsetof(post_data, meta) == post_head_bytes);

// In post_data::flags, beside the sync flags: this member passed UPCCOLL_IN_PLACE.
constexpr std::int32_t post_in_place = 1 << 30;


// A post is a seqlock: seq is 0 while the member rewrites the slot, then the
// sequence number of the collective posted. A reader that may race with a reuse
// of the slot copies the fields and re-reads seq (snapshot() in verify.cpp).
struct alignas(64) post : post_data {};
static_assert(sizeof(post) == 128);

inline std::atomic_ref<std::uint32_t> seq_of(const post& p) noexcept {
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(p.seq));
}

struct task_word {
  std::atomic<std::uint32_t> claimed;  // sequence number of the last claim
  std::atomic<std::uint32_t> done;     // sequence number of the last completion
};

struct team_words {  // in rank 0's section
  alignas(64) std::atomic<std::uint32_t> activity;   // bumped on progress when someone sleeps
  std::atomic<std::uint32_t> sleepers;
  alignas(64) std::atomic<std::uint64_t> error[slots];  // (sequence << 32) | error code
};

struct block_layout {
  static constexpr std::size_t words = 0;
  static constexpr std::size_t posts = (sizeof(team_words) + 63) / 64 * 64;
  static constexpr std::size_t tasks = posts + slots * sizeof(post);
  static constexpr std::size_t bytes = tasks + slots * tasks_per_rank * sizeof(task_word);
};

// The task executor's section of every member's block.
extern const team_section tasks_section;

// The task executor's view of a team, one per member (a team attachment): the
// posts and task words of every member, and this member's private bookkeeping.
class team final : public team_attachment {
 public:
  // This member's view of `t` (made on first use).
  static team& of(coll::team& t);

  coll::team& members() const noexcept { return *base_; }
  int size() const noexcept { return base_->size(); }
  int rank() const noexcept { return base_->rank(); }
  int thread_of(int rank) const noexcept { return base_->thread_of(rank); }
  bool is_world() const noexcept { return base_->is_world(); }
  int max_tasks() const noexcept { return tasks_per_rank * size(); }

  post& post_of(int rank, std::uint32_t seq) const noexcept {
    return reinterpret_cast<post*>(base_->section(tasks_section, rank) + block_layout::posts)[seq % slots];
  }
  task_word& task(int index, std::uint32_t seq) const noexcept {
    const int owner = index % size(), local = index / size();
    return reinterpret_cast<task_word*>(base_->section(tasks_section, owner) +
                                        block_layout::tasks)[(seq % slots) * tasks_per_rank + local];
  }
  team_words& words() const noexcept { return *reinterpret_cast<team_words*>(base_->section(tasks_section, 0)); }

  // The next collective's sequence number on this member (1, 2, ...).
  std::uint32_t next_seq() noexcept { return ++seq_; }
  std::uint32_t last_seq() const noexcept { return seq_; }

  // Wakes members sleeping on this team's activity word (call after any progress).
  void notify() const noexcept;

  static bool reached(std::uint32_t value, std::uint32_t target) noexcept {
    return static_cast<std::int32_t>(value - target) >= 0;
  }

  // The task count of the collective last started in each slot (every member
  // derives the same), so a later one knows what must be done before reuse.
  int slot_tasks[slots] = {};
  // Each slot's buffer for this member's staged counts (v-variants), reused by
  // the slot's next collective once its post is marked as being rewritten
  // (readers of the old post detect that through its seq word).
  std::uint64_t slot_meta[slots] = {};
  std::uint64_t slot_meta_bytes[slots] = {};
  // The same for the copy of this member's input when it computes in place on a
  // decomposition that needs one (operation::stage_base).
  std::uint64_t slot_stage[slots] = {};
  std::uint64_t slot_stage_bytes[slots] = {};
  // The last collective of each slot this member has seen over (skips the check
  // when the slot is reused).
  std::uint32_t slot_over[slots] = {};

 private:
  coll::team* base_ = nullptr;
  std::uint32_t seq_ = 0;
};

}  // namespace upc::coll::coop
