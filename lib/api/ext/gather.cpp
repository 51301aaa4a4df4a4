// gather (Appendix A: A.1.3 in place, A.2.3 vector variants, A.3.3 teams,
// A.4 get/put/priv): member t's piece to place t of the root's area.
#include "builders.hpp"
#include "chunk_builder.hpp"

namespace upc::ext {

// Member t's piece to piece t of the root's area (in place: not the root's own).
void gather_fixed(chunk_builder& b) {
  b.each_moving_member([&](int t) { b.add(b.member_piece(b.c.src, t), b.root_piece(b.c.dst, t), b.n); });
}

// Each member's piece to its slot of team id 0's area.
void gather_team(chunk_builder& b) {
  const std::uint64_t piece = team_piece(b.c, b.T());
  for (int m = 0; m < b.T(); ++m) b.add(b.src_block(m, 0, b.n), b.single(b.c.dst, b.slot(m, piece)), piece);
}

// nelems[t] elements from sdisp[t] of thread t, one after the other into the
// root's area (xupc: at ddisp[t] of it).
void gather_v(v_chunk_builder& v) {
  const call& c = v.c;
  v.each_piece_of_root_area([&](int t, std::uint64_t k, std::uint64_t at, std::uint64_t total) {
    v.add(v.src.at_entry(c.sdisp, static_cast<std::size_t>(t), t, k),
          c.ddisp_per_source ? v.per_source(t, k, -1) : v.root_area(c.dst, v.Bd, at, total, v.raw ? "dst_blk_raw" : "dst_blk"), k);
  });
}

}  // namespace upc::ext
