#include "team.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "../runtime/collective_call.hpp"
#include "../runtime/control.hpp"
#include "../runtime/dsm.hpp"
#include "../runtime/epoch_wait.hpp"
#include "../runtime/host_words.hpp"
#include "../runtime/race_check.hpp"
#include "../runtime/single_valued.hpp"
#include "../runtime/world_barrier.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc::coll {

using namespace upc::detail;

namespace {

std::size_t round64(std::size_t x) { return (x + 63) & ~std::size_t{63}; }

// The start of every member's block. Rank 0's barrier words serve the team;
// every member's own words say where its scratch is and what it passed to a
// split of this team.
struct header {
  alignas(64) std::atomic<std::uint32_t> barrier_arrived;
  alignas(64) std::atomic<std::uint32_t> barrier_generation;
  std::atomic<std::uint32_t> barrier_sleepers;
  std::atomic<std::uint32_t> departed;  // release: members gone
  alignas(64) std::uint64_t scratch_offset;
  std::uint64_t scratch_bytes;
  std::int32_t scratch_failed;
  // split: what this member passed, then (second phase) its new block
  alignas(64) std::int32_t split_status;
  std::int32_t split_join;
  std::int32_t split_color;
  std::int32_t split_key;
  std::uint64_t split_block;  // offset in this member's partition; 0: none
  // --check's single-valued arguments: member 0 publishes each checked call's
  // (a ring of rounds) and says how many it has published; every other member
  // compares its own with them and says how many it has compared.
  alignas(64) std::atomic<std::uint32_t> checks_published;
  std::atomic<std::uint32_t> checks_compared;
  std::atomic<std::uint32_t> checks_sleepers;
  alignas(64) std::atomic<std::uint64_t> single_valued[team::single_valued_rounds][team::single_valued_slots];
};
constexpr std::size_t header_bytes = (sizeof(header) + 63) / 64 * 64;

header& header_of(const team& t, int rank) { return *reinterpret_cast<header*>(t.block(rank)); }

std::vector<const team_section*>& sections() {
  static std::vector<const team_section*> v;
  return v;
}

// Where section i starts in a block of a team of `size`.
std::size_t section_offset(int index, int size) {
  std::size_t off = header_bytes;
  for (int i = 0; i < index; ++i) off += round64(sections()[static_cast<std::size_t>(i)]->bytes(size));
  return off;
}

char* partition_base(int thread) { return g_partitions + static_cast<std::uint64_t>(thread) * g_partition_bytes; }
std::uint64_t offset_in_partition(const char* p, int thread) { return static_cast<std::uint64_t>(p - partition_base(thread)); }

// The world team's blocks are allocated by the launcher before any thread
// runs, like a namespace-scope shared array: no collective step is needed to
// make the team, so a thread's first collective cannot pair with anything
// else, and every process of the processes backend inherits the offset.
class world_team_storage final : public static_object {
 public:
  world_team_storage() { register_static_object(this); }
  void allocate() override { offset_ = symmetric_alloc(team::block_bytes(g_threads), "collective (world team)"); }
  void release() noexcept override { offset_ = 0; }
  std::uint64_t offset() const noexcept { return offset_; }

 private:
  std::uint64_t offset_ = 0;
};
world_team_storage g_world_storage;

thread_local std::unique_ptr<team> tl_world;
thread_local const void* tl_world_run = nullptr;  // the run the handle belongs to
thread_local std::uint64_t tl_next_id = 1;        // team ids of this thread, never reused in a run

}  // namespace

team_section::team_section(const char* name, std::size_t (*bytes)(int)) : name_(name), bytes_(bytes) {
  index_ = static_cast<int>(sections().size());
  sections().push_back(this);
}

int team::next_attachment_index() {
  static std::atomic<int> next{0};
  return next.fetch_add(1);
}

std::size_t team::block_bytes(int size) { return section_offset(static_cast<int>(sections().size()), size); }

team::team(std::vector<char*> blocks, std::vector<int> threads, int rank, bool world)
    : blocks_(std::move(blocks)), threads_(std::move(threads)), rank_(rank), world_(world) {
  id_ = world ? 0 : tl_next_id++;
  for (std::size_t i = 0; i < sections().size(); ++i) section_offsets_.push_back(section_offset(static_cast<int>(i), size()));
  build_node_view();
}

team::~team() = default;

void team::build_node_view() {
  // Nodes in the order of their lowest rank; a node's ranks ascending.
  std::vector<int> node_ids;  // the runtime's node of each of our nodes
  node_index_.assign(threads_.size(), 0);
  for (int r = 0; r < size(); ++r) {
    const int n = upc::node_of(threads_[static_cast<std::size_t>(r)]);
    auto it = std::find(node_ids.begin(), node_ids.end(), n);
    const int k = static_cast<int>(it - node_ids.begin());
    if (it == node_ids.end()) {
      node_ids.push_back(n);
      node_ranks_.emplace_back();
    }
    node_index_[static_cast<std::size_t>(r)] = k;
    node_ranks_[static_cast<std::size_t>(k)].push_back(r);
  }
}

team& team::world() {
  // A new run (or a new process of the processes backend) starts a new handle.
  if (tl_world && tl_world_run == g_control) return *tl_world;
  tl_next_id = 1;
  const int T = g_threads;
  std::vector<char*> blocks(static_cast<std::size_t>(T));
  std::vector<int> threads(static_cast<std::size_t>(T));
  for (int r = 0; r < T; ++r) {
    blocks[static_cast<std::size_t>(r)] = partition_base(r) + g_world_storage.offset();
    threads[static_cast<std::size_t>(r)] = r;
  }
  tl_world.reset(new team(std::move(blocks), std::move(threads), tl_mythread, true));
  tl_world_run = g_control;
  return *tl_world;
}

int team::rank_of(int thread) const noexcept {
  if (world_) return thread;
  for (int r = 0; r < size(); ++r)
    if (threads_[static_cast<std::size_t>(r)] == thread) return r;
  return -1;
}

char* team::at(int rank, std::uint64_t offset) const noexcept { return partition_base(thread_of(rank)) + offset; }

// ---- barrier ----------------------------------------------------------------


std::uint32_t team::barrier_arrive() {
  if (world_) return world_barrier_arrive();
  header& h = header_of(*this, 0);
  const std::uint32_t phase = ++barrier_phase_;
  if (several_hosts()) {  // member 0's header may be on another host
    if (fetch_add_word(h.barrier_arrived, 1) + 1 == static_cast<std::uint32_t>(size())) {
      fetch_add_word(h.barrier_arrived, static_cast<std::uint32_t>(-size()));
      remote_publish_word(h.barrier_generation, phase);
    }
    return phase;
  }
  if (g_races) race_release(race_barrier_key(&h.barrier_generation, phase, race_identity()));  // before the arrival that may complete the phase
  if (h.barrier_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(size())) {
    h.barrier_arrived.store(0, std::memory_order_relaxed);
    publish_epoch(h.barrier_generation, phase, h.barrier_sleepers);
  }
  return phase;
}

bool team::barrier_passed(std::uint32_t phase) {
  if (world_) return world_barrier_passed(phase);
  if (several_hosts()) {
    if (!epoch_reached(load_word(header_of(*this, 0).barrier_generation), phase)) return false;
    dsm_acquire();
    return true;
  }
  if (!epoch_reached(header_of(*this, 0).barrier_generation.load(std::memory_order_acquire), phase)) return false;
  if (g_races) race_acquire(race_barrier_key(&header_of(*this, 0).barrier_generation, phase, race_identity()));
  return true;
}

const std::atomic<std::uint32_t>& team::barrier_word() const noexcept {
  return world_ ? world_barrier_word() : header_of(*this, 0).barrier_generation;
}

std::atomic<std::uint32_t>& team::barrier_sleepers() const noexcept {
  return world_ ? world_barrier_sleepers() : header_of(*this, 0).barrier_sleepers;
}

void team::barrier(const char* function) {
  if (world_) {
    world_barrier(function);
    return;
  }
  const std::uint32_t phase = barrier_arrive();
  header& h = header_of(*this, 0);
  if (several_hosts()) {
    blocked_scope blocked(blocked_kind::collective, -1, function, nullptr, 0);
    for (int round = 0; !barrier_passed(phase); ++round) polite_pause(round);
    return;
  }
  wait_epoch(h.barrier_generation, phase, h.barrier_sleepers, wait_site{function, -1, -2});
  if (g_races) race_acquire(race_barrier_key(&h.barrier_generation, phase, race_identity()));
}

// ---- scratch ----------------------------------------------------------------

char* team::scratch(int rank) const noexcept {
  if (world_) return at(rank, scratch_offset_);
  return scratch_at_.empty() ? nullptr : scratch_at_[static_cast<std::size_t>(rank)];  // none yet: nothing is read there
}

void team::ensure_scratch(std::size_t bytes, const char* function) {
  if (bytes <= scratch_bytes_) return;
  const std::size_t grown = round64(std::max(bytes, 2 * scratch_bytes_));
  // Everyone is done with the old scratch once all have arrived here.
  barrier(function);
  if (world_) {
    if (scratch_bytes_) collective_free(shared_address{scratch_offset_, 0, 0}, function);
    // Forget the old scratch before allocating: if the allocation fails (on
    // every rank alike), the team is left consistently without scratch.
    scratch_offset_ = 0;
    scratch_bytes_ = 0;
    scratch_offset_ = collective_symmetric_alloc(grown, function);
    scratch_bytes_ = grown;
    return;
  }
  // A sub-team: each member grows its own, says where it is, and every member
  // learns whether all succeeded.
  header& mine = header_of(*this, rank_);
  const int me = thread_of(rank_);
  if (mine.scratch_offset) heap_free(shared_address{mine.scratch_offset, static_cast<std::uint32_t>(me), 0}, function);
  mine.scratch_offset = 0;
  mine.scratch_failed = 0;
  try {
    mine.scratch_offset = local_alloc(me, grown, function);
  } catch (const upc::error&) {
    mine.scratch_failed = 1;
  }
  scratch_bytes_ = 0;
  scratch_at_.assign(static_cast<std::size_t>(size()), nullptr);
  barrier(function);
  int failed_rank = -1;
  for (int r = 0; r < size() && failed_rank < 0; ++r)
    if (header_of(*this, r).scratch_failed) failed_rank = r;
  if (failed_rank >= 0) {
    barrier(function);  // nobody reads the headers after this
    throw upc::error(function,
                     "no shared heap left for " + std::to_string(grown) + " bytes of collective scratch on thread " +
                         std::to_string(thread_of(failed_rank)),
                     tl_mythread);
  }
  for (int r = 0; r < size(); ++r) scratch_at_[static_cast<std::size_t>(r)] = at(r, header_of(*this, r).scratch_offset);
  scratch_bytes_ = grown;
}

// Without a barrier: a check must not make a NOSYNC collective wait for every
// member (a program whose threads never all arrive would hang under --check
// instead of being reported). Member 0 publishes; the others wait for member 0
// alone, and member 0 reuses a round's slot only once everyone has compared it.
void team::check_single_valued(const single_valued& mine, const char* function) {
  const std::uint32_t round = check_round_++;
  header& h0 = header_of(*this, 0);
  std::atomic<std::uint64_t>* area = h0.single_valued[round % single_valued_rounds];
  if (several_hosts()) {  // member 0's header may be on another host: its pages travel with a barrier
    if (rank_ == 0) mine.publish_to(area);
    barrier(function);
    mine.verify_against(area, thread_of(0));
    barrier(function);  // the slot is reused single_valued_rounds calls later
    return;
  }
  if (rank_ == 0) {
    if (round >= single_valued_rounds)
      for (int r = 1; r < size(); ++r) {
        header& h = header_of(*this, r);
        wait_epoch(h.checks_compared, round - single_valued_rounds + 1, h.checks_sleepers,
                   wait_site{function, static_cast<std::int64_t>(round), thread_of(r)});
      }
    mine.publish_to(area);
    publish_epoch(h0.checks_published, round + 1, h0.checks_sleepers);
    return;
  }
  wait_epoch(h0.checks_published, round + 1, h0.checks_sleepers,
             wait_site{function, static_cast<std::int64_t>(round), thread_of(0)});
  // The call records first (world-team calls are numbered alike on every thread):
  // a different call, size, root, op or flags is reported with both lines.
  if (world_) match_call_with(thread_of(0));
  mine.verify_against(area, thread_of(0));
  header& me = header_of(*this, rank_);
  publish_epoch(me.checks_compared, round + 1, me.checks_sleepers);
}

// ---- split and release ------------------------------------------------------

status team::split(team& parent, bool join, int color, int key, status failed, std::unique_ptr<team>& out,
                   const char* function) {
  out.reset();
  header& mine = header_of(parent, parent.rank());
  // Phase 1: what each member passed.
  mine.split_status = static_cast<std::int32_t>(failed);
  mine.split_join = join;
  mine.split_color = color;
  mine.split_key = key;
  mine.split_block = 0;
  parent.barrier(function);
  status verdict = status::ok;
  for (int r = 0; r < parent.size() && verdict == status::ok; ++r)
    verdict = static_cast<status>(header_of(parent, r).split_status);
  std::vector<std::pair<int, int>> members;  // (key, parent rank)
  if (verdict == status::ok && join)
    for (int r = 0; r < parent.size(); ++r) {
      const header& h = header_of(parent, r);
      if (h.split_join && h.split_color == color) members.push_back({h.split_key, r});
    }
  std::sort(members.begin(), members.end());
  // Phase 2: each joining member's block of its new team, sized for it.
  const int me_thread = parent.thread_of(parent.rank());
  std::uint64_t block = 0;
  if (!members.empty()) {
    const std::size_t bytes = block_bytes(static_cast<int>(members.size()));
    try {
      block = local_alloc(me_thread, bytes, function);
      std::memset(partition_base(me_thread) + block, 0, bytes);
    } catch (const upc::error&) {
      mine.split_status = static_cast<std::int32_t>(status::no_memory);
    }
  }
  mine.split_block = block;
  parent.barrier(function);
  for (int r = 0; r < parent.size() && verdict == status::ok; ++r)
    verdict = static_cast<status>(header_of(parent, r).split_status);
  std::vector<char*> blocks;
  std::vector<int> threads;
  int my_rank = -1;
  if (verdict == status::ok)
    for (auto [k, r] : members) {
      if (r == parent.rank()) my_rank = static_cast<int>(blocks.size());
      blocks.push_back(parent.at(r, header_of(parent, r).split_block));
      threads.push_back(parent.thread_of(r));
    }
  parent.barrier(function);  // everyone has read the headers
  if (verdict != status::ok) {
    if (block) heap_free(shared_address{block, static_cast<std::uint32_t>(me_thread), 0}, function);
    return verdict;
  }
  if (join) out.reset(new team(std::move(blocks), std::move(threads), my_rank, false));
  return status::ok;
}

std::unique_ptr<team> team::from_members(std::vector<int> threads, member_slot* slots, std::uint64_t view,
                                         const char* function) {
  const int me = tl_mythread;
  int my_rank = -1;
  for (std::size_t r = 0; r < threads.size(); ++r)
    if (threads[r] == me) my_rank = static_cast<int>(r);
  if (my_rank < 0) throw upc::error(function, "thread " + std::to_string(me) + " is not a member of the team", me);
  const std::size_t bytes = block_bytes(static_cast<int>(threads.size()));
  const std::uint64_t block = local_alloc(me, bytes, function);
  std::memset(partition_base(me) + block, 0, bytes);
  member_slot& mine = slots[my_rank];
  mine.block = block;
  mine.view = view;
  // Across hosts the slots may be on another host: through their owner.
  if (several_hosts()) remote_publish_word(mine.ready, 1);
  else detail::publish_epoch(mine.ready, 1, mine.sleepers);
  std::vector<char*> blocks(threads.size());
  for (std::size_t r = 0; r < threads.size(); ++r) {
    member_slot& s = slots[r];
    if (several_hosts()) {
      blocked_scope blocked(blocked_kind::collective, -1, function, nullptr, 0);
      for (int round = 0; !epoch_reached(load_word(s.ready), 1); ++round) polite_pause(round);
      dsm_acquire();
    } else {
      detail::wait_epoch(s.ready, 1, s.sleepers, detail::wait_site{function, -1, threads[r]});
    }
    if (s.view != view)
      throw upc::error(function, "threads " + std::to_string(me) + " and " + std::to_string(threads[r]) +
                                     " see different members of the team (was an insert not followed by a barrier?)", me);
    blocks[r] = partition_base(threads[r]) + s.block;
  }
  return std::unique_ptr<team>(new team(std::move(blocks), std::move(threads), my_rank, false));
}

void team::release(const char* function) {
  barrier(function);
  if (g_races) race_forget_team(race_identity());  // its blocks may serve another team next
  // Our own scratch (sub-teams; the world team's lives as long as the run).
  header& mine = header_of(*this, rank_);
  if (!world_ && mine.scratch_offset) {
    heap_free(shared_address{mine.scratch_offset, static_cast<std::uint32_t>(thread_of(rank_)), 0}, function);
    mine.scratch_offset = 0;
  }
  if (world_) return;
  if (several_hosts()) {
    // Each host frees only its own heaps: every member its own block, once
    // nobody reads any (a second barrier; departed is in member 0's block).
    barrier(function);
    const int thr = thread_of(rank_);
    heap_free(shared_address{offset_in_partition(block(rank_), thr), static_cast<std::uint32_t>(thr), 0}, function);
    return;
  }
  // The last member to leave frees every block (nobody reads them after).
  if (header_of(*this, 0).departed.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(size()))
    for (int r = 0; r < size(); ++r) {
      const int thr = thread_of(r);
      heap_free(shared_address{offset_in_partition(block(r), thr), static_cast<std::uint32_t>(thr), 0}, function);
    }
}

}  // namespace upc::coll
