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
  // arithmetic on every member: it depends on the list only).
  std::vector<std::uint64_t> at(n, 0), used(static_cast<std::size_t>(threads()), 0);
  bool any_staged = false;
  for (std::size_t i = 0; i < n; ++i) {
    const chunk& c = chunks[i];
    if (identity(rq, c) || !staged(rq, c)) continue;
    any_staged = true;
    std::uint64_t& u = used[static_cast<std::size_t>(c.src.thread)];
    at[i] = u;
    u += (c.bytes + 15) & ~std::uint64_t{15};
  }
  const bool stages = any_staged || rq.stage_sources;
  if (stages) t.ensure_scratch(static_cast<std::size_t>(*std::max_element(used.begin(), used.end())) + 64, rq.function);

  auto source = [&](const chunk& c) -> const char* {
    return c.src.is_private ? rq.src_private + c.src.offset : shared_byte(c.src);
  };
  auto destination = [&](const chunk& c) -> char* {
    return c.dst.is_private ? rq.dst_private + c.dst.offset : shared_byte(c.dst);
  };

  // 1. my staged sources, before I write anything
  for (std::size_t i = 0; i < n; ++i) {
    const chunk& c = chunks[i];
    if (c.src.thread == me && !identity(rq, c) && staged(rq, c)) p.copy(t.scratch(me_rank) + at[i], source(c), c.bytes);
  }
  if (stages) p.publish_ready();

  // 2. the chunks I copy
  std::vector<char> waited(static_cast<std::size_t>(t.size()), 0), read_scratch_of(static_cast<std::size_t>(t.size()), 0);
  auto wait_once = [&](int rank) {
    if (rank == me_rank || waited[static_cast<std::size_t>(rank)]) return;
    waited[static_cast<std::size_t>(rank)] = 1;
    p.wait_ready(rank);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const chunk& c = chunks[i];
    if (identity(rq, c) || copier(rq, c, push, t) != me) continue;
    const int src_rank = t.rank_of(c.src.thread), dst_rank = t.rank_of(c.dst.thread);
    const char* from;
    // a non-member's partition is read or written without waiting for it
    // (it takes no part in the collective): rank -1 stays out of every list
    if (staged(rq, c)) {
      wait_once(src_rank);
      if (src_rank != me_rank) read_scratch_of[static_cast<std::size_t>(src_rank)] = 1;
      from = t.scratch(src_rank) + at[i];
    } else {
      from = source(c);
      if (!c.src.is_private && src_rank >= 0) touch_one(p.touches, src_rank, me_rank);
    }
    if (!c.dst.is_private && dst_rank >= 0) {
      if (rq.stage_sources) wait_once(dst_rank);  // its sources must be safe before I write its partition
      touch_one(p.touches, dst_rank, me_rank);
    }
    p.copy(destination(c), from, c.bytes);
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
