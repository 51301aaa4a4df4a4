// The C side of <upc_nb.h> for upcc (tools/upcc/include/upc_nb.h, docs/upcc.md
// "Library headers"): extern "C" wrappers over the C++ runtime's <upc_nb.h>.
// The functions without a pointer-to-shared have the C++ functions' parameters,
// so their C symbols are renamed (upcemu_upc_sync, ...: __asm__ labels in the
// UPC header).
#include "upcemu_c.h"
#include "upc_nb.h"

namespace {
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(upc::shared_address{p.offset, p.thread, p.phase}); }
}  // namespace

extern "C" {
upc_handle_t upc_memcpy_nb(upcemu_sptr dst, upcemu_sptr src, size_t n) { return upc_memcpy_nb(vptr(dst), vptr(src), n); }
upc_handle_t upc_memget_nb(void* dst, upcemu_sptr src, size_t n) { return upc_memget_nb(dst, vptr(src), n); }
upc_handle_t upc_memput_nb(upcemu_sptr dst, const void* src, size_t n) { return upc_memput_nb(vptr(dst), src, n); }
upc_handle_t upc_memset_nb(upcemu_sptr dst, int c, size_t n) { return upc_memset_nb(vptr(dst), c, n); }
void upcemu_upc_sync(upc_handle_t h) { upc_sync(h); }
int upcemu_upc_sync_attempt(upc_handle_t h) { return upc_sync_attempt(h); }

void upc_memcpy_nbi(upcemu_sptr dst, upcemu_sptr src, size_t n) { upc_memcpy_nbi(vptr(dst), vptr(src), n); }
void upc_memget_nbi(void* dst, upcemu_sptr src, size_t n) { upc_memget_nbi(dst, vptr(src), n); }
void upc_memput_nbi(upcemu_sptr dst, const void* src, size_t n) { upc_memput_nbi(vptr(dst), src, n); }
void upc_memset_nbi(upcemu_sptr dst, int c, size_t n) { upc_memset_nbi(vptr(dst), c, n); }
void upcemu_upc_synci(void) { upc_synci(); }
int upcemu_upc_synci_attempt(void) { return upc_synci_attempt(); }
}  // extern "C"
