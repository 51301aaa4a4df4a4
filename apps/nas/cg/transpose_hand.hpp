// The replicated-vector transpose written by hand, as NPB-MPI and NPB-UPC do
// it: the row sums live in a shared array (one block per thread), and each
// thread fetches its column block with one upc_memget from its exchange
// partner — the thread of the row block that holds those columns, chosen so
// that no two threads read from the same one (NPB's exch_proc: (r, c) reads
// from (c, r) on a square grid, from (c / 2, 2 r + c % 2) when npcols is
// 2 nprows).
#pragma once
#include <string>
#include <vector>

#include "proc_grid.hpp"
#include "upc.h"

namespace cg {

class hand_transpose {
 public:
  static constexpr const char* name = "hand";

  // Collective.
  explicit hand_transpose(const proc_grid& g)
      // sloc cg/hand decl begin
      : block_(static_cast<std::size_t>(g.max_rows())),
        sums_(block_ * static_cast<std::size_t>(THREADS), upc::block(block_)),
        q_(static_cast<std::size_t>(g.ncols())) {
    const int m = g.npcols / g.nprows;  // 1 or 2
    const int from_row = g.col / m, from_col = g.row * m + g.col % m;
    const long offset = g.firstcol() - g.block_lo(from_row, g.nprows);  // my columns within its row block
    const int partner = g.thread_of(from_row, from_col);
    from_ = &sums_[static_cast<std::size_t>(partner) * block_ + static_cast<std::size_t>(offset)];
    bytes_ = q_.size() * sizeof(double);
    // sloc cg/hand decl end
    partner_ = partner;
  }

  // My block of shared [B] double sums[B * THREADS]: the row reduction writes it.
  double* row_sum() { return (&sums_[static_cast<std::size_t>(MYTHREAD) * block_]).local(); }

  // Collective: my column block of the row sums.
  const double* transpose() {
    // sloc cg/hand comm begin
    upc_barrier;  // every row sum is complete
    upc_memget(q_.data(), from_, bytes_);
    // sloc cg/hand comm end
    // Nobody overwrites these sums before the next row reduction's barrier,
    // which every thread reaches after its upc_memget.
    ++calls_;
    return q_.data();
  }

  // Collective (as the remap's): thread 0's transfer.
  std::string summary() const {
    return std::to_string(calls_) + " transposes, each one upc_memget of " + std::to_string(bytes_) + " bytes (thread 0: from thread " +
           std::to_string(partner_) + ")";
  }

 private:
  // sloc cg/hand decl begin
  std::size_t block_;
  upc::shared_array<double, upc::dynamic_block> sums_;
  std::vector<double> q_;
  upc::sptr<double, upc::dynamic_block> from_;
  std::size_t bytes_ = 0;
  // sloc cg/hand decl end
  int partner_ = 0;
  long calls_ = 0;
};

}  // namespace cg
