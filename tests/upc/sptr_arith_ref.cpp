// The C++ runtime's arithmetic for tests/upc/sptr_arith.c.
#include "upc/layout.hpp"
#include "upcemu_c.h"

extern "C" upcemu_sptr ref_advance(upcemu_sptr p, ptrdiff_t i, size_t elem, size_t block, int threads) {
  upc::shared_address a = upc::layout::advance({p.offset, p.thread, p.phase}, i, elem, block, threads);
  return {a.offset, a.thread, a.phase};
}
extern "C" ptrdiff_t ref_distance(upcemu_sptr p, upcemu_sptr q, size_t elem, size_t block, int threads) {
  return upc::layout::distance({p.offset, p.thread, p.phase}, {q.offset, q.thread, q.phase}, elem, block, threads);
}
