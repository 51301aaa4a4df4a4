// <upccoll.h> calls that repeat the last one: a blocking call whose arguments
// are those of this thread's last good call of the same collective runs from
// the remembered description without checking them again
// (lib/api/upccoll_args.hpp, run_remembered). It must still move the bytes
// the buffers hold now, and it must not be taken once what it remembered may
// have changed: the team freed, the library finalised, a buffer freed.
#include <chrono>
#include <cstdint>
#include <thread>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;

namespace {

// Rounds of the same calls with new data each round: every round's result is
// that round's.
void same_calls_new_data_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  upc::sptr<void> s = mine(T * sizeof(std::int64_t)), r = mine(T * sizeof(std::int64_t));
  for (int round = 0; round < 80; ++round) {  // past the 32 slots: slots are reused
    const int root = round % 3 % T;
    for (int k = 0; k < T; ++k) L<std::int64_t>(s)[k] = 1000 * round + 10 * me + k;
    UC_OK(upccoll_bcast(s, 1, UPC_LLONG, r, 1, UPC_LLONG, root, UPC_TEAM_ALL, 0, nullptr));
    SPMD_CHECK_EQ(L<std::int64_t>(r)[0], 1000 * round + 10 * root);
    UC_OK(upccoll_alltoall(s, 1, UPC_LLONG, r, 1, UPC_LLONG, UPC_TEAM_ALL, 0, nullptr));
    for (int k = 0; k < T; ++k) SPMD_CHECK_EQ(L<std::int64_t>(r)[k], 1000 * round + 10 * k + me);
    UC_OK(upccoll_allreduce(s, r, 1, UPC_LLONG, UPC_ADD, UPC_TEAM_ALL, 0, nullptr));
    SPMD_CHECK_EQ(L<std::int64_t>(r)[0], std::int64_t(T) * 1000 * round + 10 * std::int64_t(T) * (T - 1) / 2);
    UC_OK(upccoll_reduce(s, r, 1, UPC_LLONG, UPC_MAX, root, UPC_TEAM_ALL, 0, nullptr));
    if (me == root) SPMD_CHECK_EQ(L<std::int64_t>(r)[0], 1000 * round + 10 * (T - 1));
    UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr));
  }
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

// The root of a broadcast loop runs ahead while the others lag (they sleep
// now and then): it may reuse a slot only once every member is done with the
// slot's collective, so every member gets every call's value, never a later
// one's.
void root_far_ahead_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int me = MYTHREAD;
  upc::sptr<void> s = mine(sizeof(std::int64_t)), r = mine(sizeof(std::int64_t));
  for (int i = 0; i < 200; ++i) {
    if (me != 0 && i % 16 == me % 16) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    *L<std::int64_t>(s) = 7 * i + 1;
    *L<std::int64_t>(r) = -1;
    UC_OK(upccoll_bcast(s, 1, UPC_LLONG, r, 1, UPC_LLONG, 0, UPC_TEAM_ALL, 0, nullptr));
    SPMD_CHECK_EQ(*L<std::int64_t>(r), 7 * i + 1);
  }
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

// What a remembered call must not outlive.
void remembered_call_guards_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int me = MYTHREAD;
  upc::sptr<void> s = mine(sizeof(int)), r = mine(sizeof(int));
  *L<int>(s) = me + 1;
  // A freed team: its handle is refused, not run from the call remembered on it.
  upccoll_team_t team = nullptr;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &team));
  for (int i = 0; i < 3; ++i) {
    UC_OK(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, team, 0, nullptr));
    UC_OK(upccoll_barrier(team, 0, nullptr));
  }
  upccoll_team_free(team);
  UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, team, 0, nullptr), UPCCOLL_ERROR_TEAM);
  UC_EXPECT(upccoll_barrier(team, 0, nullptr), UPCCOLL_ERROR_TEAM);
  // A freed buffer: refused on every member (each frees its own).
  upc::sptr<void> gone = mine(sizeof(int));
  for (int i = 0; i < 3; ++i) UC_OK(upccoll_allreduce(s, gone, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr));
  upc_free(gone);
  UC_EXPECT(upccoll_allreduce(s, gone, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  // The library finalised: the same call is refused, then works once initialised again.
  for (int i = 0; i < 3; ++i) UC_OK(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr));
  UC_OK(upccoll_finalize());
  UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
  UC_EXPECT(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
  UC_OK(upccoll_initialize(nullptr, nullptr));
  *L<int>(r) = -1;
  UC_OK(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr));
  SPMD_CHECK_EQ(*L<int>(r), THREADS * (THREADS + 1) / 2);
  // The same arguments with a handle: started and waited on, as any call.
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  *L<int>(r) = -1;
  UC_OK(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, &h));
  UC_OK(upccoll_wait_status(h));
  SPMD_CHECK_EQ(*L<int>(r), THREADS * (THREADS + 1) / 2);
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("repeated calls: the same arguments with new data each round give each round's result") {
  everywhere(same_calls_new_data_body, {1, 2, 3, 4, 8});
}

TEST_CASE("repeated calls: a freed team, a freed buffer or a finalised library is refused, not run from memory") {
  everywhere(remembered_call_guards_body, {1, 2, 3});
}

TEST_CASE("repeated calls: a root far ahead of the others reuses a slot only once every member is done with it") {
  everywhere(root_far_ahead_body, {2, 3, 4});
}
