// Flat chunk copies (request::chunks): the data movement of the extended
// collectives of seed 003 (in-place, vector-variant, team-based, get/put/priv).
// Every chunk is copied once, in one step, by one member:
//   a private destination by its owner, a private source by its owner (no one
//   else can reach private memory: on the processes backend it is another
//   process's), and otherwise the destination's owner (pull) or the source's
//   owner (push);
//   when both ends are private to different threads, the source's owner first
//   copies the chunk into its scratch (staged) and the destination's owner
//   copies it out once the owner says it is there (ready flag, stage 0);
//   when chunks may overwrite bytes other chunks read (in place: exchange,
//   permute), every shared source is staged by its owner before that owner
//   writes anything, and read from the scratch (pull only: each member writes
//   only its own partition, after its own sources are safe).
// Readers of a scratch ack its owner unless OUT_ALLSYNC holds everyone anyway.
// Bytes moved: each chunk once, plus each staged chunk once more.
#include <algorithm>

#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

namespace {

// Source and destination are the same bytes: nothing to copy, no one to wait for.
bool identity(const request& rq, const chunk& c) {
  if (!(c.src == c.dst)) return false;
  return !c.src.is_private || rq.in_place || rq.src_private == rq.dst_private;
}

bool staged(const request& rq, const chunk& c) {
  if (c.src.is_private && c.dst.is_private) return c.src.thread != c.dst.thread;
  if (c.src.is_private && rq.dst_owner_only) return c.src.thread != c.dst.thread;
  return rq.stage_sources && !c.src.is_private;
}

// The thread that copies chunk c: a member always (a shared end may be on a
// thread outside the team: a team collective writing a non-member's element).
int copier(const request& rq, const chunk& c, bool push, const team& t) {
  if (c.dst.is_private) return c.dst.thread;
  if (c.src.is_private && !staged(rq, c)) return c.src.thread;
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

void build(const request& rq, team& t, plan& p, bool push) {
  const std::vector<chunk>& chunks = *rq.chunks;
  const int me_rank = t.rank(), me = t.thread_of(me_rank);
  const std::size_t n = chunks.size();

  // Where each staged chunk sits in its source owner's scratch (the same
  // arithmetic on every member: it depends on the list only). Chunks with the
  // same source bytes share one staged copy (a private broadcast stages its
  // source once, the thesis's Figure 3.7). Staged bytes are published in
  // segments, one ready stage each, so that readers copy a segment out while
  // its owner stages the next.
  constexpr std::uint64_t segment = 128 * 1024;
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
    at[i] = used[o];
    first_stage[i] = staged_segments[o];
    used[o] += (c.bytes + 15) & ~std::uint64_t{15};
    staged_segments[o] += segments_of(c.bytes);
  }
  const bool stages = any_staged || rq.stage_sources;
  if (stages) {
    t.ensure_scratch(static_cast<std::size_t>(*std::max_element(used.begin(), used.end())) + 64, rq.function);
    p.stages = static_cast<int>(std::max<std::uint64_t>(1, *std::max_element(staged_segments.begin(), staged_segments.end())));
  }
  // a member's last stage: everything it stages is there
  auto last_stage = [&](int thread) { return static_cast<int>(staged_segments[static_cast<std::size_t>(thread)]) - 1; };

  auto source = [&](const chunk& c) -> const char* {
    return c.src.is_private ? rq.src_private + c.src.offset : shared_byte(c.src);
  };
  auto destination = [&](const chunk& c) -> char* {
    return c.dst.is_private ? rq.dst_private + c.dst.offset : shared_byte(c.dst);
  };

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
    } else if (c.src.thread == me && staged(rq, c)) {
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

void chunks_pull(const request& rq, team& t, plan& p) { build(rq, t, p, false); }
void chunks_push(const request& rq, team& t, plan& p) { build(rq, t, p, true); }

}  // namespace upc::coll::algo
