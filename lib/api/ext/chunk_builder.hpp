// The data-movement families of the extended collectives (seed 003, Appendix A:
// broadcast, scatter, gather, gather_all, exchange, permute, vector_copy, in
// every variant) are lists of chunks for the engine's general data movement
// (request::chunks, lib/coll/algorithms/chunks_flat.cpp). Each family, in its
// own file, says per variant which bytes go where, with the places and the
// builders here; the engine decides who copies them.
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
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "families.hpp"

namespace upc::ext {

using coll::chunk;
using coll::place;

// Byte `b` of `shared [B] char[...]` starting at p (phase ignored; B == 0: indefinite).
place shared_byte(const shared_address& p, std::uint64_t b, std::uint64_t B);
// Thread t's block of `shared [B] char[B*T]` from p, `at` bytes into it.
place block_of(const shared_address& p, std::uint64_t B, int t, std::uint64_t at = 0);
inline place private_at(int thread, std::uint64_t offset) { return place{offset, thread, true}; }

// counts[i] in bytes (unit bytes an element); a negative count is refused.
std::uint64_t count_of(const call& c, std::size_t i, std::uint64_t unit);
// The counts of threads 0..T-1 in bytes, and their sum.
std::vector<std::uint64_t> counts_of(const call& c, int T, std::uint64_t unit, std::uint64_t& total);
// perm as ranks: entry i is the rank member i sends to, each rank once.
// `_allthr` (team-based): perm has THREADS entries, thread numbers, read at the
// members'. The vector is this thread's, valid until the next read_perm.
const std::vector<int>& read_perm(const call& c, const std::vector<int>& threads);
// A team-based form's piece (A.3): nbytes / members (`_allthr`: nbytes /
// THREADS); a broadcast's is nbytes. nbytes must divide evenly.
std::uint64_t team_piece(const call& c, int members);

// The chunk list of a fixed-size or team-based form.
struct chunk_builder {
  const call& c;
  const std::vector<int>& threads;  // rank -> thread
  std::vector<chunk>& out;
  std::uint64_t n;  // nbytes
  int root;         // the root's rank

  int T() const noexcept { return static_cast<int>(threads.size()); }
  int thr(int rank) const noexcept { return threads[static_cast<std::size_t>(rank)]; }
  void add(place s, place d, std::uint64_t bytes) {
    if (bytes) out.push_back(chunk{s, d, bytes});
  }
  // `at` bytes into rank's block (B bytes a block) of side s, or into its private buffer.
  place block(const side& s, int rank, std::uint64_t at, std::uint64_t B) const;
  place src_block(int rank, std::uint64_t at, std::uint64_t B) const { return block(c.src, rank, at, B); }
  place dst_block(int rank, std::uint64_t at, std::uint64_t B) const { return block(c.dst, rank, at, B); }
  // `at` bytes into the root's single area (broadcast and scatter src, gather dst).
  place single(const side& s, std::uint64_t at) const;
  // The two ends of piece t of a fixed-size scatter or gather (and of
  // gather_all's source), on side s: the root's piece (nbytes at t x nbytes of
  // its single area; in place, of its block of buffer) and member t's (its
  // block; in place, the same place of its block of buffer).
  place root_piece(const side& s, int t) const;
  place member_piece(const side& s, int t) const;
  // Where rank's piece sits in a row of a team-based form: at its team id, or
  // at its thread number (`_allthr`).
  std::uint64_t slot(int rank, std::uint64_t piece) const {
    return static_cast<std::uint64_t>(c.is(variant::allthr) ? thr(rank) : rank) * piece;
  }
  // f(t) for each member t whose piece moves: all of them, but in place not
  // the root, whose piece is already where it belongs (scatter, gather).
  template <class F>
  void each_moving_member(F f) const {
    for (int t = 0; t < T(); ++t)
      if (!(c.is(variant::in_place) && t == root)) f(t);
  }
};

// One end of a v-variant: `index` of arg[entry] (or a local phase) made a
// place on thread `thread`, with n bytes that must stay inside the block.
struct v_side {
  const call& c;
  const side& s;
  std::uint64_t block;   // bytes of one block (0: unknown, no limit check)
  std::uint64_t unit;    // bytes per index step (typesize, or 1 for _raw)
  const char* blk_name;  // "dst_blk" for messages

  place at(const arg_array& a, std::size_t entry, long long value, int thread, std::uint64_t n) const;
  // The same with a[entry] read here.
  place at_entry(const arg_array& a, std::size_t entry, int thread, std::uint64_t n) const {
    return at(a, entry, a.at(entry), thread, n);
  }
};

// The chunk list of a v-variant or vector_copy (read after the IN sync).
struct v_chunk_builder {
  v_chunk_builder(const call& call, const std::vector<int>& members, std::vector<chunk>& list);

  const call& c;
  const std::vector<int>& threads;  // rank -> thread
  std::vector<chunk>& out;
  int T;
  bool raw;
  std::uint64_t unit;    // bytes an element (1 for _raw)
  std::uint64_t Bd, Bs;  // dst_blk, src_blk in bytes (0: not given)
  v_side dst, src;
  int root;

  void add(place s, place d, std::uint64_t bytes) {
    if (bytes) out.push_back(chunk{s, d, bytes});
  }
  // `at` bytes into the root's single area (the non-rooted forms) or its
  // block (the rooted ones), with `total` bytes that must fit in it.
  place root_area(const side& s, std::uint64_t B, std::uint64_t at, std::uint64_t total, const char* blk) const;
  // xupc's ddisp[i]: where thread i's k bytes go, an offset in the root's
  // single area (into == -1) or in thread `into`'s block of dst; inside dst_blk.
  place per_source(int i, std::uint64_t k, int into) const;
  // The rooted v forms lay the threads' counts one after the other in the
  // root's area: f(t, k, at, total) for each thread t with k > 0 bytes, `at`
  // bytes into the area, `total` the sum of the counts.
  template <class F>
  void each_piece_of_root_area(F f) const {
    std::uint64_t total = 0;
    const std::vector<std::uint64_t> n = counts_of(c, T, unit, total);
    std::uint64_t at = 0;
    for (int t = 0; t < T; ++t) {
      const std::uint64_t k = n[static_cast<std::size_t>(t)];
      if (k) f(t, k, at, total);
      at += k;
    }
  }
};

}  // namespace upc::ext
