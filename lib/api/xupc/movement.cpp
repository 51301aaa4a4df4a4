// xupc's data movement (seed 001, <xupc_collective.h>): the standard
// collectives and the extended library's broadcast in place under xupc's
// names — one engine path for both names, every report naming the one the
// program wrote. The algorithm flags (UPC_PULL, UPC_PUSH, UPC_MULTICORE) are
// the engine's own.
#include "xupc_collective.h"

#include "../ext/call.hpp"
#include "../standard_collectives.hpp"

using namespace upc;
namespace standard = upc::coll::standard;

UPCEMU_STANDARD_MOVEMENTS(xupc_all_)
void xupc_all_permute(sptr<void> dst, sptr<const void> src, sptr<const int, 1, relaxed> perm, size_t nbytes, upc_flag_t flags,
                      const std::source_location& where) {
  standard::permute("xupc_all_permute", dst, src, perm, nbytes, flags, where);
}

// Figure 7: the thesis's upc_all_broadcast_in_place under xupc's name (the
// standard broadcast from buffer's block onto every block).
void xupc_all_broadcast_in_place(sptr<void> buffer, size_t nbytes, upc_flag_t flags, const std::source_location& where) {
  ext::call c("xupc_all_broadcast_in_place", where, ext::family::broadcast, ext::variant::in_place);
  c.dst = c.src = ext::shared_side(buffer.address());
  c.count = nbytes;
  c.flags = flags;
  ext::run(c);
}
