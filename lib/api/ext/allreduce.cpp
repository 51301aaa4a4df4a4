// allreduce (Appendix A: A.1.7 in place, A.2.8 vector variant, A.3.7 teams,
// A.4 get/put/priv): the fold of every piece's total, in piece order, made by
// every member and written to its element (reduction.hpp for the steps before).
#include <algorithm>
#include <vector>

#include "builders.hpp"
#include "reduction.hpp"
#include "upc/runtime.hpp"

namespace upc::ext {

void allreduce_results(reduction& r) {
  const call& c = r.c;
  (void)r.target();  // the arguments a reduce's result place is made of are checked alike
  if (r.private_dst_missing() && r.my_rank >= 0) r.fail_private_dst();
  const std::vector<char> ordered = r.totals(true, -1);
  std::vector<chunk> out;
  std::vector<char> result(std::max<std::size_t>(r.E, 1));
  const bool have = r.fold_all(ordered, result.data());
  const std::size_t E = r.E;
  for (std::size_t k = 0; k < r.m.threads.size() && have; ++k) {
    const int th = r.m.threads[k];
    place d;
    if (c.is(variant::in_place)) {
      // buffer[i * blk_size] for each thread i (blk_size 0: buffer[0], written once)
      if (c.blk_size == 0 && k > 0) continue;
      d = c.src.is_private ? place{0, th, true}
                           : r.src.at(r.src.a.v0() + (c.blk_size ? static_cast<std::uint64_t>(th) * c.blk_size : 0));
      if (!c.src.is_private && c.blk_size && static_cast<std::uint64_t>(th) * c.blk_size >= r.nelems) continue;
    } else if (c.dst.is_private) {
      d = place{0, th, true};
    } else {
      // dst + i as shared TYPE * (block size 1): member i's element
      const shared_address a = layout::advance(shared_address{c.dst.shared.offset, c.dst.shared.thread, 0},
                                               static_cast<std::ptrdiff_t>(k), E, 1, threads());
      d = place{a.offset, static_cast<std::int32_t>(a.thread), false};
    }
    out.push_back(chunk{place{0, th, true}, d, E});
  }
  r.move(out, result.data(), r.private_destination(), r.second_in() | r.out_flags());
}

}  // namespace upc::ext
