// The data-movement families of the extended collectives (seed 003, Appendix A:
// broadcast, scatter, gather, gather_all, exchange, permute, vector_copy, in
// every variant) as lists of chunks for the engine's general data movement
// (request::chunks, lib/coll/algorithms/chunks_flat.cpp). Each family says,
// per variant, which bytes go where; the engine decides who copies them.
//
// Layouts, as Appendix A gives them (B = a block's bytes, T = THREADS):
//   a blocked area `shared [B] char[B*T]` from a pointer p: the block of
//   thread t is the ((t - thread(p)) mod T)-th block from p (the standard
//   collectives' reading: p's phase is ignored);
//   a single area `shared [] char[...]` from p: bytes from p on p's thread;
//   an absolute index k of a v-variant's array: element k of the blocked area
//   (block dst_blk or src_blk elements); a `_local` value: the phase inside
//   the block of the thread it is given for; `_raw`: bytes instead of elements;
//   a private buffer: the owner's bytes; a displacement into it is read as if
//   the buffer were that thread's block of a blocked area starting at thread 0.
// Choices where the appendix is unclear are in docs/extended-collectives.md
// ("Semantics where Appendix A is silent").
#include <algorithm>
#include <string>
#include <vector>

#include "../../coll/request.hpp"
#include "../../coll/submit.hpp"
#include "../../coll/team.hpp"
#include "../../runtime/control.hpp"
#include "call.hpp"
#include "families.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc::ext {

using coll::chunk;
using coll::place;
using detail::fail;

namespace {

std::string str(long long v) { return std::to_string(v); }

// The members the chunks are computed for: the world, or a team's.
struct members {
  std::vector<int> threads;  // rank -> thread
  int size() const noexcept { return static_cast<int>(threads.size()); }
  int thread(int rank) const noexcept { return threads[static_cast<std::size_t>(rank)]; }
};

// Byte `b` of `shared [B] char[...]` starting at p (phase ignored; B == 0: indefinite).
place shared_byte(const shared_address& p, std::uint64_t b, std::uint64_t B) {
  if (B == 0) return place{p.offset + b, static_cast<std::int32_t>(p.thread), false};
  const std::uint64_t T = static_cast<std::uint64_t>(threads());
  const std::uint64_t q = b / B, slot = p.thread + q;
  return place{p.offset + (slot / T) * B + b % B, static_cast<std::int32_t>(slot % T), false};
}
// Thread t's block of `shared [B] char[B*T]` from p, `at` bytes into it.
place block_of(const shared_address& p, std::uint64_t B, int t, std::uint64_t at = 0) {
  const int T = threads();
  const std::uint64_t k = static_cast<std::uint64_t>((t - static_cast<int>(p.thread) + T) % T);
  return shared_byte(p, k * B + at, B);
}
place private_at(int thread, std::uint64_t offset) { return place{offset, thread, true}; }

// One endpoint of a v-variant: `index` of arg[entry] (or a local phase) made a
// place on thread `thread`, with n bytes that must stay inside the block.
struct v_side {
  const call& c;
  const side& s;
  std::uint64_t block;   // bytes of one block (0: unknown, no limit check)
  std::uint64_t unit;    // bytes per index step (typesize, or 1 for _raw)
  const char* blk_name;  // "dst_blk" for messages

  place at(const arg_array& a, std::size_t entry, long long value, int thread, std::uint64_t n) const {
    const bool local = c.is(variant::local);
    // the argument as messages name it (built only for a message)
    const auto what = [&] { return std::string(a.name) + "[" + str(static_cast<long long>(entry)) + "] = " + str(value); };
    if (value < 0) fail(c.function, what() + " is negative");
    const std::uint64_t v = static_cast<std::uint64_t>(value);
    std::uint64_t phase, byte;
    if (local || (s.is_private && block == 0)) {
      // a local phase; or a private buffer whose block size the function does
      // not take: the value is the offset in that thread's buffer
      phase = v * unit;
    } else {
      if (block == 0) fail(c.function, what() + ": an absolute index needs a block size, and " + blk_name + " is 0");
      byte = v * unit;
      const std::uint64_t owner_block = byte / block;
      // the thread whose block the index names: counted from the area's first thread
      const int first = s.is_private ? 0 : static_cast<int>(s.shared.thread);
      const std::uint64_t T = static_cast<std::uint64_t>(threads());
      if (owner_block >= T)
        fail(c.function, what() + " is past the end of the array (" + str(static_cast<long long>(T)) + " blocks of " +
                             str(static_cast<long long>(block / unit)) + ")");
      const int owner = static_cast<int>((static_cast<std::uint64_t>(first) + owner_block) % T);
      if (owner != thread)
        fail(c.function, what() + " is in thread " + str(owner) + "'s block, but the entry is for thread " + str(thread) +
                             (s.is_private ? " (private buffers are read as blocks of an array starting at thread 0)" : ""));
      phase = byte % block;
    }
    if (block != 0 && phase + n > block)
      fail(c.function, what() + ": " + str(static_cast<long long>(n)) + " bytes from byte " + str(static_cast<long long>(phase)) +
                           " of thread " + str(thread) + "'s block run past its end (" + blk_name + " " +
                           str(static_cast<long long>(block / unit)) + (unit > 1 ? " elements" : " bytes") +
                           "): a chunk must stay inside one block");
    if (s.is_private) return private_at(thread, phase);
    return block_of(s.shared, block, thread, phase);
  }
};

std::uint64_t count_of(const call& c, std::size_t i, std::uint64_t unit) {
  const long long v = c.counts.at(i);
  if (c.counts.is_signed ? v < 0 : static_cast<std::uint64_t>(v) > (std::uint64_t{1} << 62))
    fail(c.function, std::string(c.counts.name) + "[" + str(static_cast<long long>(i)) + "] = " +
                         str(v) + (v < 0 ? " is negative" : " is far too large (a negative value converted to size_t?)"));
  return static_cast<std::uint64_t>(v) * unit;
}

// The counts of threads 0..T-1 in bytes, and their sum.
std::vector<std::uint64_t> counts_of(const call& c, int T, std::uint64_t unit, std::uint64_t& total) {
  std::vector<std::uint64_t> n(static_cast<std::size_t>(T));
  total = 0;
  for (int t = 0; t < T; ++t) total += n[static_cast<std::size_t>(t)] = count_of(c, static_cast<std::size_t>(t), unit);
  return n;
}

}  // namespace

// ---- the families -------------------------------------------------------------

namespace {

struct builder {
  const call& c;
  const members& m;
  std::vector<chunk>& out;
  std::uint64_t n = 0;  // bytes of one piece (fixed-size forms)

  int T() const { return m.size(); }
  void add(place s, place d, std::uint64_t bytes) {
    if (bytes) out.push_back(chunk{s, d, bytes});
  }
  int thr(int rank) const { return m.thread(rank); }
};

// Fixed-size forms (in-place, standard get/put/priv): `root` is a rank.
void fixed_chunks(builder& b, int root) {
  const call& c = b.c;
  const int T = b.T();
  const std::uint64_t n = b.n;
  const bool in_place = c.is(variant::in_place);
  auto src_piece = [&](int rank, std::uint64_t at, std::uint64_t B) {
    return c.src.is_private ? private_at(b.thr(rank), at) : block_of(c.src.shared, B, b.thr(rank), at);
  };
  auto dst_piece = [&](int rank, std::uint64_t at, std::uint64_t B) {
    return c.dst.is_private ? private_at(b.thr(rank), at) : block_of(c.dst.shared, B, b.thr(rank), at);
  };
  // the root's single area (standard broadcast/scatter src, gather dst)
  auto single = [&](const side& s, int rank, std::uint64_t at) {
    return s.is_private ? private_at(b.thr(rank), at) : shared_byte(s.shared, at, 0);
  };
  switch (c.fam) {
    case family::broadcast:
      for (int t = 0; t < T; ++t) {
        if (in_place && t == root) continue;
        b.add(in_place ? src_piece(root, 0, n) : single(c.src, root, 0), dst_piece(t, 0, n), n);
      }
      break;
    case family::scatter:
      for (int t = 0; t < T; ++t) {
        if (in_place && t == root) continue;
        const std::uint64_t at = static_cast<std::uint64_t>(t) * n;
        b.add(in_place ? src_piece(root, at, n * T) : single(c.src, root, at), dst_piece(t, in_place ? at : 0, in_place ? n * T : n), n);
      }
      break;
    case family::gather:
      for (int t = 0; t < T; ++t) {
        if (in_place && t == root) continue;
        const std::uint64_t at = static_cast<std::uint64_t>(t) * n;
        b.add(src_piece(t, in_place ? at : 0, in_place ? n * T : n), in_place ? dst_piece(root, at, n * T) : single(c.dst, root, at), n);
      }
      break;
    case family::gather_all:
      for (int t = 0; t < T; ++t)
        for (int u = 0; u < T; ++u) {
          if (in_place && t == u) continue;
          const std::uint64_t at = static_cast<std::uint64_t>(t) * n;
          b.add(src_piece(t, in_place ? at : 0, in_place ? n * T : n), dst_piece(u, at, n * T), n);
        }
      break;
    case family::exchange:
      for (int t = 0; t < T; ++t)
        for (int u = 0; u < T; ++u)
          b.add(src_piece(t, static_cast<std::uint64_t>(u) * n, n * T), dst_piece(u, static_cast<std::uint64_t>(t) * n, n * T), n);
      break;
    default: break;
  }
}

// The team-based forms (A.3): nbytes is the total over the members (`_team`:
// nbytes / members each, pieces in team-id order) or over all threads
// (`_allthr`: nbytes / THREADS each, pieces by thread number). Shared areas
// keep THREADS blocks of nbytes (dst of gather_all and exchange: nbytes x
// THREADS). Private sources of broadcast/scatter and destinations of gather
// are team id 0's.
void team_chunks(builder& b, int root) {
  const call& c = b.c;
  const int P = b.T(), T = threads();
  const bool allthr = c.is(variant::allthr);
  const std::uint64_t n = b.n;
  std::uint64_t piece = n;
  if (c.fam != family::broadcast && c.fam != family::permute) {
    const std::uint64_t parts = static_cast<std::uint64_t>(allthr ? T : P);
    if (n % parts)
      fail(c.function, "nbytes " + str(static_cast<long long>(n)) + " is not a multiple of " +
                           (allthr ? "THREADS (" + str(T) + ")" : "the team's " + str(P) + " members") +
                           ": every member's piece is nbytes / " + (allthr ? "THREADS" : "members"));
    piece = n / parts;
  }
  // where piece k of a row sits: team id k, or the thread's number (_allthr)
  auto slot = [&](int rank) { return static_cast<std::uint64_t>(allthr ? b.thr(rank) : rank) * piece; };
  auto src_block = [&](int rank, std::uint64_t at, std::uint64_t B) {
    return c.src.is_private ? private_at(b.thr(rank), at) : block_of(c.src.shared, B, b.thr(rank), at);
  };
  auto dst_block = [&](int rank, std::uint64_t at, std::uint64_t B) {
    return c.dst.is_private ? private_at(b.thr(rank), at) : block_of(c.dst.shared, B, b.thr(rank), at);
  };
  auto single = [&](const side& s, std::uint64_t at) {
    return s.is_private ? private_at(b.thr(root), at) : shared_byte(s.shared, at, 0);
  };
  switch (c.fam) {
    case family::broadcast:
      for (int m = 0; m < P; ++m) b.add(single(c.src, 0), dst_block(m, 0, n), n);
      break;
    case family::scatter:
      for (int m = 0; m < P; ++m) b.add(single(c.src, slot(m)), dst_block(m, 0, n), piece);
      break;
    case family::gather:
      for (int m = 0; m < P; ++m) b.add(src_block(m, 0, n), single(c.dst, slot(m)), piece);
      break;
    case family::gather_all:
      for (int m = 0; m < P; ++m)
        for (int u = 0; u < P; ++u) b.add(src_block(m, 0, n), dst_block(u, slot(m), n * static_cast<std::uint64_t>(T)), piece);
      break;
    case family::exchange:
      for (int m = 0; m < P; ++m)
        for (int u = 0; u < P; ++u) b.add(src_block(m, slot(u), n), dst_block(u, slot(m), n * static_cast<std::uint64_t>(T)), piece);
      break;
    default: break;
  }
}

}  // namespace

// ---- reading argument arrays after the IN synchronisation -----------------------

namespace {

thread_local const call* tl_call = nullptr;
thread_local members tl_members;
thread_local std::vector<chunk> tl_chunks;
thread_local std::vector<int> tl_perm;

// perm as ranks: perm[i] for every member rank i, each rank once. `_allthr`
// (team-based): perm has THREADS entries, thread numbers, read at the members'.
void read_perm_by_thread(const call& c, const members& m) {
  const int P = m.size();
  tl_perm.assign(static_cast<std::size_t>(P), 0);
  std::vector<int> seen(static_cast<std::size_t>(threads()), -1), rank_of(static_cast<std::size_t>(threads()), -1);
  for (int r = 0; r < P; ++r) rank_of[static_cast<std::size_t>(m.thread(r))] = r;
  for (int r = 0; r < P; ++r) {
    const int i = m.thread(r);
    const long long v = c.perm.at(static_cast<std::size_t>(i));
    if (v < 0 || v >= threads() || rank_of[static_cast<std::size_t>(v)] < 0)
      fail(c.function, "perm is not a permutation of the team's threads: perm[" + str(i) + "] = " + str(v) + ", not a member");
    if (seen[static_cast<std::size_t>(v)] >= 0)
      fail(c.function, "perm is not a permutation of the team's threads: perm[" + str(i) + "] = " + str(v) + " repeats perm[" +
                           str(seen[static_cast<std::size_t>(v)]) + "]");
    seen[static_cast<std::size_t>(v)] = i;
    tl_perm[static_cast<std::size_t>(r)] = rank_of[static_cast<std::size_t>(v)];
  }
}

void read_perm(const call& c, const members& m) {
  if (c.is(variant::allthr)) return read_perm_by_thread(c, m);
  const int P = m.size();
  tl_perm.assign(static_cast<std::size_t>(P), 0);
  std::vector<int> seen(static_cast<std::size_t>(P), -1);
  for (int i = 0; i < P; ++i) {
    const long long v = c.perm.at(static_cast<std::size_t>(i));
    if (v < 0 || v >= P)
      fail(c.function, std::string("perm is not a permutation of 0..") + str(P - 1) + ": perm[" + str(i) + "] = " + str(v));
    if (seen[static_cast<std::size_t>(v)] >= 0)
      fail(c.function, std::string("perm is not a permutation of 0..") + str(P - 1) + ": perm[" + str(i) + "] = " + str(v) +
                           " repeats perm[" + str(seen[static_cast<std::size_t>(v)]) + "]");
    seen[static_cast<std::size_t>(v)] = i;
    tl_perm[static_cast<std::size_t>(i)] = static_cast<int>(v);
  }
}

void v_chunks(const call& c, const members& m, std::vector<chunk>& out);

void check_private_ends(const call& c, const std::vector<chunk>& chunks);

void build_after_in(coll::request& rq, const coll::team&) {
  const call& c = *tl_call;
  tl_chunks.clear();
  if (c.is(variant::v) || c.fam == family::vector_copy) {
    v_chunks(c, tl_members, tl_chunks);
  } else {
    // permute (fixed size): the perm array is the argument read here
    read_perm(c, tl_members);
    builder b{c, tl_members, tl_chunks, c.count};
    for (int i = 0; i < tl_members.size(); ++i) {
      const int to = tl_perm[static_cast<std::size_t>(i)];
      const place s = c.src.is_private ? private_at(tl_members.thread(i), 0) : block_of(c.src.shared, b.n, tl_members.thread(i));
      const place d = c.dst.is_private ? private_at(tl_members.thread(to), 0) : block_of(c.dst.shared, b.n, tl_members.thread(to));
      if (!(c.is(variant::in_place) && i == to)) b.add(s, d, b.n);
    }
  }
  check_private_ends(c, tl_chunks);
  rq.chunks = &tl_chunks;
}

}  // namespace

// ---- the v-variants and vector_copy ---------------------------------------------

namespace {

// xupc's ddisp[i]: where thread i's k bytes go — an offset in the root's
// single area (into == -1) or in thread `into`'s block of dst; inside dst_blk.
place per_source(const call& c, std::uint64_t B, std::uint64_t unit, int i, std::uint64_t k, int into) {
  const long long d = c.ddisp.at(static_cast<std::size_t>(i));
  const std::string what = std::string("ddisp[") + str(i) + "] = " + str(d);
  if (d < 0) fail(c.function, what + " is negative");
  const std::uint64_t at = static_cast<std::uint64_t>(d) * unit;
  if (B && at + k > B)
    fail(c.function, what + ": " + str(static_cast<long long>(k)) + " bytes from byte " + str(static_cast<long long>(at)) +
                         " run past dst_blk (" + str(static_cast<long long>(B / unit)) + (unit > 1 ? " elements)" : " bytes)"));
  if (into < 0) return shared_byte(c.dst.shared, at, 0);
  return block_of(c.dst.shared, B, into, at);
}

void v_chunks(const call& c, const members& m, std::vector<chunk>& out) {
  const int T = m.size();
  const bool raw = c.is(variant::raw);
  const std::uint64_t unit = raw ? 1 : c.typesize;
  const std::uint64_t Bd = c.has_dst_blk ? c.dst_blk * unit : 0, Bs = c.has_src_blk ? c.src_blk * unit : 0;
  const v_side dst{c, c.dst, Bd, unit, raw ? "dst_blk_raw" : "dst_blk"};
  const v_side src{c, c.src, Bs, unit, raw ? "src_blk_raw" : "src_blk"};
  const int root = c.has_root ? c.root : 0;
  auto add = [&](place s, place d, std::uint64_t bytes) {
    if (bytes) out.push_back(chunk{s, d, bytes});
  };
  // The root's single area of the non-rooted forms, or its block of the rooted ones.
  auto root_area = [&](const side& s, std::uint64_t B, std::uint64_t at, std::uint64_t total, const char* blk) {
    if (B && total > B)
      fail(c.function, "the chunks add up to " + str(static_cast<long long>(total)) + " bytes, more than the root's area (" + blk +
                           " " + str(static_cast<long long>(B / unit)) + (unit > 1 ? " elements)" : " bytes)"));
    if (s.is_private) return private_at(root, at);
    if (c.is(variant::rooted)) return block_of(s.shared, B, root, at);
    return shared_byte(s.shared, at, 0);
  };
  switch (c.fam) {
    case family::broadcast: {
      const std::uint64_t n = c.count * unit;
      if (n == 0) fail(c.function, std::string(raw ? "nbytes" : "nelems") + " must be > 0");
      for (int t = 0; t < T; ++t) {
        const place s = c.src.is_private ? private_at(root, 0)
                        : c.is(variant::rooted) ? block_of(c.src.shared, Bd, root) : shared_byte(c.src.shared, 0, 0);
        add(s, dst.at(c.ddisp, static_cast<std::size_t>(t), c.ddisp.at(static_cast<std::size_t>(t)), t, n), n);
      }
      break;
    }
    case family::scatter: {
      std::uint64_t total = 0;
      const std::vector<std::uint64_t> n = counts_of(c, T, unit, total);
      std::uint64_t at = 0;
      for (int t = 0; t < T; ++t) {
        const std::uint64_t k = n[static_cast<std::size_t>(t)];
        if (k) add(root_area(c.src, Bs, at, total, raw ? "src_blk_raw" : "src_blk"),
                   dst.at(c.ddisp, static_cast<std::size_t>(t), c.ddisp.at(static_cast<std::size_t>(t)), t, k), k);
        at += k;
      }
      break;
    }
    case family::gather: {
      std::uint64_t total = 0;
      const std::vector<std::uint64_t> n = counts_of(c, T, unit, total);
      std::uint64_t at = 0;
      for (int t = 0; t < T; ++t) {
        const std::uint64_t k = n[static_cast<std::size_t>(t)];
        if (k)
          add(src.at(c.sdisp, static_cast<std::size_t>(t), c.sdisp.at(static_cast<std::size_t>(t)), t, k),
              c.ddisp_per_source ? per_source(c, Bd, unit, t, k, -1) : root_area(c.dst, Bd, at, total, raw ? "dst_blk_raw" : "dst_blk"), k);
        at += k;
      }
      break;
    }
    case family::gather_all: {
      std::uint64_t total = 0;
      const std::vector<std::uint64_t> n = counts_of(c, T, unit, total);
      std::vector<place> from(static_cast<std::size_t>(T));
      for (int i = 0; i < T; ++i)
        if (n[static_cast<std::size_t>(i)])
          from[static_cast<std::size_t>(i)] =
              src.at(c.sdisp, static_cast<std::size_t>(i), c.sdisp.at(static_cast<std::size_t>(i)), i, n[static_cast<std::size_t>(i)]);
      const int me = detail::tl_mythread;
      if (c.ddisp_per_source) {  // xupc: piece i at ddisp[i] of every block
        for (int j = 0; j < T; ++j)
          for (int i = 0; i < T; ++i)
            if (n[static_cast<std::size_t>(i)])
              add(from[static_cast<std::size_t>(i)], per_source(c, Bd, unit, i, n[static_cast<std::size_t>(i)], j),
                  n[static_cast<std::size_t>(i)]);
        break;
      }
      for (int j = 0; j < T; ++j) {
        // privparam: only this thread knows its own destination index
        if (c.has_ddisp_scalar && j != me) {
          for (int i = 0; i < T; ++i)
            if (n[static_cast<std::size_t>(i)]) add(from[static_cast<std::size_t>(i)], place{0, j, c.dst.is_private}, n[static_cast<std::size_t>(i)]);
          continue;
        }
        const long long d = c.has_ddisp_scalar ? c.ddisp_scalar : c.ddisp.at(static_cast<std::size_t>(j));
        arg_array scalar = c.ddisp;
        if (c.has_ddisp_scalar) scalar.name = "ddisp";
        place start = dst.at(scalar, static_cast<std::size_t>(j), d, j, total);
        std::uint64_t at = 0;
        for (int i = 0; i < T; ++i) {
          const std::uint64_t k = n[static_cast<std::size_t>(i)];
          if (!k) continue;
          add(from[static_cast<std::size_t>(i)], place{start.offset + at, start.thread, start.is_private}, k);
          at += k;
        }
      }
      break;
    }
    case family::exchange: {
      const bool merge = c.is(variant::merge);
      std::vector<std::uint64_t> base(static_cast<std::size_t>(T), 0);
      for (int j = 0; j < T && merge; ++j) {
        std::uint64_t total = 0;
        for (int i = 0; i < T; ++i) total += count_of(c, static_cast<std::size_t>(i * T + j), unit);
        const long long d = c.disp.null() ? (c.is(variant::local) ? 0 : static_cast<long long>(
                                                 (static_cast<std::uint64_t>((j - (c.dst.is_private ? 0 : static_cast<int>(c.dst.shared.thread)) + T) % T) * Bd) / unit))
                                          : c.disp.at(static_cast<std::size_t>(j));
        arg_array named = c.disp;
        if (c.disp.null()) named.name = "disp (NULL: the block's start)";
        const place p = dst.at(named, static_cast<std::size_t>(j), d, j, total);
        base[static_cast<std::size_t>(j)] = p.offset;
      }
      std::vector<std::uint64_t> filled(static_cast<std::size_t>(T), 0);
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) {
          const std::size_t e = static_cast<std::size_t>(i * T + j);
          const std::uint64_t k = count_of(c, e, unit);
          if (!k) continue;
          const place s = src.at(c.exchange, e, c.exchange.at(e), i, k);
          place d;
          if (merge) {
            d = place{base[static_cast<std::size_t>(j)] + filled[static_cast<std::size_t>(j)], j, c.dst.is_private};
            if (!c.dst.is_private) d.thread = block_of(c.dst.shared, Bd, j).thread;
            filled[static_cast<std::size_t>(j)] += k;
          } else {
            const std::size_t f = static_cast<std::size_t>(j * T + i);
            d = dst.at(c.exchange, f, c.exchange.at(f), j, k);
          }
          add(s, d, k);
        }
      break;
    }
    case family::permute: {
      read_perm(c, m);
      for (int i = 0; i < T; ++i) {
        const std::uint64_t k = count_of(c, static_cast<std::size_t>(i), unit);
        if (!k) continue;
        const long long v = c.disp.at(static_cast<std::size_t>(i));
        const place s = src.at(c.disp, static_cast<std::size_t>(i), v, i, k);
        // the same phase in the block of perm[i]
        const std::uint64_t phase = c.is(variant::local) ? static_cast<std::uint64_t>(v) * unit
                                    : (s.is_private ? s.offset : (static_cast<std::uint64_t>(v) * unit) % Bs);
        const int to = tl_perm[static_cast<std::size_t>(i)];
        if (Bd && phase + k > Bd)
          fail(c.function, std::string(c.disp.name) + "[" + str(i) + "] = " + str(v) + ": the chunk of " + str(static_cast<long long>(k)) +
                               " bytes at byte " + str(static_cast<long long>(phase)) + " does not fit in thread " + str(to) +
                               "'s destination block (" + (raw ? "dst_blk_raw " : "dst_blk ") + str(static_cast<long long>(Bd / unit)) + ")");
        const place d = c.dst.is_private ? private_at(to, phase) : block_of(c.dst.shared, Bd, to, phase);
        add(s, d, k);
      }
      break;
    }
    case family::vector_copy: {
      if (c.nchunks < 0) fail(c.function, "nchunks is " + str(c.nchunks) + ", negative");
      for (int k = 0; k < c.nchunks; ++k) {
        const std::size_t e = static_cast<std::size_t>(k);
        const std::uint64_t bytes = count_of(c, e, unit);
        if (!bytes) continue;
        auto placed = [&](const v_side& vs, const arg_array& a, const char* blk) {
          const long long v = a.at(e);
          const auto what = [&] { return std::string(a.name) + "[" + str(k) + "] = " + str(v); };
          if (v < 0) fail(c.function, what() + " is negative");
          const std::uint64_t byte = static_cast<std::uint64_t>(v) * unit;
          if (vs.block == 0) fail(c.function, what() + ": " + blk + " is 0");
          const std::uint64_t q = byte / vs.block;
          if (q >= static_cast<std::uint64_t>(threads()))
            fail(c.function, what() + " is past the end of the array (" + str(threads()) + " blocks)");
          if (byte % vs.block + bytes > vs.block)
            fail(c.function, what() + ": the chunk of " + str(static_cast<long long>(bytes)) + " bytes runs past the end of its block (" +
                                 blk + " " + str(static_cast<long long>(vs.block / unit)) + "): a chunk must stay inside one block");
          if (vs.s.is_private) return private_at(static_cast<int>(q), byte % vs.block);
          return shared_byte(vs.s.shared, byte, vs.block);
        };
        add(placed(src, c.sdisp, raw ? "src_blk_raw" : "src_blk"), placed(dst, c.ddisp, raw ? "dst_blk_raw" : "dst_blk"), bytes);
      }
      break;
    }
    default: break;
  }
}

}  // namespace

// ---- team shapes that are standard collectives -----------------------------------

namespace {

// The forms whose layout is a standard collective's run as it (issue 10: the
// existing algorithms serve the new families): a broadcast in place (shared)
// is upc_all_broadcast from the root's block onto every block; among the team
// forms with shared ends, a team
// broadcast is upc_all_broadcast on the team; scatter, gather, gather_all and
// exchange move nbytes / members per member (`_allthr`: nbytes / THREADS,
// pieces by thread number, for scatter and gather) inside blocks of nbytes
// (gather_all and exchange: rows of nbytes x THREADS). Makes `rq` that request
// and says so; the rest (private ends, permute, `_allthr` rows) stay chunk lists.
bool as_standard(const call& c, coll::request& rq, const members_view& view) {
  if (c.fam == family::broadcast && c.is(variant::in_place) && !c.src.is_private) {
    // a broadcast in place: upc_all_broadcast from the root's block onto every block
    const int T = threads();
    const coll::endpoint blocks{c.dst.shared, static_cast<std::size_t>(c.count), T, false};
    const place r = block_of(c.src.shared, c.count, view.threads[static_cast<std::size_t>(view.root)]);
    rq.kind = coll::collective::broadcast;
    rq.src = coll::endpoint{shared_address{r.offset, static_cast<std::uint32_t>(r.thread), 0}, 0, T, false};
    rq.dst = blocks;
    rq.nbytes = static_cast<std::size_t>(c.count);
    rq.root = view.root;
    rq.in_place = true;
    rq.chunks = nullptr;
    return true;
  }
  if (!c.is(variant::team) || c.src.is_private || c.dst.is_private || c.fam == family::permute) return false;
  const bool allthr = c.is(variant::allthr);
  if (allthr && (c.fam == family::gather_all || c.fam == family::exchange)) return false;
  const int T = threads(), P = static_cast<int>(view.threads.size());
  const std::uint64_t n = c.count;
  std::uint64_t piece = n;
  if (c.fam != family::broadcast) {
    const std::uint64_t parts = static_cast<std::uint64_t>(allthr ? T : P);
    if (n % parts)
      fail(c.function, "nbytes " + str(static_cast<long long>(n)) + " is not a multiple of " +
                           (allthr ? "THREADS (" + str(T) + ")" : "the team's " + str(P) + " members") +
                           ": every member's piece is nbytes / " + (allthr ? "THREADS" : "members"));
    piece = n / parts;
  }
  const coll::endpoint single_src{c.src.shared, 0, T, allthr}, single_dst{c.dst.shared, 0, T, allthr};
  const coll::endpoint blocks_src{c.src.shared, static_cast<std::size_t>(n), T, false};
  const coll::endpoint blocks_dst{c.dst.shared, static_cast<std::size_t>(n), T, false};
  const coll::endpoint rows_dst{c.dst.shared, static_cast<std::size_t>(n) * static_cast<std::size_t>(T), T, false};
  rq.nbytes = static_cast<std::size_t>(piece);
  rq.root = view.root;
  switch (c.fam) {
    case family::broadcast: rq.kind = coll::collective::broadcast; rq.src = single_src; rq.dst = blocks_dst; break;
    case family::scatter: rq.kind = coll::collective::scatter; rq.src = single_src; rq.dst = blocks_dst; break;
    case family::gather: rq.kind = coll::collective::gather; rq.src = blocks_src; rq.dst = single_dst; break;
    case family::gather_all: rq.kind = coll::collective::gather_all; rq.src = blocks_src; rq.dst = rows_dst; break;
    case family::exchange: rq.kind = coll::collective::exchange; rq.src = blocks_src; rq.dst = rows_dst; break;
    default: return false;
  }
  rq.chunks = nullptr;
  return true;
}

}  // namespace

// ---- private ends ----------------------------------------------------------------

namespace {

// A null private buffer on a thread whose private bytes a chunk reads or writes.
void check_private_ends(const call& c, const std::vector<chunk>& chunks) {
  const int me = detail::tl_mythread;
  const bool in_place = c.is(variant::in_place);
  for (const chunk& k : chunks) {
    if (k.src.is_private && k.src.thread == me && !c.src.priv)
      fail(c.function, std::string(in_place ? "buffer" : "src") + " is a null pointer, and this thread's private " +
                           (in_place ? "buffer" : "source") + " is read");
    if (k.dst.is_private && k.dst.thread == me && !c.dst.priv)
      fail(c.function, std::string(in_place ? "buffer" : "dst") + " is a null pointer, and this thread's private " +
                           (in_place ? "buffer" : "destination") + " is written");
  }
}

}  // namespace

// ---- entry ---------------------------------------------------------------------

void run_movement(call& c, const members_view& view) {
  const int T = static_cast<int>(view.threads.size());
  tl_members.threads = view.threads;
  tl_call = &c;
  coll::request rq{};
  rq.kind = coll::collective::chunks;
  rq.function = c.function;
  rq.members = view.engine_team;
  rq.flags = c.flags;
  rq.in_place = c.is(variant::in_place);
  rq.src_memory = c.src.is_private ? coll::memory::private_owner : coll::memory::shared;
  rq.dst_memory = c.dst.is_private ? coll::memory::private_owner : coll::memory::shared;
  rq.src_private = c.src.priv;
  rq.dst_private = c.dst.priv;
  rq.stage_sources = rq.in_place && (c.fam == family::exchange || c.fam == family::permute) && !c.src.is_private;
  rq.dst_owner_only = c.has_ddisp_scalar;
  if (!c.src.is_private) rq.src.base = c.src.shared;
  if (!c.dst.is_private) rq.dst.base = c.dst.shared;
  if (c.fam == family::exchange && rq.in_place && !c.src.is_private && !c.is(variant::team) && !c.is(variant::v)) {
    // its own kind: the thesis's pairwise algorithm (Figure 3.3) or the staged chunk list
    rq.kind = coll::collective::exchange_in_place;
    rq.nbytes = c.count;
    rq.dst = coll::endpoint{c.dst.shared, c.count * static_cast<std::size_t>(threads()), threads(), false};
    rq.src = rq.dst;
  }
  thread_local coll::request::named_value extras[8];
  rq.extra_single_valued_count = single_valued_scalars(c, extras);
  rq.extra_single_valued = extras;
  if (as_standard(c, rq, view)) {  // a standard collective on the team: its own kind and algorithms
    coll::submit(rq);
    return;
  }
  const bool reads_arrays = c.is(variant::v) || c.fam == family::vector_copy || c.fam == family::permute;
  if (reads_arrays) {
    rq.read_args = build_after_in;
  } else {
    tl_chunks.clear();
    builder b{c, tl_members, tl_chunks, c.count};
    if (c.is(variant::team)) team_chunks(b, view.root);
    else fixed_chunks(b, view.root);
    check_private_ends(c, tl_chunks);
    rq.chunks = &tl_chunks;
  }
  (void)T;
  coll::submit(rq);
}

}  // namespace upc::ext
