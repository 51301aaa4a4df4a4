// The one way partials are made: the left fold of a contiguous run of elements,
// in index order, in one call (no per-element indirect call).
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "../request.hpp"

namespace upc::coll {

// *acc = ((first[0] op first[1]) op first[2]) ... over n >= 1 elements.
inline void fold_run(char* acc, const char* first, std::uint64_t n, const element_op& red) {
  std::memcpy(acc, first, red.size);
  if (n > 1) red.fold(acc, first + red.size, n - 1);
}

// Stage 3 of every prefix reduction: writes block b of the result, each element
// being prefix op (fold of the block up to it), or the fold alone for the array's
// first block (prefix null). Contiguous when dst has src's layout; otherwise
// element by element through UPC pointer arithmetic on dst.
template <class Array>
void finish_prefix_block(const Array& src, const Array& dst, bool same_layout, int thr, std::uint64_t b,
                         const char* prefix, const element_op& red, std::vector<char>& tmp) {
  const std::size_t E = red.size;
  const std::uint64_t lo = src.block_lo(b), n = src.block_hi(b) - lo;
  const char* in = src.local(thr, src.local_index(lo));
  if (same_layout) {
    red.scan(dst.local(thr, src.local_index(lo)), in, n, prefix);
    return;
  }
  tmp.resize(n * E);
  red.scan(tmp.data(), in, n, prefix);
  for (std::uint64_t i = 0; i < n; ++i) std::memcpy(dst.element(lo - src.v0() + i), tmp.data() + i * E, E);
}

}  // namespace upc::coll
