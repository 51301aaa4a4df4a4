/* <upc_nb.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): UPC 1.3 non-blocking transfers (Optional Library Specifications
 * §7.9) in UPC syntax; lib/capi/headers_nb.cpp calls the C++ runtime's
 * <upc_nb.h> (include/upc_nb.h: eager completion, real handles, misuse
 * reported). */
#ifndef UPCC_UPC_NB_H
#define UPCC_UPC_NB_H
#include <stddef.h>
#include <stdint.h>

#define __UPC_NB__ 1

/* Opaque: the issuing thread and a serial number. */
typedef uint64_t upc_handle_t;
#define UPC_COMPLETE_HANDLE ((upc_handle_t)0)

upc_handle_t upc_memcpy_nb(shared void *restrict dst, shared const void *restrict src, size_t n);
upc_handle_t upc_memget_nb(void *restrict dst, shared const void *restrict src, size_t n);
upc_handle_t upc_memput_nb(shared void *restrict dst, const void *restrict src, size_t n);
upc_handle_t upc_memset_nb(shared void *dst, int c, size_t n);
/* (These take no pointer-to-shared, so their C symbols are renamed: the C++
 * runtime has functions of the same name and parameters.) */
void upc_sync(upc_handle_t handle) __asm__("upcemu_upc_sync");
int upc_sync_attempt(upc_handle_t handle) __asm__("upcemu_upc_sync_attempt");

void upc_memcpy_nbi(shared void *restrict dst, shared const void *restrict src, size_t n);
void upc_memget_nbi(void *restrict dst, shared const void *restrict src, size_t n);
void upc_memput_nbi(shared void *restrict dst, const void *restrict src, size_t n);
void upc_memset_nbi(shared void *dst, int c, size_t n);
void upc_synci(void) __asm__("upcemu_upc_synci");
int upc_synci_attempt(void) __asm__("upcemu_upc_synci_attempt");

/* Each call with the caller's file and line (upcemu_site_enter/leave), so that a
 * report (a bad argument, a mismatch between threads) names the UPC program's
 * line; as in <upc_collective.h>. A call that returns a value hands it through
 * upcemu_site_leave_<type>, which leaves the site once the call has returned. The
 * macro's own name is not expanded again: the call inside is the real function,
 * which also stays callable through its address. */
#define upc_memcpy_nb(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_u64(upc_memcpy_nb(__VA_ARGS__)))
#define upc_memget_nb(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_u64(upc_memget_nb(__VA_ARGS__)))
#define upc_memput_nb(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_u64(upc_memput_nb(__VA_ARGS__)))
#define upc_memset_nb(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_u64(upc_memset_nb(__VA_ARGS__)))
#define upc_sync(...) (upcemu_site_enter(__FILE__, __LINE__), upc_sync(__VA_ARGS__), upcemu_site_leave())
#define upc_sync_attempt(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(upc_sync_attempt(__VA_ARGS__)))
#define upc_memcpy_nbi(...) (upcemu_site_enter(__FILE__, __LINE__), upc_memcpy_nbi(__VA_ARGS__), upcemu_site_leave())
#define upc_memget_nbi(...) (upcemu_site_enter(__FILE__, __LINE__), upc_memget_nbi(__VA_ARGS__), upcemu_site_leave())
#define upc_memput_nbi(...) (upcemu_site_enter(__FILE__, __LINE__), upc_memput_nbi(__VA_ARGS__), upcemu_site_leave())
#define upc_memset_nbi(...) (upcemu_site_enter(__FILE__, __LINE__), upc_memset_nbi(__VA_ARGS__), upcemu_site_leave())
#define upc_synci(...) (upcemu_site_enter(__FILE__, __LINE__), upc_synci(__VA_ARGS__), upcemu_site_leave())
#define upc_synci_attempt(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(upc_synci_attempt(__VA_ARGS__)))
#endif
