// The race check on non-blocking transfers (<upc_nb.h>, lib/runtime/nb.cpp;
// docs/races.md): a transfer's shared side is accessed at any moment between
// its start and its sync, so another thread's access that only a barrier
// between the two orders races with it, although the eager copy here gives the
// right bytes; synced before the barrier, the same program runs clean. Each
// case races on every run, whatever the timing: the transfer's thread or the
// other one reports it, whichever comes second.
#include <vector>

#include "../support/race_runs.hpp"
#include "../support/spmd.hpp"
#include "upc_nb.h"

using spmd::contains;

namespace {

using race_runs::expect;

constexpr std::size_t bytes = 64;

// Thread t's block of a upc_all_alloc(THREADS, bytes) array, as shared [] char.
upc::sptr<char, upc::indefinite> block_of(upc::sptr<void> arr, int t) {
  upc::shared_address a = arr.address();
  a.thread = static_cast<std::uint32_t>(t);
  return upc::sptr<char, upc::indefinite>(a);
}
int right_of_me() { return (MYTHREAD + 1) % THREADS; }
int left_of_me() { return (MYTHREAD + THREADS - 1) % THREADS; }

// How the transfers of a case are completed.
enum class completion { sync, sync_attempt, synci, synci_attempt };

void complete(completion c, upc_handle_t h) {
  switch (c) {
    case completion::sync: upc_sync(h); break;
    case completion::sync_attempt: while (!upc_sync_attempt(h)) upc_poll(); break;
    case completion::synci: upc_synci(); break;
    case completion::synci_attempt: while (!upc_synci_attempt()) upc_poll(); break;
  }
}
bool implicit(completion c) { return c == completion::synci || c == completion::synci_attempt; }

// Each thread puts into its right neighbour's block, then, after a barrier,
// reads its own block. The put must be synced before the barrier.
void put_then_read(completion c, bool sync_after_barrier) {
  upc::sptr<void> a = upc_all_alloc(THREADS, bytes);
  const std::vector<char> mine(bytes, static_cast<char>(MYTHREAD));
  upc_handle_t h = UPC_COMPLETE_HANDLE;
  if (implicit(c)) upc_memput_nbi(block_of(a, right_of_me()), mine.data(), bytes);
  else h = upc_memput_nb(block_of(a, right_of_me()), mine.data(), bytes);
  if (!sync_after_barrier) complete(c, h);
  upc_barrier;
  const char first = block_of(a, MYTHREAD)[0];
  if (sync_after_barrier) complete(c, h);
  SPMD_CHECK_EQ(static_cast<int>(first), left_of_me());
  upc_barrier;
  if (MYTHREAD == 0) upc_free(a);
}

// Each thread gets its right neighbour's block, then, after a barrier,
// overwrites its own (the next step's data). The get must be synced before it.
void get_then_overwrite(completion c, bool sync_after_barrier) {
  upc::sptr<void> a = upc_all_alloc(THREADS, bytes);
  block_of(a, MYTHREAD)[0] = static_cast<char>(MYTHREAD);
  upc_barrier;
  std::vector<char> got(bytes);
  upc_handle_t h = UPC_COMPLETE_HANDLE;
  if (implicit(c)) upc_memget_nbi(got.data(), block_of(a, right_of_me()), bytes);
  else h = upc_memget_nb(got.data(), block_of(a, right_of_me()), bytes);
  if (!sync_after_barrier) complete(c, h);
  upc_barrier;
  block_of(a, MYTHREAD)[0] = 100;
  if (sync_after_barrier) complete(c, h);
  SPMD_CHECK_EQ(static_cast<int>(got[0]), right_of_me());
  upc_barrier;
  if (MYTHREAD == 0) upc_free(a);
}

// upc_memcpy_nb from the right neighbour's block into the left one's, and
// upc_memset_nb over the left one's second half: both sides are accesses.
void copy_and_set(bool sync_after_barrier) {
  upc::sptr<void> a = upc_all_alloc(THREADS, bytes), b = upc_all_alloc(THREADS, bytes);
  block_of(a, MYTHREAD)[0] = static_cast<char>(MYTHREAD);
  upc_barrier;
  upc_handle_t h1 = upc_memcpy_nb(block_of(b, left_of_me()), block_of(a, right_of_me()), bytes / 2);
  upc_handle_t h2 = upc_memset_nb(block_of(b, left_of_me()) + bytes / 2, 9, bytes / 2);
  if (!sync_after_barrier) upc_sync(h1), upc_sync(h2);
  upc_barrier;
  const char copied = block_of(b, MYTHREAD)[0], set = block_of(b, MYTHREAD)[bytes - 1];
  if (sync_after_barrier) upc_sync(h1), upc_sync(h2);
  SPMD_CHECK_EQ(static_cast<int>(copied), (MYTHREAD + 2) % THREADS);
  SPMD_CHECK_EQ(static_cast<int>(set), 9);
  upc_barrier;
  if (MYTHREAD == 0) upc_free(a), upc_free(b);
}

// The start is an access too: a get of a block its owner writes with no
// barrier in between races, however early it is synced.
void get_without_barrier() {
  upc::sptr<void> a = upc_all_alloc(THREADS, bytes);
  upc_barrier;
  block_of(a, MYTHREAD)[0] = 1;
  char got[bytes];
  upc_sync(upc_memget_nb(got, block_of(a, right_of_me()), bytes));
  upc_barrier;
  if (MYTHREAD == 0) upc_free(a);
}

}  // namespace

TEST_CASE("races nb: a upc_memput_nb read by its target before its upc_sync is reported; synced first, clean") {
  expect(true, [] { put_then_read(completion::sync, true); },
         {"data race on the byte", "'s write by the non-blocking upc_memput_nb at", "'s read at",
          "are not ordered by any barrier, lock or strict access", "sync it before the barrier"});
  expect(false, [] { put_then_read(completion::sync, false); });
  expect(true, [] { put_then_read(completion::sync_attempt, true); }, {"data race on the byte"});
  expect(false, [] { put_then_read(completion::sync_attempt, false); });
}

TEST_CASE("races nb: a upc_memget_nb's source overwritten before its upc_sync is reported; synced first, clean") {
  expect(true, [] { get_then_overwrite(completion::sync, true); },
         {"data race on the byte", "'s write at", "'s read by the non-blocking upc_memget_nb at"});
  expect(false, [] { get_then_overwrite(completion::sync, false); });
}

TEST_CASE("races nb: implicit-handle transfers race until upc_synci or a successful upc_synci_attempt") {
  expect(true, [] { put_then_read(completion::synci, true); }, {"data race on the byte"});
  expect(false, [] { put_then_read(completion::synci, false); });
  expect(true, [] { get_then_overwrite(completion::synci_attempt, true); }, {"data race on the byte"});
  expect(false, [] { get_then_overwrite(completion::synci_attempt, false); });
}

TEST_CASE("races nb: upc_memcpy_nb and upc_memset_nb race until synced") {
  expect(true, [] { copy_and_set(true); }, {"data race on the byte"});
  expect(false, [] { copy_and_set(false); });
}

TEST_CASE("races nb: a transfer's start is checked against unordered earlier accesses") {
  expect(true, get_without_barrier,
         {"data race on the byte (thread ", "'s write at", "'s read by the non-blocking upc_memget_nb at"});
}
