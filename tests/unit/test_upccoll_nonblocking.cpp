// <upccoll.h> completion of non-blocking collectives: handles (test, wait, dead
// and foreign handles); many overlapping collectives completed out of order,
// more than 32 in flight; UPC_ASYNC_FENCE completed by upccoll_fence and by
// upccoll_finalize; the paper's Figure 1 (EX1: lock across start, EX2: lock
// across wait) without deadlock, in place too; and a subset of these, of the
// teams and of the user ops again with the progress thread.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

TEST_CASE("handles: upccoll_test gives 0/1 and leaves the handle live; after upccoll_wait it is dead; garbage and foreign handles are refused") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int T = THREADS, me = MYTHREAD;
        upc::sptr<void> s = mine(64), r = mine(64);
        for (int i = 0; i < 4; ++i) L<int>(s)[i] = me * i;
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        UC_OK(upccoll_allreduce(s, r, 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, &h));
        SPMD_CHECK(h != UPCCOLL_INVALID_HANDLE);
        const auto t0 = std::chrono::steady_clock::now();
        int got;
        while ((got = upccoll_test(h)) == 0) {
          if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(30)) fail("upccoll_test never gave 1");
          std::this_thread::yield();
        }
        SPMD_CHECK_EQ(got, 1);
        SPMD_CHECK_EQ(upccoll_test(h), 1);  // still live until waited for
        UC_OK(upccoll_wait_status(h));
        for (int i = 0; i < 4; ++i) SPMD_CHECK_EQ(L<int>(r)[i], i * T * (T - 1) / 2);
        // dead now
        SPMD_CHECK_EQ(upccoll_test(h), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        UC_EXPECT(upccoll_wait_status(h), UPCCOLL_ERROR_HANDLE);
        upccoll_wait(h);  // returns
        // garbage
        long junk[4] = {0x1234, -1, 77, 0};
        SPMD_CHECK_EQ(upccoll_test(static_cast<upccoll_handle_t>(junk)), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        SPMD_CHECK_EQ(upccoll_test(reinterpret_cast<upccoll_handle_t>(std::uintptr_t{0x10})), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        SPMD_CHECK_EQ(upccoll_test(UPCCOLL_INVALID_HANDLE), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        UC_EXPECT(upccoll_wait_status(static_cast<upccoll_handle_t>(junk)), UPCCOLL_ERROR_HANDLE);
        UC_EXPECT(upccoll_wait_status(UPCCOLL_INVALID_HANDLE), UPCCOLL_ERROR_HANDLE);
        // a barrier by handle, waited with upccoll_wait
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &h));
        upccoll_wait(h);
        SPMD_CHECK_EQ(upccoll_test(h), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        // thread 0's live handle means nothing on another thread (unless it is that thread's own)
        upc::shared_array<std::uint64_t> slot{upc::per_thread(1)};
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &h));
        if (me == 0) slot[0] = reinterpret_cast<std::uintptr_t>(h);
        upc_barrier;
        const auto h0 = reinterpret_cast<upccoll_handle_t>(static_cast<std::uintptr_t>(slot[0].get()));
        if (me != 0 && h0 != h)
          SPMD_CHECK_EQ(upccoll_test(h0), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        upc_barrier;
        upccoll_wait(h);
        // a local error in a non-blocking call: the erring thread gets the code at
        // once; the others' handles complete with it
        if (T >= 2) {
          const bool bad = me == T - 1;
          h = UPCCOLL_INVALID_HANDLE;
          const upccoll_return_t rc =
              upccoll_allreduce(bad ? upc::sptr<void>(nullptr) : s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, &h);
          if (bad) {
            UC_EXPECT(rc, UPCCOLL_ERROR_SENDBUF);
            if (h != UPCCOLL_INVALID_HANDLE) UC_EXPECT(upccoll_wait_status(h), UPCCOLL_ERROR_SENDBUF);
          } else if (rc == UPCCOLL_SUCCESS) {
            UC_EXPECT(upccoll_wait_status(h), UPCCOLL_ERROR_SENDBUF);
          } else {
            UC_EXPECT(rc, UPCCOLL_ERROR_SENDBUF);
          }
          team_still_works();
        }
        upc_free(r);
        upc_free(s);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 5});
}

namespace {

// 24+ calls of every kind (several of each), small to medium, with flags and
// completions cycling (mostly by handle), on UPC_TEAM_ALL (levels 0) or each on
// a split of its own.
std::vector<ucase> overlapping_cases(int T, std::uint64_t salt, int team_levels, bool fence_only = false) {
  std::vector<ucase> v;
  const std::vector<upccoll_flag_t>& flags = sync_flag_values();
  const std::size_t count_set[] = {1, 13, 200, 1021};
  for (std::size_t i = 0; i < 30; ++i) {
    ucase c;
    c.kind = M::all_collectives[(i * 4) % 15];  // every kind twice
    c.seed = seed_of(salt, i);
    if (M::is_reduction(c.kind)) {
      const auto& rt = reduction_types()[(i * 5) % reduction_types().size()];
      c.sendtype = c.recvtype = rt.first;
      c.op = rt.second;
    } else {
      const auto& mt = movement_types()[(i * 3) % movement_types().size()];
      c.sendtype = mt.first;
      c.recvtype = mt.second;
    }
    c.count = std::max<std::size_t>(1, count_set[i % 4] / M::size_of(c.sendtype));
    c.flags = flags[(i * 5) % flags.size()];
    c.how = fence_only ? completion::fence
                       : (i % 6 == 5 ? completion::fence : i % 6 == 4 ? completion::blocking
                                                                      : i % 2 ? completion::test : completion::wait);
    c.team_levels = team_levels;
    c.root_pick = static_cast<int>(i % 4);
    c.garbage = i % 3 == 0;
    c.in_place = has_in_place(c.kind) && (i % 4 == 1 || i % 5 == 2);
    (void)T;
    v.push_back(c);
  }
  return v;
}

}  // namespace

TEST_CASE("30 overlapping non-blocking collectives of every kind on one team completed in reverse / random / start order") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 2, 3, 4, 5, 8, 16})
      for (int order = 0; order < 3; ++order) {
        if (T == 16 && order != 1) continue;
        const std::vector<ucase> cases = overlapping_cases(T, hash3(T, order, static_cast<int>(b)), 0);
        const std::string label = std::string("order ") + (order == 0 ? "reverse" : order == 1 ? "random per thread" : "start order");
        INFO(label);
        run_ok(T, b, [&] { run_overlapped(cases, order); }, 120);
      }
}

TEST_CASE("overlapping non-blocking collectives on several split teams at once") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {3, 5, 8}) {
      const std::vector<ucase> cases = overlapping_cases(T, hash3(T, 99, static_cast<int>(b)), 1);
      run_ok(T, b, [&] { run_overlapped(cases, 1); }, 120);
    }
}

namespace {

// 40 non-blocking allreduces and barriers in flight at once on one team (more
// than the 32 a team keeps), then 8 fenced ones; waited in reverse.
void many_in_flight_body(upccoll_team_t team) {
  const int N = 40, me = MYTHREAD;
  int n = 0, rank = 0;
  UC_OK(upccoll_team_size(team, &n));
  UC_OK(upccoll_team_rank(team, &rank));
  const std::vector<int> mem = members_of(team);
  std::vector<upc::sptr<void>> s(N + 8), r(N + 8);
  std::vector<upccoll_handle_t> h(N, UPCCOLL_INVALID_HANDLE);
  for (int j = 0; j < N + 8; ++j) {
    s[j] = mine(16);
    r[j] = mine(16);
    L<long>(s[j])[0] = me + j;
    L<long>(s[j])[1] = static_cast<long>(j) * me;
    L<long>(r[j])[0] = L<long>(r[j])[1] = -1;
  }
  for (int j = 0; j < N; ++j) {
    const upccoll_flag_t f = j % 3 == 0 ? UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC : 0;
    if (j % 10 == 9) {
      UC_OK(upccoll_barrier(team, f, &h[j]));
    } else {
      UC_OK(upccoll_allreduce(s[j], r[j], 2, UPC_LONG, UPC_ADD, team, f, &h[j]));
    }
  }
  for (int j = N; j < N + 8; ++j) UC_OK(upccoll_allreduce(s[j], r[j], 2, UPC_LONG, UPC_ADD, team, UPC_ASYNC_FENCE, nullptr));
  for (int j = N - 1; j >= 0; --j) UC_OK(upccoll_wait_status(h[j]));
  upccoll_fence();
  for (int j = 0; j < N + 8; ++j) {
    if (j < N && j % 10 == 9) continue;
    long w0 = 0, w1 = 0;
    for (int t : mem) {
      w0 += t + j;
      w1 += static_cast<long>(j) * t;
    }
    SPMD_CHECK_EQ(L<long>(r[j])[0], w0);
    SPMD_CHECK_EQ(L<long>(r[j])[1], w1);
  }
  for (int j = N + 7; j >= 0; --j) {
    upc_free(r[j]);
    upc_free(s[j]);
  }
}

}  // namespace

TEST_CASE("more than 32 non-blocking collectives in flight on one team (and on two teams at once)") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        many_in_flight_body(UPC_TEAM_ALL);
        upccoll_team_t half = nullptr;
        UC_OK(upccoll_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD / 2, &half));
        many_in_flight_body(half);
        upccoll_team_free(half);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 5, 8, 16}, 120);
}

TEST_CASE("UPC_ASYNC_FENCE: every kind completes at upccoll_fence; pending ones complete at upccoll_finalize") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 2, 3, 5, 8}) {
      const std::vector<ucase> cases = overlapping_cases(T, hash3(T, 7, static_cast<int>(b)), 0, true);
      run_ok(T, b, [&] { run_overlapped(cases, 0); }, 120);
      run_ok(T, b, [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int n = THREADS, me = MYTHREAD;
        upc::sptr<void> s = mine(8 * n), r = mine(8 * n), s2 = mine(8), r2 = mine(8);
        for (int t = 0; t < n; ++t) L<long>(s)[t] = 10L * me + t;
        L<long>(s2)[0] = me + 1;
        upccoll_handle_t h = reinterpret_cast<upccoll_handle_t>(std::uintptr_t{3});
        UC_OK(upccoll_alltoall(s, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, UPC_ASYNC_FENCE, &h));
        SPMD_CHECK(h == UPCCOLL_INVALID_HANDLE);
        UC_OK(upccoll_allreduce(s2, r2, 1, UPC_LONG, UPC_MULT, UPC_TEAM_ALL, UPC_ASYNC_FENCE | UPC_IN_ALLSYNC, nullptr));
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, UPC_ASYNC_FENCE, nullptr));
        UC_OK(upccoll_finalize());  // completes them
        for (int t = 0; t < n; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 10L * t + me);
        long fact = 1;
        for (int t = 1; t <= n; ++t) fact *= t;
        SPMD_CHECK_EQ(L<long>(r2)[0], fact);
        upc_barrier;
        upc_free(r2);
        upc_free(s2);
        upc_free(r);
        upc_free(s);
      });
    }
}

// ---------------------------------------------------------------------------
// The paper's Figure 1: starts are not synchronised with one another, nor are
// completions

namespace {

enum class ex { lock_across_start, lock_across_wait };

// in_place: allreduce and alltoall with UPCCOLL_IN_PLACE (their stage tasks
// must be claimable by whoever waits, too), gather at the root.
void ex_body(collective k, upccoll_flag_t f, ex which, bool in_place = false) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  upc_lock_t* lock = upc_all_lock_alloc();
  upc::sptr<void> s = mine(8 * std::max(T, 2)), r = mine(8 * std::max(T, 2));
  for (int it = 0; it < 4; ++it) {
    const int slow = it % T;  // this thread is late to start (and, in EX1, holds the lock meanwhile)
    for (int t = 0; t < std::max(T, 2); ++t) L<long>(s)[t] = 1000L * me + 10 * t + it;
    for (int t = 0; t < std::max(T, 2); ++t) L<long>(r)[t] = -1;
    upc::sptr<void> src = s;
    if (in_place) {  // the input where the in-place form reads it
      if (k == collective::gather) {
        L<long>(r)[me] = L<long>(s)[0];
        if (me == T / 2) src = UPCCOLL_IN_PLACE;
      } else {
        for (int t = 0; t < std::max(T, 2); ++t) L<long>(r)[t] = L<long>(s)[t];
        src = UPCCOLL_IN_PLACE;
      }
    }
    upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
    auto start = [&] {
      switch (k) {
        case collective::barrier: return upccoll_barrier(UPC_TEAM_ALL, f, &h);
        case collective::bcast: return upccoll_bcast(s, 2, UPC_LONG, r, 2, UPC_LONG, T - 1, UPC_TEAM_ALL, f, &h);
        case collective::allreduce: return upccoll_allreduce(src, r, 2, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, f, &h);
        case collective::alltoall: return upccoll_alltoall(src, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, f, &h);
        case collective::gather: return upccoll_gather(src, 1, UPC_LONG, r, 1, UPC_LONG, T / 2, UPC_TEAM_ALL, f, &h);
        default: return UPCCOLL_ERROR;
      }
    };
    upccoll_return_t rc, rs;
    if (which == ex::lock_across_start) {  // EX1
      upc_lock(lock);
      if (me == slow) std::this_thread::sleep_for(std::chrono::milliseconds(3));
      rc = start();
      upc_unlock(lock);
      rs = upccoll_wait_status(h);
    } else {  // EX2
      if (me == slow) std::this_thread::sleep_for(std::chrono::milliseconds(3));
      rc = start();
      upc_lock(lock);
      rs = upccoll_wait_status(h);
      upc_unlock(lock);
    }
    UC_OK(rc);
    UC_OK(rs);
    switch (k) {
      case collective::bcast:
        SPMD_CHECK_EQ(L<long>(r)[0], 1000L * (T - 1) + it);
        SPMD_CHECK_EQ(L<long>(r)[1], 1000L * (T - 1) + 10 + it);
        break;
      case collective::allreduce:
        SPMD_CHECK_EQ(L<long>(r)[0], 1000L * T * (T - 1) / 2 + static_cast<long>(T) * it);
        SPMD_CHECK_EQ(L<long>(r)[1], 1000L * T * (T - 1) / 2 + static_cast<long>(T) * (10 + it));
        break;
      case collective::alltoall:
        for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 1000L * t + 10 * me + it);
        break;
      case collective::gather:
        if (me == T / 2)
          for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 1000L * t + it);
        break;
      default: break;
    }
    upc_barrier;
  }
  upc_free(r);
  upc_free(s);
  upc_all_lock_free(lock);
  UC_OK(upccoll_finalize());
}

void run_figure1(std::initializer_list<int> counts) {
  for (collective k : {collective::barrier, collective::bcast, collective::allreduce, collective::alltoall, collective::gather})
    for (upccoll_flag_t f : {0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC})
      for (ex which : {ex::lock_across_start, ex::lock_across_wait}) {
        const std::string label = std::string(M::name(k)) + " flags " + flags_name(f) +
                                  (which == ex::lock_across_start ? " EX1 (lock across start)" : " EX2 (lock across wait)");
        INFO(label);
        everywhere([=] { ex_body(k, f, which); }, counts, 30);
      }
}

}  // namespace

TEST_CASE("Figure 1: EX1 (lock across start) and EX2 (lock across wait) complete with flags 0 and with ALLSYNC") {
  run_figure1(all_threads);
}

TEST_CASE("Figure 1 with UPCCOLL_IN_PLACE: allreduce and alltoall (stage tasks) and gather complete in EX1 and EX2") {
  for (collective k : {collective::allreduce, collective::alltoall, collective::gather})
    for (upccoll_flag_t f : {0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC})
      for (ex which : {ex::lock_across_start, ex::lock_across_wait}) {
        INFO(M::name(k), " flags ", flags_name(f), which == ex::lock_across_start ? " EX1" : " EX2");
        everywhere([=] { ex_body(k, f, which, true); }, {1, 2, 3, 5, 8}, 30);
      }
}

// ---------------------------------------------------------------------------
// The progress thread gives the same results

TEST_CASE("UPCEMU_UPCCOLL_PROGRESS=thread: overlapping collectives / >32 in flight / Figure 1 / teams / user ops") {
  env_guard progress("UPCEMU_UPCCOLL_PROGRESS", "thread");
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 3, 5}) {
      const std::vector<ucase> cases = overlapping_cases(T, hash3(T, 4242, static_cast<int>(b)), 0);
      run_ok(T, b, [&] { run_overlapped(cases, 1); }, 120);
    }
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        many_in_flight_body(UPC_TEAM_ALL);
        UC_OK(upccoll_finalize());
      },
      {2, 5}, 120);
  for (collective k : {collective::bcast, collective::allreduce, collective::alltoall})
    for (ex which : {ex::lock_across_start, ex::lock_across_wait})
      everywhere([=] { ex_body(k, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, which); }, {2, 4}, 30);
  everywhere(concurrent_teams_body, {3, 5});
  everywhere(user_op_body, {3});
}
