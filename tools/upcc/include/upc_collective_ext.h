/* <upc_collective_ext.h> for UPC source compiled by upcc (docs/upcc.md, "Library headers"):
 * the extended collectives of seed 003 (Teijeiro's thesis, Appendix A) in UPC syntax. GENERATED
 * from lib/api/ext/functions.table by tools/gen_extended_collectives.py --upc-header: do not
 * edit. upcc translates the prototypes (pointers-to-shared become upcemu_sptr); the C wrappers
 * (gen_extended_collectives.py --c-wrappers) call the C++ library. Semantics:
 * docs/extended-collectives.md. */
#ifndef UPCC_UPC_COLLECTIVE_EXT_H
#define UPCC_UPC_COLLECTIVE_EXT_H
#include <stddef.h>
#include <upc_collective.h>
#include <upc_types.h>
#include <teamutil.h>

/* nchunks x UPC_EXTCOLLS_VV_CHUNKS asks the computational v-collectives for the cyclic chunk
 * order of section 3.2.2 (chunk i on thread i % THREADS). */
#define UPC_EXTCOLLS_VV_CHUNKS 65536

/* The eleven reduction types, X(letter, TYPE) each: a typed function is declared once for all of
 * them by a macro of the letter and TYPE (upc_all_reduceI_team is upc_all_reduce<<T>>_team's I,
 * with int). */
#define UPCC_EXT_TYPES(X) X(C, signed char) X(UC, unsigned char) X(S, short) X(US, unsigned short) X(I, int) X(UI, unsigned int) X(L, long) X(UL, unsigned long) X(F, float) X(D, double) X(LD, long double)

/* A variant several families have with the same parameters is declared once, by a macro of
 * the family (upc_all_scatter_team_get is UPCC_EXT_DECLARE_team_get(scatter)). */
#define UPCC_EXT_DECLARE_in_place(F) void upc_all_##F##_in_place(shared void *buffer, size_t nbytes, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_in_place(broadcast) UPCC_EXT_DECLARE_in_place(scatter) UPCC_EXT_DECLARE_in_place(gather) UPCC_EXT_DECLARE_in_place(gather_all) UPCC_EXT_DECLARE_in_place(exchange)
#define UPCC_EXT_DECLARE_in_place_priv(F) void upc_all_##F##_in_place_priv(void *buffer, size_t nbytes, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_in_place_priv(broadcast) UPCC_EXT_DECLARE_in_place_priv(scatter) UPCC_EXT_DECLARE_in_place_priv(gather) UPCC_EXT_DECLARE_in_place_priv(gather_all) UPCC_EXT_DECLARE_in_place_priv(exchange)
#define UPCC_EXT_DECLARE_rooted_in_place(F) void upc_all_##F##_rooted_in_place(shared void *buffer, size_t nbytes, int root, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_rooted_in_place(broadcast) UPCC_EXT_DECLARE_rooted_in_place(scatter) UPCC_EXT_DECLARE_rooted_in_place(gather)
#define UPCC_EXT_DECLARE_rooted_in_place_priv(F) void upc_all_##F##_rooted_in_place_priv(void *buffer, size_t nbytes, int root, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_rooted_in_place_priv(broadcast) UPCC_EXT_DECLARE_rooted_in_place_priv(scatter) UPCC_EXT_DECLARE_rooted_in_place_priv(gather)
void upc_all_permute_in_place(shared void *buffer, shared const int *perm, size_t nbytes, upc_flag_t sync_mode);
void upc_all_permute_in_place_priv(void *buffer, shared const int *perm, size_t nbytes, upc_flag_t sync_mode);
void upc_all_broadcast_v(shared void *dst, shared const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_local(shared void *dst, shared const void *src, shared int *ddisp_local, size_t nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_raw(shared void *dst, shared const void *src, shared size_t *ddisp_raw, size_t nbytes, size_t dst_blk_raw, upc_flag_t sync_mode);
void upc_all_broadcast_v_rooted(shared void *dst, shared const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_broadcast_v_get(void *dst, shared const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_local_get(void *dst, shared const void *src, shared int *ddisp_local, size_t nelems, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_raw_get(void *dst, shared const void *src, shared size_t *ddisp_raw, size_t nbytes, size_t dst_blk_raw, upc_flag_t sync_mode);
void upc_all_broadcast_v_rooted_get(void *dst, shared const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_broadcast_v_put(shared void *dst, const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_local_put(shared void *dst, const void *src, shared int *ddisp_local, size_t nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_raw_put(shared void *dst, const void *src, shared size_t *ddisp_raw, size_t nbytes, size_t dst_blk_raw, upc_flag_t sync_mode);
void upc_all_broadcast_v_rooted_put(shared void *dst, const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_broadcast_v_priv(void *dst, const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_local_priv(void *dst, const void *src, shared int *ddisp_local, size_t nelems, size_t typesize, upc_flag_t sync_mode);
void upc_all_broadcast_v_raw_priv(void *dst, const void *src, shared size_t *ddisp_raw, size_t nbytes, size_t dst_blk_raw, upc_flag_t sync_mode);
void upc_all_broadcast_v_rooted_priv(void *dst, const void *src, shared int *ddisp, size_t nelems, size_t dst_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_scatter_v(shared void *dst, shared const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_local(shared void *dst, shared const void *src, shared int *ddisp_local, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_raw(shared void *dst, shared const void *src, shared size_t *ddisp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_scatter_v_rooted(shared void *dst, shared const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_scatter_v_get(void *dst, shared const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_local_get(void *dst, shared const void *src, shared int *ddisp_local, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_raw_get(void *dst, shared const void *src, shared size_t *ddisp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_scatter_v_rooted_get(void *dst, shared const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_scatter_v_put(shared void *dst, const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_local_put(shared void *dst, const void *src, shared int *ddisp_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_raw_put(shared void *dst, const void *src, shared size_t *ddisp_raw, shared size_t *nbytes, size_t dst_blk_raw, upc_flag_t sync_mode);
void upc_all_scatter_v_rooted_put(shared void *dst, const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_scatter_v_priv(void *dst, const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_local_priv(void *dst, const void *src, shared int *ddisp_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_scatter_v_raw_priv(void *dst, const void *src, shared size_t *ddisp_raw, shared size_t *nbytes, size_t dst_blk_raw, upc_flag_t sync_mode);
void upc_all_scatter_v_rooted_priv(void *dst, const void *src, shared int *ddisp, shared size_t *nelems, size_t dst_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_gather_v(shared void *dst, shared const void *src, shared int *sdisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_local(shared void *dst, shared const void *src, shared int *sdisp_local, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_raw(shared void *dst, shared const void *src, shared size_t *sdisp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_gather_v_rooted(shared void *dst, shared const void *src, shared int *sdisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_gather_v_get(void *dst, shared const void *src, shared int *sdisp, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_local_get(void *dst, shared const void *src, shared int *sdisp_local, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_raw_get(void *dst, shared const void *src, shared size_t *sdisp_raw, shared size_t *nbytes, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_gather_v_rooted_get(void *dst, shared const void *src, shared int *sdisp, shared size_t *nelems, size_t src_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_gather_v_put(shared void *dst, const void *src, shared int *sdisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_local_put(shared void *dst, const void *src, shared int *sdisp_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_raw_put(shared void *dst, const void *src, shared size_t *sdisp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_gather_v_rooted_put(shared void *dst, const void *src, shared int *sdisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_gather_v_priv(void *dst, const void *src, shared int *sdisp, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_local_priv(void *dst, const void *src, shared int *sdisp_local, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_v_raw_priv(void *dst, const void *src, shared size_t *sdisp_raw, shared size_t *nbytes, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_gather_v_rooted_priv(void *dst, const void *src, shared int *sdisp, shared size_t *nelems, size_t src_blk, size_t typesize, int root, upc_flag_t sync_mode);
void upc_all_gather_all_v(shared void *dst, shared const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_local(shared void *dst, shared const void *src, shared int *ddisp_local, shared int *sdisp_local, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_privparam(shared void *dst, shared const void *src, int ddisp, int *sdisp, size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_raw(shared void *dst, shared const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_gather_all_v_get(void *dst, shared const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_local_get(void *dst, shared const void *src, shared int *ddisp_local, shared int *sdisp_local, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_privparam_get(void *dst, shared const void *src, int ddisp, int *sdisp, size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_raw_get(void *dst, shared const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_gather_all_v_put(shared void *dst, const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_local_put(shared void *dst, const void *src, shared int *ddisp_local, shared int *sdisp_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_privparam_put(shared void *dst, const void *src, int ddisp, int *sdisp, size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_raw_put(shared void *dst, const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_gather_all_v_priv(void *dst, const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_local_priv(void *dst, const void *src, shared int *ddisp_local, shared int *sdisp_local, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_privparam_priv(void *dst, const void *src, int ddisp, int *sdisp, size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_gather_all_v_raw_priv(void *dst, const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_exchange_v(shared void *dst, shared const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_local(shared void *dst, shared const void *src, shared int *exchange_local, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_merge(shared void *dst, shared const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, shared int *disp, upc_flag_t sync_mode);
void upc_all_exchange_v_merge_local(shared void *dst, shared const void *src, shared int *exchange_local, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, shared int *disp_local, upc_flag_t sync_mode);
void upc_all_exchange_v_privparam(shared void *dst, shared const void *src, int *exchange, size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_raw(shared void *dst, shared const void *src, shared size_t *exchange_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_exchange_v_get(void *dst, shared const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_local_get(void *dst, shared const void *src, shared int *exchange_local, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_merge_get(void *dst, shared const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, shared int *disp, upc_flag_t sync_mode);
void upc_all_exchange_v_merge_local_get(void *dst, shared const void *src, shared int *exchange_local, shared size_t *nelems, size_t src_blk, size_t typesize, shared int *disp_local, upc_flag_t sync_mode);
void upc_all_exchange_v_privparam_get(void *dst, shared const void *src, int *exchange, size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_raw_get(void *dst, shared const void *src, shared size_t *exchange_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_exchange_v_put(shared void *dst, const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_local_put(shared void *dst, const void *src, shared int *exchange_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_merge_put(shared void *dst, const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, shared int *disp, upc_flag_t sync_mode);
void upc_all_exchange_v_merge_local_put(shared void *dst, const void *src, shared int *exchange_local, shared size_t *nelems, size_t dst_blk, size_t typesize, shared int *disp_local, upc_flag_t sync_mode);
void upc_all_exchange_v_privparam_put(shared void *dst, const void *src, int *exchange, size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_raw_put(shared void *dst, const void *src, shared size_t *exchange_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_exchange_v_priv(void *dst, const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_local_priv(void *dst, const void *src, shared int *exchange_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_merge_priv(void *dst, const void *src, shared int *exchange, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, shared int *disp, upc_flag_t sync_mode);
void upc_all_exchange_v_merge_local_priv(void *dst, const void *src, shared int *exchange_local, shared size_t *nelems, size_t dst_blk, size_t typesize, shared int *disp_local, upc_flag_t sync_mode);
void upc_all_exchange_v_privparam_priv(void *dst, const void *src, int *exchange, size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_exchange_v_raw_priv(void *dst, const void *src, shared size_t *exchange_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_permute_v(shared void *dst, shared const void *src, shared const int *perm, shared int *disp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_local(shared void *dst, shared const void *src, shared const int *perm, shared int *disp_local, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_raw(shared void *dst, shared const void *src, shared const int *perm, shared size_t *disp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_permute_v_get(void *dst, shared const void *src, shared const int *perm, shared int *disp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_local_get(void *dst, shared const void *src, shared const int *perm, shared int *disp_local, shared size_t *nelems, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_raw_get(void *dst, shared const void *src, shared const int *perm, shared size_t *disp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_permute_v_put(shared void *dst, const void *src, shared const int *perm, shared int *disp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_local_put(shared void *dst, const void *src, shared const int *perm, shared int *disp_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_raw_put(shared void *dst, const void *src, shared const int *perm, shared size_t *disp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_permute_v_priv(void *dst, const void *src, shared const int *perm, shared int *disp, shared size_t *nelems, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_local_priv(void *dst, const void *src, shared const int *perm, shared int *disp_local, shared size_t *nelems, size_t dst_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_permute_v_raw_priv(void *dst, const void *src, shared const int *perm, shared size_t *disp_raw, shared size_t *nbytes, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_vector_copy(shared void *dst, shared const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_privparam(shared void *dst, shared const void *src, int *ddisp, int *sdisp, size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_raw(shared void *dst, shared const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, int nchunks, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_vector_copy_get(void *dst, shared const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_privparam_get(void *dst, shared const void *src, int *ddisp, int *sdisp, size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_raw_get(void *dst, shared const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, int nchunks, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_vector_copy_put(shared void *dst, const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_privparam_put(shared void *dst, const void *src, int *ddisp, int *sdisp, size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_raw_put(shared void *dst, const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, int nchunks, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
void upc_all_vector_copy_priv(void *dst, const void *src, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_privparam_priv(void *dst, const void *src, int *ddisp, int *sdisp, size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, size_t typesize, upc_flag_t sync_mode);
void upc_all_vector_copy_raw_priv(void *dst, const void *src, shared size_t *ddisp_raw, shared size_t *sdisp_raw, shared size_t *nbytes, int nchunks, size_t dst_blk_raw, size_t src_blk_raw, upc_flag_t sync_mode);
#define UPCC_EXT_DECLARE_team(F) void upc_all_##F##_team(shared void *dst, shared const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team(broadcast) UPCC_EXT_DECLARE_team(scatter) UPCC_EXT_DECLARE_team(gather) UPCC_EXT_DECLARE_team(gather_all) UPCC_EXT_DECLARE_team(exchange)
#define UPCC_EXT_DECLARE_team_get(F) void upc_all_##F##_team_get(void *dst, shared const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team_get(broadcast) UPCC_EXT_DECLARE_team_get(scatter) UPCC_EXT_DECLARE_team_get(gather) UPCC_EXT_DECLARE_team_get(gather_all) UPCC_EXT_DECLARE_team_get(exchange)
#define UPCC_EXT_DECLARE_team_put(F) void upc_all_##F##_team_put(shared void *dst, const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team_put(broadcast) UPCC_EXT_DECLARE_team_put(scatter) UPCC_EXT_DECLARE_team_put(gather) UPCC_EXT_DECLARE_team_put(gather_all) UPCC_EXT_DECLARE_team_put(exchange)
#define UPCC_EXT_DECLARE_team_priv(F) void upc_all_##F##_team_priv(void *dst, const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team_priv(broadcast) UPCC_EXT_DECLARE_team_priv(scatter) UPCC_EXT_DECLARE_team_priv(gather) UPCC_EXT_DECLARE_team_priv(gather_all) UPCC_EXT_DECLARE_team_priv(exchange)
#define UPCC_EXT_DECLARE_team_allthr(F) void upc_all_##F##_team_allthr(shared void *dst, shared const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team_allthr(scatter) UPCC_EXT_DECLARE_team_allthr(gather) UPCC_EXT_DECLARE_team_allthr(gather_all) UPCC_EXT_DECLARE_team_allthr(exchange)
#define UPCC_EXT_DECLARE_team_allthr_get(F) void upc_all_##F##_team_allthr_get(void *dst, shared const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team_allthr_get(scatter) UPCC_EXT_DECLARE_team_allthr_get(gather) UPCC_EXT_DECLARE_team_allthr_get(gather_all) UPCC_EXT_DECLARE_team_allthr_get(exchange)
#define UPCC_EXT_DECLARE_team_allthr_put(F) void upc_all_##F##_team_allthr_put(shared void *dst, const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team_allthr_put(scatter) UPCC_EXT_DECLARE_team_allthr_put(gather) UPCC_EXT_DECLARE_team_allthr_put(gather_all) UPCC_EXT_DECLARE_team_allthr_put(exchange)
#define UPCC_EXT_DECLARE_team_allthr_priv(F) void upc_all_##F##_team_allthr_priv(void *dst, const void *src, size_t nbytes, team t, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_team_allthr_priv(scatter) UPCC_EXT_DECLARE_team_allthr_priv(gather) UPCC_EXT_DECLARE_team_allthr_priv(gather_all) UPCC_EXT_DECLARE_team_allthr_priv(exchange)
void upc_all_permute_team(shared void *dst, shared const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
void upc_all_permute_team_get(void *dst, shared const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
void upc_all_permute_team_put(shared void *dst, const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
void upc_all_permute_team_priv(void *dst, const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
void upc_all_permute_team_allthr(shared void *dst, shared const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
void upc_all_permute_team_allthr_get(void *dst, shared const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
void upc_all_permute_team_allthr_put(shared void *dst, const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
void upc_all_permute_team_allthr_priv(void *dst, const void *src, shared const int *perm, size_t nbytes, team t, upc_flag_t sync_mode);
#define UPCC_EXT_DECLARE_get(F) void upc_all_##F##_get(void *dst, shared const void *src, size_t nbytes, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_get(broadcast) UPCC_EXT_DECLARE_get(scatter) UPCC_EXT_DECLARE_get(gather) UPCC_EXT_DECLARE_get(gather_all) UPCC_EXT_DECLARE_get(exchange)
#define UPCC_EXT_DECLARE_put(F) void upc_all_##F##_put(shared void *dst, const void *src, size_t nbytes, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_put(broadcast) UPCC_EXT_DECLARE_put(scatter) UPCC_EXT_DECLARE_put(gather) UPCC_EXT_DECLARE_put(gather_all) UPCC_EXT_DECLARE_put(exchange)
#define UPCC_EXT_DECLARE_priv(F) void upc_all_##F##_priv(void *dst, const void *src, size_t nbytes, upc_flag_t sync_mode);
UPCC_EXT_DECLARE_priv(broadcast) UPCC_EXT_DECLARE_priv(scatter) UPCC_EXT_DECLARE_priv(gather) UPCC_EXT_DECLARE_priv(gather_all) UPCC_EXT_DECLARE_priv(exchange)
void upc_all_permute_get(void *dst, shared const void *src, shared const int *perm, size_t nbytes, upc_flag_t sync_mode);
void upc_all_permute_put(shared void *dst, const void *src, shared const int *perm, size_t nbytes, upc_flag_t sync_mode);
void upc_all_permute_priv(void *dst, const void *src, shared const int *perm, size_t nbytes, upc_flag_t sync_mode);
#define UPCC_EXT_DECLARE_upc_all_reduceT_in_place(T_LETTER, T) void upc_all_reduce##T_LETTER##_in_place(shared void *buffer, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_in_place)
#define UPCC_EXT_DECLARE_upc_all_reduceT_in_place_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_in_place_priv(void *buffer, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_in_place_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_rooted_in_place(T_LETTER, T) void upc_all_reduce##T_LETTER##_rooted_in_place(shared void *buffer, upc_op_t op, size_t nelems, size_t blk_size, int root, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_rooted_in_place)
#define UPCC_EXT_DECLARE_upc_all_reduceT_rooted_in_place_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_rooted_in_place_priv(void *buffer, upc_op_t op, size_t nelems, size_t blk_size, int root, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_rooted_in_place_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_in_place(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_in_place(shared void *buffer, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_in_place)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_in_place_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_in_place_priv(void *buffer, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_in_place_priv)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_in_place(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_in_place(shared void *buffer, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_in_place)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_in_place_priv(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_in_place_priv(void *buffer, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_in_place_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_v(T_LETTER, T) void upc_all_reduce##T_LETTER##_v(shared void *dst, shared const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_v)
#define UPCC_EXT_DECLARE_upc_all_reduceT_v_get(T_LETTER, T) void upc_all_reduce##T_LETTER##_v_get(void *dst, shared const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_v_get)
#define UPCC_EXT_DECLARE_upc_all_reduceT_v_put(T_LETTER, T) void upc_all_reduce##T_LETTER##_v_put(shared void *dst, const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_v_put)
#define UPCC_EXT_DECLARE_upc_all_reduceT_v_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_v_priv(void *dst, const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_v_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_v(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_v(shared void *dst, shared const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_v)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_v_get(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_v_get(void *dst, shared const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_v_get)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_v_put(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_v_put(shared void *dst, const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_v_put)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_v_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_v_priv(void *dst, const void *src, upc_op_t op, shared int *sdisp, shared size_t *nelems, int nchunks, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_v_priv)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_v(shared void *dst, shared const void *src, upc_op_t op, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v_get(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_v_get(void *dst, shared const void *src, upc_op_t op, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v_get)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v_put(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_v_put(shared void *dst, const void *src, upc_op_t op, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v_put)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v_priv(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_v_priv(void *dst, const void *src, upc_op_t op, shared int *ddisp, shared int *sdisp, shared size_t *nelems, int nchunks, size_t dst_blk, size_t src_blk, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_v_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_team(T_LETTER, T) void upc_all_reduce##T_LETTER##_team(shared void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_team)
#define UPCC_EXT_DECLARE_upc_all_reduceT_team_get(T_LETTER, T) void upc_all_reduce##T_LETTER##_team_get(void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_team_get)
#define UPCC_EXT_DECLARE_upc_all_reduceT_team_put(T_LETTER, T) void upc_all_reduce##T_LETTER##_team_put(shared void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_team_put)
#define UPCC_EXT_DECLARE_upc_all_reduceT_team_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_team_priv(void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_team_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_team(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_team(shared void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_team)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_team_get(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_team_get(void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_team_get)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_team_put(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_team_put(shared void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_team_put)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_team_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_team_priv(void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_team_priv)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_team(shared void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team_get(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_team_get(void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team_get)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team_put(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_team_put(shared void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team_put)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team_priv(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_team_priv(void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), team t, upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_team_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_get(T_LETTER, T) void upc_all_reduce##T_LETTER##_get(void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_get)
#define UPCC_EXT_DECLARE_upc_all_reduceT_put(T_LETTER, T) void upc_all_reduce##T_LETTER##_put(shared void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_put)
#define UPCC_EXT_DECLARE_upc_all_reduceT_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_priv(void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_priv)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_get(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_get(void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_get)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_put(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_put(shared void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_put)
#define UPCC_EXT_DECLARE_upc_all_reduceT_all_priv(T_LETTER, T) void upc_all_reduce##T_LETTER##_all_priv(void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_reduceT_all_priv)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_get(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_get(void *dst, shared const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_get)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_put(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_put(shared void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_put)
#define UPCC_EXT_DECLARE_upc_all_prefix_reduceT_priv(T_LETTER, T) void upc_all_prefix_reduce##T_LETTER##_priv(void *dst, const void *src, upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T), upc_flag_t sync_mode);
UPCC_EXT_TYPES(UPCC_EXT_DECLARE_upc_all_prefix_reduceT_priv)

/* Each call with the caller's file and line (upcemu_site_enter/leave, as in <upc_collective.h>),
 * so that a report (a mismatch between threads, a bad argument) names the UPC program's line.
 * The macro's own name is not expanded again: the call inside is the real function, which
 * also stays callable through its address. */
#define upc_all_broadcast_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_rooted_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_rooted_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_rooted_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_rooted_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_in_place(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_in_place(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_in_place_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_in_place_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_local(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_local(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_raw(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_raw(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_rooted(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_rooted(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_local_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_local_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_raw_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_raw_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_rooted_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_rooted_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_local_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_local_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_raw_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_raw_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_rooted_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_rooted_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_local_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_local_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_raw_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_raw_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_v_rooted_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_v_rooted_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_local(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_local(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_raw(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_raw(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_rooted(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_rooted(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_local_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_local_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_raw_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_raw_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_rooted_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_rooted_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_local_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_local_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_raw_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_raw_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_rooted_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_rooted_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_local_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_local_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_raw_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_raw_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_v_rooted_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_v_rooted_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_local(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_local(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_raw(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_raw(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_rooted(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_rooted(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_local_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_local_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_raw_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_raw_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_rooted_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_rooted_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_local_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_local_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_raw_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_raw_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_rooted_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_rooted_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_local_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_local_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_raw_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_raw_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_v_rooted_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_v_rooted_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_local(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_local(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_privparam(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_privparam(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_raw(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_raw(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_local_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_local_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_privparam_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_privparam_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_raw_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_raw_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_local_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_local_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_privparam_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_privparam_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_raw_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_raw_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_local_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_local_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_privparam_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_privparam_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_v_raw_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_v_raw_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_local(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_local(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge_local(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge_local(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_privparam(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_privparam(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_raw(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_raw(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_local_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_local_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge_local_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge_local_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_privparam_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_privparam_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_raw_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_raw_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_local_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_local_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge_local_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge_local_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_privparam_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_privparam_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_raw_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_raw_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_local_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_local_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_merge_local_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_merge_local_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_privparam_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_privparam_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_v_raw_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_v_raw_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_local(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_local(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_raw(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_raw(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_local_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_local_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_raw_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_raw_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_local_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_local_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_raw_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_raw_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_local_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_local_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_v_raw_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_v_raw_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_privparam(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_privparam(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_raw(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_raw(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_privparam_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_privparam_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_raw_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_raw_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_privparam_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_privparam_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_raw_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_raw_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_privparam_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_privparam_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_vector_copy_raw_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_vector_copy_raw_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_v(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_v(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_v_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_v_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_v_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_v_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_v_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_v_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team_allthr(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team_allthr(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team_allthr_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team_allthr_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team_allthr_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team_allthr_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_team_allthr_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_team_allthr_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team_allthr(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team_allthr(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team_allthr_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team_allthr_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team_allthr_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team_allthr_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_team_allthr_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_team_allthr_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team_allthr(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team_allthr(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team_allthr_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team_allthr_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team_allthr_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team_allthr_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_team_allthr_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_team_allthr_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team_allthr(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team_allthr(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team_allthr_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team_allthr_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team_allthr_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team_allthr_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_team_allthr_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_team_allthr_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team_allthr(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team_allthr(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team_allthr_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team_allthr_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team_allthr_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team_allthr_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_team_allthr_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_team_allthr_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_team(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_team(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_team_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_team_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_team_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_team_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_team_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_team_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_broadcast_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_broadcast_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_scatter_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_scatter_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_gather_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_gather_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_exchange_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_exchange_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_permute_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_permute_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceC_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceC_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUC_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUC_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceS_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceS_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUS_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUS_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceI_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceI_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUI_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUI_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceL_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceL_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceUL_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceUL_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceF_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceF_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceD_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceD_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_reduceLD_all_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_reduceLD_all_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_get(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_get(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_put(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_put(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceC_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceC_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUC_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUC_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceS_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceS_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUS_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUS_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceI_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceI_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUI_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUI_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceL_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceL_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceUL_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceUL_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceF_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceF_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceD_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceD_priv(__VA_ARGS__), upcemu_site_leave())
#define upc_all_prefix_reduceLD_priv(...) (upcemu_site_enter(__FILE__, __LINE__), upc_all_prefix_reduceLD_priv(__VA_ARGS__), upcemu_site_leave())
#endif
