// The sums across a processor row that both versions share: the partial
// products A_rc * p of a row's threads added into the row block of A * p, and
// the dot products (each thread's part over its column block, the row's parts
// added). Both add in processor-column order, so every thread of a row gets
// the identical value, and every row the same dot products (each row covers
// all columns once) — on every backend, run after run. Across THREADS the
// order differs (the grid changes how a row's sum is split), so results agree
// to rounding, not to the bit.
#pragma once
#include <cstring>
#include <vector>

#include "proc_grid.hpp"
#include "teamutil.h"
#include "upc.h"
#include "upc_collective_ext.h"

namespace cg {

class row_sums {
 public:
  // Collective.
  explicit row_sums(const proc_grid& g)
      : g_(g),
        block_(static_cast<std::size_t>(g.max_rows())),
        partials_(block_ * static_cast<std::size_t>(THREADS), upc::block(block_)),
        fetched_(block_) {
    teams_.resize(static_cast<std::size_t>(g.nprows));
    for (team& t : teams_) init(&t);
    if (MYTHREAD == 0)
      for (int th = 0; th < THREADS; ++th) insert(th, teams_[static_cast<std::size_t>(th / g.npcols)]);
    upc_barrier;  // every member is in before the first use
  }

  // Where this thread puts its partial product (its row block's length): my
  // block of shared [B] double partials[B * THREADS].
  double* partial() { return (&partials_[static_cast<std::size_t>(MYTHREAD) * block_]).local(); }

  // Collective: row_sum = the partial products of my processor row, added in
  // column order (my own read in place, the others fetched with upc_memget).
  void reduce_into(double* row_sum) {
    upc_barrier;  // every partial is written
    const std::size_t n = static_cast<std::size_t>(g_.nrows());
    for (int c = 0; c < g_.npcols; ++c) {
      const int from = g_.thread_of(g_.row, c);
      const double* part = fetched_.data();
      if (from == MYTHREAD) part = partial();
      else upc_memget(fetched_.data(), &partials_[static_cast<std::size_t>(from) * block_], n * sizeof(double));
      if (c == 0) std::memcpy(row_sum, part, n * sizeof(double));
      else
        for (std::size_t j = 0; j < n; ++j) row_sum[j] += part[j];
    }
    // The next writes of the partials come after the exchange's barrier, when
    // every thread of the row has read them.
  }

  // Collective: my part of a dot product, summed over my processor row (the
  // extended collectives' private-memory allreduce on the row's team; team
  // members fold in team-id order, which is column order).
  double across_row(double mine) {
    double sum = 0;
    upc_all_reduceD_all_team_priv(&sum, &mine, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr,
                                  teams_[static_cast<std::size_t>(g_.row)], UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    return sum;
  }

 private:
  proc_grid g_;
  std::size_t block_;
  upc::shared_array<double, upc::dynamic_block> partials_;
  std::vector<double> fetched_;
  std::vector<team> teams_;
};

}  // namespace cg
