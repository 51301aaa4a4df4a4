/* <upccoll.h>: the UPC Collectives 2.0 API of Almási, Hargrove, Tănase and Zheng
 * (seed 000, section 3): teams made by split, MPI-like collectives with
 * multi-valued buffers, 23 data types, MINLOC/MAXLOC and user operations, and
 * blocking, handle-completed and fence-completed calls.
 *
 * Every name of the paper is here with the paper's spelling and signature;
 * `shared void *` is upc::sptr<void>. Where the paper leaves values open, or two
 * seeds clash, the choice is in docs/implementation-defined.md; the user-level
 * description is docs/teams-and-collectives-2.md.
 *
 * Buffers: each thread passes its own pointer-to-shared, with affinity to itself,
 * read as a contiguous area of count × upccoll_type_size(type) bytes.
 * Sync flags: UPC_IN_{ALL,MY,NO}SYNC | UPC_OUT_{ALL,MY,NO}SYNC, where a missing
 * part means MYSYNC (unlike upc_all_*), plus UPC_ASYNC_FENCE.
 *
 * Extensions for MPI programmers (each marked "Extension" below): the in-place
 * form UPCCOLL_IN_PLACE; split with UPCCOLL_UNDEFINED, giving UPCCOLL_TEAM_NULL;
 * keys that need not be 0..n-1; UPC_LOGXOR; upccoll_op_commutative;
 * upccoll_reduce_local; upccoll_scan_inclusive and the alias upccoll_exscan;
 * upccoll_waitall and upccoll_testall over an array of handles;
 * upccoll_team_split_type by emulated node (and, in <teamutil.h>,
 * upccoll_team_from_teamutil from a thesis team). */
#pragma once
#include <cstddef>
#include <cstdint>

#include "upc.h"
#include "upc_types.h"
#include "upccoll_types.h"

/* 3.1 The handle, flag, operation and data types, the MINLOC/MAXLOC pairs and
 * the error codes (upccoll_handle_t … upccoll_return_t), with the user-function
 * and team types of 3.1.4 and 3.4: "upccoll_types.h", plain C, shared with
 * upcc's <upccoll.h>. */

/* The code's name ("UPCCOLL_ERROR_ROOT"), for messages. */
const char* upccoll_error_name(upccoll_return_t code);

/* 3.1.4 User-defined operations (upccoll_user_fun: "upccoll_types.h"):
 * inout[i] = in[i] op inout[i] for i < len, where `in` holds the lower team
 * ranks' contribution. */
upccoll_return_t upccoll_op_create(upccoll_user_fun* function, int commute, upccoll_op_t* op);
upccoll_return_t upccoll_op_free(upccoll_op_t op);
/* Extension (MPI_Op_commutative): *commute = 1 for the predefined ops, the
 * commute argument given to upccoll_op_create (as 0 or 1) for a user op. Every
 * reduction combines in ascending rank order whatever the answer. */
upccoll_return_t upccoll_op_commutative(upccoll_op_t op, int* commute);
/* Extension (MPI_Reduce_local): inoutbuf[i] = inbuf[i] op inoutbuf[i] for
 * i < count, on this thread only (no communication, not collective). The
 * buffers are local memory (privatise a pointer-to-shared with .local()) and
 * must not overlap. */
upccoll_return_t upccoll_reduce_local(const void* inbuf, void* inoutbuf, size_t count, upccoll_dtype_t dt,
                                      upccoll_op_t op);

upccoll_return_t upccoll_type_size(upccoll_dtype_t dt, size_t* nbytes);

/* 3.2 Initialisation and termination (both collective over all threads).
 * upccoll_initialize removes from argv the options addressed to the library:
 *   --upccoll-progress=inline|thread   who advances non-blocking collectives
 * (also UPCEMU_UPCCOLL_PROGRESS). argc/argv may be null. */
/* Both are collective; the std::source_location (never written by the caller)
 * names the line in reports. */
upccoll_return_t upccoll_initialize(int* argc, char*** argv,
                                    const std::source_location& where = std::source_location::current());
upccoll_return_t upccoll_finalize(const std::source_location& where = std::source_location::current());

/* 3.3 Completion. upccoll_test returns 1 when complete, 0 when not, and
 * -UPCCOLL_ERROR_HANDLE for a handle that is not a live one of this thread. */
int upccoll_test(upccoll_handle_t h);
void upccoll_wait(upccoll_handle_t h);
void upccoll_fence(void);
/* Extension: upccoll_wait that also returns the collective's status. */
upccoll_return_t upccoll_wait_status(upccoll_handle_t h);
/* Extensions (MPI_Waitall, MPI_Testall): an array of count handles.
 * Entries that are UPCCOLL_INVALID_HANDLE are skipped (MPI_REQUEST_NULL); every
 * other entry must be a live handle of this thread, named once, else nothing
 * is waited for and the code is UPCCOLL_ERROR_HANDLE (count < 0:
 * UPCCOLL_ERROR_COUNT). statuses (may be null, as MPI_STATUSES_IGNORE) gets
 * each collective's code, UPCCOLL_SUCCESS for a skipped entry.
 * upccoll_waitall completes every one and sets its entry to
 * UPCCOLL_INVALID_HANDLE; it returns the first failure in array order, or
 * UPCCOLL_SUCCESS.
 * upccoll_testall advances every one; when all are complete it completes
 * them as upccoll_waitall does (entries set to UPCCOLL_INVALID_HANDLE, no
 * upccoll_wait needed afterwards) and returns 1, else it changes nothing and
 * returns 0 (unlike upccoll_test, which never completes a handle); -code for
 * a bad array. */
upccoll_return_t upccoll_waitall(int count, upccoll_handle_t* handles, upccoll_return_t* statuses);
int upccoll_testall(int count, upccoll_handle_t* handles, upccoll_return_t* statuses);

/* 3.4 Teams (upccoll_team_t, UPC_TEAM_ALL, UPCCOLL_TEAM_NULL, UPCCOLL_UNDEFINED:
 * "upccoll_types.h"). Team handles are local to the thread that got them, and a
 * freed handle is never valid again (UPCCOLL_ERROR_TEAM in every call).
 * upccoll_team_split orders the members of a color by key, then by rank in the
 * parent team (as MPI_Comm_split): keys need not be 0..n-1 (the paper's case,
 * where the key is the new rank).
 * Extension: color UPCCOLL_UNDEFINED (MPI_UNDEFINED) joins no team; that thread
 * gets *newteam = UPCCOLL_TEAM_NULL (MPI_COMM_NULL), which no call accepts. */
upccoll_return_t upccoll_team_rank(upccoll_team_t team, int* rank);
upccoll_return_t upccoll_team_size(upccoll_team_t team, int* size);
upccoll_return_t upccoll_team_split(upccoll_team_t team, int color, int key, upccoll_team_t* newteam);
/* Extension (MPI_Comm_split_type): split_type UPCCOLL_TEAM_TYPE_SHARED makes
 * one team of the members on each emulated node (upcrun --nodes,
 * docs/topology.md; one node by default, so the whole team), ordered by key
 * then parent rank; UPCCOLL_UNDEFINED joins none (UPCCOLL_TEAM_NULL). Another
 * split_type is UPCCOLL_ERROR on every member. Collective over team, as split. */
upccoll_return_t upccoll_team_split_type(upccoll_team_t team, int split_type, int key, upccoll_team_t* newteam);
/* The std::source_location (never written by the caller) is where the team was
 * freed: a later use of the handle is refused naming that line. */
void upccoll_team_free(upccoll_team_t team, const std::source_location& where = std::source_location::current());

/* 3.5 Collectives. handle == NULL: blocking; a handle pointer: non-blocking,
 * complete at upccoll_wait; UPC_ASYNC_FENCE in flags: non-blocking, complete at
 * the next upccoll_fence or upccoll_finalize (*handle, if given, is set to
 * UPCCOLL_INVALID_HANDLE).
 *
 * The areas a call reads and writes on a thread must not overlap (the exact
 * bytes, v-variants' blocks included): overlap is UPCCOLL_ERROR_RECVBUF on every
 * member, never a wrong answer. To compute in place, use the extension
 * UPCCOLL_IN_PLACE (MPI_IN_PLACE), where MPI allows it:
 *   sendbuf on every member  allreduce, scan, scan_inclusive / exscan,
 *                            reduce_scatter (input: the whole vector in recvbuf,
 *                            result at its start), alltoall(v) (input in recvbuf;
 *                            sendcnt(s), sdispls, sendtype ignored: the receive
 *                            counts are used both ways), allgather(v) (own block
 *                            already at its place in recvbuf; sendcnt, sendtype
 *                            ignored)
 *   sendbuf at the root      reduce (input in recvbuf), gather(v) (root's block
 *                            already in place; sendcnt, sendtype ignored)
 *   recvbuf at the root      bcast, scatter(v) (the root's own part stays in
 *                            sendbuf; recvcnt, recvtype ignored)
 * "Every member" means all or none: a team where some members pass it and some do
 * not gets UPCCOLL_ERROR_SENDBUF everywhere; so does UPCCOLL_IN_PLACE on a member
 * or in an argument the table does not name (UPCCOLL_ERROR_RECVBUF for recvbuf). */
#define UPCCOLL_IN_PLACE (::upc::sptr<void>(::upc::shared_address{~std::uint64_t{0}, ~std::uint32_t{0}, 0}))

upccoll_return_t upccoll_barrier(upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_bcast(upc::sptr<void> sendbuf, size_t sendcount, upccoll_dtype_t sendtype,
                               upc::sptr<void> recvbuf, size_t recvcount, upccoll_dtype_t recvtype, int root,
                               upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_scatter(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                 upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root,
                                 upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_scatterv(upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                                  upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t recvcnt,
                                  upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags,
                                  upccoll_handle_t* handle);
upccoll_return_t upccoll_gather(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root,
                                upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_gatherv(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                 upc::sptr<void> recvbuf, size_t* recvcnts, size_t* rdispls,
                                 upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags,
                                 upccoll_handle_t* handle);
upccoll_return_t upccoll_allgather(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                   upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype,
                                   upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_allgatherv(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                    upc::sptr<void> recvbuf, size_t* recvcnts, size_t* displs,
                                    upccoll_dtype_t recvtype, upccoll_team_t team, upccoll_flag_t flags,
                                    upccoll_handle_t* handle);
upccoll_return_t upccoll_alltoall(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                  upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype,
                                  upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_alltoallv(upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                                   upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t* recvcnts,
                                   size_t* rdispls, upccoll_dtype_t recvtype, upccoll_team_t team,
                                   upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_reduce(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                                upccoll_op_t op, int root, upccoll_team_t team, upccoll_flag_t flags,
                                upccoll_handle_t* handle);
upccoll_return_t upccoll_allreduce(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count,
                                   upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags,
                                   upccoll_handle_t* handle);
upccoll_return_t upccoll_reduce_scatter(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t* recvcounts,
                                        upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team,
                                        upccoll_flag_t flags, upccoll_handle_t* handle);
/* SCANS — READ THIS, MPI USERS: upccoll_scan IS EXCLUSIVE (MPI_Exscan), NOT
 * MPI_Scan. The paper's formula (§3.5.14) gives recvbuf on rank l >= 1
 * sendbuf_0 op … op sendbuf_(l-1); rank 0's recvbuf is left as it was.
 *   upccoll_exscan          (extension) the same call under MPI's name: prefer
 *                           it where MPI readers will see the code
 *   upccoll_scan_inclusive  (extension, MPI_Scan) rank l gets
 *                           sendbuf_0 op … op sendbuf_l
 * Operands combine in ascending rank order. */
upccoll_return_t upccoll_scan(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                              upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_exscan(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                                upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
upccoll_return_t upccoll_scan_inclusive(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count,
                                        upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team,
                                        upccoll_flag_t flags, upccoll_handle_t* handle);
