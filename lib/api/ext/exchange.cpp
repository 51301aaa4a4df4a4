// exchange (Appendix A: A.1.5 in place, A.2.5 vector variants, A.3.5 teams,
// A.4 get/put/priv): piece u of member t's row to piece t of member u's row.
#include <vector>

#include "builders.hpp"
#include "chunk_builder.hpp"
#include "upc/runtime.hpp"

namespace upc::ext {

void exchange_fixed(chunk_builder& b) {
  const std::uint64_t n = b.n;
  const int T = b.T();
  for (int t = 0; t < T; ++t)
    for (int u = 0; u < T; ++u)
      b.add(b.src_block(t, static_cast<std::uint64_t>(u) * n, n * T), b.dst_block(u, static_cast<std::uint64_t>(t) * n, n * T), n);
}

// Piece u of member m's block (nbytes) to slot m of member u's row (nbytes x THREADS).
void exchange_team(chunk_builder& b) {
  const std::uint64_t piece = team_piece(b.c, b.T());
  const std::uint64_t row = b.n * static_cast<std::uint64_t>(threads());
  for (int m = 0; m < b.T(); ++m)
    for (int u = 0; u < b.T(); ++u) b.add(b.src_block(m, b.slot(u, piece), b.n), b.dst_block(u, b.slot(m, piece), row), piece);
}

namespace {

// _merge: where thread j's pieces start, one after the other from disp[j] (a
// null disp: the start of j's block).
std::vector<std::uint64_t> merged_starts(v_chunk_builder& v) {
  const call& c = v.c;
  const int T = v.T;
  std::vector<std::uint64_t> base(static_cast<std::size_t>(T), 0);
  for (int j = 0; j < T; ++j) {
    std::uint64_t total = 0;
    for (int i = 0; i < T; ++i) total += count_of(c, static_cast<std::size_t>(i * T + j), v.unit);
    const int first = c.dst.is_private ? 0 : static_cast<int>(c.dst.shared.thread);
    const long long d = c.disp.null() ? (c.is(variant::local) ? 0
                                                              : static_cast<long long>(
                                                                    (static_cast<std::uint64_t>((j - first + T) % T) * v.Bd) / v.unit))
                                      : c.disp.at(static_cast<std::size_t>(j));
    arg_array named = c.disp;
    if (c.disp.null()) named.name = "disp (NULL: the block's start)";
    base[static_cast<std::size_t>(j)] = v.dst.at(named, static_cast<std::size_t>(j), d, j, total).offset;
  }
  return base;
}

}  // namespace

// counts[i*T+j] elements from exchange[i*T+j] of thread i to exchange[j*T+i]
// of thread j (_merge: one after the other from disp[j]).
void exchange_v(v_chunk_builder& v) {
  const call& c = v.c;
  const int T = v.T;
  const bool merge = c.is(variant::merge);
  const std::vector<std::uint64_t> base = merge ? merged_starts(v) : std::vector<std::uint64_t>(static_cast<std::size_t>(T), 0);
  std::vector<std::uint64_t> filled(static_cast<std::size_t>(T), 0);
  for (int i = 0; i < T; ++i)
    for (int j = 0; j < T; ++j) {
      const std::size_t e = static_cast<std::size_t>(i * T + j);
      const std::uint64_t k = count_of(c, e, v.unit);
      if (!k) continue;
      const place s = v.src.at_entry(c.exchange, e, i, k);
      place d;
      if (merge) {
        d = place{base[static_cast<std::size_t>(j)] + filled[static_cast<std::size_t>(j)], j, c.dst.is_private};
        if (!c.dst.is_private) d.thread = block_of(c.dst.shared, v.Bd, j).thread;
        filled[static_cast<std::size_t>(j)] += k;
      } else {
        d = v.dst.at_entry(c.exchange, static_cast<std::size_t>(j * T + i), j, k);
      }
      v.add(s, d, k);
    }
}

}  // namespace upc::ext
