// broadcast (Appendix A: A.1.1 in place, A.2.1 vector variants, A.3.1 teams,
// A.4 get/put/priv): the root's bytes to every member.
#include <string>

#include "builders.hpp"
#include "chunk_builder.hpp"
#include "upc/error.hpp"

namespace upc::ext {

// The root's nbytes (in place: its block of buffer) to every member's block.
void broadcast_fixed(chunk_builder& b) {
  const bool in_place = b.c.is(variant::in_place);
  for (int t = 0; t < b.T(); ++t) {
    if (in_place && t == b.root) continue;
    b.add(in_place ? b.src_block(b.root, 0, b.n) : b.single(b.c.src, 0), b.dst_block(t, 0, b.n), b.n);
  }
}

// Team id 0's nbytes to every member's block.
void broadcast_team(chunk_builder& b) {
  for (int m = 0; m < b.T(); ++m) b.add(b.single(b.c.src, 0), b.dst_block(m, 0, b.n), b.n);
}

// The root's nelems elements to ddisp[t] of every thread t.
void broadcast_v(v_chunk_builder& v) {
  const call& c = v.c;
  const std::uint64_t n = c.count.value_or(0) * v.unit;
  if (n == 0) detail::fail(c.function, std::string(v.raw ? "nbytes" : "nelems") + " must be > 0");
  for (int t = 0; t < v.T; ++t) {
    const place s = c.src.is_private ? private_at(v.root, 0)
                    : c.is(variant::rooted) ? block_of(c.src.shared, v.Bd, v.root) : shared_byte(c.src.shared, 0, 0);
    v.add(s, v.dst.at_entry(c.ddisp, static_cast<std::size_t>(t), t, n), n);
  }
}

}  // namespace upc::ext
