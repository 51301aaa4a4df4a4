/* <bupc_extensions.h> for UPC source compiled by upcc: the Berkeley UPC
 * extensions that UPC programs in the wild call, each with the semantics
 * Berkeley UPC documents (docs/upcc.md "Berkeley UPC extensions" lists what is
 * here and what is not). Berkeley's <upc.h> makes them available to every
 * program, and so does upcc's (unless -DUPCEMU_NO_BUPC_EXTENSIONS), so code
 * written for Berkeley UPC compiles unchanged. __BERKELEY_UPC__ is not
 * defined: upcemu is not Berkeley UPC, and code that tests it reaches for
 * Berkeley's internals too.
 *
 * Only <stddef.h>, <stdint.h> and <upc_nb.h> are included (no <time.h>: a
 * program's own `time` or `clock` must not meet a declaration it never
 * asked for); everything else is a function of lib/capi/headers_bupc.cpp. */
#ifndef UPCC_BUPC_EXTENSIONS_H
#define UPCC_BUPC_EXTENSIONS_H
#include <stddef.h>
#include <stdint.h>
#include <upc_nb.h>

/* ---- timers: one tick is one nanosecond of CLOCK_MONOTONIC (as upc_tick_t) ---- */
typedef uint64_t bupc_tick_t;
#define BUPC_TICK_MAX ((bupc_tick_t)-1)
#define BUPC_TICK_MIN ((bupc_tick_t)0)
bupc_tick_t bupc_ticks_now(void) __asm__("upcemu_bupc_ticks_now");
uint64_t bupc_ticks_to_us(bupc_tick_t ticks) __asm__("upcemu_bupc_ticks_to_us");
uint64_t bupc_ticks_to_ns(bupc_tick_t ticks) __asm__("upcemu_bupc_ticks_to_ns");
/* Measured once per run: the smallest step between two different readings,
 * and the time one reading takes, in microseconds. */
double bupc_tick_granularityus(void) __asm__("upcemu_bupc_tick_granularityus");
double bupc_tick_overheadus(void) __asm__("upcemu_bupc_tick_overheadus");

/* ---- topology: upcrun's virtual nodes (docs/topology.md) ---- */
#define BUPC_THREADS_SAME 0
#define BUPC_THREADS_VERYNEAR 100 /* the same node */
#define BUPC_THREADS_NEAR 200     /* (not used: no level between) */
#define BUPC_THREADS_FAR 300      /* (not used) */
#define BUPC_THREADS_VERYFAR 400  /* another node */
unsigned int bupc_thread_distance(int threadX, int threadY) __asm__("upcemu_bupc_thread_distance");

/* ---- non-blocking copies: the UPC 1.3 <upc_nb.h> operations they became ---- */
typedef upc_handle_t bupc_handle_t;
#define BUPC_COMPLETE_HANDLE UPC_COMPLETE_HANDLE
#define bupc_memcpy_async(dst, src, n) upc_memcpy_nb((dst), (src), (n))
#define bupc_memget_async(dst, src, n) upc_memget_nb((dst), (src), (n))
#define bupc_memput_async(dst, src, n) upc_memput_nb((dst), (src), (n))
#define bupc_memset_async(dst, c, n) upc_memset_nb((dst), (c), (n))
#define bupc_waitsync(h) upc_sync(h)
#define bupc_trysync(h) upc_sync_attempt(h)
#define bupc_memcpy_asynci(dst, src, n) upc_memcpy_nbi((dst), (src), (n))
#define bupc_memget_asynci(dst, src, n) upc_memget_nbi((dst), (src), (n))
#define bupc_memput_asynci(dst, src, n) upc_memput_nbi((dst), (src), (n))
#define bupc_memset_asynci(dst, c, n) upc_memset_nbi((dst), (c), (n))
#define bupc_waitsynci() upc_synci()
#define bupc_trysynci() upc_synci_attempt()
/* Arrays of handles (BUPC_COMPLETE_HANDLE entries are skipped; a completed
 * handle is overwritten with BUPC_COMPLETE_HANDLE): _all waits for / tests
 * every one (trysync_all stops at the first incomplete one and returns 0);
 * _some waits for / tests until at least one completed (1 also when every
 * entry already was BUPC_COMPLETE_HANDLE). */
void bupc_waitsync_all(bupc_handle_t *ph, size_t n) __asm__("upcemu_bupc_waitsync_all");
int bupc_trysync_all(bupc_handle_t *ph, size_t n) __asm__("upcemu_bupc_trysync_all");
void bupc_waitsync_some(bupc_handle_t *ph, size_t n) __asm__("upcemu_bupc_waitsync_some");
int bupc_trysync_some(bupc_handle_t *ph, size_t n) __asm__("upcemu_bupc_trysync_some");
/* Implicit-handle operations between the two become one explicit handle. */
void bupc_begin_accessregion(void) __asm__("upcemu_bupc_begin_accessregion");
bupc_handle_t bupc_end_accessregion(void) __asm__("upcemu_bupc_end_accessregion");

/* ---- semaphores (shared, incomplete type; one lives on the thread that allocated it) ---- */
struct upcemu_bupc_sem;
typedef shared struct upcemu_bupc_sem bupc_sem_t;
#define BUPC_SEM_BOOLEAN 1   /* value 0 or 1 */
#define BUPC_SEM_INTEGER 2   /* value 0 .. BUPC_SEM_MAXVALUE */
#define BUPC_SEM_SPRODUCER 4 /* one thread posts it (checked) */
#define BUPC_SEM_MPRODUCER 8
#define BUPC_SEM_SCONSUMER 16 /* one thread waits on it (checked) */
#define BUPC_SEM_MCONSUMER 32
#define BUPC_SEM_MASK 63
#define BUPC_SEM_MAXVALUE 65535
/* Not collective; value 0; flags 0: INTEGER | MPRODUCER | MCONSUMER. */
bupc_sem_t *bupc_sem_alloc(int flags) __asm__("upcemu_bupc_sem_alloc");
void bupc_sem_free(bupc_sem_t *s);
/* post adds 1 (N), wait waits until the value is at least 1 (N) and takes it,
 * try takes it if it can (1) or returns 0; the N forms on INTEGER ones only.
 * Each is a upc_fence. Going past the largest value is an error. */
void bupc_sem_post(bupc_sem_t *s);
void bupc_sem_postN(bupc_sem_t *s, size_t n);
void bupc_sem_wait(bupc_sem_t *s);
void bupc_sem_waitN(bupc_sem_t *s, size_t n);
int bupc_sem_try(bupc_sem_t *s);
int bupc_sem_tryN(bupc_sem_t *s, size_t n);
/* upc_memput, then bupc_sem_postN(s, n) once the data is there; s must be on
 * dst's thread. (The _async form is the same here: it returns complete.) */
void bupc_memput_signal(shared void *dst, const void *src, size_t nbytes, bupc_sem_t *s, size_t n);
void bupc_memput_signal_async(shared void *dst, const void *src, size_t nbytes, bupc_sem_t *s, size_t n);

/* ---- atomics on 32- and 64-bit integers in shared memory ---- */
#define UPCEMU_BUPC_ATOMIC(T, C, S)                                                          \
  T bupc_atomic##C##_read_##S(shared void *p);                                               \
  void bupc_atomic##C##_set_##S(shared void *p, T v);                                        \
  T bupc_atomic##C##_swap_##S(shared void *p, T v);                                          \
  T bupc_atomic##C##_cswap_##S(shared void *p, T oldval, T newval);                          \
  T bupc_atomic##C##_fetchadd_##S(shared void *p, T v);                                      \
  T bupc_atomic##C##_fetchand_##S(shared void *p, T v);                                      \
  T bupc_atomic##C##_fetchor_##S(shared void *p, T v);                                       \
  T bupc_atomic##C##_fetchxor_##S(shared void *p, T v);                                      \
  T bupc_atomic##C##_fetchnot_##S(shared void *p);
UPCEMU_BUPC_ATOMIC(uint64_t, U64, relaxed)
UPCEMU_BUPC_ATOMIC(uint64_t, U64, strict)
UPCEMU_BUPC_ATOMIC(int64_t, I64, relaxed)
UPCEMU_BUPC_ATOMIC(int64_t, I64, strict)
UPCEMU_BUPC_ATOMIC(uint32_t, U32, relaxed)
UPCEMU_BUPC_ATOMIC(uint32_t, U32, strict)
UPCEMU_BUPC_ATOMIC(int32_t, I32, relaxed)
UPCEMU_BUPC_ATOMIC(int32_t, I32, strict)
#undef UPCEMU_BUPC_ATOMIC

/* ---- vector, indexed and strided copies (Berkeley's VIS): the destination's
 * pieces are filled, in order, from the source's bytes taken in order (the two
 * totals must be equal); a shared piece lies on its pointer's thread, from that
 * byte on. Done at once: the _async forms return a complete handle. ---- */
typedef struct bupc_pmemvec_S { void *addr; size_t len; } bupc_pmemvec_t;
typedef struct bupc_smemvec_S { shared void *addr; size_t len; } bupc_smemvec_t;
void bupc_memcpy_vlist(size_t dstcount, bupc_smemvec_t const dstlist[], size_t srccount, bupc_smemvec_t const srclist[]);
void bupc_memput_vlist(size_t dstcount, bupc_smemvec_t const dstlist[], size_t srccount, bupc_pmemvec_t const srclist[]);
void bupc_memget_vlist(size_t dstcount, bupc_pmemvec_t const dstlist[], size_t srccount, bupc_smemvec_t const srclist[]);
/* dstcount pieces of dstlen bytes from srccount pieces of srclen bytes */
void bupc_memcpy_ilist(size_t dstcount, shared void *const dstlist[], size_t dstlen, size_t srccount,
                       shared const void *const srclist[], size_t srclen);
void bupc_memput_ilist(size_t dstcount, shared void *const dstlist[], size_t dstlen, size_t srccount,
                       const void *const srclist[], size_t srclen);
void bupc_memget_ilist(size_t dstcount, void *const dstlist[], size_t dstlen, size_t srccount,
                       shared const void *const srclist[], size_t srclen);
/* chunkcount pieces of chunklen bytes, chunkstride bytes apart */
void bupc_memcpy_fstrided(shared void *dstaddr, size_t dstchunklen, size_t dstchunkstride, size_t dstchunkcount,
                          shared void *srcaddr, size_t srcchunklen, size_t srcchunkstride, size_t srcchunkcount);
void bupc_memput_fstrided(shared void *dstaddr, size_t dstchunklen, size_t dstchunkstride, size_t dstchunkcount,
                          void *srcaddr, size_t srcchunklen, size_t srcchunkstride, size_t srcchunkcount);
void bupc_memget_fstrided(void *dstaddr, size_t dstchunklen, size_t dstchunkstride, size_t dstchunkcount,
                          shared void *srcaddr, size_t srcchunklen, size_t srcchunkstride, size_t srcchunkcount);
/* count[0] contiguous bytes, repeated count[k] times strides[k-1] bytes apart, k = 1..stridelevels */
void bupc_memcpy_strided(shared void *dstaddr, const size_t dststrides[], shared const void *srcaddr,
                         const size_t srcstrides[], const size_t count[], size_t stridelevels);
void bupc_memput_strided(shared void *dstaddr, const size_t dststrides[], const void *srcaddr,
                         const size_t srcstrides[], const size_t count[], size_t stridelevels);
void bupc_memget_strided(void *dstaddr, const size_t dststrides[], shared const void *srcaddr,
                         const size_t srcstrides[], const size_t count[], size_t stridelevels);
#define bupc_memcpy_vlist_async(...) (bupc_memcpy_vlist(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memput_vlist_async(...) (bupc_memput_vlist(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memget_vlist_async(...) (bupc_memget_vlist(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memcpy_ilist_async(...) (bupc_memcpy_ilist(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memput_ilist_async(...) (bupc_memput_ilist(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memget_ilist_async(...) (bupc_memget_ilist(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memcpy_fstrided_async(...) (bupc_memcpy_fstrided(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memput_fstrided_async(...) (bupc_memput_fstrided(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memget_fstrided_async(...) (bupc_memget_fstrided(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memcpy_strided_async(...) (bupc_memcpy_strided(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memput_strided_async(...) (bupc_memput_strided(__VA_ARGS__), BUPC_COMPLETE_HANDLE)
#define bupc_memget_strided_async(...) (bupc_memget_strided(__VA_ARGS__), BUPC_COMPLETE_HANDLE)

/* ---- pointers-to-shared ---- */
/* The local address of *ptr, or NULL (also for a NULL ptr) when it has none. */
void *bupc_cast(shared const void *ptr);
int bupc_castable(shared const void *ptr);
int bupc_thread_castable(unsigned int thr) __asm__("upcemu_bupc_thread_castable");
/* p + elemincr as `shared [blockelems] char[elemsz] *` (block size at run time). */
shared void *bupc_ptradd(shared void *p, size_t blockelems, size_t elemsz, ptrdiff_t elemincr);
/* The pointer-to-shared of ptr (an address in the calling thread's shared
 * memory) with the thread and phase given. */
shared void *bupc_local_to_shared(void *ptr, int thread, int phase) __asm__("upcemu_bupc_local_to_shared");
/* A description of ptr into buf: 0, or -1 and errno EINVAL when maxlen is
 * below BUPC_DUMP_MIN_LENGTH. */
#define BUPC_DUMP_MIN_LENGTH 100
#define UPC_DUMP_MIN_LENGTH BUPC_DUMP_MIN_LENGTH
int bupc_dump_shared(shared const void *ptr, char *buf, int maxlen);
#define upc_dump_shared(ptr, buf, maxlen) bupc_dump_shared(ptr, buf, maxlen)

/* ---- the rest ---- */
/* Berkeley's bupc_extern.h: the end of a program started by bupc_init; as exit,
 * it ends the calling UPC thread. */
void bupc_exit(int status) __asm__("upcemu_bupc_exit");
char *bupc_getenv(const char *name) __asm__("upcemu_bupc_getenv"); /* getenv: every thread sees the launcher's */
#define bupc_poll() upc_poll()
/* Communication tracing (GASNet's) does not exist here: these change and say nothing. */
#define bupc_trace_printf(parenthesized_args) ((void)0)
void bupc_trace_setmask(const char *newmask) __asm__("upcemu_bupc_trace_setmask");
void bupc_stats_setmask(const char *newmask) __asm__("upcemu_bupc_stats_setmask");
const char *bupc_trace_getmask(void) __asm__("upcemu_bupc_trace_getmask");
const char *bupc_stats_getmask(void) __asm__("upcemu_bupc_stats_getmask");
int bupc_trace_gettracelocal(void) __asm__("upcemu_bupc_trace_gettracelocal");
void bupc_trace_settracelocal(int val) __asm__("upcemu_bupc_trace_settracelocal");

/* Berkeley's upc_ spellings of some of these, on request. */
#ifdef BUPC_USE_UPC_NAMESPACE
#define upc_thread_distance bupc_thread_distance
#define UPC_THREADS_SAME BUPC_THREADS_SAME
#define UPC_THREADS_VERYNEAR BUPC_THREADS_VERYNEAR
#define UPC_THREADS_NEAR BUPC_THREADS_NEAR
#define UPC_THREADS_FAR BUPC_THREADS_FAR
#define UPC_THREADS_VERYFAR BUPC_THREADS_VERYFAR
#define upc_sem_t bupc_sem_t
#define upc_sem_alloc bupc_sem_alloc
#define upc_sem_free bupc_sem_free
#define upc_sem_post bupc_sem_post
#define upc_sem_postN bupc_sem_postN
#define upc_sem_wait bupc_sem_wait
#define upc_sem_waitN bupc_sem_waitN
#define upc_sem_try bupc_sem_try
#define upc_sem_tryN bupc_sem_tryN
#define upc_memput_signal bupc_memput_signal
#define upc_memput_signal_async bupc_memput_signal_async
#define UPC_SEM_BOOLEAN BUPC_SEM_BOOLEAN
#define UPC_SEM_INTEGER BUPC_SEM_INTEGER
#define UPC_SEM_SPRODUCER BUPC_SEM_SPRODUCER
#define UPC_SEM_MPRODUCER BUPC_SEM_MPRODUCER
#define UPC_SEM_SCONSUMER BUPC_SEM_SCONSUMER
#define UPC_SEM_MCONSUMER BUPC_SEM_MCONSUMER
#define UPC_SEM_MAXVALUE BUPC_SEM_MAXVALUE
#define upc_waitsync_all bupc_waitsync_all
#define upc_trysync_all bupc_trysync_all
#define upc_waitsync_some bupc_waitsync_some
#define upc_trysync_some bupc_trysync_some
#define upc_waitsync bupc_waitsync
#define upc_trysync bupc_trysync
#define upc_memcpy_async bupc_memcpy_async
#define upc_memget_async bupc_memget_async
#define upc_memput_async bupc_memput_async
#define upc_memset_async bupc_memset_async
#define upc_waitsynci bupc_waitsynci
#define upc_trysynci bupc_trysynci
#define upc_memcpy_asynci bupc_memcpy_asynci
#define upc_memget_asynci bupc_memget_asynci
#define upc_memput_asynci bupc_memput_asynci
#define upc_memset_asynci bupc_memset_asynci
#define upc_begin_accessregion bupc_begin_accessregion
#define upc_end_accessregion bupc_end_accessregion
#define upc_pmemvec_t bupc_pmemvec_t
#define upc_smemvec_t bupc_smemvec_t
#define upc_memcpy_vlist bupc_memcpy_vlist
#define upc_memput_vlist bupc_memput_vlist
#define upc_memget_vlist bupc_memget_vlist
#define upc_memcpy_vlist_async bupc_memcpy_vlist_async
#define upc_memput_vlist_async bupc_memput_vlist_async
#define upc_memget_vlist_async bupc_memget_vlist_async
#define upc_memcpy_ilist bupc_memcpy_ilist
#define upc_memput_ilist bupc_memput_ilist
#define upc_memget_ilist bupc_memget_ilist
#define upc_memcpy_ilist_async bupc_memcpy_ilist_async
#define upc_memput_ilist_async bupc_memput_ilist_async
#define upc_memget_ilist_async bupc_memget_ilist_async
#define upc_memcpy_fstrided bupc_memcpy_fstrided
#define upc_memput_fstrided bupc_memput_fstrided
#define upc_memget_fstrided bupc_memget_fstrided
#define upc_memcpy_fstrided_async bupc_memcpy_fstrided_async
#define upc_memput_fstrided_async bupc_memput_fstrided_async
#define upc_memget_fstrided_async bupc_memget_fstrided_async
#define upc_memcpy_strided bupc_memcpy_strided
#define upc_memput_strided bupc_memput_strided
#define upc_memget_strided bupc_memget_strided
#define upc_memcpy_strided_async bupc_memcpy_strided_async
#define upc_memput_strided_async bupc_memput_strided_async
#define upc_memget_strided_async bupc_memget_strided_async
#endif
#endif
