// The local rearrangements of the transposes that exchange contiguous chunks
// (NPB's transpose2_local and transpose2_finish). The strided side goes
// through in blocks of 16 lines, so that what it touches stays in cache.
#include <algorithm>
#include <cstring>

#include "transpose.hpp"

namespace ft {

namespace {
constexpr long block = 16;
}

// sloc ft/memget comp begin
// sloc ft/priv comp begin
// sloc ft/in_place_priv comp begin
void pack_slab(const shape& s, const cplx* slab, cplx* send) {
  const long rows = s.nyl * s.nx;  // my piece of one plane for thread q: nyl rows of nx
  for (int q = 0; q < s.threads; ++q)
    for (long zl = 0; zl < s.nzl; ++zl)
      std::memcpy(static_cast<void*>(send + (q * s.nzl + zl) * rows), slab + (zl * s.ny + q * s.nyl) * s.nx,
                  static_cast<std::size_t>(rows) * sizeof(cplx));
}

void unpack_to_pencil(const shape& s, const cplx* recv, cplx* pencil) {
  for (long yl = 0; yl < s.nyl; ++yl)
    for (long x0 = 0; x0 < s.nx; x0 += block)
      for (long z = 0; z < s.nz; ++z) {
        const cplx* from = recv + (z * s.nyl + yl) * s.nx;  // z = p*nzl + zl: chunk p, plane zl
        cplx* to = pencil + (yl * s.nx) * s.nz + z;
        for (long x = x0; x < std::min<long>(x0 + block, s.nx); ++x) to[x * s.nz] = from[x];
      }
}

void pack_pencil(const shape& s, const cplx* pencil, cplx* send) {
  for (int q = 0; q < s.threads; ++q)
    for (long line = 0; line < s.nyl * s.nx; ++line)  // line = yl*nx + x
      std::memcpy(static_cast<void*>(send + (q * s.nyl * s.nx + line) * s.nzl), pencil + line * s.nz + q * s.nzl,
                  static_cast<std::size_t>(s.nzl) * sizeof(cplx));
}

void unpack_to_slab(const shape& s, const cplx* recv, cplx* slab) {
  for (long y = 0; y < s.ny; ++y)  // y = p*nyl + yl: chunk p, row yl
    for (long x0 = 0; x0 < s.nx; x0 += block)
      for (long zl = 0; zl < s.nzl; ++zl) {
        const cplx* from = recv + y * s.nx * s.nzl + zl;
        cplx* to = slab + (zl * s.ny + y) * s.nx;
        for (long x = x0; x < std::min<long>(x0 + block, s.nx); ++x) to[x] = from[x * s.nzl];
      }
}
// sloc ft/in_place_priv comp end
// sloc ft/priv comp end
// sloc ft/memget comp end

}  // namespace ft
