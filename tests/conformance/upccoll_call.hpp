// One <upccoll.h> call of a conformance case on the calling thread
// (upccoll_harness.hpp): the user ops of a run, the case's team (splits of
// UPC_TEAM_ALL), the windows filled, this rank's arguments (NULL or garbage
// where the collective ignores them, UPCCOLL_IN_PLACE where the case asks),
// the start, the completion (blocking, wait, test or fence), and the scribble
// over the send window once nobody may read it.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "../support/upccoll_model.hpp"
#include "upc.h"
#include "upccoll.h"
#include "upccoll_cases.hpp"
#include "upccoll_checks.hpp"
#include "upccoll_inputs.hpp"

namespace uconf {

namespace M = upccoll_model;
using M::collective;

// The user ops of one run (created by every thread after upccoll_initialize).
struct user_ops {
  upccoll_op_t affine = 0, matrix = 0, dsum = 0;
  void create() {
    UC_OK(upccoll_op_create(&affine_compose, 0, &affine));
    UC_OK(upccoll_op_create(&matrix_product, 0, &matrix));
    UC_OK(upccoll_op_create(&double_sum, 1, &dsum));
    if (affine < UPCCOLL_USER_OP_BASE || matrix < UPCCOLL_USER_OP_BASE || dsum < UPCCOLL_USER_OP_BASE)
      fail("upccoll_op_create gave an op below UPCCOLL_USER_OP_BASE");
    if (affine == matrix || matrix == dsum || affine == dsum) fail("upccoll_op_create gave the same op twice");
  }
  void free() {
    UC_OK(upccoll_op_free(affine));
    UC_OK(upccoll_op_free(matrix));
    UC_OK(upccoll_op_free(dsum));
  }
  upccoll_op_t map(upccoll_op_t op) const {
    return op == op_affine ? affine : op == op_matrix ? matrix : op == op_dsum ? dsum : op;
  }
};

// ---------------------------------------------------------------------------
// Calling a collective with one rank's arguments

struct my_args {
  upc::sptr<void> sendbuf, recvbuf;
  std::size_t sendcount = 0, recvcount = 0;
  upccoll_dtype_t sendtype = UPC_BYTE, recvtype = UPC_BYTE;
  std::size_t *sendcnts = nullptr, *sdispls = nullptr, *recvcnts = nullptr, *rdispls = nullptr;
  int root = 0;
  upccoll_dtype_t dt = UPC_INT;
  upccoll_op_t op = UPC_ADD;
  std::size_t count = 0;
  std::size_t* recvcounts = nullptr;
};

inline upccoll_return_t call_collective(collective k, my_args& a, upccoll_team_t team, upccoll_flag_t f,
                                        upccoll_handle_t* h) {
  switch (k) {
    case collective::barrier: return upccoll_barrier(team, f, h);
    case collective::bcast:
      return upccoll_bcast(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root, team, f, h);
    case collective::scatter:
      return upccoll_scatter(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root, team, f, h);
    case collective::scatterv:
      return upccoll_scatterv(a.sendbuf, a.sendcnts, a.sdispls, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root,
                              team, f, h);
    case collective::gather:
      return upccoll_gather(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root, team, f, h);
    case collective::gatherv:
      return upccoll_gatherv(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcnts, a.rdispls, a.recvtype, a.root,
                             team, f, h);
    case collective::allgather:
      return upccoll_allgather(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, team, f, h);
    case collective::allgatherv:
      return upccoll_allgatherv(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcnts, a.rdispls, a.recvtype, team,
                                f, h);
    case collective::alltoall:
      return upccoll_alltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, team, f, h);
    case collective::alltoallv:
      return upccoll_alltoallv(a.sendbuf, a.sendcnts, a.sdispls, a.sendtype, a.recvbuf, a.recvcnts, a.rdispls,
                               a.recvtype, team, f, h);
    case collective::reduce:
      return upccoll_reduce(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, a.root, team, f, h);
    case collective::allreduce: return upccoll_allreduce(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, team, f, h);
    case collective::reduce_scatter:
      return upccoll_reduce_scatter(a.sendbuf, a.recvbuf, a.recvcounts, a.dt, a.op, team, f, h);
    case collective::scan: return upccoll_scan(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, team, f, h);
    case collective::scan_inclusive:
      return upccoll_scan_inclusive(a.sendbuf, a.recvbuf, a.count, a.dt, a.op, team, f, h);
  }
  return UPCCOLL_ERROR;
}

// Completes a non-blocking call started with *h (blocking and fence: nothing).
inline void complete(completion how, upccoll_handle_t h, int variant, const std::string& what) {
  if (how == completion::wait) {
    if (h == UPCCOLL_INVALID_HANDLE) fail(what + ": a non-blocking call gave UPCCOLL_INVALID_HANDLE");
    if (variant & 1) {
      upccoll_wait(h);
    } else {
      expect_rc(upccoll_wait_status(h), UPCCOLL_SUCCESS, what + ": upccoll_wait_status");
    }
  } else if (how == completion::test) {
    if (h == UPCCOLL_INVALID_HANDLE) fail(what + ": a non-blocking call gave UPCCOLL_INVALID_HANDLE");
    const auto t0 = std::chrono::steady_clock::now();
    int r;
    while ((r = upccoll_test(h)) == 0) {
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60)) fail(what + ": upccoll_test never gave 1");
      std::this_thread::yield();
    }
    if (r != 1) fail(what + ": upccoll_test returned " + std::to_string(r) + " on a live handle");
    if (upccoll_test(h) != 1) fail(what + ": upccoll_test on a complete, not yet waited handle is not 1");
    expect_rc(upccoll_wait_status(h), UPCCOLL_SUCCESS, what + ": upccoll_wait_status after upccoll_test");
  } else if (how == completion::fence) {
    upccoll_fence();
  }
}

// One call in flight on the calling thread: its case, buffers, team, arguments
// (the count and displacement arrays stay alive until it completes) and handle.
struct in_flight {
  const prepared* p = nullptr;
  areas ar;
  std::string what;
  upccoll_team_t team = UPC_TEAM_ALL;
  std::vector<upccoll_team_t> made;  // the splits, outermost first
  std::vector<std::size_t> sendcnts, sdispls, recvcnts, rdispls, recvcounts;
  my_args a;
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
};

// The case's team (splits of UPC_TEAM_ALL), checked with team_rank / team_size.
inline void make_team(in_flight& x) {
  const prepared& p = *x.p;
  const int me = MYTHREAD;
  x.team = UPC_TEAM_ALL;
  for (int L = 0; L < p.plan.levels; ++L) {
    upccoll_team_t nt = nullptr;
    expect_rc(upccoll_team_split(x.team, p.plan.color[L][me], p.plan.key[L][me], &nt), UPCCOLL_SUCCESS, x.what + ": split");
    x.made.push_back(nt);
    x.team = nt;
  }
  const int rank = p.plan.rank[me], n = p.call_of[me].size;
  int r = -1, sz = -1;
  expect_rc(upccoll_team_rank(x.team, &r), UPCCOLL_SUCCESS, x.what + ": upccoll_team_rank");
  expect_rc(upccoll_team_size(x.team, &sz), UPCCOLL_SUCCESS, x.what + ": upccoll_team_size");
  if (r != rank || sz != n)
    fail(x.what + ": the team gives rank " + std::to_string(r) + " of " + std::to_string(sz) + ", the split asked for " +
         std::to_string(rank) + " of " + std::to_string(n));
}

inline void free_team(in_flight& x) {
  for (auto it = x.made.rbegin(); it != x.made.rend(); ++it) upccoll_team_free(*it);
  x.made.clear();
  x.team = UPC_TEAM_ALL;
}

// This thread's windows before the call (after a sleep if it is the late one).
inline void fill_data(in_flight& x) {
  const prepared& p = *x.p;
  const int me = MYTHREAD;
  if (p.c.late == me) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  send_window_bytes(p, me, 0, p.send_win[me], local_bytes(x.ar.send));
  fill_pattern<recv_word>(local_bytes(x.ar.recv), p.recv_win[me], me, p.c.seed, 0);
  place_input(p, me, local_bytes(x.ar.recv));
  if (p.c.kind == collective::barrier) {
    const std::uint64_t stamp = p.c.seed;
    upc_memput(upc::sptr<void>(address(me, x.ar.stamps)), &stamp, sizeof stamp);
    upc_fence;
  }
}

// Builds this rank's arguments and makes the call (its return code checked).
inline void start(in_flight& x, const user_ops& ops) {
  const prepared& p = *x.p;
  const ucase& c = p.c;
  const int me = MYTHREAD;
  const M::call& cl = p.call_of[me];
  const int rank = p.plan.rank[me];
  my_args& a = x.a;
  a.sendbuf = upc::sptr<void>(address(me, x.ar.send + p.send_skew[me]));
  a.recvbuf = upc::sptr<void>(address(me, x.ar.recv + p.recv_skew[me]));
  a.root = cl.root;
  if (M::is_reduction(c.kind)) {
    a.dt = c.sendtype;
    a.op = ops.map(c.op);
    a.count = cl.count;
    x.recvcounts = cl.recvcounts;
    a.recvcounts = x.recvcounts.empty() ? nullptr : x.recvcounts.data();
    if (c.garbage && c.kind == collective::reduce && rank != cl.root) a.recvbuf = nullptr;
  } else if (c.kind != collective::barrier) {
    const M::rank_args& ra = cl.ranks[rank];
    a.sendcount = ra.sendcount;
    a.recvcount = ra.recvcount;
    a.sendtype = ra.sendtype;
    a.recvtype = ra.recvtype;
    x.sendcnts = ra.sendcnts;
    x.sdispls = ra.sdispls;
    x.recvcnts = ra.recvcnts;
    x.rdispls = ra.rdispls;
    // Arrays a rank does not use stay null (or, below, junk).
    a.sendcnts = x.sendcnts.empty() ? nullptr : x.sendcnts.data();
    a.sdispls = x.sdispls.empty() ? nullptr : x.sdispls.data();
    a.recvcnts = x.recvcnts.empty() ? nullptr : x.recvcnts.data();
    a.rdispls = x.rdispls.empty() ? nullptr : x.rdispls.data();
    if (c.garbage && rank != cl.root) {
      switch (c.kind) {
        case collective::bcast:
        case collective::scatter:
        case collective::scatterv:
          a.sendbuf = nullptr;
          a.sendcount = 0xdeadbeefcafeULL;
          a.sendtype = 12345;
          a.sendcnts = a.sdispls = nullptr;
          break;
        case collective::gather:
        case collective::gatherv:
          a.recvbuf = nullptr;
          a.recvcount = 0xdeadbeefcafeULL;
          a.recvtype = -7;
          a.recvcnts = a.rdispls = nullptr;
          break;
        default: break;
      }
    } else if (rank != cl.root && (c.kind == collective::scatterv || c.kind == collective::gatherv)) {
      // arrays that make no sense on non-roots: they must be ignored too
      static std::size_t junk[32] = {std::size_t{1} << 30, 7, std::size_t{1} << 30, 3, 5, 1, 2, std::size_t{1} << 40};
      if (c.kind == collective::scatterv) a.sendcnts = a.sdispls = junk;
      else a.recvcnts = a.rdispls = junk;
    }
  }
  if (M::in_place_rank(cl, rank)) {
    // UPCCOLL_IN_PLACE where the collective takes it; the send side's other
    // arguments (the receive side's for bcast / scatter(v)) are ignored: junk.
    const bool junk = c.garbage;
    if (c.kind == collective::bcast || c.kind == collective::scatter || c.kind == collective::scatterv) {
      a.recvbuf = UPCCOLL_IN_PLACE;
      if (junk) {
        a.recvcount = 0xdeadbeefcafeULL;
        a.recvtype = -7;
      }
    } else {
      a.sendbuf = UPCCOLL_IN_PLACE;
      if (junk) {
        a.sendcount = 0xdeadbeefcafeULL;
        a.sendtype = 12345;
        a.sendcnts = a.sdispls = nullptr;
      }
    }
  }
  upccoll_flag_t f = c.flags;
  if (c.how == completion::fence) f |= UPC_ASYNC_FENCE;
  x.h = reinterpret_cast<upccoll_handle_t>(std::uintptr_t{0x5a5a5a5a});
  const bool pass_handle = c.how == completion::wait || c.how == completion::test ||
                           (c.how == completion::fence && (c.seed & 2));
  const upccoll_return_t rc = call_collective(c.kind, a, x.team, f, pass_handle ? &x.h : nullptr);
  expect_rc(rc, UPCCOLL_SUCCESS, x.what);
  if (c.how == completion::fence && pass_handle && x.h != UPCCOLL_INVALID_HANDLE)
    fail(x.what + ": UPC_ASYNC_FENCE must set *handle to UPCCOLL_INVALID_HANDLE");
}

// After the checks of a call that is complete here (not OUT_NOSYNC): nobody may
// read this thread's send buffer any more.
inline void scribble(const in_flight& x) {
  std::uint8_t* s = local_bytes(x.ar.send);
  for (std::size_t i = 0; i < x.p->send_win[MYTHREAD]; ++i) s[i] = static_cast<std::uint8_t>(~s[i]);
}

}  // namespace uconf
