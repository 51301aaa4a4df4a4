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
#include <utility>

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

constexpr std::size_t ix(int i) noexcept { return static_cast<std::size_t>(i); }

// build_chunk_flows, stage by stage: the layout of every member (resolve
// private reads, lay out buffers, size the scratch, note who reads whom),
// then the calling member's steps (its published address, its buffer, its
// deliveries, its touch lists and acks).
class flow_builder {
 public:
  flow_builder(const request& rq, team& t, plan& p, const chunk_runs& runs, chunk_flows f)
      : rq_(rq), t_(t), p_(p), runs_(runs), f_(std::move(f)), chunks_(*rq.chunks), T_(t.size()), me_(t.rank()),
        S_(segment_bytes()), one_address_space_(current_backend() == backend_kind::threads) {
    const std::size_t n = ix(T_);
    written_.assign(n, 0);
    publishes_.assign(n, 0);
    to_stage_.resize(n);
    offset_.resize(n);
    order_.resize(n);
    seg_of_.resize(n);
    reads_user_.resize(n);
    reads_scratch_.resize(n);
    waited_.assign(n, -1);
  }

  void build() {
    resolve_private_reads();
    for (int r = 0; r < T_; ++r) lay_out_buffer(r);
    reserve_scratch();
    note_reads();
    publish_my_base();
    fill_my_buffer();
    deliver_my_chunks();
    touches_and_acks();
  }

 private:
  int rank_of(const place& at) const { return t_.rank_of(at.thread); }
  upc::error internal(const std::string& what) const {
    return upc::error(rq_.function, "internal error in the node-aware chunk plan: " + what, t_.thread_of(me_));
  }

  // 1. Private sources read by another member: in place (threads) or staged
  // by their owner into its own buffer.
  void resolve_private_reads() {
    // In place, a member whose private buffer the call writes is not read in
    // place by others: its sources are staged before it writes.
    if (rq_.in_place)
      for (const chunk& c : chunks_)
        if (c.dst.is_private && !(c.src == c.dst) && rank_of(c.dst) >= 0) written_[ix(rank_of(c.dst))] = 1;
    for (int r = 0; r < T_; ++r)
      for (chunk_flows::entry& e : f_.buffer[ix(r)]) resolve(r, e.from, e.run);
    for (std::size_t i = 0; i < chunks_.size(); ++i)
      if (runs_.of_chunk[i] >= 0) resolve(rank_of(chunks_[i].dst), f_.deliver_from[i], runs_.of_chunk[i]);
  }
  void resolve(int reader, int& from, int run) {
    if (from != from_source) return;
    const place& src = runs_.src[ix(run)];
    if (!src.is_private) return;
    const int owner = rank_of(src);
    if (owner == reader) return;
    if (one_address_space_ && !written_[ix(owner)]) {
      from = from_direct;
      publishes_[ix(owner)] = 1;
    } else {
      to_stage_[ix(owner)].push_back(run);
      from = owner;
    }
  }

  // 2. Member r's buffer, each run once, in the order the flows give (the
  // algorithms list runs read from sources before runs from others); staged
  // private runs first: their owner publishes them before it waits for anyone.
  void lay_out_buffer(int r) {
    const std::size_t ur = ix(r);
    std::vector<chunk_flows::entry> first;
    for (int run : to_stage_[ur]) first.push_back({run, from_source});
    std::uint64_t at = 0, group_start = 0;
    int group_from = -3;
    auto close_group = [&] {  // segments of the entries since group_start
      for (std::uint64_t e = group_start; e < at;) {
        e = std::min<std::uint64_t>(e + S_, at);
        seg_of_[ur].ends.push_back(e);
      }
      group_start = at;
    };
    auto place_all = [&](const std::vector<chunk_flows::entry>& v) {
      for (const chunk_flows::entry& e : v) {
        if (offset_[ur].count(e.run)) continue;
        if (e.from != group_from) {
          close_group();
          group_from = e.from;
        }
        offset_[ur][e.run] = at;
        order_[ur].push_back(e);
        at += runs_.bytes[ix(e.run)];
      }
    };
    place_all(first);
    place_all(f_.buffer[ur]);
    close_group();
  }

  // The scratch holds the largest buffer (after the slot of a published
  // private address); stage 0: addresses published, 1 + k: segment k of a buffer.
  void reserve_scratch() {
    bool any_direct = false, any_buffer = false;
    std::uint64_t largest = 0, most_segments = 0;
    for (int r = 0; r < T_; ++r) {
      any_direct = any_direct || publishes_[ix(r)];
      const segments& sg = seg_of_[ix(r)];
      any_buffer = any_buffer || sg.total() > 0;
      largest = std::max(largest, sg.total());
      most_segments = std::max(most_segments, sg.count());
    }
    base_ = any_direct ? 64 : 0;
    if (any_direct || any_buffer) t_.ensure_scratch(static_cast<std::size_t>(base_ + largest), rq_.function);
    p_.stages = 1 + static_cast<int>(most_segments);
  }

  where locate(int reader, int run, int from) const {
    const place& src = runs_.src[ix(run)];
    if (from >= 0) {
      auto it = offset_[ix(from)].find(run);
      if (it == offset_[ix(from)].end())
        throw internal("rank " + std::to_string(from) + " does not hold run " + std::to_string(run));
      return where{where::buffer, from, it->second, nullptr};
    }
    if (from == from_direct) return where{where::direct, rank_of(src), src.offset, nullptr};
    if (src.is_private) {
      if (rank_of(src) != reader) throw internal("a private source read by another member");
      return where{where::source, reader, 0, rq_.src_private + src.offset};
    }
    return where{where::source, rank_of(src), 0, shared_byte(src)};
  }

  // Who reads whom: user data (shared sources: the touch lists, acks when the
  // flags need them) and buffers or published addresses (acks unless OUT_ALLSYNC).
  void note_reads() {
    auto note_read = [&](int reader, const where& w) {
      if (w.rank == reader || w.rank < 0) return;
      (w.kind == where::source ? reads_user_ : reads_scratch_)[ix(reader)].push_back(w.rank);
    };
    for (int r = 0; r < T_; ++r)
      for (const chunk_flows::entry& e : order_[ix(r)]) note_read(r, locate(r, e.run, e.from));
    for (std::size_t i = 0; i < chunks_.size(); ++i) {
      const int reader = rank_of(chunks_[i].dst);
      if (runs_.of_chunk[i] >= 0) note_read(reader, locate(reader, runs_.of_chunk[i], f_.deliver_from[i]));
    }
    for (auto* lists : {&reads_user_, &reads_scratch_})
      for (std::vector<int>& v : *lists) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
      }
  }

  // 3. My steps. (a) my private base, for those who read it in place
  void publish_my_base() {
    if (!publishes_[ix(me_)]) return;
    p_.local.resize(sizeof(char*));
    std::memcpy(p_.local.data(), &rq_.src_private, sizeof(char*));
    p_.copy(t_.scratch(me_), p_.local.data(), sizeof(char*));
    p_.publish_ready(0);
  }

  void wait_for(int rank, int stage) {
    if (rank == me_ || waited_[ix(rank)] >= stage) return;
    waited_[ix(rank)] = stage;
    p_.wait_ready(rank, stage);
  }

  // One copy, cut where the holder's segments end (each is waited for).
  void emit(char* dst, const where& w, std::uint64_t len) {
    switch (w.kind) {
      case where::source: p_.copy(dst, w.addr, len); return;
      case where::direct:
        wait_for(w.rank, 0);
        p_.copy_indirect(dst, t_.scratch(w.rank), static_cast<std::ptrdiff_t>(w.off), len);
        return;
      case where::buffer:
        // at most a segment's worth per copy, each after the holder's segment
        // with its last byte (stages are cumulative): small runs from many
        // holders still cross in one copy
        for (std::uint64_t o = w.off, done = 0; done < len;) {
          const std::uint64_t n = std::min<std::uint64_t>(len - done, S_);
          wait_for(w.rank, 1 + static_cast<int>(seg_of_[ix(w.rank)].index(o + n - 1)));
          p_.copy(dst + done, t_.scratch(w.rank) + base_ + o, n);
          o += n;
          done += n;
        }
        return;
    }
  }

  // (b) my buffer, published segment by segment
  void fill_my_buffer() {
    const std::size_t um = ix(me_);
    std::vector<piece> fill;
    for (const chunk_flows::entry& e : order_[um])
      fill.push_back(piece{offset_[um][e.run], nullptr, runs_.bytes[ix(e.run)], locate(me_, e.run, e.from)});
    merge(fill);
    char* const mine = t_.scratch(me_) + base_;
    std::uint64_t published = 0;  // segments of my buffer already published
    for (const piece& x : fill) {
      for (std::uint64_t done = 0; done < x.len;) {
        const std::uint64_t o = x.dst_off + done, seg = seg_of_[um].index(o);
        if (seg > published) {  // every earlier segment is complete
          p_.publish_ready(static_cast<int>(seg));  // stage 1 + (seg - 1)
          published = seg;
        }
        const std::uint64_t n = std::min<std::uint64_t>(x.len - done, seg_of_[um].end(seg) - o);
        where w = x.from;
        if (w.kind == where::source) w.addr += done;
        else w.off += done;
        emit(mine + o, w, n);
        done += n;
      }
    }
    const std::uint64_t my_segments = seg_of_[um].count();
    if (my_segments > published) p_.publish_ready(static_cast<int>(my_segments));
  }

  // (c) my chunks, into their destinations
  void deliver_my_chunks() {
    std::vector<piece> out;
    for (std::size_t i = 0; i < chunks_.size(); ++i) {
      const chunk& c = chunks_[i];
      if (rank_of(c.dst) != me_ || c.bytes == 0) continue;
      char* dst = c.dst.is_private ? rq_.dst_private + c.dst.offset : shared_byte(c.dst);
      if (runs_.of_chunk[i] < 0) {  // within my thread: from its source (nothing to do for the same bytes)
        const char* src = c.src.is_private ? rq_.src_private + c.src.offset : shared_byte(c.src);
        if (src != dst) out.push_back(piece{0, dst, c.bytes, where{where::source, me_, 0, src}});
        continue;
      }
      out.push_back(piece{0, dst, c.bytes, locate(me_, runs_.of_chunk[i], f_.deliver_from[i])});
    }
    merge(out);
    for (const piece& x : out) emit(x.dst, x.from, x.len);
  }

  // (d) touch lists and acks
  void touches_and_acks() {
    p_.touches = reads_user_[ix(me_)];
    for (int r = 0; r < T_; ++r)
      if (std::binary_search(reads_user_[ix(r)].begin(), reads_user_[ix(r)].end(), me_)) p_.touchers.push_back(r);
    const bool user_acks = readers_must_ack(rq_.flags, true), scratch_acks = readers_must_ack(rq_.flags, false);
    auto must_ack = [&](int reader, int owner) {
      auto in = [&](const std::vector<int>& v) { return std::binary_search(v.begin(), v.end(), owner); };
      return (scratch_acks && in(reads_scratch_[ix(reader)])) || (user_acks && in(reads_user_[ix(reader)]));
    };
    for (int o = 0; o < T_; ++o)
      if (o != me_ && must_ack(me_, o)) p_.ack(o);
    for (int r = 0; r < T_; ++r)
      if (r != me_ && must_ack(r, me_)) p_.ack_from.push_back(r);
    if (!p_.ack_from.empty()) p_.wait_acks();
  }

  const request& rq_;
  team& t_;
  plan& p_;
  const chunk_runs& runs_;
  chunk_flows f_;  // its private reads resolved (stage 1)
  const std::vector<chunk>& chunks_;
  const int T_, me_;
  const std::size_t S_;  // segment_bytes()
  const bool one_address_space_;
  std::vector<char> written_;                // in place: the member's private buffer is written
  std::vector<char> publishes_;              // the member publishes its private base
  std::vector<std::vector<int>> to_stage_;   // private runs the member stages for others
  std::vector<std::unordered_map<int, std::uint64_t>> offset_;  // per member: run -> offset in its buffer
  std::vector<std::vector<chunk_flows::entry>> order_;          // per member: its buffer's runs in order
  std::vector<segments> seg_of_;
  std::uint64_t base_ = 0;  // where buffers start in the scratch
  std::vector<std::vector<int>> reads_user_, reads_scratch_;  // per reader: whom it reads (sorted)
  std::vector<int> waited_;  // per rank: the ready stage my plan waits for already
};

}  // namespace

void build_chunk_flows(const request& rq, team& t, plan& p, const chunk_runs& runs, chunk_flows flows) {
  flow_builder(rq, t, p, runs, std::move(flows)).build();
}

}  // namespace upc::coll

