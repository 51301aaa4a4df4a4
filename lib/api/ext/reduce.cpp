// reduce (Appendix A: A.1.7 in place, A.2.8 vector variant, A.3.7 teams, A.4
// get/put/priv): the fold of every piece's total, in piece order, at one
// element (reduction.hpp for the steps before).
#include <algorithm>
#include <vector>

#include "builders.hpp"
#include "reduction.hpp"

namespace upc::ext {

void reduce_results(reduction& r) {
  const reduce_target to = r.target();
  // a reduce to an element of a non-member: the first member folds and writes it
  const int folder = r.member[static_cast<std::size_t>(to.root_thread)] ? to.root_thread : r.m.threads.front();
  if (r.private_dst_missing() && r.me == folder) r.fail_private_dst();
  const std::vector<char> ordered = r.totals(false, folder);
  std::vector<chunk> out;
  std::vector<char> result(std::max<std::size_t>(r.E, 1));
  if (r.me == folder && r.fold_all(ordered, result.data())) out.push_back(chunk{place{0, folder, true}, to.at, r.E});
  r.move(out, result.data(), to.is_private ? r.private_destination() : nullptr, r.second_in() | r.out_flags());
}

}  // namespace upc::ext
