// UPC locks (UPC 1.3 §7.2.4): mutual exclusion under contention on both backends,
// upc_lock_attempt, collective and global allocation, freeing, and the errors a
// program can make with them.
#include <sched.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "../support/spmd.hpp"

using spmd::contains;
using spmd::error_of;
using spmd::run_failing;

namespace {



// A lock pointer passed through shared memory (valid in every thread and process).
std::uint64_t as_word(upc_lock_t* l) { return reinterpret_cast<std::uintptr_t>(l); }
upc_lock_t* as_lock(std::uint64_t w) { return reinterpret_cast<upc_lock_t*>(static_cast<std::uintptr_t>(w)); }

// Every thread adds `per_thread` times under the lock with a plain (relaxed,
// non-atomic) read-modify-write: only mutual exclusion makes the total right.
void count_under_lock(upc_lock_t* l, int per_thread) {
  upc::shared<long> counter;
  upc::shared<long> inside;  // threads in the critical section at once
  for (int i = 0; i < per_thread; ++i) {
    upc_lock(l);
    const long now_inside = inside.get() + 1;
    inside = now_inside;
    SPMD_CHECK_EQ(now_inside, 1L);
    counter = counter.get() + 1;
    inside = now_inside - 1;
    upc_unlock(l);
  }
  upc_barrier;
  SPMD_CHECK_EQ(counter.get(), static_cast<long>(per_thread) * THREADS);
  upc_barrier;
}

}  // namespace

TEST_CASE("a counter incremented under a upc_all_lock_alloc lock by all threads equals the total") {
  spmd::run_everywhere([] {
    upc_lock_t* l = upc_all_lock_alloc();
    count_under_lock(l, 300);
    upc_all_lock_free(l);
  });
}

TEST_CASE("the same under a upc_global_lock_alloc lock, with the critical section long enough to sleep") {
  for (upc::backend_kind b : spmd::backends)
    for (int t : {2, 5, 16}) {
      spmd::run_ok(t, b, [] {
        upc::shared<std::uint64_t> published;
        if (MYTHREAD == 0) published = as_word(upc_global_lock_alloc());
        upc_barrier;
        upc_lock_t* l = as_lock(published.get());
        count_under_lock(l, 100);
        // A holder that keeps the lock for a while sends waiters to sleep on the futex.
        upc::shared<long> total;
        upc_lock(l);
        ::usleep(2000);
        total = total.get() + MYTHREAD;
        upc_unlock(l);
        upc_barrier;
        SPMD_CHECK_EQ(total.get(), static_cast<long>(THREADS) * (THREADS - 1) / 2);
        if (MYTHREAD == 0) upc_lock_free(l);
        upc_barrier;
      });
    }
}

TEST_CASE("upc_all_lock_alloc gives every thread the same lock; upc_global_lock_alloc gives each caller its own") {
  spmd::run_everywhere([] {
    upc::shared_array<std::uint64_t> seen(upc::per_thread(1));
    upc_lock_t* all = upc_all_lock_alloc();
    seen[MYTHREAD] = as_word(all);
    upc_barrier;
    for (int t = 0; t < THREADS; ++t) SPMD_CHECK_EQ(static_cast<std::uint64_t>(seen[t]), as_word(all));
    upc_barrier;

    upc_lock_t* mine = upc_global_lock_alloc();
    SPMD_CHECK(mine != nullptr);
    seen[MYTHREAD] = as_word(mine);
    upc_barrier;
    for (int t = 0; t < THREADS; ++t)
      if (t != MYTHREAD) SPMD_CHECK(static_cast<std::uint64_t>(seen[t]) != as_word(mine));
    // Different locks do not exclude each other: everyone holds their own at once.
    upc_lock(mine);
    upc_barrier;
    upc_unlock(mine);
    upc_lock_free(mine);
    upc_all_lock_free(all);
  }, {1, 2, 3, 4, 7, 8});
}

TEST_CASE("upc_lock_attempt: fails while the lock is held, exactly one of many wins once it is free") {
  spmd::run_everywhere([] {
    upc::shared_array<int> won(upc::per_thread(1));
    upc_lock_t* l = upc_all_lock_alloc();
    if (MYTHREAD == 0) SPMD_CHECK_EQ(upc_lock_attempt(l), 1);
    upc_barrier;
    if (MYTHREAD != 0) SPMD_CHECK_EQ(upc_lock_attempt(l), 0);
    upc_barrier;
    if (MYTHREAD == 0) upc_unlock(l);
    upc_barrier;
    won[MYTHREAD] = upc_lock_attempt(l);
    upc_barrier;
    int winners = 0, winner = -1;
    for (int t = 0; t < THREADS; ++t)
      if (won[t]) ++winners, winner = t;
    SPMD_CHECK_EQ(winners, 1);
    upc_barrier;
    // The winner holds it: a blocking upc_lock elsewhere waits until it is released.
    if (MYTHREAD == winner) {
      ::usleep(1000);
      upc_unlock(l);
    } else {
      upc_lock(l);
      upc_unlock(l);
    }
    upc_barrier;
    upc_all_lock_free(l);
  });
}

TEST_CASE("locks under contention at 32 THREADS (oversubscribed)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(32, b)) continue;
    upc::launch_options o = spmd::options(32, b);
    o.heap_per_thread = 1u << 20;
    upc::run_result r = upc::run(o, [] {
      upc_lock_t* l = upc_all_lock_alloc();
      count_under_lock(l, 50);
      upc_all_lock_free(l);
    });
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.ok());
  }
}

TEST_CASE("unlocking a lock this thread does not hold is an error naming the holder") {
  for (upc::backend_kind b : spmd::backends) {
    if (!spmd::skip_run(2, b)) {
      std::string free_lock = run_failing(2, b, [] {
        upc_lock_t* l = upc_all_lock_alloc();
        if (MYTHREAD == 1) upc_unlock(l);
        upc_barrier;
      });
      INFO(free_lock);
      CHECK(contains(free_lock, "upc_unlock: this thread does not hold lock"));
      CHECK(contains(free_lock, "(it is not held) (thread 1)"));
    }
    if (!spmd::skip_run(3, b)) {
      std::string other = run_failing(3, b, [] {
        upc_lock_t* l = upc_all_lock_alloc();
        if (MYTHREAD == 2) upc_lock(l);
        upc_barrier;
        if (MYTHREAD == 0) upc_unlock(l);
        upc_barrier;
      });
      INFO(other);
      CHECK(contains(other, "upc_unlock: this thread does not hold lock"));
      CHECK(contains(other, "(thread 2 holds it) (thread 0)"));
    }
  }
}

TEST_CASE("locking a lock this thread already holds is an error (UPC locks are not recursive)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    std::string e = run_failing(2, b, [] {
      upc_lock_t* l = upc_all_lock_alloc();
      if (MYTHREAD == 1) {
        upc_lock(l);
        upc_lock(l);
      }
      upc_barrier;
    });
    INFO(e);
    CHECK(contains(e, "upc_lock: this thread already holds lock"));
    CHECK(contains(e, "not recursive"));
    CHECK(contains(e, "(thread 1)"));
  }
}

TEST_CASE("using a freed lock, or no lock at all, is an error") {
  for (upc::backend_kind b : spmd::backends) {
    if (!spmd::skip_run(2, b)) {
      std::string freed = run_failing(2, b, [] {
        upc_lock_t* l = upc_global_lock_alloc();
        upc_lock_free(l);
        upc_lock(l);
      });
      INFO(freed);
      CHECK(contains(freed, "upc_lock: lock "));
      CHECK(contains(freed, "was already freed"));
    }
    if (spmd::skip_run(1, b)) continue;
    std::string twice = run_failing(1, b, [] {
      upc_lock_t* l = upc_global_lock_alloc();
      upc_lock_free(l);
      upc_lock_free(l);
    });
    INFO(twice);
    CHECK(contains(twice, "upc_lock_free: lock "));
    CHECK(contains(twice, "was already freed"));

    std::string attempt = run_failing(1, b, [] {
      upc_lock_t* l = upc_global_lock_alloc();
      upc_lock_free(l);
      (void)upc_lock_attempt(l);
    });
    CHECK(contains(attempt, "upc_lock_attempt: lock "));

    std::string null = run_failing(1, b, [] { upc_lock(nullptr); });
    CHECK(contains(null, "upc_lock: lock is a null pointer (thread 0)"));

    std::string bogus = run_failing(1, b, [] {
      static int not_a_lock = 0;
      upc_unlock(reinterpret_cast<upc_lock_t*>(&not_a_lock));
    });
    CHECK(contains(bogus, "upc_unlock: lock "));
    CHECK(contains(bogus, "is not in the shared heap"));
  }
}

TEST_CASE("waiting for a lock whose holder returned from main is an error, not a hang") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    std::string e = run_failing(3, b, [] {
      upc_lock_t* l = upc_all_lock_alloc();
      if (MYTHREAD == 1) {
        upc_lock(l);
        return;  // still holding it
      }
      ::usleep(20000);
      upc_lock(l);
    });
    INFO(e);
    CHECK(contains(e, "upc_lock: lock "));
    CHECK(contains(e, "is held by thread 1, which has returned from main without releasing it"));
  }
}

TEST_CASE("upc_lock_free(NULL) does nothing") {
  spmd::run_ok(1, upc::backend_kind::threads, [] { upc_lock_free(nullptr); });
}
