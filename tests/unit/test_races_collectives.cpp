// The race check on the collectives (--check=races; lib/coll/race_model.hpp,
// docs/races.md): a collective's data movement is an access of every byte it
// reads and writes, at the collective's line, ordered by its sync flags as UPC
// 1.3 §7.3.1 says — not by the barriers and flags the algorithm happens to use.
// UPC_IN_NOSYNC does not order the data written before the call; UPC_OUT_NOSYNC
// does not order the data read after it; UPC_OUT_MYSYNC orders a thread's own
// data only; a non-blocking <upccoll.h> collective's buffers are the
// collective's until its upccoll_wait. Each racing case is reported on every run,
// whatever the timing; the same program done right runs clean.
#include <string>
#include <vector>

#include "../support/race_runs.hpp"
#include "../support/spmd.hpp"
#include "teamutil.h"
#include "upc_collective.h"
#include "upc_collective_ext.h"
#include "upccoll.h"

using spmd::contains;

namespace {

// "test_races_collectives.cpp:LINE", the place a report names.
std::string at(int line) { return "test_races_collectives.cpp:" + std::to_string(line); }

// race_runs::expect, where a racy run's report must also name the place
// `*line` (which the body sets: the threads backend runs first).
void expect(bool racy, const std::function<void()>& body, const std::vector<std::string>& phrases = {},
            const int* line = nullptr) {
  race_runs::expect(racy, body, phrases, [line] { return line ? at(*line) : std::string(); });
}

constexpr std::size_t n = 16;  // bytes per block

// Thread t's block of a upc_all_alloc(THREADS, n) array, as shared [] char.
upc::sptr<char, upc::indefinite> block_of(upc::sptr<void> arr, int t) {
  upc::shared_address a = arr.address();
  a.thread = static_cast<std::uint32_t>(t);
  return upc::sptr<char, upc::indefinite>(a);
}
int next_thread() { return (MYTHREAD + 1) % THREADS; }

// Thread 0 writes the source, then everyone broadcasts it with `flags`; a
// barrier before the call when `barrier_first`.
int write_then_broadcast_line = 0;
void write_then_broadcast(upc_flag_t flags, bool barrier_first) {
  upc::sptr<void> src = upc_all_alloc(1, n), dst = upc_all_alloc(THREADS, n);
  if (MYTHREAD == 0) block_of(src, 0)[3] = 7;
  if (barrier_first) upc_barrier;
  write_then_broadcast_line = __LINE__ + 1;
  upc_all_broadcast(dst, src, n, flags);
  SPMD_CHECK_EQ(static_cast<int>(block_of(dst, MYTHREAD)[3]), 7);
  upc_barrier;
  if (MYTHREAD == 0) upc_free(src), upc_free(dst);
}

// Everyone broadcasts (the source written before a barrier), then reads the
// block of dst of `reader_offset` threads on, right after the call; a barrier
// before the read when `barrier_between`.
int broadcast_then_read_line = 0;
void broadcast_then_read(upc_flag_t flags, int reader_offset, bool barrier_between) {
  upc::sptr<void> src = upc_all_alloc(1, n), dst = upc_all_alloc(THREADS, n);
  if (MYTHREAD == 0) block_of(src, 0)[3] = 7;
  upc_barrier;
  broadcast_then_read_line = __LINE__ + 1;
  upc_all_broadcast(dst, src, n, flags);
  if (barrier_between) upc_barrier;
  const char got = block_of(dst, (MYTHREAD + reader_offset) % THREADS)[3];
  upc_barrier;
  SPMD_CHECK_EQ(static_cast<int>(got), 7);
  upc_barrier;
  if (MYTHREAD == 0) upc_free(src), upc_free(dst);
}

}  // namespace

TEST_CASE("races coll: a source written right before a UPC_IN_NOSYNC broadcast is reported at the call; IN_ALLSYNC or a barrier first, clean") {
  expect(true, [] { write_then_broadcast(UPC_IN_NOSYNC | UPC_OUT_ALLSYNC, false); }, {"data race on"},
         &write_then_broadcast_line);
  expect(false, [] { write_then_broadcast(UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, false); });
  expect(false, [] { write_then_broadcast(0, false); });
  expect(false, [] { write_then_broadcast(UPC_IN_NOSYNC | UPC_OUT_ALLSYNC, true); });
  expect(false, [] { write_then_broadcast(UPC_IN_MYSYNC | UPC_OUT_ALLSYNC, true); });
}

TEST_CASE("races coll: UPC_OUT_NOSYNC: the destination read right after the call is reported; after a barrier, clean") {
  expect(true, [] { broadcast_then_read(UPC_IN_ALLSYNC | UPC_OUT_NOSYNC, 1, false); }, {"data race on"}, &broadcast_then_read_line);
  expect(true, [] { broadcast_then_read(UPC_IN_ALLSYNC | UPC_OUT_NOSYNC, 0, false); });  // its own block too
  expect(false, [] { broadcast_then_read(UPC_IN_ALLSYNC | UPC_OUT_NOSYNC, 1, true); });
  expect(false, [] { broadcast_then_read(UPC_IN_NOSYNC | UPC_OUT_NOSYNC, 1, true); });
}

TEST_CASE("races coll: UPC_OUT_MYSYNC orders a thread's own destination, not another's") {
  expect(false, [] { broadcast_then_read(UPC_IN_ALLSYNC | UPC_OUT_MYSYNC, 0, false); });
  expect(true, [] { broadcast_then_read(UPC_IN_ALLSYNC | UPC_OUT_MYSYNC, 1, false); }, {"data race on"}, &broadcast_then_read_line);
  expect(false, [] { broadcast_then_read(UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, 1, false); });
  expect(false, [] { broadcast_then_read(0, 1, false); });
}

namespace {

// <upccoll.h>: every thread broadcasts from thread 0's `send` into its own
// `recv` (both its blocks of upc_all_alloc'ed arrays), non-blocking; each
// reads its recv (or, `other`, the next thread's) before or after upccoll_wait.
void upccoll_read(bool before_wait, bool other, upccoll_flag_t flags) {
  upccoll_initialize(nullptr, nullptr);
  upc::sptr<void> send = upc_all_alloc(THREADS, n), recv = upc_all_alloc(THREADS, n);
  block_of(send, MYTHREAD)[3] = 7;
  upc_barrier;
  upccoll_handle_t h;
  SPMD_CHECK_EQ(upccoll_bcast(block_of(send, MYTHREAD), n, UPC_CHAR, block_of(recv, MYTHREAD), n, UPC_CHAR, 0, UPC_TEAM_ALL, flags, &h),
                UPCCOLL_SUCCESS);
  const int whose = other ? next_thread() : MYTHREAD;
  char got = 0;
  if (before_wait) got = block_of(recv, whose)[3];
  upccoll_wait(h);
  if (!before_wait) got = block_of(recv, whose)[3];
  if (MYTHREAD != 0 && whose != 0) SPMD_CHECK_EQ(static_cast<int>(got), before_wait ? static_cast<int>(got) : 7);
  upccoll_finalize();
  if (MYTHREAD == 0) upc_free(send), upc_free(recv);
}

}  // namespace

TEST_CASE("races coll: a non-blocking upccoll collective's receive buffer read before its upccoll_wait is reported; after, clean") {
  // (the C++ caller's place comes from its debug information: this suite has
  // none, so the report names the function)
  expect(true, [] { upccoll_read(true, false, 0); }, {"data race on", "upccoll_read"});
  expect(false, [] { upccoll_read(false, false, 0); });
  expect(false, [] { upccoll_read(false, false, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC); });
  expect(false, [] { upccoll_read(false, false, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC); });
  // OUT_ALLSYNC orders every member's buffers at the wait; MYSYNC only its own
  expect(false, [] { upccoll_read(false, true, UPC_IN_MYSYNC | UPC_OUT_ALLSYNC); });
  expect(true, [] { upccoll_read(false, true, UPC_IN_MYSYNC | UPC_OUT_MYSYNC); }, {"data race on"});
}

namespace {

// upc_all_permute reads perm after its IN synchronisation: written right
// before a UPC_IN_NOSYNC call it races (the source is written before a barrier).
int permute_line = 0;
void permute_after_writing_perm(bool barrier_after_perm) {
  upc::sptr<void> src = upc_all_alloc(THREADS, n), dst = upc_all_alloc(THREADS, n);
  upc::sptr<int> perm = upc::sptr<int>(upc_all_alloc(THREADS, sizeof(int)));
  block_of(src, MYTHREAD)[0] = static_cast<char>(MYTHREAD);
  perm[MYTHREAD] = next_thread();
  upc_barrier;
  if (MYTHREAD == 0) perm[0] = next_thread();  // the same value again: the permutation stays valid
  if (barrier_after_perm) upc_barrier;
  permute_line = __LINE__ + 1;
  upc_all_permute(dst, src, perm, n, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
  SPMD_CHECK_EQ(static_cast<int>(block_of(dst, MYTHREAD)[0]), (MYTHREAD + THREADS - 1) % THREADS);
  upc_barrier;
  if (MYTHREAD == 0) upc_free(src), upc_free(dst), upc_free(perm);
}

// A team of threads 0 and 1 (the thesis's team interface): thread 0 writes the
// source, the members broadcast it with UPC_IN_NOSYNC; a teamBarrier first orders it.
void team_broadcast(bool team_barrier_first) {
  team t;
  init(&t);
  if (MYTHREAD == 0) insert(0, t), insert(1, t);
  upc_barrier;
  upc::sptr<void> src = upc_all_alloc(1, n), dst = upc_all_alloc(THREADS, n);
  if (MYTHREAD < 2) {
    if (MYTHREAD == 0) block_of(src, 0)[5] = 3;
    if (team_barrier_first) teamBarrier(t);
    upc_all_broadcast_team(dst, src, n, t, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
    SPMD_CHECK_EQ(static_cast<int>(block_of(dst, 1 - MYTHREAD)[5]), 3);
  }
  upc_barrier;
  if (MYTHREAD == 0) upc_free(src), upc_free(dst);
}

// <upccoll.h> UPC_IN_ALLSYNC: thread 0 writes every member's send buffer, then
// starts; each member's buffers are read once every member has started, so the
// writes are ordered and summed (UPC_IN_MYSYNC: after the member's own start
// only, a race). The sum checks that no member's input is read (staged) at its
// own start under UPC_IN_ALLSYNC.
void upccoll_others_write_send(upccoll_flag_t flags) {
  upccoll_initialize(nullptr, nullptr);
  upc::sptr<void> send = upc_all_alloc(THREADS, n), recv = upc_all_alloc(THREADS, n);
  upc_barrier;
  if (MYTHREAD == 0)
    for (int t = 0; t < THREADS; ++t) block_of(send, t)[0] = 1;
  upccoll_handle_t h;
  SPMD_CHECK_EQ(upccoll_allreduce(block_of(send, MYTHREAD), block_of(recv, MYTHREAD), 1, UPC_CHAR, UPC_ADD, UPC_TEAM_ALL,
                                  flags, &h),
                UPCCOLL_SUCCESS);
  upccoll_wait(h);
  if (flags & UPC_IN_ALLSYNC) SPMD_CHECK_EQ(static_cast<int>(block_of(recv, MYTHREAD)[0]), THREADS);
  upccoll_finalize();
  if (MYTHREAD == 0) upc_free(send), upc_free(recv);
}

// UPC_ASYNC_FENCE: the receive buffer is the collective's until upccoll_fence.
void upccoll_fence_read(bool before_fence) {
  upccoll_initialize(nullptr, nullptr);
  upc::sptr<void> send = upc_all_alloc(THREADS, n), recv = upc_all_alloc(THREADS, n);
  block_of(send, MYTHREAD)[0] = 2;
  upc_barrier;
  SPMD_CHECK_EQ(upccoll_allreduce(block_of(send, MYTHREAD), block_of(recv, MYTHREAD), 1, UPC_CHAR, UPC_ADD, UPC_TEAM_ALL,
                                  UPC_ASYNC_FENCE, nullptr),
                UPCCOLL_SUCCESS);
  char got = 0;
  if (before_fence) got = block_of(recv, MYTHREAD)[0];
  upccoll_fence();
  if (!before_fence) got = block_of(recv, MYTHREAD)[0];
  if (!before_fence) SPMD_CHECK_EQ(static_cast<int>(got), 2 * THREADS);
  upccoll_finalize();
  if (MYTHREAD == 0) upc_free(send), upc_free(recv);
}

}  // namespace

TEST_CASE("races coll: upc_all_permute's perm is read by the call: written right before UPC_IN_NOSYNC, reported") {
  expect(true, [] { permute_after_writing_perm(false); }, {"data race on"}, &permute_line);
  expect(false, [] { permute_after_writing_perm(true); });
}

TEST_CASE("races coll: a team collective (the thesis's teams) is ordered by the team's barrier, not without it") {
  expect(true, [] { team_broadcast(false); }, {"data race on"});
  expect(false, [] { team_broadcast(true); });
}

TEST_CASE("races coll: <upccoll.h> UPC_IN_ALLSYNC orders what every member did before its start; UPC_IN_MYSYNC does not") {
  expect(false, [] { upccoll_others_write_send(UPC_IN_ALLSYNC | UPC_OUT_MYSYNC); });
  expect(true, [] { upccoll_others_write_send(UPC_IN_MYSYNC | UPC_OUT_MYSYNC); }, {"data race on"});
}

TEST_CASE("races coll: a UPC_ASYNC_FENCE collective's buffers are its own until upccoll_fence") {
  expect(true, [] { upccoll_fence_read(true); }, {"data race on"});
  expect(false, [] { upccoll_fence_read(false); });
}
