/* <upc.h> for UPC source compiled by upcc (docs/upcc.md): the UPC 1.3 library in
 * UPC syntax. upcc translates these prototypes like the program's own (pointers
 * to shared become upcemu_sptr); lib/capi/capi.cpp implements them. */
#ifndef UPCC_UPC_H
#define UPCC_UPC_H
#include <stddef.h>
#define UPC_MAX_BLOCK_SIZE 4294967296ULL
#define __UPC__ 1
#define __UPC_VERSION__ 201311L
#define UPC_MAX_BLOCK_SIZE_DEFINED 1
#include <upcemu_c.h> /* the inline helpers */
/* UPC 1.3 7.2.4: upc_lock_t is an opaque shared type, so upc_lock_t * is a
 * pointer-to-shared (upc_threadof(lock), upc_lock_t *shared, shared void * all work). */
typedef shared struct upcemu_lock upc_lock_t;
upc_lock_t *upc_global_lock_alloc(void) __asm__("upcemu_upc_global_lock_alloc");
upc_lock_t *upc_all_lock_alloc(void) __asm__("upcemu_upc_all_lock_alloc");
void upc_lock_free(upc_lock_t *ptr);
void upc_all_lock_free(upc_lock_t *ptr);
void upc_lock(upc_lock_t *ptr);
int upc_lock_attempt(upc_lock_t *ptr);
void upc_unlock(upc_lock_t *ptr);
upc_lock_t *upcemu_global_lock_alloc_at(const char *file, unsigned line);
upc_lock_t *upcemu_all_lock_alloc_at(const char *file, unsigned line);
void upcemu_lock_free_at(upc_lock_t *l, const char *file, unsigned line);
void upcemu_all_lock_free_at(upc_lock_t *l, const char *file, unsigned line);
void upcemu_lock_at(upc_lock_t *l, const char *file, unsigned line);
int upcemu_lock_attempt_at(upc_lock_t *l, const char *file, unsigned line);
void upcemu_unlock_at(upc_lock_t *l, const char *file, unsigned line);
shared void *upc_all_alloc(size_t nblocks, size_t nbytes);
shared void *upc_global_alloc(size_t nblocks, size_t nbytes);
shared void *upc_alloc(size_t nbytes);
/* UPC 1.2's upc_local_alloc (UPC 1.3 removed it): upc_alloc(nblocks * nbytes). */
shared void *upc_local_alloc(size_t nblocks, size_t nbytes);
void upc_free(shared void *ptr);
void upc_all_free(shared void *ptr);
/* The allocation calls with the caller's file and line (upcemu_site_enter/leave, as
 * the locks below and <upc_collective.h>), so that a report (a mismatch of
 * upc_all_alloc's arguments, a wait, running out of memory) names the UPC line.
 * The macros' own names are not expanded again: &upc_all_alloc still works. */
#ifndef UPCC_SITE_LEAVE_SPTR
#define UPCC_SITE_LEAVE_SPTR
static inline shared void *upcemu_site_leave_sptr(shared void *r) { upcemu_site_leave(); return r; }
#endif
#define upc_all_alloc(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_sptr(upc_all_alloc(__VA_ARGS__)))
#define upc_global_alloc(...) (upcemu_site_enter(__FILE__, __LINE__), \
                               upcemu_site_leave_sptr(upc_global_alloc(__VA_ARGS__)))
#define upc_alloc(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_sptr(upc_alloc(__VA_ARGS__)))
#define upc_local_alloc(...) (upcemu_site_enter(__FILE__, __LINE__), \
                              upcemu_site_leave_sptr(upc_local_alloc(__VA_ARGS__)))
#define upc_free(...) (upcemu_site_enter(__FILE__, __LINE__), upc_free(__VA_ARGS__), upcemu_site_leave())
#define upc_all_free(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_free(__VA_ARGS__), upcemu_site_leave())
void upc_memcpy(shared void *dst, shared const void *src, size_t n);
void upc_memget(void *dst, shared const void *src, size_t n);
void upc_memput(shared void *dst, const void *src, size_t n);
void upc_memset(shared void *dst, int c, size_t n);
size_t upc_threadof(shared void *ptr);
size_t upc_phaseof(shared void *ptr);
size_t upc_addrfield(shared void *ptr);
shared void *upc_resetphase(shared void *ptr);
size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid);
/* The locks and upc_mem* with the caller's file and line, so that a report names
 * the UPC program's line (lib/capi/capi.cpp). The UPC names stay real functions
 * (&upc_memget works); only their calls go through these macros. */
void upcemu_memcpy_at(shared void *dst, shared const void *src, size_t n, const char *file, unsigned line);
void upcemu_memget_at(void *dst, shared const void *src, size_t n, const char *file, unsigned line);
void upcemu_memput_at(shared void *dst, const void *src, size_t n, const char *file, unsigned line);
void upcemu_memset_at(shared void *dst, int c, size_t n, const char *file, unsigned line);
#define upc_memcpy(dst, src, n) upcemu_memcpy_at((dst), (src), (n), __FILE__, __LINE__)
#define upc_memget(dst, src, n) upcemu_memget_at((dst), (src), (n), __FILE__, __LINE__)
#define upc_memput(dst, src, n) upcemu_memput_at((dst), (src), (n), __FILE__, __LINE__)
#define upc_memset(dst, c, n) upcemu_memset_at((dst), (c), (n), __FILE__, __LINE__)
#define upc_global_lock_alloc() upcemu_global_lock_alloc_at(__FILE__, __LINE__)
#define upc_all_lock_alloc() upcemu_all_lock_alloc_at(__FILE__, __LINE__)
#define upc_lock_free(l) upcemu_lock_free_at((l), __FILE__, __LINE__)
#define upc_all_lock_free(l) upcemu_all_lock_free_at((l), __FILE__, __LINE__)
#define upc_lock(l) upcemu_lock_at((l), __FILE__, __LINE__)
#define upc_lock_attempt(l) upcemu_lock_attempt_at((l), __FILE__, __LINE__)
#define upc_unlock(l) upcemu_unlock_at((l), __FILE__, __LINE__)
/* Berkeley UPC's extensions (bupc_ticks_now, bupc_atomic*, bupc_sem_*, ...), which
 * Berkeley's <upc.h> declares for every program: codes written for it call them
 * without an #include of their own. -DUPCEMU_NO_BUPC_EXTENSIONS leaves them out. */
#ifndef UPCEMU_NO_BUPC_EXTENSIONS
#include <bupc_extensions.h>
#endif
/* UPC 1.0's barrier, forall, fence, ... as macros, on request (<upc_compat.h>). */
#ifdef UPCEMU_UPC10_NAMES
#include <upc_compat.h>
#endif
#endif
