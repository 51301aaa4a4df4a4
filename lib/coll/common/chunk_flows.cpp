// The builder of chunk_flows.hpp: resolve private reads, lay out every
// member's buffer (the same arithmetic on every member: it depends on the list,
// the flows and the backend only), then emit the calling member's steps.
#include "chunk_flows.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "../../runtime/size_parse.hpp"
#include "binomial_tree.hpp"
#include "upc/coll.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc::coll {

std::size_t parse_segment(const std::string& text, const char* source) {
  const auto n = upc::detail::parse_size(text);
  if (!n || *n < 64)
    throw upc::error(source, "'" + text + "' is not a segment size (bytes, at least 64, K/M/G suffixes, such as 256K)", -1);
  return static_cast<std::size_t>(*n);
}

// Read at every plan build (plans are kept, so that is rarely), so a test or
// a program can change it between runs; checked at start (lib/runtime/main.cpp).
std::size_t segment_bytes() {
  const char* v = std::getenv("UPCEMU_COLL_SEGMENT");
  if (!v || !*v) return std::size_t{128 * 1024};
  return parse_segment(v, "UPCEMU_COLL_SEGMENT");
}

chunk_runs distinct_runs(const std::vector<chunk>& chunks) {
  chunk_runs r;
  r.of_chunk.assign(chunks.size(), -1);
  std::map<std::tuple<std::int32_t, bool, std::uint64_t, std::uint64_t>, int> seen;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const chunk& c = chunks[i];
    if (c.src.thread == c.dst.thread || c.bytes == 0) continue;
    const auto key = std::make_tuple(c.src.thread, c.src.is_private, c.src.offset, c.bytes);
    auto [it, fresh] = seen.try_emplace(key, r.size());
    if (fresh) {
      r.src.push_back(c.src);
      r.bytes.push_back(c.bytes);
    }
    r.of_chunk[i] = it->second;
  }
  return r;
}

namespace {

constexpr int from_source = -1;  // the run's own bytes (shared, or my private)
constexpr int from_direct = -2;  // another member's private bytes, read in place (threads backend)

// Where the bytes of a run are for one reader.
struct where {
  enum kind_t { buffer, source, direct } kind;
  int rank = -1;            // buffer: the holder; direct: the owner
  std::uint64_t off = 0;    // buffer: offset in the holder's buffer; direct: offset from the owner's private base
  const char* addr = nullptr;  // source
  bool contiguous_with(const where& w, std::uint64_t len) const {
    if (kind != w.kind || rank != w.rank) return false;
    return kind == source ? addr + len == w.addr : off + len == w.off;
  }
};

// One copy to make: `len` bytes to dst (a buffer offset or an address) from w.
struct piece {
  std::uint64_t dst_off = 0;
  char* dst = nullptr;
  std::uint64_t len = 0;
  where from;
};

// Neighbours contiguous at both ends become one copy (a node's runs cross
// between nodes as one message when the layouts allow).
void merge(std::vector<piece>& v) {
  std::vector<piece> out;
  for (const piece& x : v) {
    if (!out.empty()) {
      piece& last = out.back();
      const bool dst_next = last.dst ? last.dst + last.len == x.dst : last.dst_off + last.len == x.dst_off;
      if (dst_next && last.from.contiguous_with(x.from, last.len)) {
        last.len += x.len;
        continue;
      }
    }
    out.push_back(x);
  }
  v.swap(out);
}

// A buffer's segments, by their ends: every segment_bytes() within a run of
// entries from one holder, and a new one wherever the holder changes, so a
// segment is complete once one holder's bytes are in (no cycles: node roots
// swapping runs both ways publish what they read from their own members
// before they wait for each other).
struct segments {
  std::vector<std::uint64_t> ends;
  std::uint64_t index(std::uint64_t off) const {
    return static_cast<std::uint64_t>(std::upper_bound(ends.begin(), ends.end(), off) - ends.begin());
  }
  std::uint64_t end(std::uint64_t seg) const { return ends[static_cast<std::size_t>(seg)]; }
  std::uint64_t count() const { return ends.size(); }
  std::uint64_t total() const { return ends.empty() ? 0 : ends.back(); }
};

char* shared_byte(const place& at) { return raw(shared_address{at.offset, static_cast<std::uint32_t>(at.thread), 0}); }

}  // namespace

void build_chunk_flows(const request& rq, team& t, plan& p, const chunk_runs& runs, chunk_flows f) {
  const std::vector<chunk>& chunks = *rq.chunks;
  const int T = t.size(), me = t.rank();
  const std::size_t S = segment_bytes();
  const bool one_address_space = current_backend() == backend_kind::threads;
  auto rank_of = [&](const place& at) { return t.rank_of(at.thread); };
  auto internal = [&](const std::string& what) {
    return upc::error(rq.function, "internal error in the node-aware chunk plan: " + what, t.thread_of(me));
  };

  // In place, a member whose private buffer the call writes is not read in
  // place by others: its sources are staged before it writes.
  std::vector<char> written(static_cast<std::size_t>(T), 0);
  if (rq.in_place)
    for (const chunk& c : chunks)
      if (c.dst.is_private && !(c.src == c.dst) && rank_of(c.dst) >= 0) written[static_cast<std::size_t>(rank_of(c.dst))] = 1;

  // 1. Private sources read by another member: in place (threads) or staged
  // by their owner into its own buffer.
  std::vector<char> publishes(static_cast<std::size_t>(T), 0);
  std::vector<std::vector<int>> to_stage(static_cast<std::size_t>(T));
  auto resolve = [&](int reader, int& from, int run) {
    if (from != from_source) return;
    const place& src = runs.src[static_cast<std::size_t>(run)];
    if (!src.is_private) return;
    const int owner = rank_of(src);
    if (owner == reader) return;
    if (one_address_space && !written[static_cast<std::size_t>(owner)]) {
      from = from_direct;
      publishes[static_cast<std::size_t>(owner)] = 1;
    } else {
      to_stage[static_cast<std::size_t>(owner)].push_back(run);
      from = owner;
    }
  };
  for (int r = 0; r < T; ++r)
    for (chunk_flows::entry& e : f.buffer[static_cast<std::size_t>(r)]) resolve(r, e.from, e.run);
  for (std::size_t i = 0; i < chunks.size(); ++i)
    if (runs.of_chunk[i] >= 0) resolve(rank_of(chunks[i].dst), f.deliver_from[i], runs.of_chunk[i]);

  // 2. Every member's buffer, each run once, in the order the flows give
  // (the algorithms list runs read from sources before runs from others).
  std::vector<std::unordered_map<int, std::uint64_t>> offset(static_cast<std::size_t>(T));
  std::vector<std::vector<chunk_flows::entry>> order(static_cast<std::size_t>(T));
  std::vector<segments> seg_of(static_cast<std::size_t>(T));
  for (int r = 0; r < T; ++r) {
    const std::size_t ur = static_cast<std::size_t>(r);
    // staged private runs first: their owner publishes them before it waits for anyone
    std::vector<chunk_flows::entry> first, rest = f.buffer[ur];
    for (int run : to_stage[ur]) first.push_back({run, from_source});
    std::uint64_t at = 0, group_start = 0;
    int group_from = -3;
    auto close_group = [&] {  // segments of the entries since group_start
      for (std::uint64_t e = group_start; e < at;) {
        e = std::min<std::uint64_t>(e + S, at);
        seg_of[ur].ends.push_back(e);
      }
      group_start = at;
    };
    auto place_all = [&](const std::vector<chunk_flows::entry>& v) {
      for (const chunk_flows::entry& e : v) {
        if (offset[ur].count(e.run)) continue;
        if (e.from != group_from) {
          close_group();
          group_from = e.from;
        }
        offset[ur][e.run] = at;
        order[ur].push_back(e);
        at += runs.bytes[static_cast<std::size_t>(e.run)];
      }
    };
    place_all(first);
    place_all(rest);
    close_group();
  }
  bool any_direct = false, any_buffer = false;
  std::uint64_t largest = 0, most_segments = 0;
  for (int r = 0; r < T; ++r) {
    any_direct = any_direct || publishes[static_cast<std::size_t>(r)];
    const segments& sg = seg_of[static_cast<std::size_t>(r)];
    any_buffer = any_buffer || sg.total() > 0;
    largest = std::max(largest, sg.total());
    most_segments = std::max(most_segments, sg.count());
  }
  const std::uint64_t base = any_direct ? 64 : 0;  // the slot of a published private address
  if (any_direct || any_buffer) t.ensure_scratch(static_cast<std::size_t>(base + largest), rq.function);
  p.stages = 1 + static_cast<int>(most_segments);  // stage 0: addresses published; 1 + k: segment k of a buffer

  auto locate = [&](int reader, int run, int from) -> where {
    const place& src = runs.src[static_cast<std::size_t>(run)];
    if (from >= 0) {
      auto it = offset[static_cast<std::size_t>(from)].find(run);
      if (it == offset[static_cast<std::size_t>(from)].end())
        throw internal("rank " + std::to_string(from) + " does not hold run " + std::to_string(run));
      return where{where::buffer, from, it->second, nullptr};
    }
    if (from == from_direct) return where{where::direct, rank_of(src), src.offset, nullptr};
    if (src.is_private) {
      if (rank_of(src) != reader) throw internal("a private source read by another member");
      return where{where::source, reader, 0, rq.src_private + src.offset};
    }
    return where{where::source, rank_of(src), 0, shared_byte(src)};
  };

  // Who reads whom: user data (shared sources: the touch lists, acks when the
  // flags need them) and buffers or published addresses (acks unless OUT_ALLSYNC).
  std::vector<std::vector<int>> reads_user(static_cast<std::size_t>(T)), reads_scratch(static_cast<std::size_t>(T));
  auto note_read = [&](int reader, const where& w) {
    if (w.rank == reader || w.rank < 0) return;
    (w.kind == where::source ? reads_user : reads_scratch)[static_cast<std::size_t>(reader)].push_back(w.rank);
  };
  for (int r = 0; r < T; ++r)
    for (const chunk_flows::entry& e : order[static_cast<std::size_t>(r)]) note_read(r, locate(r, e.run, e.from));
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const chunk& c = chunks[i];
    const int reader = rank_of(c.dst);
    if (runs.of_chunk[i] >= 0) note_read(reader, locate(reader, runs.of_chunk[i], f.deliver_from[i]));
  }
  for (auto* lists : {&reads_user, &reads_scratch})
    for (std::vector<int>& v : *lists) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }

  // 3. My steps. (a) my private base, for those who read it in place
  std::vector<int> waited(static_cast<std::size_t>(T), -1);
  auto wait_for = [&](int rank, int stage) {
    if (rank == me || waited[static_cast<std::size_t>(rank)] >= stage) return;
    waited[static_cast<std::size_t>(rank)] = stage;
    p.wait_ready(rank, stage);
  };
  if (publishes[static_cast<std::size_t>(me)]) {
    p.local.resize(sizeof(char*));
    std::memcpy(p.local.data(), &rq.src_private, sizeof(char*));
    p.copy(t.scratch(me), p.local.data(), sizeof(char*));
    p.publish_ready(0);
  }
  // One copy, cut where the holder's segments end (each is waited for).
  auto emit = [&](char* dst, const where& w, std::uint64_t len) {
    switch (w.kind) {
      case where::source: p.copy(dst, w.addr, len); return;
      case where::direct:
        wait_for(w.rank, 0);
        p.copy_indirect(dst, t.scratch(w.rank), static_cast<std::ptrdiff_t>(w.off), len);
        return;
      case where::buffer:
        // at most a segment's worth per copy, each after the holder's segment
        // with its last byte (stages are cumulative): small runs from many
        // holders still cross in one copy
        for (std::uint64_t o = w.off, done = 0; done < len;) {
          const std::uint64_t n = std::min<std::uint64_t>(len - done, S);
          wait_for(w.rank, 1 + static_cast<int>(seg_of[static_cast<std::size_t>(w.rank)].index(o + n - 1)));
          p.copy(dst + done, t.scratch(w.rank) + base + o, n);
          o += n;
          done += n;
        }
        return;
    }
  };

  // (b) my buffer, published segment by segment
  const std::size_t um = static_cast<std::size_t>(me);
  std::vector<piece> fill;
  for (const chunk_flows::entry& e : order[um])
    fill.push_back(piece{offset[um][e.run], nullptr, runs.bytes[static_cast<std::size_t>(e.run)], locate(me, e.run, e.from)});
  merge(fill);
  char* const mine = t.scratch(me) + base;
  std::uint64_t published = 0;  // segments of my buffer already published
  for (const piece& x : fill) {
    for (std::uint64_t done = 0; done < x.len;) {
      const std::uint64_t o = x.dst_off + done, seg = seg_of[um].index(o);
      if (seg > published) {  // every earlier segment is complete
        p.publish_ready(static_cast<int>(seg));  // stage 1 + (seg - 1)
        published = seg;
      }
      const std::uint64_t n = std::min<std::uint64_t>(x.len - done, seg_of[um].end(seg) - o);
      where w = x.from;
      if (w.kind == where::source) w.addr += done;
      else w.off += done;
      emit(mine + o, w, n);
      done += n;
    }
  }
  const std::uint64_t my_segments = seg_of[um].count();
  if (my_segments > published) p.publish_ready(static_cast<int>(my_segments));

  // (c) my chunks, into their destinations
  std::vector<piece> out;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const chunk& c = chunks[i];
    if (rank_of(c.dst) != me || c.bytes == 0) continue;
    char* dst = c.dst.is_private ? rq.dst_private + c.dst.offset : shared_byte(c.dst);
    if (runs.of_chunk[i] < 0) {  // within my thread: from its source (nothing to do for the same bytes)
      const char* src = c.src.is_private ? rq.src_private + c.src.offset : shared_byte(c.src);
      if (src != dst) out.push_back(piece{0, dst, c.bytes, where{where::source, me, 0, src}});
      continue;
    }
    out.push_back(piece{0, dst, c.bytes, locate(me, runs.of_chunk[i], f.deliver_from[i])});
  }
  merge(out);
  for (const piece& x : out) emit(x.dst, x.from, x.len);

  // (d) touch lists and acks
  p.touches = reads_user[um];
  for (int r = 0; r < T; ++r)
    if (std::binary_search(reads_user[static_cast<std::size_t>(r)].begin(), reads_user[static_cast<std::size_t>(r)].end(), me))
      p.touchers.push_back(r);
  const bool user_acks = readers_must_ack(rq.flags, true), scratch_acks = readers_must_ack(rq.flags, false);
  auto must_ack = [&](int reader, int owner) {
    auto in = [&](const std::vector<int>& v) { return std::binary_search(v.begin(), v.end(), owner); };
    return (scratch_acks && in(reads_scratch[static_cast<std::size_t>(reader)])) ||
           (user_acks && in(reads_user[static_cast<std::size_t>(reader)]));
  };
  for (int o = 0; o < T; ++o)
    if (o != me && must_ack(me, o)) p.ack(o);
  for (int r = 0; r < T; ++r)
    if (r != me && must_ack(r, me)) p.ack_from.push_back(r);
  if (!p.ack_from.empty()) p.wait_acks();
}

}  // namespace upc::coll
