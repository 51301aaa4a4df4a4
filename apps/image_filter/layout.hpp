// How the N x N image is split: thread t filters a block of consecutive rows.
// Every block has rows_per = ceil(N / THREADS) rows, so that the fixed-size
// collectives (one nbytes for all threads) can move them; when THREADS does not
// divide N, thread 0's image and result carry the padding as extra rows at the
// end, which are moved but never filtered.
#pragma once
#include <algorithm>
#include <cstddef>

namespace image {

struct layout {
  std::size_t n = 0;        // rows and columns of the image
  int threads = 1;
  std::size_t rows_per = 0; // rows in every thread's block

  layout(std::size_t n_, int threads_)
      : n(n_), threads(threads_), rows_per((n_ + static_cast<std::size_t>(threads_) - 1) / static_cast<std::size_t>(threads_)) {}

  std::size_t chunk() const { return rows_per * n; }  // pixels of one block
  std::size_t padded_rows() const { return rows_per * static_cast<std::size_t>(threads); }
  std::size_t first_row(int t) const { return std::min(n, static_cast<std::size_t>(t) * rows_per); }
  // The real rows of thread t's block (fewer than rows_per at the end, maybe 0).
  std::size_t rows_of(int t) const { return std::min(n, static_cast<std::size_t>(t + 1) * rows_per) - first_row(t); }
};

}  // namespace image
