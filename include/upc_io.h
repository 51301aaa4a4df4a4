/* UPC 1.3 <upc_io.h>: UPC-IO, collective file operations over shared arrays
 * and private buffers (Optional Library Specifications §7.3), for C++
 * programs; UPC programs compiled by upcc get the same library through
 * tools/upcc/include/upc_io.h. docs/upc-io.md says what every function does
 * here and which errors it reports.
 *
 *   upc_file_t *fd = upc_all_fopen("out.dat", UPC_WRONLY | UPC_COMMON_FP | UPC_CREATE, 0, NULL);
 *   upc_all_fwrite_shared(fd, a, 4, sizeof(double), n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
 *   upc_all_fclose(fd);
 *
 * Every function is collective (all threads call it, in the same order). The
 * arguments are single-valued except where the spec says otherwise (the
 * buffers, sizes and list vectors of individual-file-pointer and list I/O);
 * a difference stops the run naming the function, the argument and both
 * threads. `shared void *` is upc::sptr<void>; a upc_file_t * is an opaque
 * handle, the same value on every thread. */
#pragma once
#include <cstddef>
#include <source_location>

#include "upc.h"
#include "upc_io_types.h"
#include "upc_types.h"

/* The open file: opaque, only ever used through a pointer. */
struct upcemu_upc_file;
typedef struct upcemu_upc_file upc_file_t;

/* List I/O on shared memory: len bytes from baseaddr (its phase ignored), in a
 * layout of blocksize bytes per block (0: indefinite). The same bytes as the
 * UPC struct, whose first member is `shared void *`. */
struct upc_shared_memvec {
  upc::sptr<void> baseaddr;
  size_t blocksize;
  size_t len;
};

#define UPCEMU_WHERE const std::source_location& where = std::source_location::current()

upc_file_t* upc_all_fopen(const char* fname, int flags, size_t numhints, const struct upc_hint* hints, UPCEMU_WHERE);
int upc_all_fclose(upc_file_t* fd, UPCEMU_WHERE);
int upc_all_fsync(upc_file_t* fd, UPCEMU_WHERE);
upc_off_t upc_all_fseek(upc_file_t* fd, upc_off_t offset, int origin, UPCEMU_WHERE);
int upc_all_fset_size(upc_file_t* fd, upc_off_t size, UPCEMU_WHERE);
upc_off_t upc_all_fget_size(upc_file_t* fd, UPCEMU_WHERE);
int upc_all_fpreallocate(upc_file_t* fd, upc_off_t size, UPCEMU_WHERE);
int upc_all_fcntl(upc_file_t* fd, int cmd, void* arg, UPCEMU_WHERE);

upc_off_t upc_all_fread_local(upc_file_t* fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags, UPCEMU_WHERE);
upc_off_t upc_all_fread_shared(upc_file_t* fd, upc::sptr<void> buffer, size_t blocksize, size_t size, size_t nmemb,
                               upc_flag_t flags, UPCEMU_WHERE);
upc_off_t upc_all_fwrite_local(upc_file_t* fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags, UPCEMU_WHERE);
upc_off_t upc_all_fwrite_shared(upc_file_t* fd, upc::sptr<void> buffer, size_t blocksize, size_t size, size_t nmemb,
                                upc_flag_t flags, UPCEMU_WHERE);

upc_off_t upc_all_fread_list_local(upc_file_t* fd, size_t memvec_entries, const struct upc_local_memvec* memvec,
                                   size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                   UPCEMU_WHERE);
upc_off_t upc_all_fread_list_shared(upc_file_t* fd, size_t memvec_entries, const struct upc_shared_memvec* memvec,
                                    size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                    UPCEMU_WHERE);
upc_off_t upc_all_fwrite_list_local(upc_file_t* fd, size_t memvec_entries, const struct upc_local_memvec* memvec,
                                    size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                    UPCEMU_WHERE);
upc_off_t upc_all_fwrite_list_shared(upc_file_t* fd, size_t memvec_entries, const struct upc_shared_memvec* memvec,
                                     size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                     UPCEMU_WHERE);

/* The asynchronous forms: the operation of the blocking function, completed
 * by upc_all_fwait_async or a successful upc_all_ftest_async (one at a time
 * per file). Here the operation runs in the initiating call; the OUT part of
 * the flags is applied when it is completed. */
void upc_all_fread_local_async(upc_file_t* fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags, UPCEMU_WHERE);
void upc_all_fread_shared_async(upc_file_t* fd, upc::sptr<void> buffer, size_t blocksize, size_t size, size_t nmemb,
                                upc_flag_t flags, UPCEMU_WHERE);
void upc_all_fwrite_local_async(upc_file_t* fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags, UPCEMU_WHERE);
void upc_all_fwrite_shared_async(upc_file_t* fd, upc::sptr<void> buffer, size_t blocksize, size_t size, size_t nmemb,
                                 upc_flag_t flags, UPCEMU_WHERE);
void upc_all_fread_list_local_async(upc_file_t* fd, size_t memvec_entries, const struct upc_local_memvec* memvec,
                                    size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                    UPCEMU_WHERE);
void upc_all_fread_list_shared_async(upc_file_t* fd, size_t memvec_entries, const struct upc_shared_memvec* memvec,
                                     size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                     UPCEMU_WHERE);
void upc_all_fwrite_list_local_async(upc_file_t* fd, size_t memvec_entries, const struct upc_local_memvec* memvec,
                                     size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                     UPCEMU_WHERE);
void upc_all_fwrite_list_shared_async(upc_file_t* fd, size_t memvec_entries, const struct upc_shared_memvec* memvec,
                                      size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                                      UPCEMU_WHERE);
upc_off_t upc_all_fwait_async(upc_file_t* fd, UPCEMU_WHERE);
upc_off_t upc_all_ftest_async(upc_file_t* fd, int* flag, UPCEMU_WHERE);
#undef UPCEMU_WHERE
