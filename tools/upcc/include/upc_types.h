/* <upc_types.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): the flag, operation and type values are the runtime's own
 * include/upc_types.h, which is plain C too; upcc searches this folder first,
 * so #include_next reaches that one file (in the tree, or <includedir>/upcemu
 * when installed). */
#ifndef UPCC_UPC_TYPES_H
#define UPCC_UPC_TYPES_H
#include_next <upc_types.h>
#endif
