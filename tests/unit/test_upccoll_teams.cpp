// <upccoll.h> teams: UPC_TEAM_ALL; upccoll_team_split with colors and keys
// (keys in MPI_Comm_split's order, any ints), UPCCOLL_UNDEFINED and
// UPCCOLL_TEAM_NULL, splits of splits; team_free, and freed handles that stay
// dead (reported under --check); disjoint teams running at the same time.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <source_location>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

TEST_CASE("UPC_TEAM_ALL: rank is MYTHREAD and size is THREADS") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    int r = -1, n = -1;
    UC_OK(upccoll_team_rank(UPC_TEAM_ALL, &r));
    UC_OK(upccoll_team_size(UPC_TEAM_ALL, &n));
    SPMD_CHECK_EQ(r, MYTHREAD);
    SPMD_CHECK_EQ(n, THREADS);
    const std::vector<int> mem = members_of(UPC_TEAM_ALL);
    for (int t = 0; t < THREADS; ++t) SPMD_CHECK_EQ(mem[t], t);
    UC_OK(upccoll_finalize());
  });
}

TEST_CASE("upccoll_team_split: equal colors make a team ranked by key; splits of splits; team_free") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    const int T = THREADS, me = MYTHREAD;
    // colors 5, -3, 11 by thread mod 3; keys: the reverse of thread order in each color
    const int colors[3] = {5, -3, 11};
    const int c = me % 3;
    std::vector<int> same;
    for (int t = c; t < T; t += 3) same.push_back(t);
    const int n = static_cast<int>(same.size());
    const int idx = static_cast<int>(std::find(same.begin(), same.end(), me) - same.begin());
    upccoll_team_t team = nullptr;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, colors[c], n - 1 - idx, &team));
    SPMD_CHECK(team != UPC_TEAM_ALL);
    int r = -1, sz = -1;
    UC_OK(upccoll_team_rank(team, &r));
    UC_OK(upccoll_team_size(team, &sz));
    SPMD_CHECK_EQ(r, n - 1 - idx);
    SPMD_CHECK_EQ(sz, n);
    const std::vector<int> mem = members_of(team);
    for (int k = 0; k < n; ++k) SPMD_CHECK_EQ(mem[k], same[n - 1 - k]);
    team_still_works(team);
    // a split of the split: by rank parity, key rank / 2
    upccoll_team_t sub = nullptr;
    UC_OK(upccoll_team_split(team, r % 2, r / 2, &sub));
    int r2 = -1, sz2 = -1;
    UC_OK(upccoll_team_rank(sub, &r2));
    UC_OK(upccoll_team_size(sub, &sz2));
    SPMD_CHECK_EQ(r2, r / 2);
    SPMD_CHECK_EQ(sz2, (n - r % 2 + 1) / 2);
    const std::vector<int> mem2 = members_of(sub);
    for (int k = 0; k < sz2; ++k) SPMD_CHECK_EQ(mem2[k], mem[2 * k + r % 2]);
    team_still_works(sub);
    // the whole team again, in reverse order, from UPC_TEAM_ALL
    upccoll_team_t rev = nullptr;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, T - 1 - me, &rev));
    const std::vector<int> mem3 = members_of(rev);
    for (int k = 0; k < T; ++k) SPMD_CHECK_EQ(mem3[k], T - 1 - k);
    upccoll_team_free(rev);
    upccoll_team_free(sub);
    team_still_works(team);
    upccoll_team_free(team);
    team_still_works();
    UC_OK(upccoll_finalize());
  });
}

namespace {

// The team's exclusive scan of 1s: every member's result is its rank (rank 0
// keeps -1), so reductions see the same rank order as team_rank.
void scan_gives_ranks(upccoll_team_t team) {
  int r = -1;
  UC_OK(upccoll_team_rank(team, &r));
  upc::sptr<void> s = mine(sizeof(long)), out = mine(sizeof(long));
  *L<long>(s) = 1;
  *L<long>(out) = -1;
  UC_OK(upccoll_exscan(s, out, 1, UPC_LONG, UPC_ADD, team, 0, nullptr));
  SPMD_CHECK_EQ(*L<long>(out), r == 0 ? -1L : static_cast<long>(r));
  upc_free(out);
  upc_free(s);
}

// Splits UPC_TEAM_ALL with (color, key) and checks the new team against the
// order MPI_Comm_split gives: by key, then by rank in the parent team.
upccoll_team_t split_and_check(int color, int key) {
  const int T = THREADS, me = MYTHREAD;
  upc::shared_array<int> ck{upc::per_thread(2)};  // [2t]: color, [2t+1]: key of thread t
  ck[2 * me] = color;
  ck[2 * me + 1] = key;
  upc_barrier;
  std::vector<std::pair<int, int>> want;  // (key, thread) of my color, sorted
  for (int t = 0; t < T; ++t)
    if (ck[2 * t].get() == color) want.push_back({ck[2 * t + 1].get(), t});
  std::sort(want.begin(), want.end());
  upc_barrier;
  upccoll_team_t team = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, color, key, &team));
  SPMD_CHECK(team != sentinel_team && team != UPC_TEAM_ALL && team != UPCCOLL_TEAM_NULL);
  int r = -1, n = -1;
  UC_OK(upccoll_team_rank(team, &r));
  UC_OK(upccoll_team_size(team, &n));
  SPMD_CHECK_EQ(n, static_cast<int>(want.size()));
  SPMD_CHECK_EQ(want.at(r).second, me);
  const std::vector<int> mem = members_of(team);
  for (int k = 0; k < n; ++k) SPMD_CHECK_EQ(mem[k], want[k].second);
  scan_gives_ranks(team);
  team_still_works(team);
  return team;
}

}  // namespace

TEST_CASE("upccoll_team_split: keys need not be 0..n-1; a color's members are ordered by key, then by parent rank (MPI_Comm_split)") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    const int T = THREADS, me = MYTHREAD;
    const std::pair<int, int> cases[] = {
        {1, 0},                        // every key equal: parent order
        {0, me == 0 ? -1 : me},        // a negative key
        {0, me + 1},                   // keys 1..T: no key 0
        {me % 2, me % 2 ? 7 * T : me / 2},  // a gap in one color of two
        {me % 2, 5},                   // a duplicate in each color
        {me % 3, 1000 - 10 * (me / 2)},  // descending, pairs of equal keys: ties by parent rank
        {-4, std::numeric_limits<int>::min() + me},  // extreme keys
        {me % 2, std::numeric_limits<int>::max() - me % 3},
    };
    for (const auto& [color, key] : cases) {
      upccoll_team_t t = split_and_check(color, key);
      upccoll_team_free(t);
    }
    // a split of a non-dense split: ranks come from the parent team, not from threads
    upccoll_team_t rev = split_and_check(0, -me);  // reverse order
    int r = -1;
    UC_OK(upccoll_team_rank(rev, &r));
    upccoll_team_t sub = sentinel_team;
    UC_OK(upccoll_team_split(rev, 0, 3, &sub));  // equal keys: the order of rev
    SPMD_CHECK(members_of(sub) == members_of(rev));
    scan_gives_ranks(sub);
    upccoll_team_free(sub);
    upccoll_team_free(rev);
    team_still_works();
    UC_OK(upccoll_finalize());
  });
}

TEST_CASE("upccoll_team_split: UPCCOLL_UNDEFINED joins no team and gets UPCCOLL_TEAM_NULL, which every call refuses") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    const int T = THREADS, me = MYTHREAD;
    SPMD_CHECK(UPCCOLL_TEAM_NULL != UPC_TEAM_ALL);
    // odd threads join nothing; the even ones form a team ordered by thread
    upccoll_team_t t = sentinel_team;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % 2 ? UPCCOLL_UNDEFINED : 3, -me, &t));
    if (me % 2) {
      SPMD_CHECK(t == UPCCOLL_TEAM_NULL);
    } else {
      int n = -1;
      UC_OK(upccoll_team_size(t, &n));
      SPMD_CHECK_EQ(n, (T + 1) / 2);
      const std::vector<int> mem = members_of(t);
      for (int k = 0; k < n; ++k) SPMD_CHECK_EQ(mem[k], 2 * (n - 1 - k));
      team_still_works(t);
    }
    // UPCCOLL_TEAM_NULL in every kind of call
    upc::sptr<void> s = mine(64), r = mine(64);
    int x = -7;
    upccoll_team_t nt = sentinel_team;
    UC_EXPECT(upccoll_team_rank(UPCCOLL_TEAM_NULL, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_size(UPCCOLL_TEAM_NULL, &x), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK_EQ(x, -7);
    UC_EXPECT(upccoll_team_split(UPCCOLL_TEAM_NULL, 0, 0, &nt), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(nt == sentinel_team);
    UC_EXPECT(upccoll_barrier(UPCCOLL_TEAM_NULL, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPCCOLL_TEAM_NULL, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, UPCCOLL_TEAM_NULL, 0, nullptr), UPCCOLL_ERROR_TEAM);
    upccoll_team_free(UPCCOLL_TEAM_NULL);  // refused, nothing happens
    if (!(me % 2)) upccoll_team_free(t);
    // everyone undefined: no team anywhere
    t = sentinel_team;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, UPCCOLL_UNDEFINED, me, &t));
    SPMD_CHECK(t == UPCCOLL_TEAM_NULL);
    team_still_works();
    upc_free(r);
    upc_free(s);
    UC_OK(upccoll_finalize());
  });
}

namespace {

// The places stale_handle_body gives its upccoll_team_free(old) and first
// upccoll_finalize, which the reports name (the same in every worker process).
const std::source_location stale_free_at = std::source_location::current();
const std::source_location stale_finalize_at = std::source_location::current();

// upccoll_team_free(old) then a new split: the new team's record may sit where
// the old one was (a pointer handle then named the new team).
void stale_handle_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int me = MYTHREAD;
  upc::sptr<void> s = mine(64), r = mine(64);
  for (int round = 0; round < 4; ++round) {
    upccoll_team_t old = sentinel_team, fresh = sentinel_team;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &old));
    team_still_works(old);
    upccoll_team_free(old, stale_free_at);
    // the same split again (the old pointer handles then named the new team:
    // checked against the library before the fix) or another one
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, round % 2 ? me % 2 : 0, me, &fresh));
    SPMD_CHECK(fresh != old);
    int x = -7;
    upccoll_team_t nt = sentinel_team;
    UC_EXPECT(upccoll_team_rank(old, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_size(old, &x), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK_EQ(x, -7);
    UC_EXPECT(upccoll_team_split(old, 0, me, &nt), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(nt == sentinel_team);
    UC_EXPECT(upccoll_barrier(old, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, old, 0, nullptr), UPCCOLL_ERROR_TEAM);
    upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, old, 0, &h), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(h == UPCCOLL_INVALID_HANDLE);
    upccoll_team_free(old);  // freeing twice: refused, and no hang
    team_still_works(fresh);
    upccoll_team_free(fresh);
  }
  // a handle stays dead across finalize and a new initialize
  upccoll_team_t before = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &before));
  UC_OK(upccoll_finalize(stale_finalize_at));
  UC_OK(upccoll_initialize(nullptr, nullptr));
  upccoll_team_t after = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &after));
  int x = -7;
  UC_EXPECT(upccoll_team_rank(before, &x), UPCCOLL_ERROR_TEAM);
  // another thread's live handle is not this thread's
  upc::shared_array<std::uint64_t> slot{upc::per_thread(1)};
  if (me == 0) slot[0] = reinterpret_cast<std::uintptr_t>(after);
  upc_barrier;
  const auto theirs = reinterpret_cast<upccoll_team_t>(static_cast<std::uintptr_t>(slot[0].get()));
  if (me != 0) UC_EXPECT(upccoll_team_rank(theirs, &x), UPCCOLL_ERROR_TEAM);
  upc_barrier;
  team_still_works(after);
  upccoll_team_free(after);
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("a freed team handle stays UPCCOLL_ERROR_TEAM after a new split reuses its memory; free twice is refused (issue 8.14)") {
  everywhere(stale_handle_body, {1, 2, 3, 5});
}

TEST_CASE("a freed team handle is reported under --check, free twice included (issue 8.14)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    upc::launch_options o = opts(2, b, 60);
    o.check = true;
    upc::run_result res;
    const std::string err = stderr_of([&] { res = upc::run(o, stale_handle_body); });
    INFO("backend=", spmd::name(b), " error: ", res.error, " stderr: ", err);
    CHECK(res.ok());
    // where it was freed (issue 27.8)
    CHECK(spmd::contains(err, "upccoll_team_free: team was freed by upccoll_team_free at "));
    CHECK(spmd::contains(err, "upccoll_barrier: team was freed by upccoll_team_free at "));
    CHECK(spmd::contains(err, "test_upccoll_teams.cpp:" + std::to_string(stale_free_at.line()) +
                                  "; a freed team handle cannot be used again"));
    CHECK(spmd::contains(err, "upccoll_team_rank: team was released by upccoll_finalize at "));
    CHECK(spmd::contains(err, "test_upccoll_teams.cpp:" + std::to_string(stale_finalize_at.line()) + ";"));
    CHECK(spmd::contains(err, "UPCCOLL_ERROR_TEAM"));
  }
}

namespace upccoll_api_test {

// Disjoint teams, each running a stream of collectives at its own pace (the
// progress-thread test in test_upccoll_nonblocking.cpp runs it too).
void concurrent_teams_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  const int ncolors = std::min(T, 3);
  upccoll_team_t team = nullptr, sub = nullptr;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % ncolors, me / ncolors, &team));
  int r = 0, n = 0;
  UC_OK(upccoll_team_rank(team, &r));
  UC_OK(upccoll_team_size(team, &n));
  UC_OK(upccoll_team_split(team, r % 2, r / 2, &sub));  // and teams inside the teams
  int sr = 0, sn = 0;
  UC_OK(upccoll_team_rank(sub, &sr));
  UC_OK(upccoll_team_size(sub, &sn));
  upc::sptr<void> s = mine(8 * 64), rb = mine(8 * 64);
  auto* sv = L<long>(s);
  auto* rv = L<long>(rb);
  for (int it = 0; it < 40; ++it) {
    if ((it + me) % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300 * (me % 3 + 1)));
    // allreduce of (thread + it) over the team: its members are me % ncolors + k*ncolors
    sv[0] = me + it;
    UC_OK(upccoll_allreduce(s, rb, 1, UPC_LONG, UPC_ADD, team, 0, nullptr));
    long want = 0;
    for (int t = me % ncolors; t < T; t += ncolors) want += t + it;
    SPMD_CHECK_EQ(rv[0], want);
    // bcast from rank it % n of the team: that rank's thread
    sv[0] = 1000L * me + it;
    const int root = it % n;
    UC_OK(upccoll_bcast(s, 1, UPC_LONG, rb, 1, UPC_LONG, root, team, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, nullptr));
    SPMD_CHECK_EQ(rv[0], 1000L * (me % ncolors + root * ncolors) + it);
    // the inner team: an exclusive scan of 1s gives the rank (rank 0: unchanged)
    sv[0] = 1;
    rv[0] = -5;
    upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
    UC_OK(upccoll_scan(s, rb, 1, UPC_LONG, UPC_ADD, sub, 0, &h));
    UC_OK(upccoll_wait_status(h));
    SPMD_CHECK_EQ(rv[0], sr == 0 ? -5L : static_cast<long>(sr));
    if (it % 5 == 0) UC_OK(upccoll_barrier(team, 0, nullptr));
  }
  upccoll_team_free(sub);
  upccoll_team_free(team);
  team_still_works();
  upc_free(rb);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace upccoll_api_test

TEST_CASE("disjoint teams run collectives at the same time; each gets its own results") {
  everywhere(concurrent_teams_body);
}
