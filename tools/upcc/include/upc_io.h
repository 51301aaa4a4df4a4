/* <upc_io.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"; docs/upc-io.md): UPC-IO, the UPC 1.3 optional library (§7.3), in
 * UPC syntax. The constants and plain types are the runtime's own
 * (include/upc_io_types.h, one table for C++ and UPC); lib/capi/headers_io.cpp
 * calls the C++ library (include/upc_io.h, lib/io/). */
#ifndef UPCC_UPC_IO_H
#define UPCC_UPC_IO_H
#include <stddef.h>
#include <upc_types.h>
#include <upc_io_types.h>

/* An open file: a shared type of incomplete type, used through pointers; the
 * handle is the same pointer-to-shared on every thread. */
struct upcemu_upc_file;
typedef shared struct upcemu_upc_file upc_file_t;

/* List I/O on shared memory: len bytes from baseaddr (its phase taken as 0),
 * blocksize bytes per block (0: indefinite). */
struct upc_shared_memvec {
  shared void *baseaddr;
  size_t blocksize;
  size_t len;
};

/* (upc_all_fopen takes no pointer-to-shared, so its C symbol is renamed: the
 * C++ library has a function of the same parameters.) */
upc_file_t *upc_all_fopen(const char *fname, int flags, size_t numhints, struct upc_hint const *hints)
    __asm__("upcemu_upc_all_fopen");
int upc_all_fclose(upc_file_t *fd);
int upc_all_fsync(upc_file_t *fd);
upc_off_t upc_all_fseek(upc_file_t *fd, upc_off_t offset, int origin);
int upc_all_fset_size(upc_file_t *fd, upc_off_t size);
upc_off_t upc_all_fget_size(upc_file_t *fd);
int upc_all_fpreallocate(upc_file_t *fd, upc_off_t size);
int upc_all_fcntl(upc_file_t *fd, int cmd, void *arg);

/* The transfers, X(name, parameters) each: the function returns the bytes moved, and its _async
 * variant takes the same parameters and returns nothing (upc_all_fwait_async gives the count). */
#define UPCEMU_IO_TRANSFERS(X)                                                                               \
  X(upc_all_fread_local, (upc_file_t *fd, void *buffer, size_t size, size_t nmemb, upc_flag_t flags))       \
  X(upc_all_fread_shared,                                                                                    \
    (upc_file_t *fd, shared void *buffer, size_t blocksize, size_t size, size_t nmemb, upc_flag_t flags))    \
  X(upc_all_fwrite_local, (upc_file_t *fd, void *buffer, size_t size, size_t nmemb, upc_flag_t flags))      \
  X(upc_all_fwrite_shared,                                                                                   \
    (upc_file_t *fd, shared void *buffer, size_t blocksize, size_t size, size_t nmemb, upc_flag_t flags))    \
  X(upc_all_fread_list_local, (upc_file_t *fd, size_t memvec_entries, struct upc_local_memvec const *memvec, \
                               size_t filevec_entries, struct upc_filevec const *filevec, upc_flag_t flags))  \
  X(upc_all_fread_list_shared,                                                                               \
    (upc_file_t *fd, size_t memvec_entries, struct upc_shared_memvec const *memvec, size_t filevec_entries, \
     struct upc_filevec const *filevec, upc_flag_t flags))                                                   \
  X(upc_all_fwrite_list_local, (upc_file_t *fd, size_t memvec_entries, struct upc_local_memvec const *memvec, \
                                size_t filevec_entries, struct upc_filevec const *filevec, upc_flag_t flags)) \
  X(upc_all_fwrite_list_shared,                                                                              \
    (upc_file_t *fd, size_t memvec_entries, struct upc_shared_memvec const *memvec, size_t filevec_entries, \
     struct upc_filevec const *filevec, upc_flag_t flags))
#define UPCEMU_IO_DECLARE(name, parameters) upc_off_t name parameters; void name##_async parameters;
UPCEMU_IO_TRANSFERS(UPCEMU_IO_DECLARE)
#undef UPCEMU_IO_DECLARE
#undef UPCEMU_IO_TRANSFERS
upc_off_t upc_all_fwait_async(upc_file_t *fd);
upc_off_t upc_all_ftest_async(upc_file_t *fd, int *flag);

/* Each call with the caller's file and line (upcemu_site_enter/leave), so that a
 * report names the UPC program's line; a value is handed through a leave
 * function of its type (errno is left as the call set it). */
static inline upc_off_t upcemu_site_leave_off(upc_off_t r) { upcemu_site_leave(); return r; }
static inline upc_file_t *upcemu_site_leave_file(upc_file_t *r) { upcemu_site_leave(); return r; }
#define UPCEMU_IO_SITE(leave, call) (upcemu_site_enter(__FILE__, __LINE__), leave(call))
#define UPCEMU_IO_SITE_VOID(call) (upcemu_site_enter(__FILE__, __LINE__), call, upcemu_site_leave())
#define upc_all_fopen(...) UPCEMU_IO_SITE(upcemu_site_leave_file, upc_all_fopen(__VA_ARGS__))
#define upc_all_fclose(...) UPCEMU_IO_SITE(upcemu_site_leave_int, upc_all_fclose(__VA_ARGS__))
#define upc_all_fsync(...) UPCEMU_IO_SITE(upcemu_site_leave_int, upc_all_fsync(__VA_ARGS__))
#define upc_all_fseek(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fseek(__VA_ARGS__))
#define upc_all_fset_size(...) UPCEMU_IO_SITE(upcemu_site_leave_int, upc_all_fset_size(__VA_ARGS__))
#define upc_all_fget_size(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fget_size(__VA_ARGS__))
#define upc_all_fpreallocate(...) UPCEMU_IO_SITE(upcemu_site_leave_int, upc_all_fpreallocate(__VA_ARGS__))
#define upc_all_fcntl(...) UPCEMU_IO_SITE(upcemu_site_leave_int, upc_all_fcntl(__VA_ARGS__))
#define upc_all_fread_local(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fread_local(__VA_ARGS__))
#define upc_all_fread_shared(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fread_shared(__VA_ARGS__))
#define upc_all_fwrite_local(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fwrite_local(__VA_ARGS__))
#define upc_all_fwrite_shared(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fwrite_shared(__VA_ARGS__))
#define upc_all_fread_list_local(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fread_list_local(__VA_ARGS__))
#define upc_all_fread_list_shared(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fread_list_shared(__VA_ARGS__))
#define upc_all_fwrite_list_local(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fwrite_list_local(__VA_ARGS__))
#define upc_all_fwrite_list_shared(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fwrite_list_shared(__VA_ARGS__))
#define upc_all_fread_local_async(...) UPCEMU_IO_SITE_VOID(upc_all_fread_local_async(__VA_ARGS__))
#define upc_all_fread_shared_async(...) UPCEMU_IO_SITE_VOID(upc_all_fread_shared_async(__VA_ARGS__))
#define upc_all_fwrite_local_async(...) UPCEMU_IO_SITE_VOID(upc_all_fwrite_local_async(__VA_ARGS__))
#define upc_all_fwrite_shared_async(...) UPCEMU_IO_SITE_VOID(upc_all_fwrite_shared_async(__VA_ARGS__))
#define upc_all_fread_list_local_async(...) UPCEMU_IO_SITE_VOID(upc_all_fread_list_local_async(__VA_ARGS__))
#define upc_all_fread_list_shared_async(...) UPCEMU_IO_SITE_VOID(upc_all_fread_list_shared_async(__VA_ARGS__))
#define upc_all_fwrite_list_local_async(...) UPCEMU_IO_SITE_VOID(upc_all_fwrite_list_local_async(__VA_ARGS__))
#define upc_all_fwrite_list_shared_async(...) UPCEMU_IO_SITE_VOID(upc_all_fwrite_list_shared_async(__VA_ARGS__))
#define upc_all_fwait_async(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_fwait_async(__VA_ARGS__))
#define upc_all_ftest_async(...) UPCEMU_IO_SITE(upcemu_site_leave_off, upc_all_ftest_async(__VA_ARGS__))
#endif
