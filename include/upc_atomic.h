/* UPC 1.3 <upc_atomic.h> (UPC Optional Library Specifications §7.6): atomic
 * operations on shared objects through an atomic domain.
 *
 *   UPC                                              upcemu
 *   shared long total;                               upc::sptr<long> total = ...;
 *   upc_atomicdomain_t *d =                          upc_atomicdomain_t *d =
 *     upc_all_atomicdomain_alloc(UPC_LONG,             upc_all_atomicdomain_alloc(UPC_LONG,
 *                                UPC_ADD|UPC_GET, 0);                         UPC_ADD|UPC_GET, 0);
 *   long one = 1, old;                               long one = 1, old;
 *   upc_atomic_relaxed(d, &old, UPC_ADD,             upc_atomic_relaxed(d, &old, UPC_ADD,
 *                      &total, &one, NULL);                             total, &one, nullptr);
 *
 * Types and operations (the spec's table):
 *   access     UPC_GET UPC_SET UPC_CSWAP                      every type below
 *   numeric    UPC_ADD UPC_SUB UPC_MULT UPC_INC UPC_DEC
 *              UPC_MIN UPC_MAX                                every type but UPC_PTS
 *   bitwise    UPC_AND UPC_OR UPC_XOR                         integer types only
 *   types      UPC_INT UPC_UINT UPC_LONG UPC_ULONG UPC_INT32 UPC_UINT32 UPC_INT64
 *              UPC_UINT64 UPC_FLOAT UPC_DOUBLE UPC_PTS (a stored upc::sptr<...>)
 *
 * Semantics of one call (T is the domain's type; fetch_ptr, operand1 and operand2
 * point to private T objects):
 *   *fetch_ptr receives the value of *target before the operation (when fetch_ptr
 *   is not null; UPC_GET requires it). SET: *target = *operand1. CSWAP: if
 *   (*target == *operand1) *target = *operand2 (== is value equality: 0.0 == -0.0,
 *   a NaN never matches; pointers-to-shared compare as with ==). ADD, SUB, MULT,
 *   AND, OR, XOR: *target = *target op *operand1. INC, DEC: *target +/-= 1. MIN,
 *   MAX: *target = min/max(*target, *operand1), replacing the target only when
 *   the operand compares less/greater (so a NaN operand never replaces it, and a
 *   NaN target stays). Integer arithmetic wraps. operand1/operand2 are ignored by
 *   the ops that do not use them and may then be null.
 *
 * upc_atomic_strict is sequentially consistent and also a full fence for the
 * calling thread's other shared accesses; upc_atomic_relaxed is atomic but
 * imposes no ordering. Every type except UPC_PTS is lock-free (std::atomic_ref on
 * the shared segment, so it works across the processes backend too); UPC_PTS uses
 * a tiny spin lock inside the domain, which is why upc_atomic_isfast says 0 for
 * it. As the spec says, atomicity holds between operations through one domain;
 * mixing domains, or plain accesses, on one object concurrently is a race.
 *
 * Misuse (an op outside the domain's set or not defined for its type, more than
 * one op bit, a null domain or target, a misaligned target, a null fetch_ptr for
 * UPC_GET or a null operand an op needs, a freed domain) stops the program with a
 * message naming the function, the argument, its value and the thread. */
#pragma once
#include <cstddef>
#include <source_location>

#include "upc/sptr.hpp"
#include "upc_types.h"

#define __UPC_ATOMIC__ 1

/* An atomic domain: opaque, lives in the shared heap (valid in every thread). */
struct upc_atomicdomain_t;

/* Performance hints for upc_all_atomicdomain_alloc; every value behaves the same
 * here (one node, hardware atomics), but unknown bits are rejected. */
typedef int upc_atomichint_t;
#define UPC_ATOMIC_HINT_DEFAULT    0
#define UPC_ATOMIC_HINT_LATENCY    (1 << 0)
#define UPC_ATOMIC_HINT_THROUGHPUT (1 << 1)

/* Collective: every thread passes the same type, ops and hints (checked) and gets
 * the same domain. */
upc_atomicdomain_t* upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops, upc_atomichint_t hints,
                                               const std::source_location& where = std::source_location::current());
/* Collective; a null domain does nothing. */
void upc_all_atomicdomain_free(upc_atomicdomain_t* domain,
                               const std::source_location& where = std::source_location::current());

void upc_atomic_strict(upc_atomicdomain_t* domain, void* fetch_ptr, upc_op_t op, upc::sptr<void> target,
                       const void* operand1, const void* operand2);
void upc_atomic_relaxed(upc_atomicdomain_t* domain, void* fetch_ptr, upc_op_t op, upc::sptr<void> target,
                        const void* operand1, const void* operand2);

/* 1 when every op of `ops` on `type` at `addr` (null: any suitably aligned
 * address) is performed by hardware atomics, else 0. */
int upc_atomic_isfast(upc_type_t type, upc_op_t ops, upc::sptr<void> addr);
