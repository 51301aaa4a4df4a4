// scatter (Appendix A: A.1.2 in place, A.2.2 vector variants, A.3.2 teams,
// A.4 get/put/priv): piece t of the root's area to member t.
#include "builders.hpp"
#include "chunk_builder.hpp"

namespace upc::ext {

// Piece t of the root's area to member t (in place: not the root's own).
void scatter_fixed(chunk_builder& b) {
  b.each_moving_member([&](int t) { b.add(b.root_piece(b.c.src, t), b.member_piece(b.c.dst, t), b.n); });
}

// Team id 0's area, a piece to each member's block.
void scatter_team(chunk_builder& b) {
  const std::uint64_t piece = team_piece(b.c, b.T());
  for (int m = 0; m < b.T(); ++m) b.add(b.single(b.c.src, b.slot(m, piece)), b.dst_block(m, 0, b.n), piece);
}

// nelems[t] elements of the root's area, one after the other, to ddisp[t] of thread t.
void scatter_v(v_chunk_builder& v) {
  const call& c = v.c;
  v.each_piece_of_root_area([&](int t, std::uint64_t k, std::uint64_t at, std::uint64_t total) {
    v.add(v.root_area(c.src, v.Bs, at, total, v.raw ? "src_blk_raw" : "src_blk"),
          v.dst.at_entry(c.ddisp, static_cast<std::size_t>(t), t, k), k);
  });
}

}  // namespace upc::ext
