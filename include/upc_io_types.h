/* The constants and plain types of UPC-IO (UPC 1.3 Optional Library
 * Specifications §7.3, <upc_io.h>), in plain C: one table for the C++ header
 * (include/upc_io.h) and the UPC one (tools/upcc/include/upc_io.h), so both
 * agree on every value and layout. The spec leaves the values to the
 * implementation; these are ours (docs/upc-io.md). */
#ifndef UPCEMU_UPC_IO_TYPES_H
#define UPCEMU_UPC_IO_TYPES_H
#include <stddef.h>
#include <stdint.h>

#define __UPC_IO__ 1

/* A file offset or size in bytes (signed: -1 reports an error). */
typedef int64_t upc_off_t;

/* upc_all_fopen's flags: exactly one access mode and one file pointer kind,
 * any of the others; each a bit of its own. */
#define UPC_RDONLY (1 << 0)
#define UPC_WRONLY (1 << 1)
#define UPC_RDWR (1 << 2)
#define UPC_INDIVIDUAL_FP (1 << 3)
#define UPC_COMMON_FP (1 << 4)
#define UPC_APPEND (1 << 5)
#define UPC_CREATE (1 << 6)
#define UPC_EXCL (1 << 7)
#define UPC_STRONG_CA (1 << 8)
#define UPC_TRUNC (1 << 9)
#define UPC_DELETE_ON_CLOSE (1 << 10)

/* upc_all_fseek's origin (the values of <stdio.h>'s SEEK_*). */
#define UPC_SEEK_SET 0
#define UPC_SEEK_CUR 1
#define UPC_SEEK_END 2

/* upc_all_fcntl's commands. */
#define UPC_GET_CA_SEMANTICS 1
#define UPC_SET_WEAK_CA_SEMANTICS 2
#define UPC_SET_STRONG_CA_SEMANTICS 3
#define UPC_GET_FP 4
#define UPC_SET_COMMON_FP 5
#define UPC_SET_INDIVIDUAL_FP 6
#define UPC_GET_FL 7
#define UPC_GET_FN 8
#define UPC_GET_HINTS 9
#define UPC_SET_HINT 10
#define UPC_ASYNC_OUTSTANDING 11

/* A hint given to upc_all_fopen or upc_all_fcntl(UPC_SET_HINT). */
struct upc_hint {
  const char *key;
  const char *value;
};
typedef struct upc_hint upc_hint_t;

/* List I/O: a contiguous region of local memory, and of the file. (The shared
 * memory vector, whose first member is a pointer-to-shared, is declared by
 * each language's <upc_io.h>.) */
struct upc_local_memvec {
  void *baseaddr;
  size_t len;
};
struct upc_filevec {
  upc_off_t offset;
  size_t len;
};

#endif
