// gather_all (Appendix A: A.1.4 in place, A.2.4 vector variants, A.3.4 teams,
// A.4 get/put/priv): every member's piece to every member's row.
#include <vector>

#include "builders.hpp"
#include "chunk_builder.hpp"
#include "upc/runtime.hpp"

namespace upc::ext {

// Member t's block (in place: its piece t of buffer) to piece t of every row.
void gather_all_fixed(chunk_builder& b) {
  const bool in_place = b.c.is(variant::in_place);
  const std::uint64_t n = b.n;
  const int T = b.T();
  for (int t = 0; t < T; ++t)
    for (int u = 0; u < T; ++u) {
      if (in_place && t == u) continue;
      const std::uint64_t at = static_cast<std::uint64_t>(t) * n;
      b.add(b.member_piece(b.c.src, t), b.dst_block(u, at, n * T), n);
    }
}

// Each member's piece to its slot of every member's row (nbytes x THREADS).
void gather_all_team(chunk_builder& b) {
  const std::uint64_t piece = team_piece(b.c, b.T());
  const std::uint64_t row = b.n * static_cast<std::uint64_t>(threads());
  for (int m = 0; m < b.T(); ++m)
    for (int u = 0; u < b.T(); ++u) b.add(b.src_block(m, 0, b.n), b.dst_block(u, b.slot(m, piece), row), piece);
}

// nelems[i] elements from sdisp[i] of thread i, one after the other from
// ddisp[j] of every thread j (xupc: each at ddisp[i] of every block;
// privparam: this thread's ddisp only, the other rows' places are their owners').
void gather_all_v(v_chunk_builder& v) {
  const call& c = v.c;
  const int T = v.T;
  std::uint64_t total = 0;
  const std::vector<std::uint64_t> n = counts_of(c, T, v.unit, total);
  std::vector<place> from(static_cast<std::size_t>(T));
  for (int i = 0; i < T; ++i)
    if (n[static_cast<std::size_t>(i)])
      from[static_cast<std::size_t>(i)] = v.src.at_entry(c.sdisp, static_cast<std::size_t>(i), i, n[static_cast<std::size_t>(i)]);
  const int me = detail::tl_mythread;
  if (c.ddisp_per_source) {  // xupc: piece i at ddisp[i] of every block
    for (int j = 0; j < T; ++j)
      for (int i = 0; i < T; ++i)
        if (n[static_cast<std::size_t>(i)])
          v.add(from[static_cast<std::size_t>(i)], v.per_source(i, n[static_cast<std::size_t>(i)], j), n[static_cast<std::size_t>(i)]);
    return;
  }
  for (int j = 0; j < T; ++j) {
    // privparam: only this thread knows its own destination index
    if (c.ddisp_scalar.has_value() && j != me) {
      for (int i = 0; i < T; ++i)
        if (n[static_cast<std::size_t>(i)])
          v.add(from[static_cast<std::size_t>(i)], place{0, j, c.dst.is_private}, n[static_cast<std::size_t>(i)]);
      continue;
    }
    const long long d = c.ddisp_scalar.has_value() ? *c.ddisp_scalar : c.ddisp.at(static_cast<std::size_t>(j));
    arg_array scalar = c.ddisp;
    if (c.ddisp_scalar.has_value()) scalar.name = "ddisp";
    const place start = v.dst.at(scalar, static_cast<std::size_t>(j), d, j, total);
    std::uint64_t at = 0;
    for (int i = 0; i < T; ++i) {
      const std::uint64_t k = n[static_cast<std::size_t>(i)];
      if (!k) continue;
      v.add(from[static_cast<std::size_t>(i)], place{start.offset + at, start.thread, start.is_private}, k);
      at += k;
    }
  }
}

}  // namespace upc::ext
