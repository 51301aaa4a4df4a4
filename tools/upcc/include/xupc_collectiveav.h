/* <xupc_collectiveav.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): include/xupc_collectiveav.h in C. As there, every name is a macro
 * whose first argument is the TYPE; here the macros call the untyped C functions
 * upcemu_xupcv_* of lib/capi/headers_xupcav.cpp (over the runtime's
 * lib/api/xupc/values.cpp).
 *
 * <xupc_collectiveav.h>: xupc's collectives on private arrays of values (seed
 * 001 §III.C, Table I), after the UPC Collectives Value Interface v1.2 that the
 * seed cites: TYPE is the first argument, as there, and the data are private
 * arrays of nelems values per thread — no shared space to allocate, copy into
 * or free (docs/xupc.md). Every call is collective and fully synchronising
 * (IN_ALLSYNC | OUT_ALLSYNC: the arrays are private); TYPE, nelems and the
 * root are single-valued. Data-movement TYPEs may be any object type (the
 * arrays must convert to TYPE * / const TYPE * as an initialiser would: a
 * pointer of another type gets GCC's -Wincompatible-pointer-types diagnostic, a
 * warning before GCC 14 and an error since; the C++ header's static_cast is
 * always an error);
 * reductions take the eleven types of the UPC reductions (signed char,
 * unsigned char, short, unsigned short, int, unsigned int, long, unsigned long,
 * float, double, long double: another TYPE, plain char included, is a compile
 * error from _Generic) and the ops UPC_ADD ... UPC_MAX (the value interface has
 * no UPC_FUNC / UPC_NONCOMM_FUNC).
 *
 *   xupc_allv_broadcast(TYPE, values, nelems, root)       root's values to every thread's values
 *   xupc_allv_scatter(TYPE, dst, rootsrc, nelems, root)   nelems values of rootsrc[THREADS*nelems] to each
 *   xupc_allv_gather(TYPE, rootdst, src, nelems, root)    each thread's nelems values into rootdst, by thread
 *   xupc_allv_gather_all(TYPE, dst, src, nelems)          the same into every thread's dst
 *   xupc_allv_exchange(TYPE, dst, src, nelems)            piece j of src to thread j, piece i of dst from i
 *   xupc_allv_permute(TYPE, dst, src, nelems, tothread)   src to thread tothread (a permutation)
 *   xupc_allv_reduce(TYPE, src, nelems, root, op)         the fold of all THREADS*nelems values; returned
 *                                                         on every thread (the root's is the result)
 *   xupc_allv_reduce_all(TYPE, src, nelems, op)           the same, for every thread
 *   xupc_allv_prefix_reduce(TYPE, dst, src, nelems, op)   dst[k] = fold of every value of lower threads
 *                                                         and src[0..k]
 *
 * A reduction is an expression of type TYPE (standard C: the result goes to a
 * compound literal of TYPE in the caller's block, whose address the C function
 * returns). Each call names the caller's file and line in reports
 * (upcemu_site_enter/leave, as in <xupc_collective.h>): collective mismatches
 * and --check's single-valued arguments through the runtime, and the argument
 * checks (null array, root, permutation, op, TYPE) with "; called at
 * prog.upc:N" added by the wrapper. */
#ifndef UPCC_XUPC_COLLECTIVEAV_H
#define UPCC_XUPC_COLLECTIVEAV_H
#include <stddef.h>

#include <upc.h>
#include <upc_collective.h>
#include <upc_types.h>

/* The untyped calls; bytes = nelems * sizeof(TYPE). */
void upcemu_xupcv_broadcast(void *values, size_t bytes, int root);
void upcemu_xupcv_scatter(void *dst, const void *rootsrc, size_t bytes, int root);
void upcemu_xupcv_gather(void *rootdst, const void *src, size_t bytes, int root);
void upcemu_xupcv_gather_all(void *dst, const void *src, size_t bytes);
void upcemu_xupcv_exchange(void *dst, const void *src, size_t bytes);
void upcemu_xupcv_permute(void *dst, const void *src, size_t bytes, int tothread);
/* Reductions, by the type letter of the UPC reductions ("I", "D", ...) and
 * sizeof(TYPE): *result (returned) gets the fold of all THREADS*nelems values;
 * prefix: dst gets this thread's part of the inclusive prefix. */
void *upcemu_xupcv_reduce(void *result, const void *src, size_t nelems, int root, upc_op_t op, const char *letter,
                          size_t size);
void *upcemu_xupcv_reduce_all(void *result, const void *src, size_t nelems, upc_op_t op, const char *letter,
                              size_t size);
void upcemu_xupcv_prefix_reduce(void *dst, const void *src, size_t nelems, upc_op_t op, const char *letter,
                                size_t size);

/* The letter of a reduction TYPE (include/upc_collective.h's
 * UPCEMU_COLLECTIVE_TYPES); the selector is not evaluated. */
#define UPCEMU_XUPCV_LETTER(TYPE)                                                                      \
  _Generic(*(TYPE *)0, signed char : "C", unsigned char : "UC", short : "S", unsigned short : "US",   \
           int : "I", unsigned int : "UI", long : "L", unsigned long : "UL", float : "F", double : "D", \
           long double : "LD")
/* The arrays as TYPE * / const TYPE * (an initialiser's conversion rules). */
#define UPCEMU_XUPCV_PTR(TYPE, p) ((TYPE *){(p)})
#define UPCEMU_XUPCV_CPTR(TYPE, p) ((const TYPE *){(p)})


/* A data movement with the caller's site: the untyped call with the arrays as TYPE, bytes =
 * nelems * sizeof(TYPE), and (_TO) the thread argument after them. */
#define UPCEMU_XUPCV_MOVE(call, TYPE, dst, src, nelems)                                                  \
  (upcemu_site_enter(__FILE__, __LINE__),                                                                 \
   call(UPCEMU_XUPCV_PTR(TYPE, dst), UPCEMU_XUPCV_CPTR(TYPE, src), (nelems) * sizeof(TYPE)), upcemu_site_leave())
#define UPCEMU_XUPCV_MOVE_TO(call, TYPE, dst, src, nelems, thread)                                       \
  (upcemu_site_enter(__FILE__, __LINE__),                                                                 \
   call(UPCEMU_XUPCV_PTR(TYPE, dst), UPCEMU_XUPCV_CPTR(TYPE, src), (nelems) * sizeof(TYPE), (thread)),    \
   upcemu_site_leave())

#define xupc_allv_broadcast(TYPE, values, nelems, root)                                                   \
  (upcemu_site_enter(__FILE__, __LINE__),                                                                 \
   upcemu_xupcv_broadcast(UPCEMU_XUPCV_PTR(TYPE, values), (nelems) * sizeof(TYPE), (root)), upcemu_site_leave())
#define xupc_allv_scatter(TYPE, dst, rootsrc, nelems, root) \
  UPCEMU_XUPCV_MOVE_TO(upcemu_xupcv_scatter, TYPE, dst, rootsrc, nelems, root)
#define xupc_allv_gather(TYPE, rootdst, src, nelems, root) \
  UPCEMU_XUPCV_MOVE_TO(upcemu_xupcv_gather, TYPE, rootdst, src, nelems, root)
#define xupc_allv_gather_all(TYPE, dst, src, nelems) UPCEMU_XUPCV_MOVE(upcemu_xupcv_gather_all, TYPE, dst, src, nelems)
#define xupc_allv_exchange(TYPE, dst, src, nelems) UPCEMU_XUPCV_MOVE(upcemu_xupcv_exchange, TYPE, dst, src, nelems)
#define xupc_allv_permute(TYPE, dst, src, nelems, tothread) \
  UPCEMU_XUPCV_MOVE_TO(upcemu_xupcv_permute, TYPE, dst, src, nelems, tothread)
#define xupc_allv_reduce(TYPE, src, nelems, root, op)                                                     \
  (upcemu_site_enter(__FILE__, __LINE__),                                                                 \
   *(TYPE *)upcemu_site_leave_ptr(upcemu_xupcv_reduce(&(TYPE){0}, UPCEMU_XUPCV_CPTR(TYPE, src), (nelems), (root), \
                                                      (op), UPCEMU_XUPCV_LETTER(TYPE), sizeof(TYPE))))
#define xupc_allv_reduce_all(TYPE, src, nelems, op)                                                       \
  (upcemu_site_enter(__FILE__, __LINE__),                                                                 \
   *(TYPE *)upcemu_site_leave_ptr(upcemu_xupcv_reduce_all(&(TYPE){0}, UPCEMU_XUPCV_CPTR(TYPE, src), (nelems), (op), \
                                                          UPCEMU_XUPCV_LETTER(TYPE), sizeof(TYPE))))
#define xupc_allv_prefix_reduce(TYPE, dst, src, nelems, op)                                               \
  (upcemu_site_enter(__FILE__, __LINE__),                                                                 \
   upcemu_xupcv_prefix_reduce(UPCEMU_XUPCV_PTR(TYPE, dst), UPCEMU_XUPCV_CPTR(TYPE, src), (nelems), (op),  \
                              UPCEMU_XUPCV_LETTER(TYPE), sizeof(TYPE)),                                   \
   upcemu_site_leave())
#endif
