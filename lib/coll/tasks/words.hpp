// The task executor's words on a team (its team_section) and its view of a
// team (docs/teams-and-collectives-2.md, "How it works").
//
// Each member owns one area in its own block. A collective with sequence
// number s (counted per team, the same on every member) uses slot s % slots:
//
//   post      what the member passed (buffers, byte counts, root, flags, the
//             agreement key of its single-valued arguments), valid once
//             post.seq == s — its initiation
//   tasks     claim and done words of the collective's tasks, task i living in
//             the area of rank i % size, so claims spread over the members
//
// Rank 0's area also holds the team-wide words: the error word of each slot,
// and the activity word sleepers wait on. Words hold sequence numbers and only
// grow, so a slot can be reused without clearing it: a claim or done word for
// sequence s also reads as "past" for any earlier sequence.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "../kinds.hpp"
#include "../team.hpp"
#include "upc/runtime.hpp"

namespace upc::detail {
struct mpi_job;
}

namespace upc::coll::tasks {

struct front_end;  // failure.hpp

constexpr int slots = 32;          // collectives in flight per team before an initiation waits
constexpr int tasks_per_rank = 3;  // task capacity of a collective: 3 × team size
// A member's input of at most this many bytes is copied into its slot when it
// posts (eager), so nobody reads its buffer afterwards and its call completes
// without waiting for the readers: 256 bytes (inline_bytes) when every thread
// has a core, 2 KiB when they share cores (a sender that waits for its
// readers waits for context switches). Larger inputs are read where they are:
// a reader that has the unchanged data in its cache from the last call (a
// benchmark loop) copies from there instead of fetching a fresh copy
// (measured: docs/benchmarks.md). UPCEMU_TUNE_EAGER overrides it.
std::uint64_t eager_limit() noexcept;
// Whether every UPC thread of the run has a CPU to itself.
bool own_core() noexcept;

// What one member passed to one collective. Pointers are machine addresses in
// the shared mapping, valid in every process of the processes backend. The
// first 64 bytes (one cache line) hold seq and everything most collectives
// need; the tail (counts, op) is written and read only by the collectives that
// use it (trait::tail).
struct post_data {
  std::uint32_t seq;               // see post; accessed through seq_of()
  collective kind;
  std::uint8_t in_place;           // this member passed the front-end's in-place marker
  std::uint8_t staged;             // its input was copied into its slot: send points there
  std::uint8_t pad_;
  std::int32_t status;             // nonzero: this member's call failed with this engine status
  std::int32_t flags;              // normalised sync flags
  std::int32_t root;
  std::uint32_t pad2_;
  std::uint64_t key;               // agreement key: a hash of the arguments every member must agree on
  char* send;
  char* recv;
  std::uint64_t send_bytes;        // bytes of one send block (per destination where there are several)
  std::uint64_t recv_bytes;        // bytes of one receive block
  // tail
  std::uint64_t count;             // elements (reductions)
  const std::uint64_t* meta;       // counts and displacements in bytes (v-variants), in the segment
  std::uint64_t op_arg;            // the op as the caller passed it (messages)
  const void* user_fn;
  std::int32_t type_arg;           // the element type as the caller passed it (messages)
  std::int32_t pad3_;
  std::uint64_t pair_balance;      // v-variants: this member's share of the count balance (agreement.hpp)
};
constexpr std::size_t post_head_bytes = 64;
static_assert(offsetof(post_data, count) == post_head_bytes);

// A post is a seqlock: seq is 0 while the member rewrites the slot, then the
// sequence number of the collective posted.
struct alignas(64) post : post_data {};
static_assert(sizeof(post) == 128);

inline std::atomic_ref<std::uint32_t> seq_of(const post& p) noexcept {
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(p.seq));
}

struct task_word {
  std::atomic<std::uint32_t> claimed;  // sequence number of the last claim
  std::atomic<std::uint32_t> done;     // sequence number of the last completion
};

struct team_words {  // in rank 0's area
  alignas(64) std::atomic<std::uint32_t> activity;   // bumped on progress when someone sleeps
  std::atomic<std::uint32_t> sleepers;
  alignas(64) std::atomic<std::uint64_t> error[slots];  // (sequence << 32) | engine status
};

// Each slot of a member's area: its post, then room for a small staged input
// right behind it (read together with the post, often in the same fetches;
// a post without a tail stages it from the tail on: team_view::after_head).
constexpr std::size_t inline_bytes = 256;
struct alignas(64) slot_record {
  post p;
  char data[inline_bytes];
};
static_assert(sizeof(slot_record) - post_head_bytes >= inline_bytes);  // room behind the head (after_head)

// A member's "left" word of a slot: the sequence number of the last collective
// of the slot this member completed before every member had posted (an eager
// completion, late_agreement.hpp). Written by its member only, read only when a
// disagreement is found: its own cache lines.
//
// A member's "completed" word: the sequence number of its last blocking call
// that completed while none of its earlier ones was still in flight, so its
// part of every collective up to that one is over (run_blocking). Its own
// cache line: written once a call, read by the others only now and then.
struct area_layout {
  static constexpr std::size_t posts = (sizeof(team_words) + 63) / 64 * 64;
  static constexpr std::size_t task_words = posts + slots * sizeof(slot_record);
  static constexpr std::size_t left_words = task_words + slots * tasks_per_rank * sizeof(task_word);
  static constexpr std::size_t completed_word = (left_words + slots * sizeof(std::uint32_t) + 63) / 64 * 64;
  static constexpr std::size_t bytes = completed_word + 64;
};

// The task executor's section of every member's block.
extern const team_section tasks_section;

inline bool reached(std::uint32_t value, std::uint32_t target) noexcept {
  return static_cast<std::int32_t>(value - target) >= 0;
}

// The words of another member may be on another host (an mpi run spread over
// hosts, lib/runtime/hosts.hpp): there they are read and swapped through their
// owner, and a word seen to reach its value makes the page cache fresh (what
// it announces was sent home before it was written). On one host: the plain
// atomics.
namespace across {
// The other-host paths (words.cpp); the one-host ones are inline: a collective
// of a few bytes makes dozens of these reads, and a call each would cost more
// than the read.
namespace remote {
std::uint32_t load(const std::atomic<std::uint32_t>& w);
std::uint32_t load_seq(const post& p);
std::uint64_t load(const std::atomic<std::uint64_t>& w);
bool compare_exchange(std::atomic<std::uint32_t>& w, std::uint32_t& expected, std::uint32_t desired);
bool compare_exchange(std::atomic<std::uint64_t>& w, std::uint64_t& expected, std::uint64_t desired);
void release();
void acquire();
}  // namespace remote
inline std::uint32_t load(const std::atomic<std::uint32_t>& w) {
  if (detail::g_several_hosts) [[unlikely]] return remote::load(w);
  return w.load(std::memory_order_acquire);
}
inline std::uint32_t load_seq(const post& p) {
  if (detail::g_several_hosts) [[unlikely]] return remote::load_seq(p);
  return seq_of(p).load(std::memory_order_acquire);
}
inline std::uint64_t load(const std::atomic<std::uint64_t>& w) {
  if (detail::g_several_hosts) [[unlikely]] return remote::load(w);
  return w.load(std::memory_order_acquire);
}
inline bool compare_exchange(std::atomic<std::uint32_t>& w, std::uint32_t& expected, std::uint32_t desired) {
  if (detail::g_several_hosts) [[unlikely]] return remote::compare_exchange(w, expected, desired);
  return w.compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
}
inline bool compare_exchange(std::atomic<std::uint64_t>& w, std::uint64_t& expected, std::uint64_t desired) {
  if (detail::g_several_hosts) [[unlikely]] return remote::compare_exchange(w, expected, desired);
  return w.compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
}
// The page cache: release before a word announces data, acquire after one did.
inline void release() {
  if (detail::g_several_hosts) [[unlikely]] remote::release();
}
inline void acquire() {
  if (detail::g_several_hosts) [[unlikely]] remote::acquire();
}
}  // namespace across

// The task executor's view of a team, one per member (a team attachment): the
// posts and task words of every member, and this member's own bookkeeping.
class team_view final : public team_attachment {
 public:
  static team_view& of(team& t);

  team& members() const noexcept { return *base_; }
  int size() const noexcept { return size_; }
  int rank() const noexcept { return rank_; }
  int thread_of(int rank) const noexcept { return base_->thread_of(rank); }
  int max_tasks() const noexcept { return tasks_per_rank * size_; }

  post& post_of(int rank, std::uint32_t seq) const noexcept { return record(rank, seq).p; }
  char* inline_data(int rank, std::uint32_t seq) const noexcept { return record(rank, seq).data; }
  // A post whose kind leaves the tail unused (no trait::tail) stages a small
  // input right behind its head: the reader's two fetches are then one
  // 128-byte pair, which CPUs fetch together. Room: the tail and the data.
  char* after_head(int rank, std::uint32_t seq) const noexcept {
    return reinterpret_cast<char*>(&record(rank, seq).p) + post_head_bytes;
  }
  task_word& task(int index, std::uint32_t seq) const noexcept {
    const int owner = index % size_, local = index / size_;
    return reinterpret_cast<task_word*>(areas_[static_cast<std::size_t>(owner)] +
                                        area_layout::task_words)[(seq % slots) * tasks_per_rank + local];
  }
  team_words& words() const noexcept { return *reinterpret_cast<team_words*>(areas_[0]); }
  std::atomic<std::uint32_t>& left(int rank, std::uint32_t seq) const noexcept {
    return reinterpret_cast<std::atomic<std::uint32_t>*>(areas_[static_cast<std::size_t>(rank)] +
                                                         area_layout::left_words)[seq % slots];
  }

  std::atomic<std::uint32_t>& completed(int rank) const noexcept {
    return *reinterpret_cast<std::atomic<std::uint32_t>*>(areas_[static_cast<std::size_t>(rank)] +
                                                          area_layout::completed_word);
  }
  // Whether every member's part of the collective `seq` (and of every one
  // before it) is known over from the members' completed words: then every
  // member has posted it and every task of it is done (each task writes some
  // member's receive buffer, whose member waits for it). One look at the words
  // answers for the collectives up to the oldest member's, so a member running
  // ahead reads them once in many calls. One host only (false across hosts).
  bool completed_by_all(std::uint32_t seq) noexcept;

  // The next collective's sequence number on this member (1, 2, ...).
  std::uint32_t next_seq() noexcept { return ++seq_; }

  // Wakes members sleeping on this team's activity word (call after any progress).
  void notify() const noexcept;

  // Per slot: the task count of the collective last started there (every
  // member derives the same), so a later one knows what must be done before
  // reuse; this member's buffers for its staged counts and input (reused by
  // the slot's next collective once the previous one is over); and the last
  // collective of the slot this member has seen over.
  struct slot_state {
    std::uint32_t seq = 0;   // the collective this member last started in the slot
    int tasks = 0;
    std::uint64_t meta = 0, meta_bytes = 0;    // offsets in this member's partition
    std::uint64_t stage = 0, stage_bytes = 0;
    std::uint32_t over = 0;
    // This member completed it before every post was in, with no failure seen
    // (late_agreement.hpp): the posts are compared before the slot is reused.
    bool left_clean = false;
    const char* function = nullptr;       // its name and front-end, for that late report
    const front_end* library = nullptr;
    // The collective was handed to MPI (mpi_handoff.hpp): over here once this
    // member's part is (nobody else reads the slot's staged data).
    std::shared_ptr<detail::mpi_job> handoff;
  };
  slot_state slot[slots];

  // Frees this member's staged buffers (nobody reads them once the team's
  // collectives are over for everyone).
  void free_staged(const char* function);

 private:
  slot_record& record(int rank, std::uint32_t seq) const noexcept {
    return reinterpret_cast<slot_record*>(areas_[static_cast<std::size_t>(rank)] + area_layout::posts)[seq % slots];
  }
  team* base_ = nullptr;
  std::vector<char*> areas_;
  int size_ = 0, rank_ = 0;
  std::uint32_t seq_ = 0;
  std::uint32_t completed_by_all_ = 0;  // every member's completed word has reached it
};

}  // namespace upc::coll::tasks
