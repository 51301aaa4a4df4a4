// The race detector (--check=races, lib/runtime/race_check.cpp): each kind of
// race the classroom makes is reported with both sides, on both backends and at
// several THREADS counts, whatever the timing (the detector reasons about order:
// each case races on every run); and the same programs done right run clean.
#include <string>

#include "../support/spmd.hpp"

using spmd::contains;

namespace {

constexpr upc::backend_kind race_backends[] = {upc::backend_kind::threads, upc::backend_kind::processes};

upc::launch_options race_options(int threads, upc::backend_kind b) {
  upc::launch_options o = spmd::options(threads, b);
  o.check = o.races = true;
  o.timeout_seconds = 60;
  return o;
}

// Runs body at 2 and 4 threads on both backends: it must fail with a report
// holding every phrase, or (racy false) succeed.
void expect(bool racy, const std::function<void()>& body, std::initializer_list<const char*> phrases = {}) {
  if (spmd::mpi_ranks() > 0) return;  // not on mpi (refused there: a test below)
  for (upc::backend_kind b : race_backends)
    for (int threads : {2, 4}) {
      upc::run_result r = upc::run(race_options(threads, b), body);
      INFO("backend=", spmd::name(b), " THREADS=", threads, " report: ", r.error);
      CHECK(r.failed == racy);
      for (const char* p : phrases) CHECK(contains(r.error, p));
    }
}

// Mistake 5.1: thread 0 sums the others' results with no barrier in between.
void sum_without_barrier(bool with_barrier) {
  upc::shared_array<long> hits(upc::per_thread(1));
  hits[MYTHREAD] = MYTHREAD + 1;
  if (with_barrier) upc_barrier;
  long total = 0;
  if (MYTHREAD == 0)
    for (int t = 0; t < THREADS; ++t) total += hits[t];
  upc_barrier;
  if (MYTHREAD == 0 && with_barrier) SPMD_CHECK_EQ(total, static_cast<long>(THREADS) * (THREADS + 1) / 2);
}

// Mistake 5.2: every thread adds into one shared scalar, with or without a lock.
void accumulate(bool with_lock) {
  upc::shared<long> total;
  upc_lock_t* lock = upc_all_lock_alloc();
  for (int i = 0; i < 50; ++i) {
    if (with_lock) upc_lock(lock);
    total += 1;
    if (with_lock) upc_unlock(lock);
  }
  upc_barrier;
  if (with_lock) SPMD_CHECK_EQ(total.get(), 50L * THREADS);
  upc_barrier;
  upc_all_lock_free(lock);
}

// Split phase: what is written before upc_notify may be read by others only
// after upc_wait; reading the neighbour's element between the two races.
void split_phase(bool read_in_window) {
  upc::shared_array<int> a(upc::per_thread(1));
  a[MYTHREAD] = MYTHREAD;
  upc_notify;
  int seen = 0;
  if (read_in_window) seen = a[(MYTHREAD + 1) % THREADS];
  else seen = a[MYTHREAD];  // its own element: fine in the window
  upc_wait;
  if (!read_in_window) seen = a[(MYTHREAD + 1) % THREADS];
  SPMD_CHECK_EQ(seen, (MYTHREAD + (read_in_window ? 1 : 1)) % THREADS);
  upc_barrier;
}

// A handshake: thread 0 writes data, then raises a flag; thread 1 waits for the
// flag and reads the data. With a strict flag the flag orders the data; with a
// relaxed one the flag itself races (and orders nothing).
template <class Flag>
void handshake() {
  upc::shared<int> data;
  Flag flag;
  if (MYTHREAD == 0) flag = 0;
  upc_barrier;
  if (MYTHREAD == 0) {
    data = 42;
    flag = 1;
  } else if (MYTHREAD == 1) {
    while (flag.get() == 0) upc_poll();
    SPMD_CHECK_EQ(data.get(), 42);
  }
  upc_barrier;
}

// upc_lock_attempt that succeeds orders like upc_lock.
void attempt_then_update() {
  upc::shared<long> total;
  upc_lock_t* lock = upc_all_lock_alloc();
  for (int i = 0; i < 20; ++i) {
    while (!upc_lock_attempt(lock)) upc_poll();
    total += 1;
    upc_unlock(lock);
  }
  upc_barrier;
  SPMD_CHECK_EQ(total.get(), 20L * THREADS);
  upc_barrier;
  upc_all_lock_free(lock);
}

}  // namespace

TEST_CASE("races: reading the other threads' results with no barrier is reported, with both sides") {
  expect(true, [] { sum_without_barrier(false); },
         {"data race on element", "of the shared_array<long int> of", "'s write at", "'s read at",
          "are not ordered by any barrier, lock or strict access", "upc_barrier"});
  expect(false, [] { sum_without_barrier(true); });
}

TEST_CASE("races: an unlocked update of a shared scalar is reported; under a lock it is not") {
  expect(true, [] { accumulate(false); }, {"data race on element 0", "of the shared<long int>", "upc_lock"});
  expect(false, [] { accumulate(true); });
}

TEST_CASE("races: the window between upc_notify and upc_wait orders nothing") {
  expect(true, [] { split_phase(true); }, {"data race on element", "are not ordered"});
  expect(false, [] { split_phase(false); });
}

TEST_CASE("races: a strict flag orders a handshake, a relaxed one races") {
  expect(false, [] { handshake<upc::strict_shared<int>>(); });
  expect(true, [] { handshake<upc::shared<int>>(); }, {"data race on element 0", "of the shared<int>"});
}

TEST_CASE("races: a successful upc_lock_attempt orders like upc_lock") { expect(false, attempt_then_update); }

TEST_CASE("races: the check is refused on the mpi backend, with the reason") {
  if (spmd::mpi_ranks() > 0) return;
  upc::launch_options o = race_options(2, upc::backend_kind::threads);
  o.backend = upc::backend_kind::mpi;
  const std::string what = spmd::error_of([&] { upc::run(o, [] {}); });
  CHECK(contains(what, "--check=races runs on the threads and processes backends, not on mpi"));
}
