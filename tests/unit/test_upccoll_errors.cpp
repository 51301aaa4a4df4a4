// <upccoll.h> argument errors: zero counts are valid and write nothing; every
// error code, from the thread that makes the mistake, and what the other
// members of the team get (with and without --check); UPCCOLL_ERROR_MALLOC
// when the heap is full. The team goes on working after each.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

// ---------------------------------------------------------------------------
// Zero counts

TEST_CASE("zero counts are valid and write nothing; a buffer of zero bytes may be NULL") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int T = THREADS;
        upc::sptr<void> s = mine(64), r = mine(64);
        const upc::sptr<void> null;
        std::memset(L<void>(s), 0x11, 64);
        std::memset(L<void>(r), 0x5a, 64);
        std::vector<std::size_t> zeros(T, 0);
        for (int pass = 0; pass < 2; ++pass) {
          const upc::sptr<void> sb = pass ? null : s, rb = pass ? null : r;
          const std::string what = pass ? " (NULL buffers)" : "";
          expect_rc(upccoll_bcast(sb, 0, UPC_INT, rb, 0, UPC_INT, T - 1, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "bcast" + what);
          expect_rc(upccoll_scatter(sb, 0, UPC_DOUBLE, rb, 0, UPC_DOUBLE, 0, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "scatter" + what);
          expect_rc(upccoll_scatterv(sb, zeros.data(), zeros.data(), UPC_INT, rb, 0, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "scatterv" + what);
          expect_rc(upccoll_gather(sb, 0, UPC_BYTE, rb, 0, UPC_BYTE, T / 2, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "gather" + what);
          expect_rc(upccoll_gatherv(sb, 0, UPC_INT, rb, zeros.data(), zeros.data(), UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "gatherv" + what);
          expect_rc(upccoll_allgather(sb, 0, UPC_INT, rb, 0, UPC_INT, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "allgather" + what);
          expect_rc(upccoll_allgatherv(sb, 0, UPC_INT, rb, zeros.data(), zeros.data(), UPC_INT, UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "allgatherv" + what);
          expect_rc(upccoll_alltoall(sb, 0, UPC_INT, rb, 0, UPC_INT, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "alltoall" + what);
          expect_rc(upccoll_alltoallv(sb, zeros.data(), zeros.data(), UPC_INT, rb, zeros.data(), zeros.data(), UPC_INT,
                                      UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "alltoallv" + what);
          expect_rc(upccoll_reduce(sb, rb, 0, UPC_DOUBLE, UPC_ADD, 0, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "reduce" + what);
          expect_rc(upccoll_allreduce(sb, rb, 0, UPC_INT, UPC_MAX, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "allreduce" + what);
          expect_rc(upccoll_reduce_scatter(sb, rb, zeros.data(), UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS,
                    "reduce_scatter" + what);
          expect_rc(upccoll_scan(sb, rb, 0, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "scan" + what);
          expect_rc(upccoll_scan_inclusive(sb, rb, 0, UPC_DOUBLE_INT, UPC_MINLOC, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS,
                    "scan_inclusive" + what);
          for (int i = 0; i < 64; ++i) {
            SPMD_CHECK_EQ(static_cast<int>(L<unsigned char>(r)[i]), 0x5a);
            SPMD_CHECK_EQ(static_cast<int>(L<unsigned char>(s)[i]), 0x11);
          }
        }
        team_still_works();
        upc_free(r);
        upc_free(s);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 5});
}

// ---------------------------------------------------------------------------
// Errors: each code, from the thread that makes the mistake; every other thread
// of a valid team gets the same code from the same call and the team goes on

namespace {

// Who makes the mistake in an error case.
constexpr int last_too = -3;  // call(true) everywhere, then call(me == last)
constexpr int mismatch = -2;  // the members disagree (root, counts, collective): no one is wrong alone
constexpr int every = -1;     // call(true) everywhere
// (>= 0: that thread; call(false) is not used)

// How strictly the other members' codes are checked.
//   strict: every member of the team gets `want` (the requirement; what
//           upcrun --check gives)
//   lenient: the erring member gets `want`; the others `want` or SUCCESS (a
//           member whose part of the collective never met the mistake may end
//           first, docs/teams-and-collectives-2.md "Errors"); for a mismatch at
//           least one member gets `want`
// Either way nobody hangs and the team goes on working.
struct error_check {
  bool strict = true;
  upc::sptr<void> codes;  // an int per thread (upc_all_alloc(THREADS, sizeof(int)))

  void one(upccoll_return_t want, const std::string& what, int erring, upccoll_return_t rc) const {
    const int me = MYTHREAD;
    if (strict || erring == every || erring == me) {
      expect_rc(rc, want, what);
    } else if (rc != want && rc != UPCCOLL_SUCCESS) {
      fail(what + ": returned " + code_name(rc) + ", expected " + code_name(want) + " (or UPCCOLL_SUCCESS)");
    }
    if (!strict && erring == mismatch) {
      upc::shared_address a = codes.address();
      a.thread = static_cast<std::uint32_t>(me);
      *static_cast<int*>(upc::sptr<void>(a).local()) = rc;
      upc_barrier;
      bool any = false;
      for (int t = 0; t < THREADS; ++t) {
        a.thread = static_cast<std::uint32_t>(t);
        int c = 0;
        upc_memget(&c, upc::sptr<void>(a), sizeof c);
        any = any || c == static_cast<int>(want);
      }
      if (!any) fail(what + ": no member returned " + code_name(want));
      upc_barrier;
    }
    team_still_works();
  }

  // `call(bad)` as `erring` says. Without --check a disagreement between
  // members found after one of them completed its call ends the run (eager
  // completion): those cases have their own test ("members that disagree").
  void operator()(upccoll_return_t want, const std::string& what, const std::function<upccoll_return_t(bool)>& call,
                  int erring = last_too) const {
    if (erring == mismatch && !upc::check_enabled()) return;
    if (erring == last_too || erring == every) {
      one(want, what + " (every thread)", every, call(true));
      if (erring == last_too && THREADS >= 2)
        one(want, what + " (on the last thread only)", THREADS - 1, call(MYTHREAD == THREADS - 1));
    } else {
      one(want, what, erring, call(false));
    }
  }
};

void errors_body(bool strict) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD, last = T - 1;
  error_check expect_everywhere;
  expect_everywhere.strict = strict;
  expect_everywhere.codes = upc_all_alloc(T, sizeof(int));
  const std::size_t huge = std::size_t{1} << 28;  // items: far beyond a 16 MiB heap for any type
  const std::size_t overflow = std::numeric_limits<std::size_t>::max() / 2;
  upc::sptr<void> s = mine(64 * T + 64), r = mine(64 * T + 64);
  const upc::sptr<void> other_arr = upc_all_alloc(T, 64);
  upc::shared_address oa = other_arr.address();
  oa.thread = static_cast<std::uint32_t>((me + 1) % T);
  const upc::sptr<void> other(oa);  // a buffer with affinity to the next thread
  const upc::sptr<void> null;
  std::vector<std::size_t> ones(T, 1), disp(T), big_cnt(T, 1), big_disp(T);
  for (int t = 0; t < T; ++t) big_disp[t] = disp[t] = static_cast<std::size_t>(t);
  big_cnt[T / 2] = huge;
  big_disp[T / 2] = huge;

  // SENDBUF / RECVBUF: null where used, or not affine to the caller
  expect_everywhere(UPCCOLL_ERROR_SENDBUF, "allreduce, sendbuf NULL",
                    [&](bool bad) { return upccoll_allreduce(bad ? null : s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_RECVBUF, "allreduce, recvbuf NULL",
                    [&](bool bad) { return upccoll_allreduce(s, bad ? null : r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_SENDBUF, "bcast, the root's sendbuf NULL", [&](bool) {
    return upccoll_bcast(me == last ? null : s, 1, UPC_INT, r, 1, UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_RECVBUF, "gather, the root's recvbuf NULL", [&](bool) {
    return upccoll_gather(s, 1, UPC_INT, me == 0 ? null : r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_RECVBUF, "alltoall, recvbuf NULL",
                    [&](bool bad) { return upccoll_alltoall(s, 1, UPC_INT, bad ? null : r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr); });
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR_SENDBUF, "allgather, sendbuf on another thread", [&](bool bad) {
      return upccoll_allgather(bad ? other : s, 1, UPC_INT, r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr);
    });
    expect_everywhere(UPCCOLL_ERROR_RECVBUF, "scan, recvbuf on another thread", [&](bool bad) {
      return upccoll_scan(s, bad ? other : r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    });
  }

  // COUNT: beyond the caller's heap (or overflowing count × size)
  expect_everywhere(UPCCOLL_ERROR_COUNT, "allreduce, count beyond the heap",
                    [&](bool bad) { return upccoll_allreduce(s, r, bad ? huge : 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_COUNT, "allreduce, count × size overflows",
                    [&](bool bad) { return upccoll_allreduce(s, r, bad ? overflow : 1, UPC_DOUBLE, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); }, every);
  expect_everywhere(UPCCOLL_ERROR_COUNT, "bcast, the root's sendcount beyond the heap (receivers agreeing)", [&](bool) {
    return upccoll_bcast(s, huge, UPC_BYTE, r, huge, UPC_BYTE, 0, UPC_TEAM_ALL, 0, nullptr);
  }, every);
  // COUNT: the sides' byte counts disagree (found while running): every rank
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR_COUNT, "bcast, a receiver's recvcount differs from the root's sendcount", [&](bool) {
      return upccoll_bcast(s, 4, UPC_INT, r, me == 1 ? 3 : 4, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "scatter, a receiver expects more", [&](bool) {
      return upccoll_scatter(s, 2, UPC_INT, r, me == last ? 3 : 2, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "gather, one sender sends less", [&](bool) {
      return upccoll_gather(s, me == 1 ? 1 : 2, UPC_INT, r, 2, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "allgather, one sender sends more", [&](bool) {
      return upccoll_allgather(s, me == 0 ? 3 : 2, UPC_INT, r, 2, UPC_INT, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "alltoall, one receiver's recvcount differs", [&](bool) {
      return upccoll_alltoall(s, 2, UPC_INT, r, me == last ? 1 : 2, UPC_INT, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    // the v-variants: the counts of one pair disagree. Thread 0 calls last, so
    // it (and in gatherv a sender whose part was staged) can end its part
    // before anyone has run the task that meets the mistake: it learns of it
    // only from the pairwise comparison every member makes once every post is in.
    const auto late0 = [&] {
      if (me == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    };
    expect_everywhere(UPCCOLL_ERROR_COUNT, "scatterv, the last receiver expects more than the root's sendcnts entry",
                      [&](bool) {
                        late0();
                        return upccoll_scatterv(s, ones.data(), disp.data(), UPC_INT, r, me == last ? 2 : 1, UPC_INT, 0,
                                                UPC_TEAM_ALL, 0, nullptr);
                      }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "gatherv, the last sender sends more than the root's recvcnts entry", [&](bool) {
      late0();
      return upccoll_gatherv(s, me == last ? 2 : 1, UPC_INT, r, ones.data(), disp.data(), UPC_INT, 0, UPC_TEAM_ALL, 0,
                             nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "allgatherv, the last sender sends less than the recvcnts entry", [&](bool) {
      late0();
      return upccoll_allgatherv(s, me == last ? 0 : 1, UPC_INT, r, ones.data(), disp.data(), UPC_INT, UPC_TEAM_ALL, 0,
                                nullptr);
    }, mismatch);
    {
      std::vector<std::size_t> recv_cnt(ones);
      if (me == last) recv_cnt[0] = 2;  // thread 0 sends it one item
      expect_everywhere(UPCCOLL_ERROR_COUNT, "alltoallv, the last member's recvcnts[0] differs from what thread 0 sends",
                        [&](bool) {
                          late0();
                          return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, recv_cnt.data(),
                                                   disp.data(), UPC_INT, UPC_TEAM_ALL, 0, nullptr);
                        }, mismatch);
    }
    // the same bytes in different types are fine: 2 ints = 8 bytes = 1 double
    for (int t = 0; t < 2; ++t) L<int>(s)[t] = 31 * t + 5;
    UC_OK(upccoll_bcast(s, 2, UPC_INT, r, me == 1 ? 8 : 1, me == 1 ? UPC_BYTE : UPC_DOUBLE, 0, UPC_TEAM_ALL, 0, nullptr));
    SPMD_CHECK_EQ(L<int>(r)[0], 5);
    SPMD_CHECK_EQ(L<int>(r)[1], 36);
  }

  // DATATYPE / SENDTYPE / RECVTYPE
  for (upccoll_dtype_t dt : {999, -1, UPC_PTS}) {
    expect_everywhere(UPCCOLL_ERROR_DATATYPE, "allreduce, dt " + std::to_string(dt),
                      [&](bool bad) { return upccoll_allreduce(s, r, 1, bad ? dt : UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
    expect_everywhere(UPCCOLL_ERROR_DATATYPE, "reduce, dt " + std::to_string(dt),
                      [&](bool bad) { return upccoll_reduce(s, r, 1, bad ? dt : UPC_INT, UPC_ADD, 0, UPC_TEAM_ALL, 0, nullptr); });
    expect_everywhere(UPCCOLL_ERROR_DATATYPE, "scan, dt " + std::to_string(dt),
                      [&](bool bad) { return upccoll_scan(s, r, 1, bad ? dt : UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  }
  expect_everywhere(UPCCOLL_ERROR_SENDTYPE, "bcast, the root's sendtype", [&](bool) {
    return upccoll_bcast(s, 1, me == last ? 999 : UPC_INT, r, 1, UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_SENDTYPE, "alltoall, sendtype",
                    [&](bool bad) { return upccoll_alltoall(s, 1, bad ? 999 : UPC_INT, r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_SENDTYPE, "gather, a sender's sendtype", [&](bool bad) {
    return upccoll_gather(s, 1, bad ? -4 : UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVTYPE, "bcast, recvtype",
                    [&](bool bad) { return upccoll_bcast(s, 1, UPC_INT, r, 1, bad ? 999 : UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_RECVTYPE, "gather, the root's recvtype", [&](bool) {
    return upccoll_gather(s, 1, UPC_INT, r, 1, me == last ? 999 : UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_RECVTYPE, "allgatherv, recvtype", [&](bool bad) {
    return upccoll_allgatherv(s, 1, UPC_INT, r, ones.data(), disp.data(), bad ? 777 : UPC_INT, UPC_TEAM_ALL, 0, nullptr);
  });

  // UPC_OP
  for (upccoll_op_t op : {upccoll_op_t{0}, upccoll_op_t{UPC_FUNC}, upccoll_op_t{UPC_AND}}) {
    expect_everywhere(UPCCOLL_ERROR_UPC_OP, std::string("allreduce on doubles, op ") + M::op_name(op), [&](bool bad) {
      return upccoll_allreduce(s, r, 1, UPC_DOUBLE, bad ? op : UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    });
  }
  expect_everywhere(UPCCOLL_ERROR_UPC_OP, "reduce_scatter, MINLOC on ints", [&](bool bad) {
    return upccoll_reduce_scatter(s, r, ones.data(), UPC_INT, bad ? UPC_MINLOC : UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
  });

  // ROOT: out of range, or not the same everywhere
  for (int root : {-1, T, T + 5}) {
    expect_everywhere(UPCCOLL_ERROR_ROOT, "bcast, root " + std::to_string(root),
                      [&](bool bad) { return upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, bad ? root : 0, UPC_TEAM_ALL, 0, nullptr); });
    expect_everywhere(UPCCOLL_ERROR_ROOT, "reduce, root " + std::to_string(root), [&](bool bad) {
      return upccoll_reduce(s, r, 1, UPC_INT, UPC_ADD, bad ? root : 0, UPC_TEAM_ALL, 0, nullptr);
    });
  }
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR_ROOT, "gather, thread 0 says root 0, the others root 1", [&](bool) {
      return upccoll_gather(s, 1, UPC_INT, r, 1, UPC_INT, me == 0 ? 0 : 1, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_ROOT, "scatterv, the last thread names another root", [&](bool) {
      return upccoll_scatterv(s, ones.data(), disp.data(), UPC_INT, r, 1, UPC_INT, me == last ? 0 : last, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
  }

  // SENDCNTS / SDISPLS / RECVCNTS / RDISPLS: null where used, or beyond the heap
  expect_everywhere(UPCCOLL_ERROR_SENDCNTS, "scatterv, the root's sendcnts NULL", [&](bool) {
    return upccoll_scatterv(s, me == 0 ? nullptr : ones.data(), disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_SDISPLS, "scatterv, the root's sdispls NULL", [&](bool) {
    return upccoll_scatterv(s, ones.data(), me == 0 ? nullptr : disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_SENDCNTS, "alltoallv, sendcnts NULL", [&](bool bad) {
    return upccoll_alltoallv(s, bad ? nullptr : ones.data(), disp.data(), UPC_INT, r, ones.data(), disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_SDISPLS, "alltoallv, sdispls NULL", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), bad ? nullptr : disp.data(), UPC_INT, r, ones.data(), disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "alltoallv, recvcnts NULL", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, bad ? nullptr : ones.data(), disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RDISPLS, "alltoallv, rdispls NULL", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, ones.data(), bad ? nullptr : disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "gatherv, the root's recvcnts NULL", [&](bool) {
    return upccoll_gatherv(s, 1, UPC_INT, r, me == last ? nullptr : ones.data(), disp.data(), UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_RDISPLS, "allgatherv, displs NULL", [&](bool bad) {
    return upccoll_allgatherv(s, 1, UPC_INT, r, ones.data(), bad ? nullptr : disp.data(), UPC_INT, UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "reduce_scatter, recvcounts NULL", [&](bool bad) {
    return upccoll_reduce_scatter(s, r, bad ? nullptr : ones.data(), UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
  }, every);
  expect_everywhere(UPCCOLL_ERROR_SENDCNTS, "scatterv, a sendcnts entry beyond the root's heap", [&](bool) {
    // (the receiver of that entry expects 1 item: only the root makes a mistake)
    return upccoll_scatterv(s, big_cnt.data(), disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_SDISPLS, "scatterv, an sdispls entry beyond the root's heap", [&](bool) {
    return upccoll_scatterv(s, ones.data(), big_disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_RDISPLS, "alltoallv, an rdispls entry beyond the heap", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, ones.data(), bad ? big_disp.data() : disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "gatherv, a recvcnts entry beyond the root's heap", [&](bool) {
    return upccoll_gatherv(s, 1, UPC_INT, r, big_cnt.data(), disp.data(), UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);

  // TEAM: garbage, or freed
  long junk[8] = {0x5151, 7, -3, 0, 0, 0, 0, 0};
  for (upccoll_team_t bad_team : {static_cast<upccoll_team_t>(junk), reinterpret_cast<upccoll_team_t>(std::uintptr_t{1})}) {
    int x = 0;
    upccoll_team_t nt = sentinel_team;
    UC_EXPECT(upccoll_team_rank(bad_team, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_size(bad_team, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_split(bad_team, 0, me, &nt), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(nt == sentinel_team);
    UC_EXPECT(upccoll_barrier(bad_team, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, bad_team, 0, nullptr), UPCCOLL_ERROR_TEAM);
  }
  {
    upccoll_team_t t2 = nullptr;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % 2, me / 2, &t2));
    team_still_works(t2);
    upccoll_team_free(t2);
    int x = 0;
    UC_EXPECT(upccoll_team_rank(t2, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_barrier(t2, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, t2, 0, nullptr), UPCCOLL_ERROR_TEAM);
    team_still_works();
  }

  // UPCCOLL_ERROR: different collectives at the same point of a team
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR, "thread 0 calls barrier, the others allreduce", [&](bool) {
      return me == 0 ? upccoll_barrier(UPC_TEAM_ALL, 0, nullptr)
                     : upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR, "the last thread calls scatter, the others bcast", [&](bool) {
      return me == last ? upccoll_scatter(s, 1, UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr)
                        : upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR, "thread 0 calls scan, the others the inclusive scan", [&](bool) {
      return me == 0 ? upccoll_scan(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr)
                     : upccoll_scan_inclusive(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
  }

  upc_barrier;
  upc_all_free(expect_everywhere.codes);
  upc_all_free(other_arr);
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

// Fills the calling thread's heap with upc_alloc (the run's heap is `heap`).
std::vector<upc::sptr<void>> fill_heap() {
  std::vector<upc::sptr<void>> hog;
  for (std::size_t chunk = std::size_t{1} << 22; chunk >= 16;) {
    try {
      hog.push_back(upc_alloc(chunk));
    } catch (const upc::error&) {
      chunk /= 2;
    }
  }
  return hog;
}

// An in-place alltoall stages its input in a buffer of its slot, kept for the
// slot's next calls. With the heap full only the slot used before the heap
// filled up has one: calls 2..32 of the same arguments fail with
// UPCCOLL_ERROR_MALLOC on every member, call 33 (that slot again) works, with
// the right data (the engine derives it afresh after a failed call).
void staging_malloc_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  const std::size_t each = 64;  // longs a block: T * 512 bytes to stage, past the inline room
  upc::sptr<void> buf = mine(each * sizeof(long) * static_cast<std::size_t>(T));
  auto call = [&](int round) {
    for (int t = 0; t < T; ++t)
      for (std::size_t i = 0; i < each; ++i) L<long>(buf)[std::size_t(t) * each + i] = 1000L * me + t + round;
    return upccoll_alltoall(UPCCOLL_IN_PLACE, each, UPC_LONG, buf, each, UPC_LONG, UPC_TEAM_ALL, 0, nullptr);
  };
  auto check = [&](int round) {
    for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<long>(buf)[std::size_t(t) * each + each - 1], 1000L * t + me + round);
  };
  UC_OK(call(1));
  check(1);
  upc_barrier;
  std::vector<upc::sptr<void>> hog = fill_heap();
  upc_barrier;
  for (int round = 2; round <= 32; ++round)
    expect_rc(call(round), UPCCOLL_ERROR_MALLOC, "in-place alltoall, call " + std::to_string(round) + ", every heap full");
  UC_OK(call(33));
  check(33);
  upc_barrier;
  for (auto it = hog.rbegin(); it != hog.rend(); ++it) upc_free(*it);
  UC_OK(upccoll_finalize());
}

void malloc_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int me = MYTHREAD, last = THREADS - 1;
  for (int who = 0; who < 2; ++who) {  // every thread's heap full, then only the last one's
    upc_barrier;
    std::vector<upc::sptr<void>> hog;
    if (who == 0 || me == last) hog = fill_heap();
    upc_barrier;
    upccoll_team_t nt = sentinel_team;
    expect_rc(upccoll_team_split(UPC_TEAM_ALL, 0, me, &nt), UPCCOLL_ERROR_MALLOC,
              who == 0 ? "split with every heap full" : "split with the last thread's heap full");
    SPMD_CHECK(nt == sentinel_team);
    upc_barrier;
    for (auto it = hog.rbegin(); it != hog.rend(); ++it) upc_free(*it);
    upc_barrier;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &nt));
    team_still_works(nt);
    upccoll_team_free(nt);
  }
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("errors: every code on the member that makes the mistake; the others end with it or with success; the team goes on") {
  everywhere([] { errors_body(false); }, {1, 2, 3, 5}, 60);
}

TEST_CASE("errors under upcrun --check: every member of the team gets the code") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 2, 3, 5}) {
      if (spmd::skip_run(T, b)) continue;
      upc::launch_options o = opts(T, b, 60);
      o.check = true;
      const upc::run_result r = upc::run(o, [] {
        errors_body(true);
        flags_invalid_body(true);
      });
      INFO("backend=", spmd::name(b), " THREADS=", T, " error: ", r.error);
      CHECK(r.ok());
    }
}

// Without --check a member's call completes once its own part is done, before
// the others have posted (eager completion, docs/teams-and-collectives-2.md,
// "Errors"): members that disagree get the code on every member when the
// disagreement is found while everyone is still in the call; found after some
// member completed (by whoever reads the other's arguments, or when a member
// comes back to the collective's slot 32 calls later or at upccoll_finalize),
// it ends the run with the report. Never a silent success.
namespace {
struct disagreement {
  const char* what;
  const char* function;     // the report names it
  upccoll_return_t want;    // the code, when every member gets it
  bool then_calls = false;  // 40 good calls and no upccoll_finalize: found on coming back to the slot
  std::function<upccoll_return_t()> call;
};

std::vector<disagreement> disagreements() {
  std::vector<disagreement> v;
  v.push_back({"bcast, a receiver's recvcount differs from the root's sendcount", "upccoll_bcast", UPCCOLL_ERROR_COUNT, false,
               [] {
                 const upc::sptr<void> a = mine(64), b = mine(64);
                 return upccoll_bcast(a, 4, UPC_INT, b, MYTHREAD == 1 ? 3 : 4, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
               }});
  for (bool then_calls : {false, true})
    v.push_back({"bcast, every member names itself the root (nobody reads another's arguments in the call)",
                 "upccoll_bcast", UPCCOLL_ERROR_ROOT, then_calls, [] {
                   const upc::sptr<void> a = mine(64), b = mine(64);
                   return upccoll_bcast(a, 1, UPC_INT, b, 1, UPC_INT, MYTHREAD, UPC_TEAM_ALL, 0, nullptr);
                 }});
  v.push_back({"gather, one sender sends less", "upccoll_gather", UPCCOLL_ERROR_COUNT, false, [] {
                 const upc::sptr<void> a = mine(64), b = mine(64 * THREADS);
                 return upccoll_gather(a, MYTHREAD == 1 ? 1 : 2, UPC_INT, b, 2, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
               }});
  v.push_back({"scatterv, the last receiver expects more than the root's sendcnts entry", "upccoll_scatterv",
               UPCCOLL_ERROR_COUNT, false, [] {
                 const upc::sptr<void> a = mine(64 * THREADS), b = mine(64);
                 std::vector<std::size_t> ones(THREADS, 1), disp(THREADS);
                 for (int t = 0; t < THREADS; ++t) disp[t] = static_cast<std::size_t>(t);
                 return upccoll_scatterv(a, ones.data(), disp.data(), UPC_INT, b, MYTHREAD == THREADS - 1 ? 2 : 1, UPC_INT, 0,
                                         UPC_TEAM_ALL, 0, nullptr);
               }});
  return v;
}
}  // namespace

TEST_CASE("errors without --check: members that disagree get the code on every member, or the run ends with the report") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {2, 3, 5})
      for (const disagreement& d : disagreements()) {
        if (spmd::skip_run(T, b)) continue;
        upc::run_result r;
        const std::string err = stderr_of([&] {
          r = upc::run(opts(T, b, 60), [&d] {
            UC_OK(upccoll_initialize(nullptr, nullptr));
            const upccoll_return_t rc = d.call();
            if (rc != d.want && rc != UPCCOLL_SUCCESS) fail(std::string(d.what) + ": returned " + code_name(rc));
            if (d.then_calls) {
              const upc::sptr<void> a = mine(64), c = mine(64);
              for (int i = 0; i < 40; ++i) UC_OK(upccoll_bcast(a, 1, UPC_INT, c, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr));
            } else {
              upccoll_finalize();
            }
            // Reaching here with success would be the silent wrong answer.
            if (rc == UPCCOLL_SUCCESS) fail(std::string(d.what) + ": returned UPCCOLL_SUCCESS and the run went on");
          });
        });
        INFO("backend=", spmd::name(b), " THREADS=", T, " case: ", d.what, " error: ", r.error, " stderr: ", err);
        if (r.ok()) continue;  // every member got d.want
        CHECK(spmd::contains(r.error, std::string(d.function) + ": "));
        CHECK(spmd::contains(r.error, "so the run ends"));
        CHECK(!spmd::contains(r.error, "returned UPCCOLL_SUCCESS"));
      }
}

TEST_CASE("errors without --check: flags a member alone gets wrong: its code on it, the code or success on the others") {
  everywhere([] { flags_invalid_body(false); }, {2, 3, 5}, 60);
}

TEST_CASE("errors: UPCCOLL_ERROR_MALLOC when an input to stage finds the heap full; the same call works where its slot has room") {
  everywhere(staging_malloc_body, {1, 2, 3}, 60);
}

TEST_CASE("errors: UPCCOLL_ERROR_MALLOC when the shared heap is full (a split); a split works once it is freed") {
  everywhere(malloc_body, {1, 2, 4}, 60);
}
