// The C side of upcc's <upccoll.h> (tools/upcc/include/upccoll.h, docs/upcc.md
// "Library headers"): extern "C" wrappers over the C++ runtime's <upccoll.h>.
// Functions with a pointer-to-shared keep their names (the C overload takes
// upcemu_sptr); the others are upcemu_upccoll_* (the UPC header's __asm__
// labels), since the C++ functions have the same parameters.
#include <source_location>

#include "upcemu_c.h"
#include "upccoll.h"

namespace {
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(upc::shared_address{p.offset, p.thread, p.phase}); }
}  // namespace

extern "C" {
upcemu_sptr upcemu_upccoll_in_place(void) {
  const upc::shared_address a = UPCCOLL_IN_PLACE.address();
  return upcemu_sptr{a.offset, a.thread, a.phase};
}

const char* upcemu_upccoll_error_name(upccoll_return_t code) { return upccoll_error_name(code); }
upccoll_return_t upcemu_upccoll_op_create(upccoll_user_fun* function, int commute, upccoll_op_t* op) { return upccoll_op_create(function, commute, op); }
upccoll_return_t upcemu_upccoll_op_free(upccoll_op_t op) { return upccoll_op_free(op); }
upccoll_return_t upcemu_upccoll_op_commutative(upccoll_op_t op, int* commute) { return upccoll_op_commutative(op, commute); }
upccoll_return_t upcemu_upccoll_reduce_local(const void* inbuf, void* inoutbuf, size_t count, upccoll_dtype_t dt, upccoll_op_t op) { return upccoll_reduce_local(inbuf, inoutbuf, count, dt, op); }
upccoll_return_t upcemu_upccoll_type_size(upccoll_dtype_t dt, size_t* nbytes) { return upccoll_type_size(dt, nbytes); }
upccoll_return_t upccoll_initialize(int* argc, char*** argv) {
  return upccoll_initialize(argc, argv, std::source_location::current());
}
upccoll_return_t upccoll_finalize(void) {
  return upccoll_finalize(std::source_location::current());
}
int upcemu_upccoll_test(upccoll_handle_t h) { return upccoll_test(h); }
void upcemu_upccoll_wait(upccoll_handle_t h) { upccoll_wait(h); }
void upcemu_upccoll_fence(void) { upccoll_fence(); }
upccoll_return_t upcemu_upccoll_wait_status(upccoll_handle_t h) { return upccoll_wait_status(h); }
upccoll_return_t upcemu_upccoll_waitall(int count, upccoll_handle_t* handles, upccoll_return_t* statuses) { return upccoll_waitall(count, handles, statuses); }
int upcemu_upccoll_testall(int count, upccoll_handle_t* handles, upccoll_return_t* statuses) { return upccoll_testall(count, handles, statuses); }
upccoll_return_t upcemu_upccoll_team_rank(upccoll_team_t team, int* rank) { return upccoll_team_rank(team, rank); }
upccoll_return_t upcemu_upccoll_team_size(upccoll_team_t team, int* size) { return upccoll_team_size(team, size); }
upccoll_return_t upcemu_upccoll_team_split(upccoll_team_t team, int color, int key, upccoll_team_t* newteam) { return upccoll_team_split(team, color, key, newteam); }
upccoll_return_t upcemu_upccoll_team_split_type(upccoll_team_t team, int split_type, int key, upccoll_team_t* newteam) { return upccoll_team_split_type(team, split_type, key, newteam); }
void upcemu_upccoll_team_free(upccoll_team_t team) { upccoll_team_free(team); }
upccoll_return_t upcemu_upccoll_barrier(upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_barrier(team, flags, handle); }
upccoll_return_t upccoll_bcast(upcemu_sptr sendbuf, size_t sendcount, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t recvcount, upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_bcast(vptr(sendbuf), sendcount, sendtype, vptr(recvbuf), recvcount, recvtype, root, team, flags, handle); }
upccoll_return_t upccoll_scatter(upcemu_sptr sendbuf, size_t sendcnt, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_scatter(vptr(sendbuf), sendcnt, sendtype, vptr(recvbuf), recvcnt, recvtype, root, team, flags, handle); }
upccoll_return_t upccoll_scatterv(upcemu_sptr sendbuf, size_t* sendcnts, size_t* sdispls, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_scatterv(vptr(sendbuf), sendcnts, sdispls, sendtype, vptr(recvbuf), recvcnt, recvtype, root, team, flags, handle); }
upccoll_return_t upccoll_gather(upcemu_sptr sendbuf, size_t sendcnt, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_gather(vptr(sendbuf), sendcnt, sendtype, vptr(recvbuf), recvcnt, recvtype, root, team, flags, handle); }
upccoll_return_t upccoll_gatherv(upcemu_sptr sendbuf, size_t sendcnt, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t* recvcnts, size_t* rdispls, upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_gatherv(vptr(sendbuf), sendcnt, sendtype, vptr(recvbuf), recvcnts, rdispls, recvtype, root, team, flags, handle); }
upccoll_return_t upccoll_allgather(upcemu_sptr sendbuf, size_t sendcnt, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_allgather(vptr(sendbuf), sendcnt, sendtype, vptr(recvbuf), recvcnt, recvtype, team, flags, handle); }
upccoll_return_t upccoll_allgatherv(upcemu_sptr sendbuf, size_t sendcnt, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t* recvcnts, size_t* displs, upccoll_dtype_t recvtype, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_allgatherv(vptr(sendbuf), sendcnt, sendtype, vptr(recvbuf), recvcnts, displs, recvtype, team, flags, handle); }
upccoll_return_t upccoll_alltoall(upcemu_sptr sendbuf, size_t sendcnt, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_alltoall(vptr(sendbuf), sendcnt, sendtype, vptr(recvbuf), recvcnt, recvtype, team, flags, handle); }
upccoll_return_t upccoll_alltoallv(upcemu_sptr sendbuf, size_t* sendcnts, size_t* sdispls, upccoll_dtype_t sendtype, upcemu_sptr recvbuf, size_t* recvcnts, size_t* rdispls, upccoll_dtype_t recvtype, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_alltoallv(vptr(sendbuf), sendcnts, sdispls, sendtype, vptr(recvbuf), recvcnts, rdispls, recvtype, team, flags, handle); }
upccoll_return_t upccoll_reduce(upcemu_sptr sendbuf, upcemu_sptr recvbuf, size_t count, upccoll_dtype_t dt, upccoll_op_t op, int root, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_reduce(vptr(sendbuf), vptr(recvbuf), count, dt, op, root, team, flags, handle); }
upccoll_return_t upccoll_allreduce(upcemu_sptr sendbuf, upcemu_sptr recvbuf, size_t count, upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_allreduce(vptr(sendbuf), vptr(recvbuf), count, dt, op, team, flags, handle); }
upccoll_return_t upccoll_reduce_scatter(upcemu_sptr sendbuf, upcemu_sptr recvbuf, size_t* recvcounts, upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_reduce_scatter(vptr(sendbuf), vptr(recvbuf), recvcounts, dt, op, team, flags, handle); }
upccoll_return_t upccoll_scan(upcemu_sptr sendbuf, upcemu_sptr recvbuf, size_t count, upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_scan(vptr(sendbuf), vptr(recvbuf), count, dt, op, team, flags, handle); }
upccoll_return_t upccoll_exscan(upcemu_sptr sendbuf, upcemu_sptr recvbuf, size_t count, upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_exscan(vptr(sendbuf), vptr(recvbuf), count, dt, op, team, flags, handle); }
upccoll_return_t upccoll_scan_inclusive(upcemu_sptr sendbuf, upcemu_sptr recvbuf, size_t count, upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) { return upccoll_scan_inclusive(vptr(sendbuf), vptr(recvbuf), count, dt, op, team, flags, handle); }
}  // extern "C"
