/* The constants and type of UPC 1.3 <upc_castable.h> (Optional Library
 * Specifications §7.7), plain C: the C++ header (include/upc_castable.h) and
 * upcc's UPC-syntax header (tools/upcc/include/upc_castable.h) both include
 * this one table. */
#ifndef UPCEMU_UPC_CASTABLE_TYPES_H
#define UPCEMU_UPC_CASTABLE_TYPES_H

#define __UPC_CASTABLE__ 1

/* Kinds of shared objects, as bits of upc_thread_info_t's fields. */
#define UPC_CASTABLE_ALL_ALLOC    (1 << 0) /* upc_all_alloc */
#define UPC_CASTABLE_GLOBAL_ALLOC (1 << 1) /* upc_global_alloc */
#define UPC_CASTABLE_ALLOC        (1 << 2) /* upc_alloc */
#define UPC_CASTABLE_STATIC       (1 << 3) /* statically declared shared objects */
#define UPC_CASTABLE_ALL \
  (UPC_CASTABLE_ALL_ALLOC | UPC_CASTABLE_GLOBAL_ALLOC | UPC_CASTABLE_ALLOC | UPC_CASTABLE_STATIC)

typedef struct {
  int guaranteedCastable; /* kinds always castable by the caller when owned by the thread asked about */
  int probablyCastable;   /* kinds usually castable (a superset of the guaranteed ones) */
} upc_thread_info_t;

#endif
