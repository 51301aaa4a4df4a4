/* <xupc_collectiveav.h>: xupc's collectives on private arrays of values (seed
 * 001 §III.C, Table I), after the UPC Collectives Value Interface v1.2 that the
 * seed cites: TYPE is the first argument, as there, and the data are private
 * arrays of nelems values per thread — no shared space to allocate, copy into
 * or free (docs/xupc.md). Every call is collective and fully synchronising
 * (IN_ALLSYNC | OUT_ALLSYNC: the arrays are private); TYPE, nelems and the
 * root are single-valued. Data-movement TYPEs may be any trivially copyable
 * type; reductions take the eleven types of the UPC reductions and the ops
 * UPC_ADD ... UPC_MAX (the value interface has no UPC_FUNC / UPC_NONCOMM_FUNC).
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
 *                                                         and src[0..k] */
#pragma once
#include <cstddef>
#include <source_location>
#include <type_traits>

#include "upc.h"
#include "upc_collective.h"
#include "upc_types.h"

namespace upc::xupcv {

using where_t = std::source_location;

// The untyped calls (lib/api/xupc/values.cpp); bytes = nelems * sizeof(TYPE).
void broadcast(void* values, std::size_t bytes, int root, const where_t& w);
void scatter(void* dst, const void* rootsrc, std::size_t bytes, int root, const where_t& w);
void gather(void* rootdst, const void* src, std::size_t bytes, int root, const where_t& w);
void gather_all(void* dst, const void* src, std::size_t bytes, const where_t& w);
void exchange(void* dst, const void* src, std::size_t bytes, const where_t& w);
void permute(void* dst, const void* src, std::size_t bytes, int tothread, const where_t& w);
// Reductions, by the type letter of the UPC reductions ("I", "D", ...):
// `dst` gets the fold of all THREADS*nelems values (prefix: each thread its
// part of the inclusive prefix), read as shared [nelems] TYPE[] from thread 0.
void reduce_all(const char* fn, void* dst, const void* src, std::size_t nelems, upc_op_t op, const char* letter, std::size_t size,
                const where_t& w);
void prefix_reduce(void* dst, const void* src, std::size_t nelems, upc_op_t op, const char* letter, std::size_t size,
                   const where_t& w);
void check_root(const char* fn, int root);

template <class T> struct letter;
#define UPCEMU_XUPCV_TYPE(L, TYPE) \
  template <> struct letter<TYPE> { static constexpr const char* value = #L; };
UPCEMU_COLLECTIVE_TYPES(UPCEMU_XUPCV_TYPE)
#undef UPCEMU_XUPCV_TYPE
template <class T, class = void> struct is_reduction_type : std::false_type {};
template <class T> struct is_reduction_type<T, std::void_t<decltype(letter<T>::value)>> : std::true_type {};

template <class T>
T reduce_all(const char* fn, const T* src, std::size_t nelems, upc_op_t op, const where_t& w) {
  static_assert(is_reduction_type<T>::value, "xupc_allv reductions take the types of the UPC reductions");
  T result{};
  reduce_all(fn, &result, src, nelems, op, letter<T>::value, sizeof(T), w);
  return result;
}
template <class T>
void prefix_reduce(T* dst, const T* src, std::size_t nelems, upc_op_t op, const where_t& w) {
  static_assert(is_reduction_type<T>::value, "xupc_allv reductions take the types of the UPC reductions");
  prefix_reduce(static_cast<void*>(dst), src, nelems, op, letter<T>::value, sizeof(T), w);
}
template <class T>
T reduce(const T* src, std::size_t nelems, int root, upc_op_t op, const where_t& w) {
  check_root("xupc_allv_reduce", root);
  return reduce_all<T>("xupc_allv_reduce", src, nelems, op, w);
}

}  // namespace upc::xupcv

#define UPCEMU_XUPCV_W std::source_location::current()
#define xupc_allv_broadcast(TYPE, values, nelems, root) \
  ::upc::xupcv::broadcast(static_cast<TYPE*>(values), (nelems) * sizeof(TYPE), (root), UPCEMU_XUPCV_W)
#define xupc_allv_scatter(TYPE, dst, rootsrc, nelems, root)                                                       \
  ::upc::xupcv::scatter(static_cast<TYPE*>(dst), static_cast<const TYPE*>(rootsrc), (nelems) * sizeof(TYPE), (root), \
                        UPCEMU_XUPCV_W)
#define xupc_allv_gather(TYPE, rootdst, src, nelems, root)                                                        \
  ::upc::xupcv::gather(static_cast<TYPE*>(rootdst), static_cast<const TYPE*>(src), (nelems) * sizeof(TYPE), (root), \
                       UPCEMU_XUPCV_W)
#define xupc_allv_gather_all(TYPE, dst, src, nelems) \
  ::upc::xupcv::gather_all(static_cast<TYPE*>(dst), static_cast<const TYPE*>(src), (nelems) * sizeof(TYPE), UPCEMU_XUPCV_W)
#define xupc_allv_exchange(TYPE, dst, src, nelems) \
  ::upc::xupcv::exchange(static_cast<TYPE*>(dst), static_cast<const TYPE*>(src), (nelems) * sizeof(TYPE), UPCEMU_XUPCV_W)
#define xupc_allv_permute(TYPE, dst, src, nelems, tothread)                                                          \
  ::upc::xupcv::permute(static_cast<TYPE*>(dst), static_cast<const TYPE*>(src), (nelems) * sizeof(TYPE), (tothread), \
                        UPCEMU_XUPCV_W)
#define xupc_allv_reduce(TYPE, src, nelems, root, op) \
  ::upc::xupcv::reduce<TYPE>(static_cast<const TYPE*>(src), (nelems), (root), (op), UPCEMU_XUPCV_W)
#define xupc_allv_reduce_all(TYPE, src, nelems, op) \
  ::upc::xupcv::reduce_all<TYPE>("xupc_allv_reduce_all", static_cast<const TYPE*>(src), (nelems), (op), UPCEMU_XUPCV_W)
#define xupc_allv_prefix_reduce(TYPE, dst, src, nelems, op) \
  ::upc::xupcv::prefix_reduce<TYPE>(static_cast<TYPE*>(dst), static_cast<const TYPE*>(src), (nelems), (op), UPCEMU_XUPCV_W)
