/* UPC 1.3 <upc_types.h>: the flag, operation and type values shared by every
 * collectives library. Values follow ../shared/DESIGN.md §2 (the 1.3 bit layout;
 * further bits for the extensions). See docs/implementation-defined.md. */
#pragma once
/* Plain C as well: UPC programs compiled by upcc include this same file
 * (tools/upcc/include/upc_types.h forwards to it), so there is one table. */
#ifdef __cplusplus
#include <cstdint>
#endif

typedef int upc_flag_t;
typedef unsigned long upc_op_t;
typedef int upc_type_t;

/* Synchronisation flags. A missing IN or OUT part means ALLSYNC in upc_all_*
 * collectives and MYSYNC in upccoll_* ones. */
#define UPC_IN_ALLSYNC  (1 << 0)
#define UPC_IN_MYSYNC   (1 << 1)
#define UPC_IN_NOSYNC   (1 << 2)
#define UPC_OUT_ALLSYNC (1 << 3)
#define UPC_OUT_MYSYNC  (1 << 4)
#define UPC_OUT_NOSYNC  (1 << 5)
#define UPC_ASYNC_FENCE (1 << 6)
/* Algorithm selection bits of the xupc library (seed 001): UPC_PULL / UPC_PUSH
 * force the flat pull / push algorithm, UPC_MULTICORE the node-aware
 * hierarchical one, for the collectives that have it; asking for one a
 * collective lacks is an error that lists the valid algorithms. */
#define UPC_PULL        (1 << 7)
#define UPC_PUSH        (1 << 8)
#define UPC_MULTICORE   (1 << 9)

/* Reduction operations (UPC 1.3 values), then the extensions and the atomic ops. */
#define UPC_ADD          (1UL << 0)
#define UPC_MULT         (1UL << 1)
#define UPC_AND          (1UL << 2)
#define UPC_OR           (1UL << 3)
#define UPC_XOR          (1UL << 4)
#define UPC_LOGAND       (1UL << 5)
#define UPC_LOGOR        (1UL << 6)
#define UPC_MIN          (1UL << 7)
#define UPC_MAX          (1UL << 8)
#define UPC_FUNC         (1UL << 9)
#define UPC_NONCOMM_FUNC (1UL << 10)
#define UPC_MINLOC       (1UL << 11)
#define UPC_MAXLOC       (1UL << 12)
#define UPC_GET          (1UL << 13)
#define UPC_SET          (1UL << 14)
#define UPC_CSWAP        (1UL << 15)
#define UPC_SUB          (1UL << 16)
#define UPC_INC          (1UL << 17)
#define UPC_DEC          (1UL << 18)

/* Data types (UPC 1.3 §7.3.1). */
#define UPC_CHAR        1
#define UPC_UCHAR       2
#define UPC_SHORT       3
#define UPC_USHORT      4
#define UPC_INT         5
#define UPC_UINT        6
#define UPC_LONG        7
#define UPC_ULONG       8
#define UPC_LLONG       9
#define UPC_ULLONG      10
#define UPC_INT8        11
#define UPC_UINT8       12
#define UPC_INT16       13
#define UPC_UINT16      14
#define UPC_INT32       15
#define UPC_UINT32      16
#define UPC_INT64       17
#define UPC_UINT64      18
#define UPC_FLOAT       19
#define UPC_DOUBLE      20
#define UPC_LONG_DOUBLE 21
#define UPC_PTS         22
