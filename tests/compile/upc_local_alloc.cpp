// Compiled, not run, by tests/meson.build: upc_local_alloc is deprecated (UPC 1.3
// removed it), so this must compile cleanly but fail under
// -Werror=deprecated-declarations.
#include "upc.h"

upc::sptr<void> old_code(std::size_t nblocks, std::size_t nbytes) { return upc_local_alloc(nblocks, nbytes); }
