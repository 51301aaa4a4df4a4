// What the unit tests of the UPC Collectives 2.0 API (the test_upccoll_*.cpp
// files beside this one, by topic) share: runs on every backend and THREADS
// count, buffers of the calling thread, a team's members and the check that a
// team still works; and the bodies that test cases of another file run again.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "../conformance/upccoll_harness.hpp"
#include "../support/capture_stderr.hpp"

namespace upccoll_api_test {

inline constexpr std::initializer_list<int> all_threads = {1, 2, 3, 4, 5, 7, 8, 16};

inline upc::launch_options opts(int T, upc::backend_kind b, double timeout) {
  upc::launch_options o = spmd::options(T, b);
  o.heap_per_thread = 16u << 20;
  o.timeout_seconds = timeout;
  return o;
}

// Runs body on THREADS T; a failure (or a hang past `timeout`) fails the test.
inline void run_ok(int T, upc::backend_kind b, const std::function<void()>& body, double timeout = 60) {
  if (spmd::skip_run(T, b)) return;
  const upc::run_result r = upc::run(opts(T, b, timeout), body);
  INFO("backend=", spmd::name(b), " THREADS=", T, " error: ", r.error);
  CHECK(r.ok());
}

inline void everywhere(const std::function<void()>& body, std::initializer_list<int> counts = all_threads,
                       double timeout = 60) {
  for (upc::backend_kind b : spmd::backends)
    for (int T : counts) run_ok(T, b, body, timeout);
}

// everywhere, under upcrun --check (every member waits for every member's
// arguments, so an error on one member is every member's code); its reports
// are kept out of the test's output.
inline void everywhere_checked(const std::function<void()>& body, std::initializer_list<int> counts = all_threads,
                               double timeout = 60) {
  for (upc::backend_kind b : spmd::backends)
    for (int T : counts) {
      if (spmd::skip_run(T, b)) continue;
      upc::launch_options o = opts(T, b, timeout);
      o.check = true;
      upc::run_result r;
      const std::string err = upc::test::stderr_of([&] { r = upc::run(o, body); });
      INFO("backend=", spmd::name(b), " THREADS=", T, " error: ", r.error);
      CHECK(r.ok());
    }
}

template <class T>
T* L(upc::sptr<void> p) {
  return static_cast<T*>(p.local());
}

// A buffer with affinity to the calling thread.
inline upc::sptr<void> mine(std::size_t bytes) { return upc_alloc(std::max<std::size_t>(bytes, 1)); }

// Every rank of `team` passes MYTHREAD; the result lists the team's threads by rank.
inline std::vector<int> members_of(upccoll_team_t team) {
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

// The team still works, and every thread made the same number of calls on it:
// an allreduce of (thread + 1) over its members.
inline void team_still_works(upccoll_team_t team = UPC_TEAM_ALL) {
  const std::vector<int> mem = members_of(team);
  upc::sptr<void> s = mine(sizeof(long)), r = mine(sizeof(long));
  *L<long>(s) = MYTHREAD + 1;
  UC_OK(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, team, 0, nullptr));
  long want = 0;
  for (int t : mem) want += t + 1;
  SPMD_CHECK_EQ(*L<long>(r), want);
  upc_free(r);
  upc_free(s);
}

inline const upccoll_team_t sentinel_team = reinterpret_cast<upccoll_team_t>(std::uintptr_t{0xfeedface});

using upc::test::stderr_of;

// Bodies run by test cases of more than one file.
void user_op_body();                   // test_upccoll_user_ops.cpp; the progress thread
void concurrent_teams_body();          // test_upccoll_teams.cpp; the progress thread
void flags_invalid_body(bool strict);  // test_upccoll_sync_flags.cpp; the --check errors

}  // namespace upccoll_api_test
