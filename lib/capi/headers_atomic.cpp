// The C side of <upc_atomic.h> for upcc (tools/upcc/include/upc_atomic.h,
// docs/upcc.md "Library headers"): extern "C" wrappers over the C++ runtime's
// <upc_atomic.h>. The collective calls pass a source_location explicitly, which
// picks the C++ overload (the C one has the same first parameters).
#include <source_location>
#include <string>

#include "at_c_site.hpp"
#include "upc/error.hpp"
#include "upcemu_c.h"
#include "upc_atomic.h"

namespace {
using upc::capi::at_c_site;
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(upc::shared_address{p.offset, p.thread, p.phase}); }

}  // namespace

// UPC_PTS operands and targets hold a pointer-to-shared: upcemu_sptr in C, the
// runtime's shared_address in C++.
static_assert(sizeof(upcemu_sptr) == sizeof(upc::shared_address) && alignof(upcemu_sptr) == alignof(upc::shared_address));

extern "C" {
upc_atomicdomain_t* upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops, upc_atomichint_t hints) {
  return at_c_site([&] { return upc_all_atomicdomain_alloc(type, ops, hints, std::source_location::current()); });
}
void upc_all_atomicdomain_free(upc_atomicdomain_t* domain) {
  at_c_site([&] { upc_all_atomicdomain_free(domain, std::source_location::current()); });
}
void upc_atomic_strict(upc_atomicdomain_t* domain, void* fetch_ptr, upc_op_t op, upcemu_sptr target,
                       const void* operand1, const void* operand2) {
  at_c_site([&] { upc_atomic_strict(domain, fetch_ptr, op, vptr(target), operand1, operand2); });
}
void upc_atomic_relaxed(upc_atomicdomain_t* domain, void* fetch_ptr, upc_op_t op, upcemu_sptr target,
                        const void* operand1, const void* operand2) {
  at_c_site([&] { upc_atomic_relaxed(domain, fetch_ptr, op, vptr(target), operand1, operand2); });
}
int upc_atomic_isfast(upc_type_t type, upc_op_t ops, upcemu_sptr addr) {
  return at_c_site([&] { return upc_atomic_isfast(type, ops, vptr(addr)); });
}
}  // extern "C"
