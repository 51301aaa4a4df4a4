/* <upc_atomic.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): UPC 1.3 atomic operations (Optional Library Specifications §7.6)
 * in UPC syntax; lib/capi/headers_atomic.cpp calls the C++ runtime's
 * <upc_atomic.h> (include/upc_atomic.h: the types and operations allowed, and
 * the semantics of one call). UPC_PTS operands are private `shared T *`
 * variables (upcemu_sptr, the C++ runtime's shared_address). */
#ifndef UPCC_UPC_ATOMIC_H
#define UPCC_UPC_ATOMIC_H
#include <stddef.h>
#include <upc_types.h>

#define __UPC_ATOMIC__ 1

/* An atomic domain: opaque, lives in the shared heap (valid in every thread). */
typedef struct upc_atomicdomain_t upc_atomicdomain_t;

typedef int upc_atomichint_t;
#define UPC_ATOMIC_HINT_DEFAULT    0
#define UPC_ATOMIC_HINT_LATENCY    (1 << 0)
#define UPC_ATOMIC_HINT_THROUGHPUT (1 << 1)

/* Collective: every thread passes the same type, ops and hints. */
upc_atomicdomain_t *upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops, upc_atomichint_t hints);
/* Collective; a null domain does nothing. */
void upc_all_atomicdomain_free(upc_atomicdomain_t *domain);

void upc_atomic_strict(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                       shared void *restrict target, const void *restrict operand1,
                       const void *restrict operand2);
void upc_atomic_relaxed(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                        shared void *restrict target, const void *restrict operand1,
                        const void *restrict operand2);

/* 1 when every op of `ops` on `type` at `addr` (NULL: any suitably aligned
 * address) is performed by hardware atomics, else 0. */
int upc_atomic_isfast(upc_type_t type, upc_op_t ops, shared void *addr);

/* Each call with the caller's file and line (upcemu_site_enter/leave), so that a
 * report (a bad argument, a mismatch between threads) names the UPC program's
 * line; as in <upc_collective.h>. A call that returns a value hands it through
 * upcemu_site_leave_<type>, which leaves the site once the call has returned. The
 * macro's own name is not expanded again: the call inside is the real function,
 * which also stays callable through its address. */
#define upc_all_atomicdomain_alloc(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_ptr(upc_all_atomicdomain_alloc(__VA_ARGS__)))
#define upc_all_atomicdomain_free(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_atomicdomain_free(__VA_ARGS__), upcemu_site_leave())
#define upc_atomic_strict(...) (upcemu_site_enter(__FILE__, __LINE__), upc_atomic_strict(__VA_ARGS__), upcemu_site_leave())
#define upc_atomic_relaxed(...) (upcemu_site_enter(__FILE__, __LINE__), upc_atomic_relaxed(__VA_ARGS__), upcemu_site_leave())
#define upc_atomic_isfast(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(upc_atomic_isfast(__VA_ARGS__)))
#endif
