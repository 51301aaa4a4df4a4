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

void build(const request& rq, team& t, plan& p, bool push, bool force_staging) {
  const std::vector<chunk>& chunks = *rq.chunks;
  const int me_rank = t.rank(), me = t.thread_of(me_rank);
  const std::size_t n = chunks.size();
  // In place, a member's private buffer is also written by the call: others
  // may read it directly only if nothing is written there (else it is staged
  // before its owner writes, as shared sources in place are).
  const bool one_address_space = !force_staging && current_backend() == backend_kind::threads;
  std::vector<char> private_written(static_cast<std::size_t>(threads()), 0);
  if (rq.in_place)
    for (const chunk& c : chunks)
      if (c.dst.is_private && !identity(rq, c)) private_written[static_cast<std::size_t>(c.dst.thread)] = 1;
  auto reads_directly = [&](const chunk& c) {
    return one_address_space && private_crossing(rq, c) && !identity(rq, c) && !private_written[static_cast<std::size_t>(c.src.thread)];
  };
  auto staged = [&](const request& r, const chunk& c) { return algo::staged(r, c, reads_directly(c)); };

  // Direct private reads: every member whose private source another member
  // reads publishes its buffer's address in the first bytes of its scratch,
  // as ready stage 0 (the same decision on every member: it depends on the
  // list and the backend only).
  bool direct = false;
  for (const chunk& c : chunks) direct = direct || reads_directly(c);
  constexpr std::uint64_t slot_bytes = 64;
  const std::uint64_t base = direct ? slot_bytes : 0;
  const int stage0 = direct ? 1 : 0;  // the first stage of staged segments

  // Where each staged chunk sits in its source owner's scratch (the same
  // arithmetic on every member: it depends on the list only). Chunks with the
  // same source bytes share one staged copy (a private broadcast stages its
  // source once, the thesis's Figure 3.7). Staged bytes are published in
  // segments, one ready stage each, so that readers copy a segment out while
  // its owner stages the next.
  const std::uint64_t segment = segment_bytes();  // UPCEMU_COLL_SEGMENT
  auto segments_of = [&](std::uint64_t bytes) { return (bytes + segment - 1) / segment; };
  std::vector<std::uint64_t> at(n, 0), first_stage(n, 0), used(static_cast<std::size_t>(threads()), 0),
      staged_segments(static_cast<std::size_t>(threads()), 0);
  std::vector<char> stager(n, 0);  // the chunk whose copy stages these bytes
  bool any_staged = false;
  for (std::size_t i = 0; i < n; ++i) {
    const chunk& c = chunks[i];
    if (identity(rq, c) || !staged(rq, c)) continue;
    any_staged = true;
    bool shared_copy = false;
    for (std::size_t j = i; j-- > 0 && !shared_copy;)  // the same source staged before? (lists are short where it matters)
      if (stager[j] && chunks[j].src == c.src && chunks[j].bytes == c.bytes) {
        at[i] = at[j];
        first_stage[i] = first_stage[j];
        shared_copy = true;
      }
    if (shared_copy) continue;
    stager[i] = 1;
    const std::size_t o = static_cast<std::size_t>(c.src.thread);
    at[i] = base + used[o];
    first_stage[i] = stage0 + staged_segments[o];
    used[o] += (c.bytes + 15) & ~std::uint64_t{15};
    staged_segments[o] += segments_of(c.bytes);
  }
  const bool stages = any_staged || rq.stage_sources || direct;
  if (stages) {
    t.ensure_scratch(static_cast<std::size_t>(base + *std::max_element(used.begin(), used.end())) + 64, rq.function);
    p.stages = stage0 + static_cast<int>(std::max<std::uint64_t>(1, *std::max_element(staged_segments.begin(), staged_segments.end())));
  }
  // a member's last stage: everything it stages is there
  auto last_stage = [&](int thread) { return stage0 + static_cast<int>(staged_segments[static_cast<std::size_t>(thread)]) - 1; };

  auto source = [&](const chunk& c) -> const char* {
    return c.src.is_private ? rq.src_private + c.src.offset : shared_byte(c.src);
  };
  auto destination = [&](const chunk& c) -> char* {
    return c.dst.is_private ? rq.dst_private + c.dst.offset : shared_byte(c.dst);
  };

  // 0. my private buffer's address, for those who read it directly (the
  // plan is kept for calls with the same buffers, so the address is a constant of it)
  bool read_directly = false;
  for (const chunk& c : chunks)
    read_directly = read_directly || (reads_directly(c) && c.src.thread == me);
  if (direct) {
    if (read_directly) {
      p.local.resize(sizeof(char*));
      std::memcpy(p.local.data(), &rq.src_private, sizeof(char*));
      p.copy(t.scratch(me_rank), p.local.data(), sizeof(char*));
    }
    p.publish_ready(0);
  }

  // 1. my staged sources, segment by segment, before I write anything
  for (std::size_t i = 0; i < n; ++i) {
    const chunk& c = chunks[i];
    if (c.src.thread != me || !stager[i]) continue;
    for (std::uint64_t k = 0; k * segment < c.bytes; ++k) {
      const std::uint64_t off = k * segment, len = std::min(segment, c.bytes - off);
      p.copy(t.scratch(me_rank) + at[i] + off, source(c) + off, len);
      p.publish_ready(static_cast<int>(first_stage[i] + k));
    }
  }

  // 2. the chunks I copy
  std::vector<int> waited(static_cast<std::size_t>(t.size()), -1);
  std::vector<char> read_scratch_of(static_cast<std::size_t>(t.size()), 0);
  auto wait_for = [&](int rank, int stage) {  // stage s of rank, once (later stages imply earlier ones)
    if (rank == me_rank || stage < 0 || waited[static_cast<std::size_t>(rank)] >= stage) return;
    waited[static_cast<std::size_t>(rank)] = stage;
    p.wait_ready(rank, stage);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const chunk& c = chunks[i];
    if (identity(rq, c) || copier(rq, c, push, t) != me) continue;
    const int src_rank = t.rank_of(c.src.thread), dst_rank = t.rank_of(c.dst.thread);
    // a non-member's partition is read or written without waiting for it
    // (it takes no part in the collective): rank -1 stays out of every list
    if (!c.dst.is_private && dst_rank >= 0) {
      if (rq.stage_sources) wait_for(dst_rank, last_stage(c.dst.thread));  // its sources are safe before I write there
      touch_one(p.touches, dst_rank, me_rank);
    }
    if (staged(rq, c)) {
      if (src_rank != me_rank) read_scratch_of[static_cast<std::size_t>(src_rank)] = 1;
      for (std::uint64_t k = 0; k * segment < c.bytes; ++k) {
        const std::uint64_t off = k * segment, len = std::min(segment, c.bytes - off);
        wait_for(src_rank, static_cast<int>(first_stage[i] + k));
        p.copy(destination(c) + off, t.scratch(src_rank) + at[i] + off, len);
      }
      continue;
    }
    if (!c.src.is_private && src_rank >= 0) touch_one(p.touches, src_rank, me_rank);
    if (reads_directly(c)) {  // one address space: straight from the owner's buffer
      wait_for(src_rank, 0);
      read_scratch_of[static_cast<std::size_t>(src_rank)] = 1;
      p.copy_indirect(destination(c), t.scratch(src_rank), static_cast<std::ptrdiff_t>(c.src.offset), c.bytes);
      continue;
    }
    p.copy(destination(c), source(c), c.bytes);
  }

  // 3. who touches my data or reads my scratch
  std::vector<int> scratch_readers;
  for (const chunk& c : chunks) {
    if (identity(rq, c)) continue;
    const int by = copier(rq, c, push, t);
    if (by == me) continue;
    const int by_rank = t.rank_of(by);
    if (c.src.thread == me && !c.src.is_private) {
      if (staged(rq, c)) scratch_readers.push_back(by_rank);
      else p.touchers.push_back(by_rank);
    } else if (c.src.thread == me && (staged(rq, c) || reads_directly(c))) {
      scratch_readers.push_back(by_rank);
    }
    if (c.dst.thread == me && !c.dst.is_private) p.touchers.push_back(by_rank);
  }
  dedupe(p.touches);
  dedupe(p.touchers);
  dedupe(scratch_readers);

  // 4. a scratch is not reused before its readers are done with it
  if (readers_must_ack(rq.flags, false)) {
    for (int r = 0; r < t.size(); ++r)
      if (read_scratch_of[static_cast<std::size_t>(r)]) p.ack(r);
    if (!scratch_readers.empty()) {
      p.ack_from = scratch_readers;
      p.wait_acks();
    }
  }
}

}  // namespace

void chunks_pull(const request& rq, team& t, plan& p) { build(rq, t, p, false, false); }
void chunks_push(const request& rq, team& t, plan& p) { build(rq, t, p, true, false); }
void chunks_staged(const request& rq, team& t, plan& p) { build(rq, t, p, false, true); }

}  // namespace upc::coll::algo
