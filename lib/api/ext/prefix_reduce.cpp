// prefix_reduce (Appendix A: A.1.7 in place, A.2.8 vector variant, A.3.7
// teams, A.4 get/put/priv; and xupc's suffix reduction, seed 001 Figure 6):
// each piece's owner scans it with the fold of every earlier piece's total
// (suffix: every later one's), into the destination (reduction.hpp for the
// steps before).
#include <algorithm>
#include <cstring>
#include <vector>

#include "../collective_checks.hpp"
#include "builders.hpp"
#include "reduction.hpp"
#include "upc/runtime.hpp"

namespace upc::ext {

namespace {

// The destination elements: buffer itself, or dst laid out as the source
// (the vector variant: as if dst were shared [dst_blk] TYPE from thread 0, A.2.8).
elements destination(const reduction& r) {
  const call& c = r.c;
  const bool is_v = c.is(variant::v);
  // the vector variant's destination length
  const auto longest = [&] {
    std::uint64_t n = 0;
    for (const piece& q : r.pieces) n = std::max(n, q.to + q.n);
    return n;
  };
  if (c.is(variant::in_place)) return r.src;
  if (c.dst.is_private) {
    if (is_v) return private_elements(c.dst.priv, r.E, c.dst_blk.value_or(0), longest());
    elements dst = r.src;  // the same layout; each thread's buffer holds its own elements
    dst.is_private = true;
    dst.mine = c.dst.priv;
    return dst;
  }
  coll::check_shared_pointer(c.function, "dst", c.dst.shared);
  if (is_v) return shared_elements(shared_address{c.dst.shared.offset, c.dst.shared.thread, 0}, r.E, c.dst_blk.value_or(0), longest());
  coll::check_reduction_phase(c.function, "dst", c.dst.shared, c.blk_size);
  return shared_elements(c.dst.shared, r.E, c.blk_size, r.nelems);
}

// Which pieces' results go straight into their owner's memory, and where the
// others wait in their owner's staging buffer (the same arithmetic on every
// member: the chunk list is the same everywhere).
struct placement {
  const elements& dst;
  std::vector<std::uint64_t> staged_at;     // by piece: its offset in its owner's staging buffer
  std::vector<std::uint64_t> staged_bytes;  // by thread
  std::vector<chunk> out;                   // staged results to their destinations

  bool direct(const piece& q) const {
    const std::uint64_t v = dst.a.v0() + q.to;
    return dst.at(v).thread == q.owner && (dst.a.blk == 0 || v % dst.a.blk + q.n <= dst.a.blk);
  }
  // Where the owner writes piece p's results.
  char* to(const std::vector<piece>& pieces, std::size_t p, std::vector<char>& staged) const {
    const piece& q = pieces[p];
    return direct(q) ? dst.address(dst.at(dst.a.v0() + q.to)) : staged.data() + staged_at[p];
  }
};

placement place_results(const reduction& r, const elements& dst) {
  placement pl{dst, std::vector<std::uint64_t>(r.pieces.size(), 0), std::vector<std::uint64_t>(static_cast<std::size_t>(threads()), 0), {}};
  const std::size_t E = r.E;
  for (std::size_t p = 0; p < r.pieces.size(); ++p) {
    const piece& q = r.pieces[p];
    if (pl.direct(q)) continue;
    std::uint64_t& used = pl.staged_bytes[static_cast<std::size_t>(q.owner)];
    pl.staged_at[p] = used;
    for (std::uint64_t k = 0; k < q.n;) {
      const std::uint64_t v = dst.a.v0() + q.to + k;
      const std::uint64_t run = dst.a.blk ? std::min<std::uint64_t>(q.n - k, dst.a.blk - v % dst.a.blk) : q.n - k;
      pl.out.push_back(chunk{place{used + k * E, q.owner, true}, dst.at(v), run * E});
      k += run;
    }
    used += q.n * E;
  }
  return pl;
}

// From the first piece on: each owner scans its piece with the fold of every
// earlier piece's total.
void scan_forward(const reduction& r, const std::vector<char>& ordered, const placement& pl, std::vector<char>& staged) {
  const std::size_t E = r.E;
  std::vector<char> running(E);
  bool have_running = false;
  for (std::size_t p = 0; p < r.pieces.size(); ++p) {
    const piece& q = r.pieces[p];
    if (q.owner == r.me) r.op.scan(pl.to(r.pieces, p, staged), r.src.address(q.src), static_cast<std::size_t>(q.n),
                                   have_running ? running.data() : nullptr);
    // the running total through this piece
    if (!have_running) {
      std::memcpy(running.data(), ordered.data() + p * E, E);
      have_running = true;
    } else {
      r.op.combine(running.data(), ordered.data() + p * E, 1);
    }
  }
}

// From the last piece back: each owner scans its piece from its end with the
// fold of every later piece's total (S_p = T_p op S_{p+1}).
void scan_backward(const reduction& r, const std::vector<char>& ordered, const placement& pl, std::vector<char>& staged) {
  const std::size_t E = r.E;
  std::vector<char> running(E);
  bool have_running = false;
  for (std::size_t p = r.pieces.size(); p-- > 0;) {
    const piece& q = r.pieces[p];
    if (q.owner == r.me)
      r.suffix_scan(pl.to(r.pieces, p, staged), r.src.address(q.src), static_cast<std::size_t>(q.n), have_running ? running.data() : nullptr);
    std::vector<char> t(ordered.begin() + static_cast<std::ptrdiff_t>(p * E), ordered.begin() + static_cast<std::ptrdiff_t>((p + 1) * E));
    if (have_running) r.op.combine(t.data(), running.data(), 1);
    std::memcpy(running.data(), t.data(), E);
    have_running = true;
  }
}

}  // namespace

void prefix_reduce_results(reduction& r) {
  if (r.private_dst_missing() && std::any_of(r.pieces.begin(), r.pieces.end(), [&](const piece& q) { return q.owner == r.me; }))
    r.fail_private_dst();
  const std::vector<char> ordered = r.totals(true, -1);
  const elements dst = destination(r);
  const placement pl = place_results(r, dst);
  // --check=races: the results this thread writes straight into its own memory
  // (the staged ones are written by the data movement below)
  if (coll::race_call* races = coll::race_call::open(); races && !dst.is_private)
    for (const piece& q : r.pieces)
      if (q.owner == r.me && pl.direct(q)) {
        const place at = dst.at(dst.a.v0() + q.to);
        races->note(coll::area{at.thread, at.offset, at.offset + q.n * r.E, true, "dst", -1});
      }
  std::vector<char> staged(std::max<std::uint64_t>(pl.staged_bytes[static_cast<std::size_t>(r.me)], 1));
  if (r.c.suffix) {
    scan_backward(r, ordered, pl, staged);
  } else {
    scan_forward(r, ordered, pl, staged);
  }
  r.move(pl.out, staged.data(), dst.is_private ? dst.mine : nullptr, r.second_in() | r.out_flags());
}

}  // namespace upc::ext
