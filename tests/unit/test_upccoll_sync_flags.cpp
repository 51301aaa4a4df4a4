// <upccoll.h> sync flags: every valid IN × OUT combination, with and without
// UPC_ASYNC_FENCE, completes with the right data; invalid ones (two IN or two
// OUT choices, unknown bits) are UPCCOLL_ERROR_FLAGS; a MYSYNC member completes
// once its own part is done (eager completion).
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

namespace {

// barrier, bcast, allreduce and alltoall with flags f (UPC_ASYNC_FENCE: completed
// by upccoll_fence), data checked as the flags allow.
void flags_round(upccoll_flag_t f, int round) {
  const int T = THREADS, me = MYTHREAD;
  const std::string what = "flags " + flags_name(f);
  upc::sptr<void> s = mine(8 * T), r = mine(8 * T), s2 = mine(8 * T), r2 = mine(8 * T), s3 = mine(8), r3 = mine(8);
  for (int t = 0; t < T; ++t) L<long>(s)[t] = 100L * me + t + round;
  for (int t = 0; t < T; ++t) L<long>(s2)[t] = -1;
  L<long>(s3)[0] = me + round;
  if (me == T - 1) L<long>(s2)[0] = 4242 + round;
  if (f & UPC_IN_NOSYNC) upc_barrier;
  upccoll_handle_t h = reinterpret_cast<upccoll_handle_t>(std::uintptr_t{1});
  upccoll_handle_t* hp = (f & UPC_ASYNC_FENCE) && round % 2 ? &h : nullptr;
  expect_rc(upccoll_barrier(UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_barrier");
  expect_rc(upccoll_alltoall(s, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_alltoall");
  expect_rc(upccoll_bcast(s2, 1, UPC_LONG, r2, 1, UPC_LONG, T - 1, UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_bcast");
  expect_rc(upccoll_allreduce(s3, r3, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_allreduce");
  if (hp && h != UPCCOLL_INVALID_HANDLE) fail(what + ": *handle must be UPCCOLL_INVALID_HANDLE under UPC_ASYNC_FENCE");
  if (f & UPC_ASYNC_FENCE) upccoll_fence();
  if (f & UPC_OUT_NOSYNC) upc_barrier;
  for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 100L * t + me + round);
  SPMD_CHECK_EQ(L<long>(r2)[0], 4242L + round);
  SPMD_CHECK_EQ(L<long>(r3)[0], static_cast<long>(T) * (T - 1) / 2 + static_cast<long>(T) * round);
  upc_barrier;
  upc_free(r3);
  upc_free(s3);
  upc_free(r2);
  upc_free(s2);
  upc_free(r);
  upc_free(s);
}

const std::vector<upccoll_flag_t>& invalid_flags() {
  static const std::vector<upccoll_flag_t> v = {
      UPC_IN_NOSYNC | UPC_IN_MYSYNC,
      UPC_IN_MYSYNC | UPC_IN_ALLSYNC,
      UPC_IN_NOSYNC | UPC_IN_ALLSYNC,
      UPC_IN_NOSYNC | UPC_IN_MYSYNC | UPC_IN_ALLSYNC,
      UPC_OUT_NOSYNC | UPC_OUT_MYSYNC,
      UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC,
      UPC_OUT_NOSYNC | UPC_OUT_ALLSYNC | UPC_IN_MYSYNC,
      UPC_PULL,
      UPC_PUSH,
      UPC_MULTICORE,
      UPC_PULL | UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
      UPC_PUSH | UPC_ASYNC_FENCE,
      1 << 10,
      1 << 16,
      1 << 30,
      -1};
  return v;
}

}  // namespace

TEST_CASE("sync flags: the 16 IN × OUT combinations (with and without UPC_ASYNC_FENCE) complete with the right data") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        int round = 0;
        for (upccoll_flag_t fence : {0, UPC_ASYNC_FENCE})
          for (upccoll_flag_t f : sync_flag_values()) flags_round(f | fence, round++);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 4, 7});
}

namespace upccoll_api_test {

// Invalid flags on every thread, then on the last one only. strict: every member
// gets UPCCOLL_ERROR_FLAGS; lenient: the last one does, the others that or
// SUCCESS (see error_check in test_upccoll_errors.cpp, whose --check tests run
// this strict) -- except in a barrier, whose every member waits for every
// member's post and so meets the failed one.
void flags_invalid_body(bool strict) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  upc::sptr<void> s = mine(8 * T + 8), r = mine(8 * T + 8);
  for (upccoll_flag_t bad : invalid_flags())
    for (int only_last = 0; only_last < 2; ++only_last) {
      if (only_last && T == 1) continue;
      const bool erring = !only_last || me == T - 1;
      const upccoll_flag_t f = erring ? bad : 0;
      const std::string what = "flags " + flags_name(bad) + " (" + std::to_string(bad) + ")" +
                                (only_last ? " on the last thread only" : "");
      auto check = [&](upccoll_return_t rc, const char* call, bool always_strict) {
        if (strict || erring || always_strict) {
          expect_rc(rc, UPCCOLL_ERROR_FLAGS, what + ": " + call);
        } else if (rc != UPCCOLL_SUCCESS && rc != UPCCOLL_ERROR_FLAGS) {
          fail(what + ": " + call + " returned " + code_name(rc));
        }
      };
      check(upccoll_barrier(UPC_TEAM_ALL, f, nullptr), "upccoll_barrier", true);
      check(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, f, nullptr), "upccoll_allreduce", false);
      check(upccoll_bcast(s, 2, UPC_INT, r, 2, UPC_INT, 0, UPC_TEAM_ALL, f, nullptr), "upccoll_bcast", false);
      if (!only_last) {  // non-blocking: refused at once
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        check(upccoll_alltoall(s, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, f, &h), "upccoll_alltoall (non-blocking)", true);
        if (h != UPCCOLL_INVALID_HANDLE) upccoll_wait(h);
      }
      team_still_works();
    }
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace upccoll_api_test

TEST_CASE("sync flags: two IN or two OUT choices or unknown bits (UPC_PULL/PUSH/MULTICORE included) are UPCCOLL_ERROR_FLAGS") {
  everywhere([] { flags_invalid_body(false); }, {1, 2, 3});
}

// Eager completion (docs/teams-and-collectives-2.md, "Errors"): without --check
// the root of a small MYSYNC broadcast returns before any other member has
// called it, and the others, calling after that, still get its bytes. Were the
// root to wait for every member's post, the others would give up after 10 s.
TEST_CASE("MYSYNC without --check: the root of a small broadcast returns before the others call it; they still get its bytes") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {2, 3, 5}) {
      if (spmd::skip_run(T, b)) continue;
      const upc::run_result r = upc::run(opts(T, b, 30), [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int me = MYTHREAD;
        const upc::sptr<void> go = upc_all_alloc(THREADS, sizeof(int));  // go[t] = 1: thread t may call
        auto element = [&](int t) {
          upc::shared_address a = go.address();
          a.thread = static_cast<std::uint32_t>(t);
          return upc::sptr<void>(a);
        };
        *static_cast<int*>(element(me).local()) = 0;
        upc::sptr<void> s = mine(8), d = mine(8);
        L<long>(s)[0] = 7000;
        L<long>(d)[0] = -1;
        upc_barrier;
        if (me == 0) {
          UC_OK(upccoll_bcast(s, 1, UPC_LONG, d, 1, UPC_LONG, 0, UPC_TEAM_ALL, 0, nullptr));
          const int one = 1;
          for (int t = 1; t < THREADS; ++t) upc_memput(element(t), &one, sizeof one);
          upc_fence;
        } else {
          // A bounded wait: this loop makes no runtime call that a stopping run could end.
          int seen = 0;
          for (int ms = 0; !seen && ms < 10000; ++ms) {
            upc_memget(&seen, element(me), sizeof seen);
            if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
          if (!seen) fail("the root's upccoll_bcast did not return before the other members called it (10 s)");
          UC_OK(upccoll_bcast(s, 1, UPC_LONG, d, 1, UPC_LONG, 0, UPC_TEAM_ALL, 0, nullptr));
        }
        SPMD_CHECK_EQ(L<long>(d)[0], 7000L);
        UC_OK(upccoll_finalize());
      });
      INFO("backend=", spmd::name(b), " THREADS=", T, " error: ", r.error);
      CHECK(r.ok());
    }
}
