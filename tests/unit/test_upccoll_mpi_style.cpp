// <upccoll.h> extensions that MPI users and teachers expect (issue 27.15,
// 27.16): upccoll_waitall / upccoll_testall over an array of handles (as
// MPI_Waitall / MPI_Testall), the --check note on handles never waited on,
// upccoll_team_split_type by emulated node (MPI_Comm_split_type with
// MPI_COMM_TYPE_SHARED), and the bridge from the thesis's teams (<teamutil.h>)
// to <upccoll.h> teams, with the documented way back.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../conformance/upccoll_harness.hpp"
#include "../support/capture_stderr.hpp"
#include "teamutil.h"
#include "upc_collective_ext.h"

using namespace uconf;

namespace {

void run_ok(int T, upc::backend_kind b, const std::function<void()>& body, bool check = false) {
  if (spmd::skip_run(T, b)) return;
  upc::launch_options o = spmd::options(T, b);
  o.timeout_seconds = 60;
  o.check = check;
  const upc::run_result r = upc::run(o, body);
  INFO("backend=", spmd::name(b), " THREADS=", T, " nodes=", o.nodes, " error: ", r.error);
  CHECK(r.ok());
}

void everywhere(const std::function<void()>& body, std::initializer_list<int> counts = {1, 2, 3, 5}) {
  for (upc::backend_kind b : spmd::backends)
    for (int T : counts) run_ok(T, b, body);
}

template <class T>
T* L(upc::sptr<void> p) {
  return static_cast<T*>(p.local());
}
upc::sptr<void> mine(std::size_t bytes) { return upc_alloc(bytes); }

// The team's threads by rank (an allgather of MYTHREAD).
std::vector<int> members_of(upccoll_team_t team) {
  int n = 0;
  UC_OK(upccoll_team_size(team, &n));
  upc::sptr<void> s = mine(sizeof(int)), r = mine(n * sizeof(int));
  *L<int>(s) = MYTHREAD;
  UC_OK(upccoll_allgather(s, 1, UPC_INT, r, 1, UPC_INT, team, 0, nullptr));
  std::vector<int> v(L<int>(r), L<int>(r) + n);
  upc_free(r);
  upc_free(s);
  return v;
}

using upc::test::stderr_of;

constexpr upccoll_return_t unset = static_cast<upccoll_return_t>(-1);

void waitall_testall_body() {
  UC_EXPECT(upccoll_waitall(0, nullptr, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  upc::sptr<void> s = mine(64), r = mine(64), bs = mine(64), b = mine(64);
  *L<long>(s) = me + 1;
  *L<int>(bs) = me == T - 1 ? 42 : -1;
  *L<int>(b) = -1;

  // waitall: three collectives among skipped entries
  upccoll_handle_t h[5] = {UPCCOLL_INVALID_HANDLE, UPCCOLL_INVALID_HANDLE, UPCCOLL_INVALID_HANDLE,
                           UPCCOLL_INVALID_HANDLE, UPCCOLL_INVALID_HANDLE};
  UC_OK(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, 0, &h[0]));
  UC_OK(upccoll_bcast(bs, 1, UPC_INT, b, 1, UPC_INT, T - 1, UPC_TEAM_ALL, 0, &h[2]));
  UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &h[3]));
  const upccoll_handle_t first = h[0];
  upccoll_return_t st[5] = {unset, unset, unset, unset, unset};
  UC_OK(upccoll_waitall(5, h, st));
  for (int i = 0; i < 5; ++i) {
    SPMD_CHECK(h[i] == UPCCOLL_INVALID_HANDLE);
    SPMD_CHECK_EQ(static_cast<int>(st[i]), static_cast<int>(UPCCOLL_SUCCESS));
  }
  SPMD_CHECK_EQ(*L<long>(r), static_cast<long>(T) * (T + 1) / 2);
  SPMD_CHECK_EQ(*L<int>(b), 42);
  SPMD_CHECK_EQ(upccoll_test(first), -static_cast<int>(UPCCOLL_ERROR_HANDLE));  // completed: dead

  // testall: 0 (nothing changed) until every one is complete, then 1 (completed)
  upccoll_handle_t g[2] = {UPCCOLL_INVALID_HANDLE, UPCCOLL_INVALID_HANDLE};
  upc::sptr<void> all = mine(T * sizeof(int));
  *L<int>(s) = 10 * me;
  UC_OK(upccoll_allgather(s, 1, UPC_INT, all, 1, UPC_INT, UPC_TEAM_ALL, 0, &g[0]));
  UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &g[1]));
  const upccoll_handle_t g0 = g[0], g1 = g[1];
  upccoll_return_t st2[2] = {unset, unset};
  const auto t0 = std::chrono::steady_clock::now();
  int got;
  while ((got = upccoll_testall(2, g, st2)) == 0) {
    SPMD_CHECK(g[0] == g0 && g[1] == g1);
    SPMD_CHECK_EQ(static_cast<int>(st2[0]), static_cast<int>(unset));
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(30)) fail("upccoll_testall never gave 1");
    std::this_thread::yield();
  }
  SPMD_CHECK_EQ(got, 1);
  SPMD_CHECK(g[0] == UPCCOLL_INVALID_HANDLE && g[1] == UPCCOLL_INVALID_HANDLE);
  SPMD_CHECK_EQ(static_cast<int>(st2[0]), static_cast<int>(UPCCOLL_SUCCESS));
  for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<int>(all)[t], 10 * t);
  SPMD_CHECK_EQ(upccoll_test(g0), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
  SPMD_CHECK_EQ(upccoll_testall(2, g, nullptr), 1);  // only skipped entries
  SPMD_CHECK_EQ(upccoll_testall(0, nullptr, nullptr), 1);
  UC_OK(upccoll_waitall(0, nullptr, nullptr));

  // bad arrays: refused whole, nothing waited for
  upccoll_handle_t live = UPCCOLL_INVALID_HANDLE;
  UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &live));
  upccoll_handle_t bad[3] = {live, UPCCOLL_INVALID_HANDLE, first};  // `first` is dead
  UC_EXPECT(upccoll_waitall(3, bad, nullptr), UPCCOLL_ERROR_HANDLE);
  SPMD_CHECK(bad[0] == live);
  SPMD_CHECK_EQ(upccoll_testall(3, bad, nullptr), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
  upccoll_handle_t twice[2] = {live, live};
  UC_EXPECT(upccoll_waitall(2, twice, nullptr), UPCCOLL_ERROR_HANDLE);
  SPMD_CHECK_EQ(upccoll_testall(2, twice, nullptr), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
  UC_EXPECT(upccoll_waitall(-1, twice, nullptr), UPCCOLL_ERROR_COUNT);
  SPMD_CHECK_EQ(upccoll_testall(-1, twice, nullptr), -static_cast<int>(UPCCOLL_ERROR_COUNT));
  UC_EXPECT(upccoll_waitall(2, nullptr, nullptr), UPCCOLL_ERROR);
  SPMD_CHECK(upccoll_test(live) >= 0);  // still live after every refusal
  UC_OK(upccoll_waitall(1, &live, nullptr));

  // a failed collective: its entry's status and the return value say so
  if (T >= 2) {
    const bool erring = me == T - 1;
    upccoll_handle_t f[2] = {UPCCOLL_INVALID_HANDLE, UPCCOLL_INVALID_HANDLE};
    UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &f[0]));
    const upccoll_return_t rc =
        upccoll_allreduce(erring ? upc::sptr<void>(nullptr) : s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, &f[1]);
    upccoll_return_t fs[2] = {unset, unset};
    if (rc == UPCCOLL_SUCCESS) {
      UC_EXPECT(upccoll_waitall(2, f, fs), UPCCOLL_ERROR_SENDBUF);
      SPMD_CHECK_EQ(static_cast<int>(fs[1]), static_cast<int>(UPCCOLL_ERROR_SENDBUF));
    } else {
      UC_EXPECT(rc, UPCCOLL_ERROR_SENDBUF);
      SPMD_CHECK(f[1] == UPCCOLL_INVALID_HANDLE);
      UC_OK(upccoll_waitall(2, f, fs));
      SPMD_CHECK_EQ(static_cast<int>(fs[1]), static_cast<int>(UPCCOLL_SUCCESS));  // skipped
    }
    SPMD_CHECK_EQ(static_cast<int>(fs[0]), static_cast<int>(UPCCOLL_SUCCESS));
  }
  upc_free(all);
  upc_free(b);
  upc_free(bs);
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("upccoll_waitall / upccoll_testall complete an array of handles as MPI_Waitall / MPI_Testall (issue 27.15)") {
  everywhere(waitall_testall_body);
}

namespace {
// Handles left live where the library completes them, or where the thread ends.
void never_waited_body(bool finalize) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  upc::sptr<void> s = mine(8), r = mine(8);
  *L<long>(s) = 1;
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE, w = UPCCOLL_INVALID_HANDLE, t_h = UPCCOLL_INVALID_HANDLE;
  UC_OK(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, 0, &h));  // handle 1: never waited on
  UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &w));                                  // handle 2: waited on
  upccoll_wait(w);
  if (!finalize) return;  // the thread ends with handle 1 live
  upccoll_team_t team = UPCCOLL_TEAM_NULL;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &team));
  UC_OK(upccoll_barrier(team, 0, &t_h));  // handle 3: never waited on, dropped by upccoll_team_free
  upccoll_team_free(team);
  UC_OK(upccoll_finalize());
}
}  // namespace

TEST_CASE("--check notes every handle never waited on: at upccoll_team_free, upccoll_finalize and a thread's end (issue 27.15)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    for (bool check : {true, false})
      for (bool finalize : {true, false}) {
        std::string err = stderr_of([&] { run_ok(2, b, [finalize] { never_waited_body(finalize); }, check); });
        INFO("backend=", spmd::name(b), " check=", check, " finalize=", finalize, " stderr: ", err);
        if (!check) {
          CHECK(!spmd::contains(err, "never waited on"));
          continue;
        }
        const char* rule = "never waited on: a non-blocking collective with a handle is complete only once upccoll_wait, "
                           "upccoll_waitall or upccoll_testall has returned for it";
        for (int t = 0; t < 2; ++t) {
          if (spmd::mpi_ranks() > 0 && t != spmd::mpi_rank()) continue;  // a rank sees its own stderr only
          const std::string of = " of thread " + std::to_string(t) + " was ";
          if (finalize) {
            CHECK(spmd::contains(err, "upcemu: note: upccoll_team_free completed them, but: handle 3 (upccoll_barrier)" + of + rule));
            CHECK(spmd::contains(err, "upcemu: note: upccoll_finalize completed them, but: handle 1 (upccoll_allreduce)" + of + rule));
          } else {
            CHECK(spmd::contains(err, "upcemu: note: the thread ended, and: handle 1 (upccoll_allreduce)" + of + rule));
          }
        }
        CHECK(!spmd::contains(err, "handle 2 "));
      }
  }
}

namespace {
// Splits by node and checks the teams against the topology: one per node, in
// reverse thread order (key -MYTHREAD); then by node inside a parity team.
void split_type_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int me = MYTHREAD;
  std::vector<int> node;  // my node's threads, as upc::node_threads gives them (increasing)
  for (int t = 0; t < THREADS; ++t)
    if (upc::node_of(t) == upc::node_of(me)) node.push_back(t);
  upccoll_team_t by_node = UPCCOLL_TEAM_NULL;
  UC_OK(upccoll_team_split_type(UPC_TEAM_ALL, UPCCOLL_TEAM_TYPE_SHARED, -me, &by_node));
  const std::vector<int> got = members_of(by_node);
  SPMD_CHECK_EQ(got.size(), node.size());
  for (std::size_t k = 0; k < node.size(); ++k) SPMD_CHECK_EQ(got[k], node[node.size() - 1 - k]);
  // inside a parity team: the members of my parity on my node, by parent rank
  upccoll_team_t parity = UPCCOLL_TEAM_NULL, sub = UPCCOLL_TEAM_NULL;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % 2, me, &parity));
  UC_OK(upccoll_team_split_type(parity, UPCCOLL_TEAM_TYPE_SHARED, 0, &sub));
  std::vector<int> want;
  for (int t : node)
    if (t % 2 == me % 2) want.push_back(t);
  const std::vector<int> got2 = members_of(sub);
  SPMD_CHECK_EQ(got2.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) SPMD_CHECK_EQ(got2[k], want[k]);
  // UPCCOLL_UNDEFINED joins none
  upccoll_team_t none = UPC_TEAM_ALL;
  UC_OK(upccoll_team_split_type(UPC_TEAM_ALL, me == 0 ? UPCCOLL_UNDEFINED : UPCCOLL_TEAM_TYPE_SHARED, 0, &none));
  if (me == 0) SPMD_CHECK(none == UPCCOLL_TEAM_NULL);
  else upccoll_team_free(none);
  // another split type on one member: UPCCOLL_ERROR on every member, no team
  upccoll_team_t bad = UPCCOLL_TEAM_NULL;
  UC_EXPECT(upccoll_team_split_type(UPC_TEAM_ALL, me == THREADS - 1 ? 7 : UPCCOLL_TEAM_TYPE_SHARED, 0, &bad), UPCCOLL_ERROR);
  SPMD_CHECK(bad == UPCCOLL_TEAM_NULL);
  upccoll_team_free(sub);
  upccoll_team_free(parity);
  upccoll_team_free(by_node);
  UC_OK(upccoll_finalize());
}
}  // namespace

TEST_CASE("upccoll_team_split_type(UPCCOLL_TEAM_TYPE_SHARED) makes one team per emulated node (issue 27.16)") {
  SUBCASE("one node (the default): the whole team") { everywhere(split_type_body, {1, 3}); }
  SUBCASE("2 nodes, cyclic") {
    spmd::topology_scope topo(2, "cyclic");
    everywhere(split_type_body, {5});
  }
  SUBCASE("3 nodes, block") {
    spmd::topology_scope topo(3, "block");
    everywhere(split_type_body, {7});
  }
}

namespace {
// A thesis team of the odd threads made into a <upccoll.h> team, and a
// <upccoll.h> team made into a thesis team by the documented recipe.
void bridge_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  team odd;
  init(&odd);  // collective over all threads
  if (me % 2 == 1) insert(me, odd);
  upc_barrier;
  if (me % 2 == 1) {
    upccoll_team_t u = UPCCOLL_TEAM_NULL;
    UC_OK(upccoll_team_from_teamutil(odd, &u));
    int rank = -1, size = -1;
    UC_OK(upccoll_team_rank(u, &rank));
    UC_OK(upccoll_team_size(u, &size));
    SPMD_CHECK_EQ(rank, getTeamID(me, odd));
    SPMD_CHECK_EQ(size, numThreads(odd));
    const std::vector<int> got = members_of(u);
    for (int k = 0; k < size; ++k) SPMD_CHECK_EQ(got[static_cast<std::size_t>(k)], getThreadID(k, odd));
    UC_EXPECT(upccoll_team_from_teamutil(odd, nullptr), UPCCOLL_ERROR);
    upccoll_team_free(u);
    teamBarrier(odd);  // the thesis team still works
  }
  // the other way: a <upccoll.h> team of the even threads, key = thread, so
  // its ranks are thread order, as a thesis team's ids always are
  upccoll_team_t even = UPCCOLL_TEAM_NULL;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % 2 == 0 ? 0 : UPCCOLL_UNDEFINED, me, &even));
  team as_thesis;
  init(&as_thesis);
  if (even != UPCCOLL_TEAM_NULL) insert(me, as_thesis);
  upc_barrier;
  if (even != UPCCOLL_TEAM_NULL) {
    int rank = -1, size = -1;
    UC_OK(upccoll_team_rank(even, &rank));
    UC_OK(upccoll_team_size(even, &size));
    SPMD_CHECK_EQ(getTeamID(me, as_thesis), rank);
    SPMD_CHECK_EQ(numThreads(as_thesis), size);
    // a team-based extended collective on it: src (on thread 0) to every member's block
    upc::sptr<void> dst = allocate(T, sizeof(int), as_thesis), src = allocate(1, sizeof(int), as_thesis);
    upc::sptr<int> d(dst), s(src);
    if (rank == 0) s[0] = 7 + T;
    upc_all_broadcast_team(dst, src, sizeof(int), as_thesis, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    SPMD_CHECK_EQ(static_cast<int>(d[me]), 7 + T);
    deallocate(src, as_thesis);
    deallocate(dst, as_thesis);
    upccoll_team_free(even);
  }
  UC_OK(upccoll_finalize());
}
}  // namespace

TEST_CASE("thesis teams and <upccoll.h> teams: upccoll_team_from_teamutil, and back by init + insert (issue 27.16)") {
  everywhere(bridge_body, {1, 2, 5});
  // a thread outside the thesis team: the run stops, naming it
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    const upc::run_result r = upc::run(spmd::options(2, b), [] {
      UC_OK(upccoll_initialize(nullptr, nullptr));
      team t;
      init(&t);
      insert(0, t);
      upc_barrier;
      upccoll_team_t u;
      if (MYTHREAD == 1) (void)upccoll_team_from_teamutil(t, &u);
      upc_barrier;
    });
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.failed);
    CHECK(spmd::contains(r.error, "upccoll_team_from_teamutil: thread 1 is not a member of team t (members: 0)"));
  }
}
