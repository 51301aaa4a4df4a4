/* <upc_compat.h> for UPC source compiled by upcc: the spellings of UPC 1.0's
 * <upc.h> (UPC 1.0 §7.1; GCC UPC's <upc.h> still defines them) for old code
 * that writes `barrier;`, `forall (...)`, `fence;`. Opt-in, because these are
 * ordinary identifiers in UPC 1.1 and later (a variable named `barrier` or
 * `fence` is common): include this header, or compile with
 * -DUPCEMU_UPC10_NAMES, which makes <upc.h> include it (docs/upcc.md). */
#ifndef UPCC_UPC_COMPAT_H
#define UPCC_UPC_COMPAT_H
#define barrier upc_barrier
#define barrier_notify upc_notify
#define barrier_wait upc_wait
#define forall upc_forall
#define fence upc_fence
#endif
