// The C side of <upc_castable.h> for upcc (tools/upcc/include/upc_castable.h,
// docs/upcc.md "Library headers"): extern "C" wrappers over the C++ runtime's
// <upc_castable.h>. upc_thread_info has the C++ function's parameters, so its C
// symbol is renamed (upcemu_upc_thread_info, an __asm__ label in the UPC header).
#include <cstddef>
#include <type_traits>

#include "upcemu_c.h"
#include "upc_castable.h"

static_assert(std::is_standard_layout_v<upc_thread_info_t> && sizeof(upc_thread_info_t) == 2 * sizeof(int));

extern "C" {
void* upc_cast(upcemu_sptr p) { return upc_cast(upc::sptr<void>(upc::shared_address{p.offset, p.thread, p.phase})); }
upc_thread_info_t upcemu_upc_thread_info(size_t thread) { return upc_thread_info(thread); }
}  // extern "C"
