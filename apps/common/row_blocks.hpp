// How an N x N matrix or image is split by rows for the fixed-size collectives
// (dense_matmul, image_filter): thread t owns a block of consecutive rows, and
// every block has rows_per = ceil(N / THREADS) rows, so that one nbytes moves
// any thread's block. When THREADS does not divide N the last blocks are partly
// (or wholly) padding, which thread 0's whole copies carry as extra rows at the
// end, moved but never computed.
#pragma once
#include <algorithm>
#include <cstddef>

namespace apps {

struct row_blocks {
  std::size_t n = 0;        // rows and columns
  int threads = 1;
  std::size_t rows_per = 0; // rows in every thread's block

  row_blocks(std::size_t n_, int threads_)
      : n(n_), threads(threads_), rows_per((n_ + static_cast<std::size_t>(threads_) - 1) / static_cast<std::size_t>(threads_)) {}

  std::size_t chunk() const { return rows_per * n; }  // elements of one block
  std::size_t padded_rows() const { return rows_per * static_cast<std::size_t>(threads); }
  std::size_t first_row(int t) const { return std::min(n, static_cast<std::size_t>(t) * rows_per); }
  // The real rows of thread t's block (fewer than rows_per at the end, maybe 0).
  std::size_t rows_of(int t) const { return std::min(n, static_cast<std::size_t>(t + 1) * rows_per) - first_row(t); }
};

}  // namespace apps
