/* upcemu's <upc.h>: the UPC 1.3 language constructs and core library under their
 * UPC names, over the C++ API in <upc/...>. A program defines
 *
 *     int upc_main(int argc, char **argv)
 *
 * links upcemu_main (which provides main), and runs with `upcrun -n N ./prog`.
 * docs/user-guide.md shows every construct side by side with UPC syntax. */
#pragma once
#include <cstddef>
#include <cstdint>
#include <source_location>

#include "upc/alloc.hpp"
#include "upc/forall.hpp"
#include "upc/lock.hpp"
#include "upc/memops.hpp"
#include "upc/poll.hpp"
#include "upc/runtime.hpp"
#include "upc/shared_array.hpp"
#include "upc/shared_md.hpp"
#include "upc/sptr.hpp"
#include "upc/sync.hpp"
#include "upc_topology.h"
#include "upc_types.h"
#include "upcemu_libc.h"  // getopt's state per UPC thread (docs/user-guide.md)

int upc_main(int argc, char** argv);  // the program: every thread runs it

#define THREADS (::upc::threads())
#define MYTHREAD (::upc::mythread())
/* UPC_MAX_BLOCK_SIZE (4294967296ULL, usable in #if) is in upc/block_size.hpp. */

/* Statements: `upc_barrier;` or `upc_barrier(expr);`, likewise notify/wait. */
#define upc_barrier ::upc::detail::statement<&::upc::detail::barrier_op>(std::source_location::current())
#define upc_notify ::upc::detail::statement<&::upc::detail::notify_op>(std::source_location::current())
#define upc_wait ::upc::detail::statement<&::upc::detail::wait_op>(std::source_location::current())
#define upc_fence ::upc::fence()

typedef upc::sptr<void> shared_void_ptr;

/* Dynamic allocation. The trailing std::source_location (never written by the
 * caller) is how reports name the line of the call. */
using upc_where = std::source_location;
inline upc::sptr<void> upc_all_alloc(size_t nblocks, size_t nbytes, const upc_where& w = upc_where::current()) {
  return upc::all_alloc(nblocks, nbytes, w);
}
inline upc::sptr<void> upc_global_alloc(size_t nblocks, size_t nbytes, const upc_where& w = upc_where::current()) {
  return upc::global_alloc(nblocks, nbytes, w);
}
inline upc::sptr<void> upc_alloc(size_t nbytes, const upc_where& w = upc_where::current()) { return upc::alloc(nbytes, w); }
/* UPC 1.2's upc_local_alloc(nblocks, nbytes): upc_alloc(nblocks * nbytes), checked for
 * overflow. UPC 1.3 removed it; it is kept for old codes, with a compile-time warning. */
[[deprecated("use upc_alloc(nblocks * nbytes)")]] inline upc::sptr<void> upc_local_alloc(
    size_t nblocks, size_t nbytes, const upc_where& w = upc_where::current()) {
  return upc::local_alloc(nblocks, nbytes, w);
}
inline void upc_free(upc::sptr<void> ptr, const upc_where& w = upc_where::current()) { upc::free(ptr, w); }
inline void upc_all_free(upc::sptr<void> ptr, const upc_where& w = upc_where::current()) { upc::all_free(ptr, w); }

/* Pointer-to-shared queries. */
inline size_t upc_threadof(upc::sptr<void> p) { return p.address().thread; }
inline size_t upc_phaseof(upc::sptr<void> p) { return p.address().phase; }
inline size_t upc_addrfield(upc::sptr<void> p) { return static_cast<size_t>(p.address().offset); }
template <class T, std::size_t B, upc::consistency C>
inline upc::sptr<T, B, C> upc_resetphase(upc::sptr<T, B, C> p) {
  upc::shared_address a = p.address();
  a.phase = 0;
  if constexpr (B == upc::dynamic_block) return upc::sptr<T, B, C>(a, p.block());
  else return upc::sptr<T, B, C>(a);
}
inline size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid) {
  return upc::layout::affinity_size(totalsize, nbytes, static_cast<int>(threadid), upc::threads());
}

/* The sizeof family, on shared arrays and pointer-to-shared types. A static block
 * size is a constant expression; [*] and run-time block sizes are read from the
 * object. upc_elemsizeof of a multi-dimensional array is the size of its element
 * type (UPC: the leftmost type that is not an array). */
template <class T, std::size_t B, upc::consistency C>
inline size_t upc_localsizeof(const upc::shared_array<T, B, C>& a) { return a.local_size_bytes(); }
template <class T, std::size_t B, upc::consistency C>
constexpr size_t upc_blocksizeof(const upc::shared_array<T, B, C>& a) {
  if constexpr (upc::is_runtime_block(B)) return a.block_size_elems();
  else return B;
}
template <class T, std::size_t B, upc::consistency C>
constexpr size_t upc_elemsizeof(const upc::shared_array<T, B, C>&) { return sizeof(T); }
template <class T, std::size_t R, std::size_t B, upc::consistency C>
inline size_t upc_localsizeof(const upc::shared_md<T, R, B, C>& a) { return a.local_size_bytes(); }
template <class T, std::size_t R, std::size_t B, upc::consistency C>
constexpr size_t upc_blocksizeof(const upc::shared_md<T, R, B, C>& a) {
  if constexpr (upc::is_runtime_block(B)) return a.block_size_elems();
  else return B;
}
template <class T, std::size_t R, std::size_t B, upc::consistency C>
constexpr size_t upc_elemsizeof(const upc::shared_md<T, R, B, C>&) { return sizeof(T); }
template <class T, std::size_t B, upc::consistency C>
constexpr size_t upc_blocksizeof(const upc::sptr<T, B, C>& p) {
  if constexpr (B == upc::dynamic_block) return p.block();
  else return B;
}
template <class T, std::size_t B, upc::consistency C>
constexpr size_t upc_elemsizeof(const upc::sptr<T, B, C>&) { return sizeof(T); }
/* ... on a shared element (upc_blocksizeof(a[i])) and on shared scalars (block size 1). */
template <class T, std::size_t B, upc::consistency C>
constexpr size_t upc_blocksizeof(const upc::shared_ref<T, B, C>& r) {
  if constexpr (B == upc::dynamic_block) return r.block();
  else return B;
}
template <class T, std::size_t B, upc::consistency C>
constexpr size_t upc_elemsizeof(const upc::shared_ref<T, B, C>&) { return sizeof(T); }
template <class T, upc::consistency C>
constexpr size_t upc_localsizeof(const upc::shared<T, C>&) { return sizeof(T); }
template <class T, upc::consistency C>
constexpr size_t upc_blocksizeof(const upc::shared<T, C>&) { return 1; }
template <class T, upc::consistency C>
constexpr size_t upc_elemsizeof(const upc::shared<T, C>&) { return sizeof(T); }

/* Locks. */
inline upc_lock_t* upc_global_lock_alloc(const upc_where& w = upc_where::current()) { return upc::global_lock_alloc(w); }
inline upc_lock_t* upc_all_lock_alloc(const upc_where& w = upc_where::current()) { return upc::all_lock_alloc(w); }
inline void upc_lock_free(upc_lock_t* l) { upc::lock_free(l); }
inline void upc_all_lock_free(upc_lock_t* l, const upc_where& w = upc_where::current()) { upc::all_lock_free(l, w); }
inline void upc_lock(upc_lock_t* l, const std::source_location& w = std::source_location::current()) { upc::lock(l, w); }
inline int upc_lock_attempt(upc_lock_t* l) { return upc::lock_attempt(l); }
inline void upc_unlock(upc_lock_t* l) { upc::unlock(l); }

/* Bulk transfers. */
inline void upc_memcpy(upc::sptr<void> dst, upc::sptr<void> src, size_t n) { upc::memcpy(dst, src, n); }
inline void upc_memget(void* dst, upc::sptr<void> src, size_t n) { upc::memget(dst, src, n); }
inline void upc_memput(upc::sptr<void> dst, const void* src, size_t n) { upc::memput(dst, src, n); }
inline void upc_memset(upc::sptr<void> dst, int c, size_t n) { upc::memset(dst, c, n); }

/* Lets the runtime make progress (UPC 1.3 required library). upcemu has nothing to progress
 * (transfers complete at once); upc_poll stops the calling thread when the run is
 * being stopped (a failure elsewhere, upc_global_exit, Ctrl-C), so a long loop
 * that never calls the runtime otherwise stays stoppable. */
inline void upc_poll(void) { upc::poll(); }

/* Ending the program from any thread. */
[[noreturn]] inline void upc_global_exit(int status) { upc::global_exit(status); }
