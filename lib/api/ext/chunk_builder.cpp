// The places of Appendix A's layouts and the builders every movement family
// fills its chunk list with (chunk_builder.hpp).
#include "chunk_builder.hpp"

#include <string>

#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "number_text.hpp"

namespace upc::ext {

using detail::fail;

place shared_byte(const shared_address& p, std::uint64_t b, std::uint64_t B) {
  if (B == 0) return place{p.offset + b, static_cast<std::int32_t>(p.thread), false};
  const std::uint64_t T = static_cast<std::uint64_t>(threads());
  const std::uint64_t q = b / B, slot = p.thread + q;
  return place{p.offset + (slot / T) * B + b % B, static_cast<std::int32_t>(slot % T), false};
}

place block_of(const shared_address& p, std::uint64_t B, int t, std::uint64_t at) {
  const int T = threads();
  const std::uint64_t k = static_cast<std::uint64_t>((t - static_cast<int>(p.thread) + T) % T);
  return shared_byte(p, k * B + at, B);
}

std::uint64_t count_of(const call& c, std::size_t i, std::uint64_t unit) {
  const long long v = c.counts.at(i);
  if (c.counts.is_signed ? v < 0 : static_cast<std::uint64_t>(v) > (std::uint64_t{1} << 62))
    fail(c.function, std::string(c.counts.name) + "[" + str(static_cast<long long>(i)) + "] = " +
                         str(v) + (v < 0 ? " is negative" : " is far too large (a negative value converted to size_t?)"));
  return static_cast<std::uint64_t>(v) * unit;
}

std::vector<std::uint64_t> counts_of(const call& c, int T, std::uint64_t unit, std::uint64_t& total) {
  std::vector<std::uint64_t> n(static_cast<std::size_t>(T));
  total = 0;
  for (int t = 0; t < T; ++t) total += n[static_cast<std::size_t>(t)] = count_of(c, static_cast<std::size_t>(t), unit);
  return n;
}

namespace {

thread_local std::vector<int> tl_perm;

void read_perm_by_thread(const call& c, const std::vector<int>& threads) {
  const int P = static_cast<int>(threads.size());
  tl_perm.assign(static_cast<std::size_t>(P), 0);
  std::vector<int> seen(static_cast<std::size_t>(upc::threads()), -1), rank_of(static_cast<std::size_t>(upc::threads()), -1);
  for (int r = 0; r < P; ++r) rank_of[static_cast<std::size_t>(threads[static_cast<std::size_t>(r)])] = r;
  for (int r = 0; r < P; ++r) {
    const int i = threads[static_cast<std::size_t>(r)];
    const long long v = c.perm.at(static_cast<std::size_t>(i));
    if (v < 0 || v >= upc::threads() || rank_of[static_cast<std::size_t>(v)] < 0)
      fail(c.function, "perm is not a permutation of the team's threads: perm[" + str(static_cast<long long>(i)) + "] = " + str(v) +
                           ", not a member");
    if (seen[static_cast<std::size_t>(v)] >= 0)
      fail(c.function, "perm is not a permutation of the team's threads: perm[" + str(static_cast<long long>(i)) + "] = " + str(v) +
                           " repeats perm[" + str(static_cast<long long>(seen[static_cast<std::size_t>(v)])) + "]");
    seen[static_cast<std::size_t>(v)] = i;
    tl_perm[static_cast<std::size_t>(r)] = rank_of[static_cast<std::size_t>(v)];
  }
}

}  // namespace

const std::vector<int>& read_perm(const call& c, const std::vector<int>& threads) {
  if (c.is(variant::allthr)) {
    read_perm_by_thread(c, threads);
    return tl_perm;
  }
  const int P = static_cast<int>(threads.size());
  tl_perm.assign(static_cast<std::size_t>(P), 0);
  std::vector<int> seen(static_cast<std::size_t>(P), -1);
  for (int i = 0; i < P; ++i) {
    const long long v = c.perm.at(static_cast<std::size_t>(i));
    // the entry as messages name it (built only for a message)
    const auto what = [&] {
      return "perm is not a permutation of 0.." + str(static_cast<long long>(P - 1)) + ": perm[" + str(static_cast<long long>(i)) +
             "] = " + str(v);
    };
    if (v < 0 || v >= P) fail(c.function, what());
    if (seen[static_cast<std::size_t>(v)] >= 0)
      fail(c.function, what() + " repeats perm[" + str(static_cast<long long>(seen[static_cast<std::size_t>(v)])) + "]");
    seen[static_cast<std::size_t>(v)] = i;
    tl_perm[static_cast<std::size_t>(i)] = static_cast<int>(v);
  }
  return tl_perm;
}

std::uint64_t team_piece(const call& c, int members) {
  const std::uint64_t n = c.count.value_or(0);
  if (c.fam == family::broadcast) return n;
  const bool allthr = c.is(variant::allthr);
  const int T = threads();
  const std::uint64_t parts = static_cast<std::uint64_t>(allthr ? T : members);
  if (n % parts)
    fail(c.function, "nbytes " + str(static_cast<long long>(n)) + " is not a multiple of " +
                         (allthr ? "THREADS (" + str(static_cast<long long>(T)) + ")"
                                 : "the team's " + str(static_cast<long long>(members)) + " members") +
                         ": every member's piece is nbytes / " + (allthr ? "THREADS" : "members"));
  return n / parts;
}

place chunk_builder::block(const side& s, int rank, std::uint64_t at, std::uint64_t B) const {
  return s.is_private ? private_at(thr(rank), at) : block_of(s.shared, B, thr(rank), at);
}
place chunk_builder::single(const side& s, std::uint64_t at) const {
  return s.is_private ? private_at(thr(root), at) : shared_byte(s.shared, at, 0);
}
place chunk_builder::root_piece(const side& s, int t) const {
  const std::uint64_t at = static_cast<std::uint64_t>(t) * n;
  return c.is(variant::in_place) ? block(s, root, at, n * T()) : single(s, at);
}
place chunk_builder::member_piece(const side& s, int t) const {
  const std::uint64_t at = static_cast<std::uint64_t>(t) * n;
  return c.is(variant::in_place) ? block(s, t, at, n * T()) : block(s, t, 0, n);
}

place v_side::at(const arg_array& a, std::size_t entry, long long value, int thread, std::uint64_t n) const {
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
      fail(c.function, what() + " is past the end of the array (" + str(static_cast<long long>(T)) + " blocks of " + str(static_cast<long long>(block / unit)) + ")");
    const int owner = static_cast<int>((static_cast<std::uint64_t>(first) + owner_block) % T);
    if (owner != thread)
      fail(c.function, what() + " is in thread " + str(static_cast<long long>(owner)) + "'s block, but the entry is for thread " +
                           str(static_cast<long long>(thread)) +
                           (s.is_private ? " (private buffers are read as blocks of an array starting at thread 0)" : ""));
    phase = byte % block;
  }
  if (block != 0 && phase + n > block)
    fail(c.function, what() + ": " + str(static_cast<long long>(n)) + " bytes from byte " + str(static_cast<long long>(phase)) + " of thread " + str(static_cast<long long>(thread)) +
                         "'s block run past its end (" + blk_name + " " + str(static_cast<long long>(block / unit)) +
                         (unit > 1 ? " elements" : " bytes") + "): a chunk must stay inside one block");
  if (s.is_private) return private_at(thread, phase);
  return block_of(s.shared, block, thread, phase);
}

v_chunk_builder::v_chunk_builder(const call& call, const std::vector<int>& members, std::vector<chunk>& list)
    : c(call),
      threads(members),
      out(list),
      T(static_cast<int>(members.size())),
      raw(call.is(variant::raw)),
      unit(raw ? 1 : call.typesize.value_or(1)),
      Bd(call.dst_blk.value_or(0) * unit),
      Bs(call.src_blk.value_or(0) * unit),
      dst{call, call.dst, Bd, unit, raw ? "dst_blk_raw" : "dst_blk"},
      src{call, call.src, Bs, unit, raw ? "src_blk_raw" : "src_blk"},
      root(call.root.value_or(0)) {}

place v_chunk_builder::root_area(const side& s, std::uint64_t B, std::uint64_t at, std::uint64_t total, const char* blk) const {
  if (B && total > B)
    fail(c.function, "the chunks add up to " + str(static_cast<long long>(total)) + " bytes, more than the root's area (" + blk + " " + str(static_cast<long long>(B / unit)) +
                         (unit > 1 ? " elements)" : " bytes)"));
  if (s.is_private) return private_at(root, at);
  if (c.is(variant::rooted)) return block_of(s.shared, B, root, at);
  return shared_byte(s.shared, at, 0);
}

place v_chunk_builder::per_source(int i, std::uint64_t k, int into) const {
  const long long d = c.ddisp.at(static_cast<std::size_t>(i));
  const std::string what = std::string("ddisp[") + str(static_cast<long long>(i)) + "] = " + str(d);
  if (d < 0) fail(c.function, what + " is negative");
  const std::uint64_t at = static_cast<std::uint64_t>(d) * unit;
  if (Bd && at + k > Bd)
    fail(c.function, what + ": " + str(static_cast<long long>(k)) + " bytes from byte " + str(static_cast<long long>(at)) + " run past dst_blk (" + str(static_cast<long long>(Bd / unit)) +
                         (unit > 1 ? " elements)" : " bytes)"));
  if (into < 0) return shared_byte(c.dst.shared, at, 0);
  return block_of(c.dst.shared, Bd, into, at);
}

}  // namespace upc::ext
