// <upccoll.h>: the UPC Collectives 2.0 collectives as a front-end of the task
// executor (lib/coll/engine.hpp). Each call checks its arguments in a
// fixed order (upccoll_args.hpp: the first problem decides the returned code),
// lists the byte areas it reads and writes on this thread, takes
// UPCCOLL_IN_PLACE where MPI's rules put it, and says what this member passes;
// the engine chooses the decomposition, posts, and completes. A call that fails
// locally on a valid team still posts — as a failure — so the other members'
// calls end with the same code instead of waiting forever. Under --check every
// failure is also printed, naming the function, the argument and the thread.
#include "upccoll.h"

#include <algorithm>

#include "upccoll_args.hpp"

using namespace upccoll_front;
using upc::coll::collective;

namespace {

// Every collective starts here. A blocking call whose raw arguments (`raw`,
// null for the calls that have none) repeat this thread's last good call of
// the collective runs at once from what was remembered (run_remembered).
// Otherwise: the checks that need none of its own arguments (an initialised
// library, a usable team, the flags), then `body` with the call being
// checked; a call that cannot even be posted returns its code at once.
// Inlined into the API function, so that its return address is the program's.
template <class Body>
[[gnu::always_inline]] inline upccoll_return_t start(collective kind, const char* function, upccoll_team_t team,
                                                     upccoll_flag_t flags, upccoll_handle_t* handle,
                                                     const raw_args* raw, Body&& body) {
  upccoll_return_t done;
  if (raw && run_remembered(kind, function, team, flags, handle, *raw, done)) return done;
  call_args a{kind, function, team, flags, handle};
  a.caller = __builtin_return_address(0);
  upccoll_return_t early;
  if (!begin(a, early)) return early;
  return body(a);
}

// The root of a rooted call, checked (the call's root is 0 when it is not
// valid): whether this member is the root.
bool take_root(call_args& a, int root) {
  check_root(a.v, root, a.P);
  a.c.root = a.v.bad() ? 0 : root;
  return !a.v.bad() && root == a.me;
}

// One side's fixed-size blocks (recv: the receive side, else the send side):
// `count` elements of `type` a block, `blocks` blocks of `buf` checked and
// noted; sets the side's block bytes and its area.
void fixed_blocks(call_args& a, bool recv, upc::sptr<void> buf, size_t count, const dtype_info& type, std::uint64_t blocks) {
  tasks::call& c = a.c;
  const char* count_arg = recv ? "recvcnt" : "sendcnt";
  const char* buf_arg = recv ? "recvbuf" : "sendbuf";
  std::uint64_t& bytes = recv ? c.recv_bytes : c.send_bytes;
  char*& area = recv ? c.recv : c.send;
  bytes = bytes_of(a.v, count, type.size, count_arg, UPCCOLL_ERROR_COUNT);
  const std::uint64_t all = bytes_of(a.v, bytes, blocks, count_arg, UPCCOLL_ERROR_COUNT);
  area = use_buffer(a, buf, all, buf_arg, recv ? UPCCOLL_ERROR_RECVBUF : UPCCOLL_ERROR_SENDBUF);
  note(a, recv, buf_arg, area, 0, all);
}

// In place, a v-variant member's block of one side (recv: the receive side)
// is in its buffer of the other side, where its count and displacement put it.
void own_block_in_place(call_args& a, bool recv) {
  tasks::call& c = a.c;
  (recv ? c.recv_bytes : c.send_bytes) = c.meta[std::size_t(a.me)];
  (recv ? c.recv : c.send) = (recv ? c.send : c.recv) + c.meta[std::size_t(a.P + a.me)];
}

// A pointer-to-shared as one raw word.
std::uint64_t u(upc::sptr<void> p) {
  const upc::shared_address x = p.address();
  return (x.offset << 16) ^ (std::uint64_t(x.thread) << 1) ^ x.phase;
}
std::uint64_t u(std::uint64_t x) { return x; }

// The raw arguments of a fixed-size movement (rooted: with its root).
raw_args movement_raw(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype, upc::sptr<void> recvbuf,
                      size_t recvcnt, upccoll_dtype_t recvtype, int root, upccoll_flag_t flags) {
  return raw_args{{u(sendbuf), u(sendcnt), u(std::uint64_t(sendtype)), u(recvbuf), u(recvcnt),
                   u(std::uint64_t(recvtype)), u(std::uint64_t(root)), u(std::uint64_t(flags))}};
}

// The raw arguments of a reduction (root 0 where there is none: on the same
// team the root also says whether this member receives).
raw_args reduction_raw(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                       upccoll_op_t op, int root, upccoll_flag_t flags) {
  return raw_args{{u(sendbuf), u(recvbuf), u(count), u(std::uint64_t(dt)), u(op), u(std::uint64_t(root)),
                   u(std::uint64_t(flags))}};
}

}  // namespace

upccoll_return_t upccoll_barrier(upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  // Only the flags: a barrier like the last one is described once.
  const raw_args raw{{static_cast<std::uint64_t>(flags)}};
  return start(collective::barrier, "upccoll_barrier", team, flags, handle, &raw, [&](call_args& a) {
    if (repeat(a, raw)) return launch_repeat(a);
    a.raw = &raw;
    return launch(a);
  });
}

namespace {

// bcast / scatter / gather: the fixed-size rooted collectives. In place at the
// root: gather's sendbuf (the root's block is already in recvbuf), bcast's and
// scatter's recvbuf (the root's part stays in sendbuf).
upccoll_return_t rooted(call_args& a, upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                        upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root) {
  verdict& v = a.v;
  tasks::call& c = a.c;
  const bool gather = c.kind == collective::member_gather;
  const bool at_root = take_root(a, root);
  c.in_place = gather ? in_place_here(a, sendbuf, true, at_root) : in_place_here(a, recvbuf, false, at_root);
  const bool uses_send = gather ? !c.in_place : at_root, uses_recv = gather ? at_root : !c.in_place;
  const dtype_info* st = uses_send ? check_type(v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype") : nullptr;
  const dtype_info* rt = uses_recv ? check_type(v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype") : nullptr;
  if (v.bad()) return launch(a);
  const std::uint64_t sblocks = c.kind == collective::member_scatter ? std::uint64_t(a.P) : 1;
  const std::uint64_t rblocks = gather ? std::uint64_t(a.P) : 1;
  if (uses_send) fixed_blocks(a, false, sendbuf, sendcnt, *st, sblocks);
  if (uses_recv) fixed_blocks(a, true, recvbuf, recvcnt, *rt, rblocks);
  if (c.in_place && !v.bad()) {
    if (gather) {  // the root sends its block of recvbuf to itself
      c.send_bytes = c.recv_bytes;
      c.send = c.recv ? c.recv + std::uint64_t(c.root) * c.recv_bytes : nullptr;
    } else {  // the root receives its own part of sendbuf where it is
      c.recv_bytes = c.send_bytes;
      const std::uint64_t at = c.kind == collective::member_scatter ? std::uint64_t(c.root) * c.send_bytes : 0;
      c.recv = c.send ? c.send + at : nullptr;
    }
  }
  // The root's own block goes both ways: its send and receive blocks agree.
  if (!v.bad() && at_root && uses_send && uses_recv && c.send_bytes != c.recv_bytes)
    v.set(UPCCOLL_ERROR_COUNT, "sendcnt x size(sendtype) = " + std::to_string(c.send_bytes) +
                                   " bytes but recvcnt x size(recvtype) = " + std::to_string(c.recv_bytes) +
                                   " at the root (its own block goes both ways)");
  c.selection_bytes = gather ? c.send_bytes : c.recv_bytes;
  return launch(a);
}

}  // namespace

namespace {

// scatterv: the root's blocks of sendbuf, at the counts and displacements it
// gives, one to each member. In place at the root: its block stays in sendbuf.
upccoll_return_t scatterv(call_args& a, upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                          upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype,
                          int root) {
  verdict& v = a.v;
  tasks::call& c = a.c;
  const bool at_root = take_root(a, root);
  c.in_place = in_place_here(a, recvbuf, false, at_root);  // the root's block stays in sendbuf
  const dtype_info* st = at_root ? check_type(v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype") : nullptr;
  const dtype_info* rt = c.in_place ? nullptr : check_type(v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype");
  if (at_root && st)
    c.meta = check_vector(a, sendcnts, sdispls, st->size, sendbuf, "sendcnts", "sdispls", UPCCOLL_ERROR_SENDCNTS,
                          UPCCOLL_ERROR_SDISPLS, false);
  if (at_root && !v.bad()) c.send = local_address(sendbuf);
  if (rt) fixed_blocks(a, true, recvbuf, recvcnt, *rt, 1);
  if (c.in_place && !v.bad()) own_block_in_place(a, true);
  c.selection_bytes = c.recv_bytes;
  return launch(a);
}

}  // namespace

upccoll_return_t upccoll_scatterv(upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                                  upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t recvcnt,
                                  upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags,
                                  upccoll_handle_t* handle) {
  return start(collective::member_scatterv, "upccoll_scatterv", team, flags, handle, nullptr, [&](call_args& a) {
    return scatterv(a, sendbuf, sendcnts, sdispls, sendtype, recvbuf, recvcnt, recvtype, root);
  });
}

namespace {
// gatherv / allgatherv: one send block from every member, received into the
// blocks of recvbuf that counts and displacements give, at the root (gatherv)
// or on every member (allgatherv). In place: the member's block is already in
// recvbuf.
upccoll_return_t gather_v(call_args& a, upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                          upc::sptr<void> recvbuf, size_t* recvcnts, size_t* displs, const char* displs_arg,
                          upccoll_dtype_t recvtype, bool receives_here) {
  verdict& v = a.v;
  tasks::call& c = a.c;
  c.in_place = in_place_here(a, sendbuf, true, receives_here);
  const dtype_info* st = c.in_place ? nullptr : check_type(v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype");
  const dtype_info* rt = receives_here ? check_type(v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype") : nullptr;
  if (st) fixed_blocks(a, false, sendbuf, sendcnt, *st, 1);
  if (receives_here && rt) {
    c.meta = check_vector(a, recvcnts, displs, rt->size, recvbuf, "recvcnts", displs_arg, UPCCOLL_ERROR_RECVCNTS,
                          UPCCOLL_ERROR_RDISPLS, true, c.in_place ? a.me : -1);
    if (!v.bad()) c.recv = local_address(recvbuf);
  }
  if (c.in_place && !v.bad()) own_block_in_place(a, false);
  c.selection_bytes = c.send_bytes;
  return launch(a);
}
}  // namespace

upccoll_return_t upccoll_gatherv(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                 upc::sptr<void> recvbuf, size_t* recvcnts, size_t* rdispls,
                                 upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags,
                                 upccoll_handle_t* handle) {
  return start(collective::member_gatherv, "upccoll_gatherv", team, flags, handle, nullptr, [&](call_args& a) {
    const bool at_root = take_root(a, root);
    return gather_v(a, sendbuf, sendcnt, sendtype, recvbuf, recvcnts, rdispls, "rdispls", recvtype, at_root);
  });
}

namespace {
// allgather / alltoall: fixed blocks from and to every member. In place (every
// member): allgather's input is the member's own block of recvbuf, alltoall's
// the whole recvbuf (staged by the engine before it is overwritten).
upccoll_return_t all_to_all(call_args& a, upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                            upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype) {
  verdict& v = a.v;
  tasks::call& c = a.c;
  const bool personalised = c.kind == collective::member_exchange;
  c.in_place = in_place_here(a, sendbuf, true, false);
  const dtype_info* st = c.in_place ? nullptr : check_type(v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype");
  const dtype_info* rt = check_type(v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype");
  if (v.bad()) return launch(a);
  const std::uint64_t P = std::uint64_t(a.P);
  if (!c.in_place) fixed_blocks(a, false, sendbuf, sendcnt, *st, personalised ? P : 1);
  fixed_blocks(a, true, recvbuf, recvcnt, *rt, P);
  if (c.in_place && !v.bad()) {
    c.send_bytes = c.recv_bytes;
    c.send = personalised ? c.recv : (c.recv ? c.recv + std::uint64_t(a.me) * c.recv_bytes : nullptr);
  }
  if (!v.bad() && c.send_bytes != c.recv_bytes)
    v.set(UPCCOLL_ERROR_COUNT, "sendcnt x size(sendtype) = " + std::to_string(c.send_bytes) +
                                   " bytes but recvcnt x size(recvtype) = " + std::to_string(c.recv_bytes) +
                                   " (every member sends and receives blocks of one size)");
  c.selection_bytes = c.send_bytes;
  return launch(a);
}
}  // namespace

namespace {
// The fixed-size movements, one entry for all five: bcast, scatter and gather
// (rooted) and allgather and alltoall (root 0). Inlined into the API
// function, as start() must be.
[[gnu::always_inline]] inline upccoll_return_t movement(collective kind, const char* function, bool has_root,
                                                        upc::sptr<void> sendbuf, size_t sendcnt,
                                                        upccoll_dtype_t sendtype, upc::sptr<void> recvbuf,
                                                        size_t recvcnt, upccoll_dtype_t recvtype, int root,
                                                        upccoll_team_t team, upccoll_flag_t flags,
                                                        upccoll_handle_t* handle) {
  const raw_args raw = movement_raw(sendbuf, sendcnt, sendtype, recvbuf, recvcnt, recvtype, root, flags);
  return start(kind, function, team, flags, handle, &raw, [&](call_args& a) {
    if (repeat(a, raw)) return launch_repeat(a);  // with a handle, or under --check=races
    a.raw = &raw;
    return has_root ? rooted(a, sendbuf, sendcnt, sendtype, recvbuf, recvcnt, recvtype, root)
                    : all_to_all(a, sendbuf, sendcnt, sendtype, recvbuf, recvcnt, recvtype);
  });
}
}  // namespace

upccoll_return_t upccoll_bcast(upc::sptr<void> sendbuf, size_t sendcount, upccoll_dtype_t sendtype,
                               upc::sptr<void> recvbuf, size_t recvcount, upccoll_dtype_t recvtype, int root,
                               upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  return movement(collective::member_broadcast, "upccoll_bcast", true, sendbuf, sendcount, sendtype, recvbuf,
                  recvcount, recvtype, root, team, flags, handle);
}

upccoll_return_t upccoll_scatter(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                 upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root,
                                 upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  return movement(collective::member_scatter, "upccoll_scatter", true, sendbuf, sendcnt, sendtype, recvbuf, recvcnt,
                  recvtype, root, team, flags, handle);
}

upccoll_return_t upccoll_gather(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root,
                                upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  return movement(collective::member_gather, "upccoll_gather", true, sendbuf, sendcnt, sendtype, recvbuf, recvcnt,
                  recvtype, root, team, flags, handle);
}

upccoll_return_t upccoll_allgather(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                   upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype,
                                   upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  return movement(collective::member_gather_all, "upccoll_allgather", false, sendbuf, sendcnt, sendtype, recvbuf,
                  recvcnt, recvtype, 0, team, flags, handle);
}

upccoll_return_t upccoll_alltoall(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                  upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype,
                                  upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  return movement(collective::member_exchange, "upccoll_alltoall", false, sendbuf, sendcnt, sendtype, recvbuf,
                  recvcnt, recvtype, 0, team, flags, handle);
}

upccoll_return_t upccoll_allgatherv(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                    upc::sptr<void> recvbuf, size_t* recvcnts, size_t* displs,
                                    upccoll_dtype_t recvtype, upccoll_team_t team, upccoll_flag_t flags,
                                    upccoll_handle_t* handle) {
  return start(collective::member_gather_allv, "upccoll_allgatherv", team, flags, handle, nullptr, [&](call_args& a) {
    return gather_v(a, sendbuf, sendcnt, sendtype, recvbuf, recvcnts, displs, "displs", recvtype, true);
  });
}

namespace {

// alltoallv: block k of sendbuf to member k, at each side's counts and
// displacements. In place (every member): sendcnts, sdispls and sendtype are
// ignored; the receive blocks are sent too, so block k goes to member k and
// comes back from it.
upccoll_return_t alltoallv(call_args& a, upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                           upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t* recvcnts, size_t* rdispls,
                           upccoll_dtype_t recvtype) {
  verdict& v = a.v;
  const int P = a.P;
  tasks::call& c = a.c;
  c.in_place = in_place_here(a, sendbuf, true, false);
  const dtype_info* st = c.in_place ? nullptr : check_type(v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype");
  const dtype_info* rt = check_type(v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype");
  std::vector<std::uint64_t> s, r;
  if (st) s = check_vector(a, sendcnts, sdispls, st->size, sendbuf, "sendcnts", "sdispls", UPCCOLL_ERROR_SENDCNTS,
                           UPCCOLL_ERROR_SDISPLS, false);
  if (rt) r = check_vector(a, recvcnts, rdispls, rt->size, recvbuf, "recvcnts", "rdispls", UPCCOLL_ERROR_RECVCNTS,
                           UPCCOLL_ERROR_RDISPLS, true);
  if (!v.bad()) {
    if (c.in_place) s = r;
    c.meta = std::move(s);
    c.meta.insert(c.meta.end(), r.begin(), r.end());
    c.recv = local_address(recvbuf);
    c.send = c.in_place ? c.recv : local_address(sendbuf);
    for (int k = 0; k < P; ++k) c.selection_bytes = std::max(c.selection_bytes, c.meta[std::size_t(k)]);
  }
  return launch(a);
}

}  // namespace

upccoll_return_t upccoll_alltoallv(upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                                   upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t* recvcnts,
                                   size_t* rdispls, upccoll_dtype_t recvtype, upccoll_team_t team,
                                   upccoll_flag_t flags, upccoll_handle_t* handle) {
  return start(collective::member_exchangev, "upccoll_alltoallv", team, flags, handle, nullptr, [&](call_args& a) {
    return alltoallv(a, sendbuf, sendcnts, sdispls, sendtype, recvbuf, recvcnts, rdispls, recvtype);
  });
}

namespace {
// reduce / allreduce / scans: `count` elements in and out (the root's receive
// buffer only, for reduce). In place (every member; reduce: the root): the
// input is recvbuf, which the result replaces.
upccoll_return_t reduction(call_args& a, const raw_args& raw, upc::sptr<void> sendbuf, upc::sptr<void> recvbuf,
                           size_t count, upccoll_dtype_t dt, upccoll_op_t op, bool recv_here) {
  verdict& v = a.v;
  tasks::call& c = a.c;
  if (repeat(a, raw)) return launch_repeat(a);
  if (op < UPCCOLL_USER_OP_BASE) a.raw = &raw;  // a user op may be freed: always checked
  c.in_place = in_place_here(a, sendbuf, true, recv_here);
  c.eop = check_reduction(a, dt, op);
  c.count = count;
  if (v.bad()) return launch(a);
  const std::uint64_t bytes = bytes_of(v, count, c.eop.size, "count", UPCCOLL_ERROR_COUNT);
  if (!c.in_place) {
    c.send = use_buffer(a, sendbuf, bytes, "sendbuf", UPCCOLL_ERROR_SENDBUF);
    note(a, false, "sendbuf", c.send, 0, bytes);
  }
  if (recv_here) {
    c.recv = use_buffer(a, recvbuf, bytes, "recvbuf", UPCCOLL_ERROR_RECVBUF);
    const bool writes = !(c.kind == collective::member_exclusive_scan && a.me == 0);  // rank 0's stays as it is
    if (writes) note(a, true, "recvbuf", c.recv, 0, bytes);
  }
  if (c.in_place && !v.bad()) c.send = c.recv;
  c.selection_bytes = bytes;
  return launch(a);
}
}  // namespace

upccoll_return_t upccoll_reduce(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                                upccoll_op_t op, int root, upccoll_team_t team, upccoll_flag_t flags,
                                upccoll_handle_t* handle) {
  const raw_args raw = reduction_raw(sendbuf, recvbuf, count, dt, op, root, flags);
  return start(collective::member_reduce, "upccoll_reduce", team, flags, handle, &raw, [&](call_args& a) {
    const bool at_root = take_root(a, root);
    return reduction(a, raw, sendbuf, recvbuf, count, dt, op, at_root);
  });
}

namespace {
// allreduce and the scans: a reduction on every member, no root. Inlined into
// the API function, as start() must be.
[[gnu::always_inline]] inline upccoll_return_t everyone_reduces(collective kind, const char* function,
                                                                upc::sptr<void> sendbuf, upc::sptr<void> recvbuf,
                                                                size_t count, upccoll_dtype_t dt, upccoll_op_t op,
                                                                upccoll_team_t team, upccoll_flag_t flags,
                                                                upccoll_handle_t* handle) {
  const raw_args raw = reduction_raw(sendbuf, recvbuf, count, dt, op, 0, flags);
  return start(kind, function, team, flags, handle, &raw,
               [&](call_args& a) { return reduction(a, raw, sendbuf, recvbuf, count, dt, op, true); });
}
}  // namespace

upccoll_return_t upccoll_allreduce(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count,
                                   upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags,
                                   upccoll_handle_t* handle) {
  return everyone_reduces(collective::member_allreduce, "upccoll_allreduce", sendbuf, recvbuf, count, dt, op, team,
                          flags, handle);
}

upccoll_return_t upccoll_scan(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                              upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  return everyone_reduces(collective::member_exclusive_scan, "upccoll_scan", sendbuf, recvbuf, count, dt, op, team,
                          flags, handle);
}

upccoll_return_t upccoll_exscan(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                                upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  return everyone_reduces(collective::member_exclusive_scan, "upccoll_exscan", sendbuf, recvbuf, count, dt, op, team,
                          flags, handle);
}

upccoll_return_t upccoll_scan_inclusive(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count,
                                        upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team,
                                        upccoll_flag_t flags, upccoll_handle_t* handle) {
  return everyone_reduces(collective::member_inclusive_scan, "upccoll_scan_inclusive", sendbuf, recvbuf, count, dt,
                          op, team, flags, handle);
}

namespace {

// reduce_scatter: the vectors reduced, member t's block (recvcounts[t]
// elements) to member t. In place (every member): recvbuf holds the whole
// input vector; member t's block of the result replaces its start.
upccoll_return_t reduce_scatter(call_args& a, upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t* recvcounts,
                                upccoll_dtype_t dt, upccoll_op_t op) {
  verdict& v = a.v;
  const int P = a.P, me = a.me;
  tasks::call& c = a.c;
  c.in_place = in_place_here(a, sendbuf, true, false);
  c.eop = check_reduction(a, dt, op);
  if (!v.bad() && !recvcounts) v.set(UPCCOLL_ERROR_RECVCNTS, "recvcounts is a null pointer");
  if (!v.bad()) {
    c.block_elems.assign(std::size_t(P) + 1, 0);
    for (int r = 0; r < P; ++r)
      if (__builtin_add_overflow(c.block_elems[std::size_t(r)], recvcounts[r], &c.block_elems[std::size_t(r) + 1]))
        v.set(UPCCOLL_ERROR_RECVCNTS, "recvcounts sum overflows");
  }
  if (!v.bad()) {
    c.count = c.block_elems[std::size_t(P)];
    const std::uint64_t total = bytes_of(v, c.count, c.eop.size, "recvcounts (sum)", UPCCOLL_ERROR_RECVCNTS);
    const std::uint64_t mine = bytes_of(v, recvcounts[me], c.eop.size, "recvcounts", UPCCOLL_ERROR_RECVCNTS);
    if (!c.in_place) {
      c.send = use_buffer(a, sendbuf, total, "sendbuf", UPCCOLL_ERROR_SENDBUF);
      note(a, false, "sendbuf", c.send, 0, total);
    }
    c.recv = use_buffer(a, recvbuf, c.in_place ? total : mine, "recvbuf", UPCCOLL_ERROR_RECVBUF);
    note(a, true, "recvbuf", c.recv, 0, mine);
    if (c.in_place && !v.bad()) c.send = c.recv;
    c.selection_bytes = total;
  }
  return launch(a);
}

}  // namespace

upccoll_return_t upccoll_reduce_scatter(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t* recvcounts,
                                        upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team,
                                        upccoll_flag_t flags, upccoll_handle_t* handle) {
  return start(collective::member_reduce_scatter, "upccoll_reduce_scatter", team, flags, handle, nullptr,
               [&](call_args& a) { return reduce_scatter(a, sendbuf, recvbuf, recvcounts, dt, op); });
}
