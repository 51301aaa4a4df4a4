/* <upccoll.h>'s constants and types (seed 000, section 3.1; the teams of 3.4):
 * the handles, flags, operations, data types, MINLOC/MAXLOC pairs, error codes,
 * the user-function and team types. Plain C as well as C++: include/upccoll.h
 * (the C++ runtime's header) and upcc's tools/upcc/include/upccoll.h (UPC
 * syntax, for programs compiled by upcc) both include this one file, so the
 * values have one source; each keeps only its own prototypes. Installed with
 * the other headers (<includedir>/upcemu). */
#pragma once
#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#else
#include <stddef.h>
#include <stdint.h>
#endif

#include "upc_types.h"

/* 3.1.1 Collective handles. */
typedef void* upccoll_handle_t;
#define UPCCOLL_INVALID_HANDLE 0

/* 3.1.2 Flags: the UPC 1.3 bit values of <upc_types.h>, UPC_ASYNC_FENCE = 1 << 6. */
typedef int upccoll_flag_t;

/* 3.1.3 Operations: the <upc_types.h> values (UPC_ADD … UPC_MAX, UPC_MINLOC,
 * UPC_MAXLOC); operations made by upccoll_op_create take values from
 * UPCCOLL_USER_OP_BASE up. */
typedef upc_op_t upccoll_op_t;
#define UPC_PREDEFINED_OPS 11
#define UPCCOLL_USER_OP_BASE (1UL << 40)
/* Extension: logical exclusive or (MPI_LXOR), on the types UPC_LOGAND and
 * UPC_LOGOR apply to: (a != 0) != (b != 0), as 0 or 1. Not counted in
 * UPC_PREDEFINED_OPS, which keeps the paper's value. */
#ifndef UPC_LOGXOR
#define UPC_LOGXOR (1UL << 24)
#endif

/* 3.1.5 Data types. The names that <upc_types.h> already has (UPC_CHAR …
 * UPC_ULONG, UPC_FLOAT, UPC_DOUBLE) keep its values; the others are new values,
 * or the <upc_types.h> value of the same C type (UPC_LONGLONG is UPC_LLONG). */
typedef int upccoll_dtype_t;
#define UPC_BYTE            32
#define UPC_LONGLONG        UPC_LLONG
#define UPC_ULONGLONG       UPC_ULLONG
#define UPC_LONGDOUBLE      UPC_LONG_DOUBLE
#define UPC_CPLX            33
#define UPC_DBLCPLX         34
#define UPC_LONGDBLCPLX     35
#define UPC_FLOAT_INT       36
#define UPC_DOUBLE_INT      37
#define UPC_LONG_INT        38
#define UPC_2INT            39
#define UPC_SHORT_INT       40
#define UPC_LONG_DOUBLE_INT 41

/* The value-and-location pairs of UPC_MINLOC / UPC_MAXLOC, laid out as C structs
 * (as MPI's MPI_DOUBLE_INT & co.): upccoll_type_size gives their sizeof, padding
 * included. */
typedef struct { float value; int index; } upccoll_float_int_t;
typedef struct { double value; int index; } upccoll_double_int_t;
typedef struct { long value; int index; } upccoll_long_int_t;
typedef struct { int value; int index; } upccoll_2int_t;
typedef struct { short value; int index; } upccoll_short_int_t;
typedef struct { long double value; int index; } upccoll_long_double_int_t;

/* 3.1.6 Error codes. */
typedef enum {
  UPCCOLL_SUCCESS = 0,
  UPCCOLL_ERROR,
  UPCCOLL_ERROR_TEAM,
  UPCCOLL_ERROR_SIZE,
  UPCCOLL_ERROR_RANK,
  UPCCOLL_ERROR_HANDLE,
  UPCCOLL_ERROR_SENDBUF,
  UPCCOLL_ERROR_RECVBUF,
  UPCCOLL_ERROR_COUNT,
  UPCCOLL_ERROR_DATATYPE,
  UPCCOLL_ERROR_UPC_OP,
  UPCCOLL_ERROR_FLAGS,
  UPCCOLL_ERROR_ROOT,
  UPCCOLL_ERROR_SENDTYPE,
  UPCCOLL_ERROR_RECVTYPE,
  UPCCOLL_ERROR_SENDCNTS,
  UPCCOLL_ERROR_RECVCNTS,
  UPCCOLL_ERROR_SDISPLS,
  UPCCOLL_ERROR_RDISPLS,
  UPCCOLL_ERROR_MALLOC,
  UPCCOLL_ERROR_UNINITIALIZED
} upccoll_return_t;

/* 3.1.4 User-defined operations: inout[i] = in[i] op inout[i] for i < len, where
 * `in` holds the lower team ranks' contribution. */
typedef void upccoll_user_fun(void* in, void* inout, size_t len, upccoll_dtype_t dt);

/* 3.4 Teams. Team handles are local to the thread that got them, and a freed
 * handle is never valid again (UPCCOLL_ERROR_TEAM in every call).
 * upccoll_team_split orders the members of a color by key, then by rank in the
 * parent team (as MPI_Comm_split): keys need not be 0..n-1 (the paper's case,
 * where the key is the new rank).
 * Extension: color UPCCOLL_UNDEFINED (MPI_UNDEFINED) joins no team; that thread
 * gets *newteam = UPCCOLL_TEAM_NULL (MPI_COMM_NULL), which no call accepts. */
typedef void* upccoll_team_t;
#define UPC_TEAM_ALL ((upccoll_team_t)0)
#ifdef __cplusplus
#define UPCCOLL_TEAM_NULL (reinterpret_cast<upccoll_team_t>(~std::uintptr_t{0}))
#else
#define UPCCOLL_TEAM_NULL ((upccoll_team_t)~(uintptr_t)0)
#endif
#define UPCCOLL_UNDEFINED (-32766)
/* Extension: the split type of upccoll_team_split_type (MPI_COMM_TYPE_SHARED):
 * the members on one emulated node (upcrun --nodes) form one team. */
#define UPCCOLL_TEAM_TYPE_SHARED 1
