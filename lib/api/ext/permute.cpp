// permute (Appendix A: A.1.6 in place, A.2.6 vector variants, A.3.6 teams,
// A.4 get/put/priv): member i's bytes to member perm[i]. perm is read after
// the IN synchronisation, so every form builds its chunks there.
#include <string>
#include <vector>

#include "builders.hpp"
#include "chunk_builder.hpp"
#include "upc/error.hpp"
#include "number_text.hpp"

namespace upc::ext {

// Member i's block to member perm[i]'s (in place: not onto itself).
void permute_by_perm(chunk_builder& b) {
  const call& c = b.c;
  const std::vector<int>& perm = read_perm(c, b.threads);
  for (int i = 0; i < b.T(); ++i) {
    const int to = perm[static_cast<std::size_t>(i)];
    if (!(c.is(variant::in_place) && i == to)) b.add(b.src_block(i, 0, b.n), b.dst_block(to, 0, b.n), b.n);
  }
}

// counts[i] elements from disp[i] of thread i to the same phase of thread perm[i]'s block.
void permute_v(v_chunk_builder& v) {
  const call& c = v.c;
  const std::vector<int>& perm = read_perm(c, v.threads);
  for (int i = 0; i < v.T; ++i) {
    const std::uint64_t k = count_of(c, static_cast<std::size_t>(i), v.unit);
    if (!k) continue;
    const long long d = c.disp.at(static_cast<std::size_t>(i));
    const place s = v.src.at(c.disp, static_cast<std::size_t>(i), d, i, k);
    // the same phase in the block of perm[i]
    const std::uint64_t phase = c.is(variant::local) ? static_cast<std::uint64_t>(d) * v.unit
                                : (s.is_private ? s.offset : (static_cast<std::uint64_t>(d) * v.unit) % v.Bs);
    const int to = perm[static_cast<std::size_t>(i)];
    if (v.Bd && phase + k > v.Bd)
      detail::fail(c.function, std::string(c.disp.name) + "[" + str(i) + "] = " + str(d) + ": the chunk of " +
                                   str(static_cast<long long>(k)) + " bytes at byte " + str(static_cast<long long>(phase)) +
                                   " does not fit in thread " + str(to) + "'s destination block (" +
                                   (v.raw ? "dst_blk_raw " : "dst_blk ") + str(static_cast<long long>(v.Bd / v.unit)) + ")");
    v.add(s, c.dst.is_private ? private_at(to, phase) : block_of(c.dst.shared, v.Bd, to, phase), k);
  }
}

}  // namespace upc::ext
