// The thesis's filterMatrix: a 3 x 3 convolution of the image. Pixel (r, c)
// becomes sum over i, j of filter[i][j] * pixel(r + i - 1, c + j - 1), summed
// in that order, for every pixel not on the image's border; border pixels are
// copied. A thread filters its rows from a copy that has the row above them and
// the row below them (its halo rows) next to them, so the result is the same
// bits as filtering the whole image at once.
#pragma once
#include <cstddef>

namespace image {

// sloc image_filter/standard comp begin
// sloc image_filter/priv comp begin
// sloc image_filter/vector_copy comp begin
// rows [first, first + count) of an n x n image: `in` points at row `first`, with
// rows first - 1 and first + count before and after it where they exist; `out`
// gets the count filtered rows.
inline void filter_rows(const double* in, double* out, std::size_t first, std::size_t count, std::size_t n, const double* filter) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t r = first + i;
    const double* row = in + i * n;
    double* dst = out + i * n;
    if (r == 0 || r + 1 == n) {  // top and bottom rows: copied
      for (std::size_t c = 0; c < n; ++c) dst[c] = row[c];
      continue;
    }
    dst[0] = row[0];
    for (std::size_t c = 1; c + 1 < n; ++c) {
      double sum = 0.0;
      for (std::ptrdiff_t fi = 0; fi < 3; ++fi) {
        const double* src = row + (fi - 1) * static_cast<std::ptrdiff_t>(n) + static_cast<std::ptrdiff_t>(c) - 1;
        for (std::ptrdiff_t fj = 0; fj < 3; ++fj) sum += filter[fi * 3 + fj] * src[fj];
      }
      dst[c] = sum;
    }
    if (n > 1) dst[n - 1] = row[n - 1];
  }
}
// sloc image_filter/vector_copy comp end
// sloc image_filter/priv comp end
// sloc image_filter/standard comp end

}  // namespace image
