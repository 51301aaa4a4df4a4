// Flat chunk copies (request::chunks): the data movement of the extended
// collectives of seed 003 (in-place, vector-variant, team-based, get/put/priv).
// Every chunk is copied once, in one step, by one member:
//   a private destination by its owner, a private source by its owner (no one
//   else can reach private memory: on the processes backend it is another
//   process's), and otherwise the destination's owner (pull) or the source's
//   owner (push);
//   when both ends are private to different threads, the source's owner first
//   copies the chunk into its scratch (staged) and the destination's owner
//   copies it out once the owner says it is there (ready flags); chunks with
//   the same source share one staged copy, so a private broadcast is the
//   thesis's Figure 3.7 (the root stages once, everyone copies out);
//   on the threads backend every thread's private memory is in one address
//   space, so the pull and push rows skip that staging: the source's owner
//   publishes its private buffer's address and the destination's owner copies
//   straight from it (one copy instead of two), acking before the owner may
//   return; the `staged` row keeps Figure 3.7 on every backend;
//   when chunks may overwrite bytes other chunks read (in place: exchange,
//   permute), every shared source is staged by its owner before that owner
//   writes anything, and read from the scratch (pull only: each member writes
//   only its own partition, after its own sources are safe).
// Readers of a scratch or of a private buffer ack its owner unless OUT_ALLSYNC
// holds everyone anyway.
// Bytes moved: each chunk once, plus each staged chunk once more.
#include <algorithm>
#include <cstring>

#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/chunk_flows.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"
#include "upc/runtime.hpp"

namespace upc::coll::algo {

namespace {

// Source and destination are the same bytes: nothing to copy, no one to wait for.
bool identity(const request& rq, const chunk& c) {
  if (!(c.src == c.dst)) return false;
  return !c.src.is_private || rq.in_place || rq.src_private == rq.dst_private;
}

// A private source another thread must read: through the owner's scratch
// (staged) or, in one address space, straight from the owner's buffer (direct).
bool private_crossing(const request& rq, const chunk& c) {
  if (!c.src.is_private || c.src.thread == c.dst.thread) return false;
  return c.dst.is_private || rq.dst_owner_only;
}

bool staged(const request& rq, const chunk& c, bool read_directly) {
  if (private_crossing(rq, c)) return !read_directly;
  return rq.stage_sources && !c.src.is_private;
}

// The thread that copies chunk c: a member always (a shared end may be on a
// thread outside the team: a team collective writing a non-member's element).
int copier(const request& rq, const chunk& c, bool push, const team& t) {
  if (c.dst.is_private || private_crossing(rq, c)) return c.dst.thread;
  if (c.src.is_private) return c.src.thread;
  int by = (rq.stage_sources || rq.dst_owner_only) ? c.dst.thread : push ? c.src.thread : c.dst.thread;
  if (t.rank_of(by) < 0) by = by == c.dst.thread ? c.src.thread : c.dst.thread;
  if (t.rank_of(by) < 0) by = t.thread_of(0);
  return by;
}

char* shared_byte(const place& at) { return raw(shared_address{at.offset, static_cast<std::uint32_t>(at.thread), 0}); }

void dedupe(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

constexpr std::size_t ix(int i) noexcept { return static_cast<std::size_t>(i); }

// The flat builder, stage by stage: what every member decides alike (direct
// reads, where staged chunks sit), then the calling member's steps (its
// address, its staged sources, the chunks it copies, who touches its data,
// acks).
class flat_builder {
 public:
  flat_builder(const request& rq, team& t, plan& p, bool push, bool force_staging)
      : rq_(rq), t_(t), p_(p), push_(push), chunks_(*rq.chunks), n_(chunks_.size()), me_rank_(t.rank()),
        me_(t.thread_of(me_rank_)), one_address_space_(!force_staging && current_backend() == backend_kind::threads) {}

  void build() {
    note_private_written();
    find_direct_reads();
    lay_out_staging();
    publish_my_address();
    stage_my_sources();
    copy_my_chunks();
    const std::vector<int> scratch_readers = note_touchers();
    ack_scratch_reads(scratch_readers);
  }

 private:
  // In place, a member's private buffer is also written by the call: others
  // may read it directly only if nothing is written there (else it is staged
  // before its owner writes, as shared sources in place are).
  void note_private_written() {
    private_written_.assign(ix(threads()), 0);
    if (rq_.in_place)
      for (const chunk& c : chunks_)
        if (c.dst.is_private && !identity(rq_, c)) private_written_[ix(c.dst.thread)] = 1;
  }
  bool reads_directly(const chunk& c) const {
    return one_address_space_ && private_crossing(rq_, c) && !identity(rq_, c) && !private_written_[ix(c.src.thread)];
  }
  bool staged(const chunk& c) const { return algo::staged(rq_, c, reads_directly(c)); }

  // Direct private reads: every member whose private source another member
  // reads publishes its buffer's address in the first bytes of its scratch,
  // as ready stage 0 (the same decision on every member: it depends on the
  // list and the backend only).
  void find_direct_reads() {
    for (const chunk& c : chunks_) direct_ = direct_ || reads_directly(c);
    constexpr std::uint64_t slot_bytes = 64;
    base_ = direct_ ? slot_bytes : 0;
    stage0_ = direct_ ? 1 : 0;
  }

  std::uint64_t segments_of(std::uint64_t bytes) const { return (bytes + segment_ - 1) / segment_; }

  // Where each staged chunk sits in its source owner's scratch (the same
  // arithmetic on every member: it depends on the list only). Chunks with the
  // same source bytes share one staged copy (a private broadcast stages its
  // source once, the thesis's Figure 3.7). Staged bytes are published in
  // segments, one ready stage each, so that readers copy a segment out while
  // its owner stages the next.
  void lay_out_staging() {
    at_.assign(n_, 0);
    first_stage_.assign(n_, 0);
    stager_.assign(n_, 0);
    std::vector<std::uint64_t> used(ix(threads()), 0);
    staged_segments_.assign(ix(threads()), 0);
    bool any_staged = false;
    for (std::size_t i = 0; i < n_; ++i) {
      const chunk& c = chunks_[i];
      if (identity(rq_, c) || !staged(c)) continue;
      any_staged = true;
      bool shared_copy = false;
      for (std::size_t j = i; j-- > 0 && !shared_copy;)  // the same source staged before? (lists are short where it matters)
        if (stager_[j] && chunks_[j].src == c.src && chunks_[j].bytes == c.bytes) {
          at_[i] = at_[j];
          first_stage_[i] = first_stage_[j];
          shared_copy = true;
        }
      if (shared_copy) continue;
      stager_[i] = 1;
      const std::size_t o = ix(c.src.thread);
      at_[i] = base_ + used[o];
      first_stage_[i] = stage0_ + staged_segments_[o];
      used[o] += (c.bytes + 15) & ~std::uint64_t{15};
      staged_segments_[o] += segments_of(c.bytes);
    }
    if (any_staged || rq_.stage_sources || direct_) {
      t_.ensure_scratch(static_cast<std::size_t>(base_ + *std::max_element(used.begin(), used.end())) + 64, rq_.function);
      p_.stages = stage0_ + static_cast<int>(std::max<std::uint64_t>(1, *std::max_element(staged_segments_.begin(), staged_segments_.end())));
    }
  }
  // a member's last stage: everything it stages is there
  int last_stage(int thread) const { return stage0_ + static_cast<int>(staged_segments_[ix(thread)]) - 1; }

  const char* source(const chunk& c) const { return c.src.is_private ? rq_.src_private + c.src.offset : shared_byte(c.src); }
  char* destination(const chunk& c) const { return c.dst.is_private ? rq_.dst_private + c.dst.offset : shared_byte(c.dst); }

  // 0. my private buffer's address, for those who read it directly (the
  // plan is kept for calls with the same buffers, so the address is a constant of it)
  void publish_my_address() {
    if (!direct_) return;
    bool read_directly = false;
    for (const chunk& c : chunks_) read_directly = read_directly || (reads_directly(c) && c.src.thread == me_);
    if (read_directly) {
      p_.local.resize(sizeof(char*));
      std::memcpy(p_.local.data(), &rq_.src_private, sizeof(char*));
      p_.copy(t_.scratch(me_rank_), p_.local.data(), sizeof(char*));
    }
    p_.publish_ready(0);
  }

  // 1. my staged sources, segment by segment, before I write anything
  void stage_my_sources() {
    for (std::size_t i = 0; i < n_; ++i) {
      const chunk& c = chunks_[i];
      if (c.src.thread != me_ || !stager_[i]) continue;
      for (std::uint64_t k = 0; k * segment_ < c.bytes; ++k) {
        const std::uint64_t off = k * segment_, len = std::min(segment_, c.bytes - off);
        p_.copy(t_.scratch(me_rank_) + at_[i] + off, source(c) + off, len);
        p_.publish_ready(static_cast<int>(first_stage_[i] + k));
      }
    }
  }

  // stage s of rank, once (later stages imply earlier ones)
  void wait_for(int rank, int stage) {
    if (rank == me_rank_ || stage < 0 || waited_[ix(rank)] >= stage) return;
    waited_[ix(rank)] = stage;
    p_.wait_ready(rank, stage);
  }

  // 2. the chunks I copy
  void copy_my_chunks() {
    waited_.assign(ix(t_.size()), -1);
    read_scratch_of_.assign(ix(t_.size()), 0);
    for (std::size_t i = 0; i < n_; ++i) {
      const chunk& c = chunks_[i];
      if (!identity(rq_, c) && copier(rq_, c, push_, t_) == me_) copy_chunk(i, c);
    }
  }
  void copy_chunk(std::size_t i, const chunk& c) {
    const int src_rank = t_.rank_of(c.src.thread), dst_rank = t_.rank_of(c.dst.thread);
    // a non-member's partition is read or written without waiting for it
    // (it takes no part in the collective): rank -1 stays out of every list
    if (!c.dst.is_private && dst_rank >= 0) {
      if (rq_.stage_sources) wait_for(dst_rank, last_stage(c.dst.thread));  // its sources are safe before I write there
      touch_one(p_.touches, dst_rank, me_rank_);
    }
    if (staged(c)) {
      if (src_rank != me_rank_) read_scratch_of_[ix(src_rank)] = 1;
      for (std::uint64_t k = 0; k * segment_ < c.bytes; ++k) {
        const std::uint64_t off = k * segment_, len = std::min(segment_, c.bytes - off);
        wait_for(src_rank, static_cast<int>(first_stage_[i] + k));
        p_.copy(destination(c) + off, t_.scratch(src_rank) + at_[i] + off, len);
      }
      return;
    }
    if (!c.src.is_private && src_rank >= 0) touch_one(p_.touches, src_rank, me_rank_);
    if (reads_directly(c)) {  // one address space: straight from the owner's buffer
      wait_for(src_rank, 0);
      read_scratch_of_[ix(src_rank)] = 1;
      p_.copy_indirect(destination(c), t_.scratch(src_rank), static_cast<std::ptrdiff_t>(c.src.offset), c.bytes);
      return;
    }
    p_.copy(destination(c), source(c), c.bytes);
  }

  // 3. who touches my data or reads my scratch (returns the scratch's readers)
  std::vector<int> note_touchers() {
    std::vector<int> scratch_readers;
    for (const chunk& c : chunks_) {
      if (identity(rq_, c)) continue;
      const int by = copier(rq_, c, push_, t_);
      if (by == me_) continue;
      const int by_rank = t_.rank_of(by);
      if (c.src.thread == me_ && !c.src.is_private) {
        if (staged(c)) scratch_readers.push_back(by_rank);
        else p_.touchers.push_back(by_rank);
      } else if (c.src.thread == me_ && (staged(c) || reads_directly(c))) {
        scratch_readers.push_back(by_rank);
      }
      if (c.dst.thread == me_ && !c.dst.is_private) p_.touchers.push_back(by_rank);
    }
    dedupe(p_.touches);
    dedupe(p_.touchers);
    dedupe(scratch_readers);
    return scratch_readers;
  }

  // 4. a scratch is not reused before its readers are done with it
  void ack_scratch_reads(const std::vector<int>& scratch_readers) {
    if (!readers_must_ack(rq_.flags, false)) return;
    for (int r = 0; r < t_.size(); ++r)
      if (read_scratch_of_[ix(r)]) p_.ack(r);
    if (!scratch_readers.empty()) {
      p_.ack_from = scratch_readers;
      p_.wait_acks();
    }
  }

  const request& rq_;
  team& t_;
  plan& p_;
  const bool push_;
  const std::vector<chunk>& chunks_;
  const std::size_t n_;
  const int me_rank_, me_;  // my team rank and my thread
  const bool one_address_space_;
  const std::uint64_t segment_ = segment_bytes();  // UPCEMU_COLL_SEGMENT
  std::vector<char> private_written_;  // per thread: in place, its private buffer is written
  bool direct_ = false;                // some private source is read in place (threads backend)
  std::uint64_t base_ = 0;             // where staged chunks start in a scratch
  int stage0_ = 0;                     // the first stage of staged segments
  std::vector<std::uint64_t> at_, first_stage_;  // per chunk: its staged copy's offset and first stage
  std::vector<char> stager_;                     // per chunk: its copy stages these bytes
  std::vector<std::uint64_t> staged_segments_;   // per thread: segments it stages
  std::vector<int> waited_;           // per rank: the ready stage my plan waits for already
  std::vector<char> read_scratch_of_;  // per rank: I read its scratch
};

}  // namespace

void chunks_pull(const request& rq, team& t, plan& p) { flat_builder(rq, t, p, false, false).build(); }
void chunks_push(const request& rq, team& t, plan& p) { flat_builder(rq, t, p, true, false).build(); }
void chunks_staged(const request& rq, team& t, plan& p) { flat_builder(rq, t, p, false, true).build(); }

}  // namespace upc::coll::algo
