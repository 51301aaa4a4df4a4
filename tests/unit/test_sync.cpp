// Barriers, split-phase notify/wait with and without ids, id mismatches,
// upc_fence and strict vs relaxed accesses (UPC 1.3 §6.6.1, §5.1.2.3), on both
// backends and at THREADS counts up to 64 on a 2-core machine (oversubscribed).
#include <sched.h>

#include <string>

#include "../support/spmd.hpp"

using spmd::contains;
using spmd::error_of;
using spmd::run_failing;

namespace {



// Each thread writes its slot, then after the barrier checks every slot: the data
// written before a barrier is visible to every thread after it.
void barrier_publishes_data(int rounds) {
  upc::shared_array<int> slot(upc::per_thread(1));
  for (int i = 0; i < rounds; ++i) {
    slot[MYTHREAD] = i * THREADS + MYTHREAD;
    upc_barrier;
    for (int t = 0; t < THREADS; ++t) SPMD_CHECK_EQ(static_cast<int>(slot[t]), i * THREADS + t);
    upc_barrier;
  }
}

// One barrier per round: after barrier i a neighbour has written round i and may
// already have written round i+1, never anything older or newer. The counters
// are strict: read while the neighbour may write them, relaxed ones would race.
void back_to_back_barriers(int rounds) {
  upc::shared_array<int, 1, upc::strict> round(upc::per_thread(1));
  const int next = (MYTHREAD + 1) % THREADS;
  for (int i = 1; i <= rounds; ++i) {
    round[MYTHREAD] = i;
    if (i % 3 == 0) upc_barrier(i);  // named and anonymous barriers mix freely
    else upc_barrier;
    const int seen = round[next];
    SPMD_CHECK(seen == i || seen == i + 1);
  }
}

}  // namespace

TEST_CASE("upc_barrier: data written before a barrier is seen by every thread after it") {
  spmd::run_everywhere([] { barrier_publishes_data(50); });
}

TEST_CASE("upc_barrier: many back-to-back barriers, both statement forms") {
  spmd::run_everywhere([] { back_to_back_barriers(500); });
}

TEST_CASE("upc_barrier at 32 and 64 THREADS (oversubscribed) completes and orders data") {
  for (upc::backend_kind b : spmd::backends)
    for (int t : {32, 64}) {
      if (spmd::skip_run(t, b)) continue;
      upc::launch_options o = spmd::options(t, b);
      o.heap_per_thread = 1u << 20;
      upc::run_result r = upc::run(o, [] {
        back_to_back_barriers(200);
        barrier_publishes_data(10);
        for (int i = 0; i < 50; ++i) {
          upc_notify(i);
          upc_wait(i);
          upc_notify;
          upc_wait;
        }
      });
      INFO("backend=", spmd::name(b), " THREADS=", t, " error: ", r.error);
      CHECK(r.ok());
    }
}

TEST_CASE("upc_notify/upc_wait without ids, with local work between them") {
  spmd::run_everywhere([] {
    upc::shared_array<long> value(upc::per_thread(1));
    long local = 0;
    for (int i = 0; i < 100; ++i) {
      value[MYTHREAD] = i + MYTHREAD;
      upc_notify;
      // Work that needs nobody else while the others arrive.
      for (int k = 0; k < 200; ++k) local += (k ^ i) & 7;
      upc_wait;
      long sum = 0;
      for (int t = 0; t < THREADS; ++t) sum += value[t];
      SPMD_CHECK_EQ(sum, static_cast<long>(i) * THREADS + static_cast<long>(THREADS) * (THREADS - 1) / 2);
      upc_barrier;  // nobody overwrites value[] before everyone has summed it
    }
    SPMD_CHECK(local > 0);
  });
}

TEST_CASE("upc_notify/upc_wait with ids, and ids given on only some statements") {
  spmd::run_everywhere([] {
    upc::shared_array<int> value(upc::per_thread(1));
    for (int i = 0; i < 60; ++i) {
      value[MYTHREAD] = i;
      switch (i % 4) {
        case 0:  // everyone names the phase
          upc_notify(i);
          upc_wait(i);
          break;
        case 1:  // only notify carries the id
          upc_notify(-i);
          upc_wait;
          break;
        case 2:  // only wait carries it
          upc_notify;
          upc_wait(i * 1000);
          break;
        default:  // some threads name it, some do not (an absent id matches any)
          if (MYTHREAD % 2) upc_notify(7);
          else upc_notify;
          if (MYTHREAD % 3) upc_wait(7);
          else upc_wait;
      }
      const int next = (MYTHREAD + 1) % THREADS;
      SPMD_CHECK(value[next] >= i);
      upc_barrier(i);
    }
    // The C++ API: upc::notify/wait/barrier with optional ids.
    upc::notify(3);
    upc::wait(3);
    upc::notify();
    upc::wait();
    upc::barrier(5);
    upc::barrier();
  });
}

TEST_CASE("a barrier id mismatch between two notifies names upc_notify, both ids and the thread") {
  for (upc::backend_kind b : spmd::backends)
    for (int t : {2, 5}) {
      if (spmd::skip_run(t, b)) continue;
      std::string e = run_failing(t, b, [] {
        upc_barrier;
        if (MYTHREAD == 0) upc_notify(1);
        else upc_notify(2);
        upc_wait;
      });
      INFO(e);
      CHECK(contains(e, "upc_notify: barrier id mismatch"));
      CHECK(contains(e, "with id 1"));
      CHECK(contains(e, "with id 2"));
      CHECK(contains(e, "(thread "));
    }
}

TEST_CASE("the thread named in a notify id mismatch is the one that gave the other id") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    // Thread 1 notifies first with 10; thread 0 notifies later with 11 and is the one to fail.
    std::string e = run_failing(2, b, [] {
      upc::strict_shared<int> first_done;
      if (MYTHREAD == 1) {
        upc_notify(10);
        first_done = 1;
        upc_wait;
      } else {
        while (first_done.get() == 0) sched_yield();
        upc_notify(11);
        upc_wait;
      }
    });
    INFO(e);
    CHECK(contains(e, "upc_notify: barrier id mismatch: this thread notifies with id 11 but thread 1 notified with id 10"));
    CHECK(contains(e, "(thread 0)"));
  }
}

TEST_CASE("a upc_barrier id mismatch is reported as upc_barrier") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    std::string e = run_failing(3, b, [] { upc_barrier(MYTHREAD == 2 ? 8 : 9); });
    INFO(e);
    CHECK(contains(e, "upc_barrier: barrier id mismatch"));
    CHECK(contains(e, "with id 8"));
    CHECK(contains(e, "with id 9"));
  }
}

TEST_CASE("a wait id that differs from the notify ids is detected by upc_wait") {
  for (upc::backend_kind b : spmd::backends) {
    if (!spmd::skip_run(4, b)) {
      // Every thread notifies 3; the last one waits with 4.
      std::string e = run_failing(4, b, [] {
        upc_notify(3);
        if (MYTHREAD == THREADS - 1) upc_wait(4);
        else upc_wait(3);
        upc_barrier;
      });
      INFO(e);
      CHECK(contains(e, "upc_wait: barrier id mismatch"));
      CHECK(contains(e, "waits with id 4"));
      CHECK(contains(e, "notified with id 3"));
      CHECK(contains(e, "(thread 3)"));
    }
    if (spmd::skip_run(2, b)) continue;
    // Nobody else named the phase, but this thread's own notify and wait disagree.
    std::string own = run_failing(2, b, [] {
      if (MYTHREAD == 0) upc_notify(5);
      else upc_notify;
      if (MYTHREAD == 1) upc_wait(6);
      else upc_wait;
    });
    INFO(own);
    CHECK(contains(own, "upc_wait: barrier id mismatch"));
    CHECK(contains(own, "with id 6"));
    CHECK(contains(own, "with id 5"));
  }
}

TEST_CASE("upc_notify twice and upc_wait without upc_notify are errors") {
  for (upc::backend_kind b : spmd::backends) {
    if (!spmd::skip_run(2, b)) {
      std::string twice = run_failing(2, b, [] {
        upc_notify;
        upc_notify;
      });
      INFO(twice);
      CHECK(contains(twice, "upc_notify: called twice without an intervening upc_wait"));
      CHECK(contains(twice, "(thread "));
    }
    if (!spmd::skip_run(3, b)) {
      std::string lone = run_failing(3, b, [] {
        if (MYTHREAD == 1) upc_wait;
        upc_barrier;
      });
      INFO(lone);
      CHECK(contains(lone, "upc_wait: called without a preceding upc_notify"));
      CHECK(contains(lone, "(thread 1)"));
    }
    if (spmd::skip_run(2, b)) continue;
    std::string in_barrier = run_failing(2, b, [] {
      upc_notify;
      upc_barrier;  // a barrier between notify and wait is a second notify
    });
    INFO(in_barrier);
    CHECK(contains(in_barrier, "upc_barrier: called between upc_notify and its upc_wait"));
  }
}

// The flag itself is a data race by UPC's rules (relaxed accesses that nothing
// orders): --check=races reports it (docs/races.md), so not under UPCEMU_TEST_RACES.
TEST_CASE("upc_fence orders relaxed accesses: a message passed through a relaxed flag") {
  for (upc::backend_kind b : spmd::backends)
    for (int t : {2, 3, 8}) {
      if (spmd::skip_run(t, b)) continue;
      upc::run_result r = upc::run(spmd::options_unchecked(t, b), [] {
        upc::shared_array<long> data(upc::per_thread(4));
        upc::shared_array<int> flag(upc::per_thread(1));
        const int writer = 0, reader = THREADS - 1;
        for (int round = 1; round <= 300; ++round) {
          if (MYTHREAD == writer) {
            for (int k = 0; k < 4; ++k) data[reader + k * THREADS] = round * 10L + k;  // reader's elements
            upc_fence;
            flag[reader] = round;
            while (flag[writer] != round) sched_yield();  // the reader's acknowledgement
          } else if (MYTHREAD == reader) {
            while (flag[reader] != round) sched_yield();
            upc_fence;
            for (int k = 0; k < 4; ++k) SPMD_CHECK_EQ(static_cast<long>(data[reader + k * THREADS]), round * 10L + k);
            upc_fence;
            flag[writer] = round;
          }
        }
        upc_barrier;
      });
      INFO("backend=", spmd::name(b), " THREADS=", t, " error: ", r.error);
      CHECK(r.ok());
    }
}

TEST_CASE("strict accesses: a strict flag handshake between two threads publishes relaxed data") {
  for (upc::backend_kind b : spmd::backends)
    for (int t : {2, 4}) {
      if (spmd::skip_run(t, b)) continue;
      upc::run_result r = upc::run(spmd::options(t, b), [] {
        upc::shared_array<int> data(upc::per_thread(8));
        upc::strict_shared<int> ready;  // affinity to thread 0
        upc::strict_shared<int> taken;
        upc::sptr<int, 1, upc::strict> ready_ptr = &ready;
        const int producer = THREADS - 1, consumer = 0;
        for (int round = 1; round <= 300; ++round) {
          if (MYTHREAD == producer) {
            for (int k = 0; k < 8; ++k) data[k * THREADS + consumer] = round + k;  // relaxed writes
            ready = round;                                                      // strict write
            while (taken.get() != round) sched_yield();
          } else if (MYTHREAD == consumer) {
            while (*ready_ptr != round) sched_yield();  // strict read through a strict pointer
            for (int k = 0; k < 8; ++k) SPMD_CHECK_EQ(static_cast<int>(data[k * THREADS + consumer]), round + k);
            taken = round;
          }
        }
        upc_barrier;
      });
      INFO("backend=", spmd::name(b), " THREADS=", t, " error: ", r.error);
      CHECK(r.ok());
    }
}

TEST_CASE("a thread blocked in a barrier is released when another thread fails") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(4, b)) continue;
    std::string e = run_failing(4, b, [] {
      if (MYTHREAD == 2) throw std::runtime_error("stop here");
      upc_barrier;
    });
    INFO(e);
    CHECK(contains(e, "thread 2 failed: uncaught exception: stop here"));
  }
}
