// A team: the one ordered set of UPC threads every collective runs on (issue 9).
// The world team of a run, the teams upccoll_team_split makes and the thesis's
// teams are all this type; each executor attaches its own words to it.
//
// What a team has:
//   membership   size, this member's rank, rank <-> thread maps (rank r is
//                thread_of(r); a thread outside the team has rank -1)
//   a node view  which members share a virtual node (upcrun --nodes), the
//                nodes in rank order, each node's leader (its lowest rank)
//   a block per member, in that member's own partition (so every member can
//                reach every word): a header (barrier, scratch, split), then
//                one section per executor (team_section below); rank 0's
//                header holds the team-wide words
//   a barrier    split form (arrive / passed) and blocking; the world team's
//                is the runtime's world barrier (which also matches calls)
//   scratch      per-member bytes the algorithms share, grown collectively
//   attachments  per-member private state of an executor (sequence numbers,
//                staged buffers), created on first use
//
// Teams are made by split (collective over the parent, MPI_Comm_split's rule)
// and dismantled by release (collective over the team).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "status.hpp"

namespace upc::detail {
class single_valued;
}

namespace upc::coll {

// A range of every member's block that one executor owns: registered once per
// program (a static object), sized by the team's size; every team has one.
class team_section {
 public:
  team_section(const char* name, std::size_t (*bytes)(int team_size));
  const char* name() const noexcept { return name_; }
  int index() const noexcept { return index_; }
  std::size_t bytes(int team_size) const { return bytes_(team_size); }

 private:
  const char* name_;
  std::size_t (*bytes_)(int);
  int index_;
};

// Private per-member state of an executor, one object per type and team member.
struct team_attachment {
  virtual ~team_attachment() = default;
};

class team {
 public:
  ~team();
  team(const team&) = delete;
  team& operator=(const team&) = delete;

  // The calling UPC thread's handle of the world team (made by the launcher:
  // nothing collective happens on first use).
  static team& world();

  int size() const noexcept { return static_cast<int>(threads_.size()); }
  int rank() const noexcept { return rank_; }
  int thread_of(int rank) const noexcept { return threads_[static_cast<std::size_t>(rank)]; }
  int rank_of(int thread) const noexcept;  // -1: not a member
  bool is_world() const noexcept { return world_; }
  // The same on every member, for the race check (race_check.hpp): the address
  // of member 0's block; nullptr for the world team, whose barrier is the world's.
  const void* race_identity() const noexcept { return world_ ? nullptr : blocks_.front(); }
  const std::vector<int>& threads() const noexcept { return threads_; }
  // Never reused in a run (handles of front-ends are built from it).
  std::uint64_t id() const noexcept { return id_; }

  // Node view.
  int node_count() const noexcept { return static_cast<int>(node_ranks_.size()); }
  int node_of(int rank) const noexcept { return node_index_[static_cast<std::size_t>(rank)]; }  // 0 .. node_count-1
  const std::vector<int>& ranks_on_node(int node) const noexcept { return node_ranks_[static_cast<std::size_t>(node)]; }
  int leader_of(int node) const noexcept { return node_ranks_[static_cast<std::size_t>(node)].front(); }

  // Member `rank`'s block, and an executor's section of it.
  char* block(int rank) const noexcept { return blocks_[static_cast<std::size_t>(rank)]; }
  char* section(const team_section& s, int rank) const noexcept {
    return blocks_[static_cast<std::size_t>(rank)] + section_offsets_[static_cast<std::size_t>(s.index())];
  }
  // Machine address of `offset` in member `rank`'s partition.
  char* at(int rank, std::uint64_t offset) const noexcept;

  // Barrier of this team only (never paired with upc_barrier).
  std::uint32_t barrier_arrive();
  bool barrier_passed(std::uint32_t phase);  // world: also matches the threads' calls (may fail)
  const std::atomic<std::uint32_t>& barrier_word() const noexcept;
  std::atomic<std::uint32_t>& barrier_sleepers() const noexcept;
  void barrier(const char* function);

  // Scratch: ensure_scratch is collective and every member passes the same
  // value; a failure (no heap) is an upc::error on every member.
  char* scratch(int rank) const noexcept;
  std::size_t scratch_bytes() const noexcept { return scratch_bytes_; }
  void ensure_scratch(std::size_t bytes, const char* function = "collective (scratch)");

  // The executor state of type T for this member (made on first use).
  template <class T>
  T& attached() {
    const int i = attachment_index<T>();
    if (attachments_.size() <= static_cast<std::size_t>(i)) attachments_.resize(static_cast<std::size_t>(i) + 1);
    if (!attachments_[static_cast<std::size_t>(i)]) attachments_[static_cast<std::size_t>(i)] = std::make_unique<T>();
    return static_cast<T&>(*attachments_[static_cast<std::size_t>(i)]);
  }

  // Collective over `parent`: the joining members passing the same color
  // form a new team, ordered by key, then by parent rank; a member that does
  // not join gets no team (out stays empty). A member passing `failed` != ok
  // makes the split fail on every member with that status (no team is made).
  // Returns the status every member gets: ok, the first failure (in parent
  // rank order), or no_memory.
  static status split(team& parent, bool join, int color, int key, status failed, std::unique_ptr<team>& out,
                      const char* function);

  // Made by its members alone, without the parent's participation (the
  // thesis's teams: a membership written into shared memory, then used by the
  // members only). `slots` has one entry per member, in shared memory every
  // member can reach, zero before the first member arrives; each member
  // allocates its block, publishes it in its slot with `view` (a fingerprint
  // of the membership as it sees it), and waits for the others. Members that
  // see different memberships fail with a message naming the two threads.
  struct member_slot {
    std::atomic<std::uint32_t> ready;
    std::atomic<std::uint32_t> sleepers;
    std::uint64_t block;
    std::uint64_t view;
  };
  static std::unique_ptr<team> from_members(std::vector<int> threads, member_slot* slots, std::uint64_t view,
                                            const char* function);

  // Collective over the team: once every member has arrived, the last one to
  // leave frees the blocks. The handle must not be used afterwards.
  void release(const char* function);

  // --check: this member's single-valued arguments of a collective call compared
  // with member 0's (the same call, by this member's count of checked calls on
  // the team); a difference fails the run naming both threads. It waits for
  // member 0's arguments, never for every member.
  static constexpr int single_valued_slots = 24;
  static constexpr std::uint32_t single_valued_rounds = 4;
  void check_single_valued(const detail::single_valued& mine, const char* function);

  // Bytes of one member's block for a team of `size` members.
  static std::size_t block_bytes(int size);

 private:
  team(std::vector<char*> blocks, std::vector<int> threads, int rank, bool world);
  void build_node_view();
  template <class T>
  static int attachment_index() {
    static const int i = next_attachment_index();
    return i;
  }
  static int next_attachment_index();

  std::vector<char*> blocks_;
  std::vector<int> threads_;
  std::vector<std::size_t> section_offsets_;  // where each executor's section starts in a block
  std::vector<int> node_index_;
  std::vector<std::vector<int>> node_ranks_;
  int rank_;
  bool world_;
  std::uint64_t id_;
  std::uint32_t barrier_phase_ = 0;
  std::uint32_t check_round_ = 0;
  std::uint64_t scratch_offset_ = 0;
  std::size_t scratch_bytes_ = 0;
  mutable std::vector<char*> scratch_at_;  // sub-teams: each member's scratch, read once per growth
  std::vector<std::unique_ptr<team_attachment>> attachments_;
};

}  // namespace upc::coll
