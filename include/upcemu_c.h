/* upcemu_c.h: the C interface of the upcemu runtime, what upcc's translated C
 * calls (docs/upcc.md). Pure C (gnu11), also includable from C++.
 *
 * A pointer-to-shared is upcemu_sptr, passed by value: the same three fields, in
 * the same order, as the C++ runtime's upc::shared_address. Shared accesses are
 * inline: the address in the owning thread's partition is
 *     partitions + thread * partition_bytes + offset
 * (upc::detail::raw_address), and under `upcrun --check` every access is first
 * checked by the runtime (upc::detail::check_access). Pointer arithmetic is UPC
 * 1.3 §6.4.2 exactly as upc::layout::advance / distance compute it
 * (include/upc/layout.hpp); tests/upc/sptr_arith.c compares the two. */
#ifndef UPCEMU_C_H
#define UPCEMU_C_H
#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include "upcemu_libc.h" /* getopt's state per UPC thread (docs/upcc.md "C library state") */
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct upcemu_sptr {
  uint64_t offset; /* byte offset in the thread's partition */
  uint32_t thread; /* the thread with affinity */
  uint32_t phase;  /* index within the current block */
} upcemu_sptr;


/* A shared object declared at file scope (or block-scope static): filled when a
 * run starts, before any UPC thread runs. */
typedef struct upcemu_object {
  uint64_t offset; /* the same in every partition; element 0 is on thread 0 */
  size_t block;    /* elements per block (resolved for [*]); 0: indefinite */
  size_t count;    /* elements */
} upcemu_object;

#define UPCEMU_BLOCK_STAR ((size_t)-1) /* shared [*] */

/* Registers a shared object; call before main (upcc emits a constructor).
 * count() is evaluated when each run starts (THREADS is known then). type names
 * the element type in reports ("int"); file/line the declaration. init: bytes of
 * element 0's initial value (shared scalars), or NULL. */
void upcemu_declare(upcemu_object* obj, size_t elem_size, size_t block, size_t (*count)(void), const char* type,
                    const char* file, unsigned line, const void* init);
/* Initialisers of shared objects (applied once, before the
 * program's code runs): upcc emits a function per initialised object that builds
 * the initial value privately and hands it to upcemu_init_elems; it registers the
 * function with upcemu_initializer (from a constructor). Thread 0 runs every
 * registered initialiser when the run starts, after all shared objects exist
 * (so an initialiser may take the address of another shared object), then all
 * threads meet at a barrier (upcemu_run_initializers, called by libupcemu_c_main
 * before the program's main). */
void upcemu_initializer(void (*fn)(void));
void upcemu_run_initializers(void);
/* Initialisers of private variables with static storage whose value is a
 * pointer-to-shared (`shared int *p = &x[0];` at file scope): upcc registers a
 * function per variable with upcemu_private_initializer (from a constructor);
 * every thread runs all of them on its own copies (the variables are
 * thread-local) when the run starts, after upcemu_run_initializers
 * (upcemu_run_private_initializers, called by libupcemu_c_main; lib/capi/private_init.cpp). */
void upcemu_private_initializer(void (*fn)(void));
void upcemu_run_private_initializers(void);
/* Writes the first min(n, obj->count) elements of obj (linear index, row-major
 * for a multi-dimensional array) from values, elem bytes each. */
void upcemu_init_elems(const upcemu_object* obj, const void* values, size_t n, size_t elem);
/* upcc -T N: the run must have exactly N threads (checked when the run starts). */
void upcemu_require_threads(int n, const char* file);

/* The runtime's state: the C++ variables upc::detail::g_threads, tl_mythread,
 * g_partitions, g_partition_bytes and g_check carry these assembler names
 * (include/upc/runtime.hpp), so that THREADS, MYTHREAD and a shared access
 * compile to loads, as in the C++ API. */
#ifndef __cplusplus
extern int upcemu_g_threads;
extern _Thread_local int upcemu_tl_mythread;
extern char* upcemu_g_partitions;
extern _Bool upcemu_g_several_hosts; /* an mpi run spread over hosts */
void upcemu_strict_sync(void);
extern uint64_t upcemu_g_partition_bytes;
extern _Bool upcemu_g_check;
extern _Bool upcemu_g_locality;     /* --report=locality */
extern _Bool upcemu_g_access_hooks; /* --check or --report=locality: upcemu_addr calls upcemu_check_access */
#define UPCEMU_INLINE static inline __attribute__((always_inline))
UPCEMU_INLINE int upcemu_threads(void) { return upcemu_g_threads; }
UPCEMU_INLINE int upcemu_mythread(void) { return upcemu_tl_mythread; }
#endif

/* What a shared access does (bits of upcemu_addr's `kind`; the values of
 * upc::detail::access_kind, lib/runtime/race_check.hpp): a compound assignment or
 * ++/-- reads and writes. Enumerators, not macros: upcc emits them into C it has
 * already preprocessed. */
enum upcemu_access_kind { UPCEMU_READ = 1, UPCEMU_WRITE = 2, UPCEMU_STRICT = 4 };
/* Under --check: the bounds of a shared access, and its note for the race check;
 * under --report=locality: the access counted, local or remote, at its line. */
void upcemu_check_access(upcemu_sptr p, size_t bytes, int kind, const char* file, unsigned line);
/* Under --check, a cast of a non-null pointer-to-shared to a local pointer: it must
 * point into (or one past the end of) the part of a live object on the calling
 * thread (UPC 1.3 6.4.3: another thread's affinity gives an undefined result). */
void upcemu_check_local_of(upcemu_sptr p, const char* file, unsigned line);
void upcemu_fail(const char* function, const char* message); /* a UPC error: ends the run with a report */
/* Under --report=locality: a upc_forall that gives every iteration to every thread began. */
void upcemu_note_forall_every_thread(const char* file, unsigned line);

/* ---- pointer-to-shared arithmetic (upc::layout) ---- */
#ifndef __cplusplus
UPCEMU_INLINE ptrdiff_t upcemu_floor_div(ptrdiff_t a, ptrdiff_t b) {
  ptrdiff_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
/* p + i, elements of elem bytes, block elements per block (0: indefinite). */
UPCEMU_INLINE upcemu_sptr upcemu_add(upcemu_sptr p, ptrdiff_t i, size_t elem, size_t block) {
  const ptrdiff_t E = (ptrdiff_t)elem;
  if (block == 0) {
    p.offset = (uint64_t)((ptrdiff_t)p.offset + i * E);
    return p;
  }
  const ptrdiff_t B = (ptrdiff_t)block;
  const ptrdiff_t ph = (ptrdiff_t)p.phase + i;
  const ptrdiff_t blocks = upcemu_floor_div(ph, B);
  const ptrdiff_t new_phase = ph - blocks * B;
  const ptrdiff_t t = (ptrdiff_t)p.thread + blocks;
  const ptrdiff_t rows = upcemu_floor_div(t, upcemu_g_threads);
  const ptrdiff_t new_thread = t - rows * upcemu_g_threads;
  const ptrdiff_t delta = (new_phase - (ptrdiff_t)p.phase) * E + rows * B * E;
  upcemu_sptr r = {(uint64_t)((ptrdiff_t)p.offset + delta), (uint32_t)new_thread, (uint32_t)new_phase};
  return r;
}
/* p - q in elements (two pointers into the same object). */
UPCEMU_INLINE ptrdiff_t upcemu_diff(upcemu_sptr p, upcemu_sptr q, size_t elem, size_t block) {
  const ptrdiff_t E = (ptrdiff_t)elem;
  if (block == 0) return ((ptrdiff_t)p.offset - (ptrdiff_t)q.offset) / E;
  const ptrdiff_t B = (ptrdiff_t)block;
  const ptrdiff_t row_p = (ptrdiff_t)p.offset - (ptrdiff_t)p.phase * E;
  const ptrdiff_t row_q = (ptrdiff_t)q.offset - (ptrdiff_t)q.phase * E;
  const ptrdiff_t rows = (row_p - row_q) / (B * E);
  return (rows * upcemu_g_threads + ((ptrdiff_t)p.thread - (ptrdiff_t)q.thread)) * B +
         ((ptrdiff_t)p.phase - (ptrdiff_t)q.phase);
}
/* Element i of a declared object. */
UPCEMU_INLINE upcemu_sptr upcemu_elem(const upcemu_object* o, ptrdiff_t i, size_t elem) {
  upcemu_sptr base = {o->offset, 0, 0};
  return upcemu_add(base, i, elem, o->block);
}
UPCEMU_INLINE upcemu_sptr upcemu_base(const upcemu_object* o) {
  upcemu_sptr base = {o->offset, 0, 0};
  return base;
}
/* The local address of a shared access of `bytes` (checked under --check);
 * kind: UPCEMU_READ, UPCEMU_WRITE or both, with UPCEMU_STRICT for a strict one. */
UPCEMU_INLINE void* upcemu_addr(upcemu_sptr p, size_t bytes, int kind, const char* file, unsigned line) {
  if (__builtin_expect(upcemu_g_access_hooks, 0)) upcemu_check_access(p, bytes, kind, file, line);
  return upcemu_g_partitions + (uint64_t)p.thread * upcemu_g_partition_bytes + p.offset;
}
/* A strict access: ordered against every other shared access (a full fence). */
UPCEMU_INLINE void* upcemu_addr_strict(upcemu_sptr p, size_t bytes, int kind, const char* file, unsigned line) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (__builtin_expect(upcemu_g_several_hosts, 0)) upcemu_strict_sync(); /* other hosts' pages fresh */
  return upcemu_addr(p, bytes, kind | UPCEMU_STRICT, file, line);
}
/* == on pointers-to-shared: the same object (address and thread) compares equal
 * whatever the phases (UPC 1.3 6.4.2p6: a phaseless `shared []` pointer cast back
 * to a blocked one equals the blocked one). */
UPCEMU_INLINE int upcemu_sptr_eq(upcemu_sptr a, upcemu_sptr b) {
  return a.offset == b.offset && a.thread == b.thread;
}
UPCEMU_INLINE int upcemu_sptr_isnull(upcemu_sptr a) { return a.offset == 0 && a.thread == 0 && a.phase == 0; }
/* A cast of a pointer-to-shared to a local pointer: the null one gives NULL. */
UPCEMU_INLINE void* upcemu_local_of(upcemu_sptr p, const char* file, unsigned line) {
  if (upcemu_sptr_isnull(p)) return (void*)0;
  if (__builtin_expect(upcemu_g_check, 0)) upcemu_check_local_of(p, file, line);
  return upcemu_g_partitions + (uint64_t)p.thread * upcemu_g_partition_bytes + p.offset;
}
/* A pointer-to-shared converted to an integer (UPC leaves it open; Berkeley UPC
 * converts, GCC UPC refuses; upcc converts, with a warning): the thread in the top
 * 16 bits, the byte offset in its partition below; the phase is not part of it,
 * as == ignores it. Null gives 0; equal pointers give equal integers; the
 * offset's alignment is the integer's. */
UPCEMU_INLINE uint64_t upcemu_sptr_bits(upcemu_sptr p) { return ((uint64_t)p.thread << 48) | p.offset; }
/* upc_poll (UPC 1.3 B.3.1): nothing to progress; stops the thread when the run is
 * being stopped (upc::poll). */
void upcemu_poll(void);
#ifndef __cplusplus
static inline void upc_poll(void) { upcemu_poll(); }
#endif
/* The field `off` bytes into the element p points to (phase 0, same thread). */
UPCEMU_INLINE upcemu_sptr upcemu_field(upcemu_sptr p, size_t off) {
  p.offset += off;
  p.phase = 0;
  return p;
}
/* upc_localsizeof: the largest local portion of count elements of elem bytes,
 * block per block (0: indefinite, all on one thread). */
UPCEMU_INLINE size_t upcemu_localsizeof(size_t count, size_t block, size_t elem) {
  if (block == 0) return count * elem;
  const size_t blocks = (count + block - 1) / block;
  const size_t T = (size_t)upcemu_g_threads;
  return (blocks + T - 1) / T * block * elem;
}
/* A cast between pointer-to-shared types (UPC 1.3 §6.4.3), as upc::sptr::cast:
 * to shared void the pointer is unchanged; from shared void the phase is kept
 * unless it cannot be one of the new block size; otherwise the phase becomes 0
 * when the block size or the element size differs. elem 0: shared void. */
UPCEMU_INLINE upcemu_sptr upcemu_cast(upcemu_sptr p, size_t from_block, size_t from_elem, size_t to_block,
                                      size_t to_elem) {
  if (to_elem == 0) return p;
  if (from_elem == 0) {
    if (to_block <= 1 || p.phase >= to_block) p.phase = 0;
    return p;
  }
  if (to_block != from_block || to_elem != from_elem || to_block <= 1) p.phase = 0;
  return p;
}
/* upc_forall with an integer affinity: (a mod THREADS) == MYTHREAD. */
UPCEMU_INLINE int upcemu_forall_int(long long a) {
  const long long t = upcemu_g_threads, r = a % t;
  return (r < 0 ? r + t : r) == upcemu_tl_mythread;
}
/* Nested upc_forall (UPC 1.3 §6.6.2): while a thread runs the body of a
 * upc_forall whose affinity is not empty ("controlling"), every upc_forall it
 * meets, lexically or in a called function, runs all its iterations. Each
 * upc_forall statement records the state on entry and restores it on any exit
 * (a cleanup, so break, goto, return and exceptions restore it too). */
extern _Thread_local int upcemu_tl_forall;
UPCEMU_INLINE int upcemu_forall_enter(int controlling) {
  const int outer = upcemu_tl_forall;
  upcemu_tl_forall = outer | controlling;
  return outer;
}
UPCEMU_INLINE void upcemu_forall_leave(int* outer) { upcemu_tl_forall = *outer; }
/* A upc_forall with an empty affinity (or continue): every thread runs every
 * iteration; noted for --report=locality when no upc_forall around it controls. */
UPCEMU_INLINE int upcemu_forall_enter_every_thread(const char* file, unsigned line) {
  if (__builtin_expect(upcemu_g_locality, 0) && !upcemu_tl_forall) upcemu_note_forall_every_thread(file, line);
  return upcemu_forall_enter(0);
}
UPCEMU_INLINE void upcemu_fence(void) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (__builtin_expect(upcemu_g_several_hosts, 0)) upcemu_strict_sync();
}
#endif

/* ---- synchronisation ---- */
void upcemu_barrier(int has_id, int id, const char* file, unsigned line);
void upcemu_notify(int has_id, int id, const char* file, unsigned line);
void upcemu_wait(int has_id, int id, const char* file, unsigned line);

/* ---- locks (UPC 1.3 §7.2.4) ----
 * upc_lock_t is a shared type, so a UPC program holds a lock as a
 * pointer-to-shared (an upcemu_sptr here); upcc's <upc.h> declares the UPC names
 * with `upc_lock_t *`, which it translates to these. The C++ runtime holds the
 * lock by its local address in the segment (include/upc/lock.hpp). The _at forms
 * carry the caller's site (upcc's <upc.h> routes the UPC names here with
 * __FILE__/__LINE__), so that reports name the UPC program's line. Translated
 * UPC sees them only through that header (__UPCC__), in UPC syntax. */
#ifndef __UPCC__
upcemu_sptr upcemu_global_lock_alloc_at(const char* file, unsigned line);
upcemu_sptr upcemu_all_lock_alloc_at(const char* file, unsigned line);
void upcemu_lock_free_at(upcemu_sptr l, const char* file, unsigned line);
void upcemu_all_lock_free_at(upcemu_sptr l, const char* file, unsigned line);
void upcemu_lock_at(upcemu_sptr l, const char* file, unsigned line);
int upcemu_lock_attempt_at(upcemu_sptr l, const char* file, unsigned line);
void upcemu_unlock_at(upcemu_sptr l, const char* file, unsigned line);
#endif
/* The caller's site for the runtime calls until upcemu_site_leave (the library
 * headers' macros wrap a call in the two: the collectives of <upc_collective.h>). */
void upcemu_site_enter(const char* file, unsigned line);
void upcemu_site_leave(void);
/* The same for a call whose value the macro passes on: leave, then return it
 * (one per result type; the UPC headers add the pointer-to-shared one). */
static inline int upcemu_site_leave_int(int r) { upcemu_site_leave(); return r; }
static inline void* upcemu_site_leave_ptr(void* r) { upcemu_site_leave(); return r; }
static inline unsigned long long upcemu_site_leave_u64(unsigned long long r) { upcemu_site_leave(); return r; }

/* upc_global_exit. */
void upc_global_exit(int status) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif
#endif
