// Collective calls must match across threads (same function, same order, same
// single-valued arguments). The call, its size, root and flags are compared in
// every run (issue 8.9); under --check every single-valued argument is (8.4).
// Each report names the function, the argument or both calls, both values,
// the threads and the user's lines.
#include <thread>

#include "../support/spmd.hpp"
#include "upc_collective.h"

namespace {
int first_nonzero(int a, int b) { return a != 0 ? a : b; }
int other_fn(int a, int b) { return a + b; }
int compare_ints(upc::sptr<void> a, upc::sptr<void> b) {
  return static_cast<int>(*upc::sptr<int>(a)) - static_cast<int>(*upc::sptr<int>(b));
}

std::string run_failing(upc::backend_kind b, bool check, const std::function<void()>& body, int threads = 3) {
  upc::launch_options o = spmd::options(threads, b);
  o.check = check;
  o.timeout_seconds = 30;
  o.watchdog_seconds = 1;
  upc::run_result r = upc::run(o, body);
  INFO("backend=", spmd::name(b), " check=", check, " error: ", r.error);
  CHECK(r.failed);
  CHECK(r.exit_code == 1);
  return r.error;
}

std::string headline(const std::string& e) { return e.substr(0, e.find('\n')); }

// Two areas of 64-byte blocks, so a thread can pass a different (valid) one.
struct areas {
  upc::sptr<void> a = upc_all_alloc(THREADS, 64 * THREADS), b = upc_all_alloc(THREADS, 64 * THREADS),
                  c = upc_all_alloc(THREADS, 64 * THREADS);
};
}  // namespace

TEST_CASE("mismatched collectives are reported without --check (issue 8.9)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    SUBCASE("a different collective") {
      std::string e = run_failing(b, false, [] {
        areas x;
        if (MYTHREAD == 0) upc_all_scatter(x.a, x.b, 8, 0);
        else upc_all_broadcast(x.a, x.b, 8, 0);
      });
      CHECK(spmd::contains(e, "upc_all_broadcast: this collective call at "));
      CHECK(spmd::contains(e, "test_coll_check.cpp"));
      CHECK(spmd::contains(e, "does not match thread 0's call at the same point, upc_all_scatter at "));
      CHECK(spmd::contains(e, "every thread must make the same collective calls in the same order"));
    }
    SUBCASE("a different nbytes") {
      std::string e = run_failing(b, false, [] {
        areas x;
        upc_all_broadcast(x.a, x.b, MYTHREAD == 2 ? 16 : 8, 0);
      });
      CHECK(spmd::contains(e, "upc_all_broadcast: argument nbytes must be single-valued (the same on every thread): "
                              "this thread passed 16 at "));
      CHECK(spmd::contains(e, "thread 0 passed 8 at "));
      CHECK(spmd::contains(e, "(thread 2)"));
    }
    SUBCASE("a different root") {
      std::string e = run_failing(b, false, [] {
        areas x;
        upc_all_scatter(x.a, upc::sptr<char>(x.b) + (MYTHREAD == 1 ? 1 : 0), 8, 0);  // src on thread 1
      });
      CHECK(spmd::contains(e, "argument root (the thread of src) must be single-valued"));
    }
    SUBCASE("a different reduction type") {
      std::string e = run_failing(b, false, [] {
        areas x;
        if (MYTHREAD == 1) upc_all_reduceF(x.a, x.b, UPC_ADD, THREADS, 1, nullptr, 0);
        else upc_all_reduceI(x.a, x.b, UPC_ADD, THREADS, 1, nullptr, 0);
      });
      CHECK(spmd::contains(e, "upc_all_reduceF: this collective call at "));
      CHECK(spmd::contains(e, "upc_all_reduceI at "));
    }
    SUBCASE("MYSYNC calls compare with the peers they wait for") {
      std::string e = run_failing(b, false, [] {
        areas x;
        const upc_flag_t my = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
        if (MYTHREAD == 0) upc_all_gather(x.a, x.b, 8, my);
        else upc_all_broadcast(x.a, x.b, 8, my);
      });
      CHECK(spmd::contains(e, "does not match thread 0's call at the same point, upc_all_gather at "));
    }
    SUBCASE("a collective against a collective allocation") {
      std::string e = run_failing(b, false, [] {
        areas x;
        if (MYTHREAD == 1) (void)upc_all_alloc(1, 8);
        else upc_all_broadcast(x.a, x.b, 8, 0);
      });
      CHECK(spmd::contains(e, "upc_all_alloc: this collective call at "));
      CHECK(spmd::contains(e, "upc_all_broadcast at "));
    }
  }
}

TEST_CASE("matching collective calls in every form pass, on both backends and every THREADS") {
  spmd::run_everywhere([] {
    areas x;
    for (upc_flag_t f : {0, UPC_IN_MYSYNC | UPC_OUT_MYSYNC, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC}) {
      upc_all_broadcast(x.a, x.b, 8, f);
      upc_all_gather_all(x.a, x.b, 8, f);
      upc_all_reduceI(x.c, x.b, UPC_ADD, THREADS, 1, nullptr, f);
      upc_barrier;
    }
    upc_lock_t* l = upc_all_lock_alloc();
    upc_all_lock_free(l);
  });
}

// One case per single-valued argument (UPC 1.3 §7.4: all of them): thread 1
// passes a different, valid value; --check names it.
struct argument_case {
  const char* name;        // the argument the report must name
  void (*call)(areas&, bool differ);
};

TEST_CASE("--check compares every single-valued argument of every collective (issue 8.4)") {
  static const argument_case cases[] = {
      {"dst", [](areas& x, bool d) { upc_all_broadcast(d ? x.c : x.a, x.b, 8, 0); }},
      {"src", [](areas& x, bool d) { upc_all_broadcast(x.a, upc::sptr<char, upc::indefinite>(x.b) + (d ? 8 : 0), 8, 0); }},
      {"nbytes", [](areas& x, bool d) { upc_all_scatter(x.a, x.b, d ? 4 : 8, 0); }},
      {"flags", [](areas& x, bool d) { upc_all_gather(x.a, x.b, 8, d ? UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC : 0); }},
      {"dst", [](areas& x, bool d) { upc_all_gather_all(d ? x.c : x.a, x.b, 8, 0); }},
      {"src", [](areas& x, bool d) { upc_all_exchange(x.a, d ? x.c : x.b, 8, 0); }},
      {"perm", [](areas& x, bool d) {
         // Two valid permutations: the identity and a rotation.
         upc::sptr<int> p0(x.c), p1 = upc::sptr<int>(x.c) + 4 * THREADS;
         p0[MYTHREAD] = MYTHREAD;
         p1[MYTHREAD] = (MYTHREAD + 1) % THREADS;
         upc_barrier;
         upc_all_permute(x.a, x.b, d ? p1 : p0, 8, 0);
       }},
      {"blk_size", [](areas& x, bool d) { upc_all_reduceI(x.a, x.b, UPC_ADD, THREADS, d ? 2 : 1, nullptr, 0); }},
      {"op", [](areas& x, bool d) { upc_all_prefix_reduceI(x.a, x.b, d ? UPC_MAX : UPC_ADD, THREADS, 1, nullptr, 0); }},
      {"func", [](areas& x, bool d) {
         upc_all_reduceI(x.a, x.b, UPC_NONCOMM_FUNC, THREADS, 1, d ? other_fn : first_nonzero, 0);
       }},
      {"nelems", [](areas& x, bool d) { upc_all_reduceI_all(x.a, x.b, UPC_ADD, d ? 2 : 3, 1, nullptr, 0); }},
      {"func", [](areas& x, bool d) {
         upc::sptr<int> a(x.b);
         a[MYTHREAD] = THREADS - MYTHREAD;
         upc_barrier;
         auto reversed = [](upc::sptr<void> p, upc::sptr<void> q) { return compare_ints(q, p); };
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
         upc_all_sort(x.b, sizeof(int), THREADS, 1, d ? +reversed : compare_ints, 0);
#pragma GCC diagnostic pop
       }},
  };
  if (spmd::skip_run(3, upc::backend_kind::threads)) return;
  for (const argument_case& c : cases) {
    INFO("argument ", std::string(c.name));
    const argument_case* pc = &c;
    std::string e = run_failing(upc::backend_kind::threads, true, [pc] {
      areas x;
      pc->call(x, MYTHREAD == 1);
    });
    CHECK(spmd::contains(e, std::string("argument ") + c.name));
    CHECK(spmd::contains(e, "must be single-valued"));
    CHECK(spmd::contains(e, "(thread 1)"));
  }
}

TEST_CASE("--check: the same non-commutative function on every thread passes") {
  if (spmd::skip_single_run(3)) return;
  upc::launch_options o = spmd::options(3, upc::backend_kind::processes);
  o.check = true;
  upc::run_result ok = upc::run(o, [] {
    upc::shared_array<int> src(upc::per_thread(1));
    upc::shared<int> dst;
    src[MYTHREAD] = MYTHREAD == 0 ? 0 : 10 + MYTHREAD;
    upc_all_reduceI(&dst, src, UPC_NONCOMM_FUNC, THREADS, 1, first_nonzero, 0);
    SPMD_CHECK_EQ(dst.get(), 11);
  });
  INFO(ok.error);
  CHECK(ok.ok());
}

TEST_CASE("a collective call between upc_notify and upc_wait is an error every time (issue 8.5)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    SUBCASE("the first collective") {
      std::string e = run_failing(b, false, [] {
        upc::sptr<void> a = upc_all_alloc(THREADS, 8), s = upc_all_alloc(THREADS, 8);
        upc_notify;
        upc_all_broadcast(a, s, 8, 0);
        upc_wait;
      });
      CHECK(spmd::contains(e, "upc_all_broadcast: called between upc_notify and its upc_wait at "));
      CHECK(spmd::contains(e, "test_coll_check.cpp"));
    }
    SUBCASE("upc_all_alloc, after other collectives") {
      std::string e = run_failing(b, false, [] {
        upc::sptr<void> a = upc_all_alloc(THREADS, 8), s = upc_all_alloc(THREADS, 8);
        upc_all_broadcast(a, s, 8, 0);
        upc_notify;
        (void)upc_all_alloc(THREADS, 8);
        upc_wait;
      });
      CHECK(spmd::contains(e, "upc_all_alloc: called between upc_notify and its upc_wait at "));
    }
    SUBCASE("upc_all_lock_alloc") {
      std::string e = run_failing(b, false, [] {
        upc_notify;
        (void)upc_all_lock_alloc();
        upc_wait;
      });
      CHECK(spmd::contains(e, "upc_all_lock_alloc: called between upc_notify and its upc_wait"));
    }
  }
}

TEST_CASE("a thread that returns from main while others are in their first collective is named with the user's line (issue 8.5)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    std::string e = run_failing(b, false, [] {
      upc::sptr<void> a = upc_all_alloc(THREADS, 8), s = upc_all_alloc(THREADS, 8);
      if (MYTHREAD == 1) return;
      upc_all_broadcast(a, s, 8, 0);
    });
    CHECK(spmd::contains(e, "thread 1 has already returned from main, so this collective call at "));
    CHECK(spmd::contains(e, "test_coll_check.cpp"));
    CHECK(!spmd::contains(headline(e), "lib/"));
  }
}

// A UPC_IN_NOSYNC | UPC_OUT_NOSYNC call waits for no one, so a thread that
// ends without making it was never noticed: the run ended with status 0 (issue
// 27.1). A return from main and exit() (which ends the calling thread alone)
// are both ways to end; the thread may end before the others' call or after.
TEST_CASE("a thread that ends while the others make a NOSYNC collective is reported without --check (issue 27.1)") {
  constexpr upc_flag_t nosync = UPC_IN_NOSYNC | UPC_OUT_NOSYNC;
  for (upc::backend_kind b : spmd::backends)
    for (bool by_exit : {false, true}) {
      if (spmd::skip_run(3, b)) continue;
      INFO("ended by exit(0): ", by_exit);
      const std::string ended = by_exit ? "ended by calling exit(0)" : "returned from main";
      SUBCASE("it ends before their call") {
        std::string e = run_failing(b, false, [by_exit] {
          upc::sptr<void> a = upc_all_alloc(THREADS, 8), s = upc_all_alloc(THREADS, 8);
          if (MYTHREAD == 1) {
            if (by_exit) exit(0);
            return;
          }
          upc_all_broadcast(a, s, 8, nosync);
        });
        // found by the thread in the call, or by thread 1 as it ends: the same words
        CHECK(spmd::contains(e, "upc_all_broadcast: thread 1 has already " + ended + ", so this collective call at "));
        CHECK(spmd::contains(e, "test_coll_check.cpp"));
        CHECK(spmd::contains(e, "can never be matched (it is the 3rd collective call of this thread; thread 1 made 2)"));
        CHECK(!spmd::contains(headline(e), "lib/"));
      }
      SUBCASE("it ends after their call") {
        std::string e = run_failing(b, false, [by_exit] {
          upc::sptr<void> a = upc_all_alloc(THREADS, 8), s = upc_all_alloc(THREADS, 8);
          // done[t]: thread t has made its broadcast (strict, so thread 1 sees it)
          upc::sptr<int, 1, upc::strict> done(upc_all_alloc(THREADS, sizeof(int)));
          done[MYTHREAD] = 0;
          upc_barrier;
          if (MYTHREAD == 1) {
            while (done[0] == 0 || done[2] == 0) upc_poll();
            if (by_exit) exit(0);
            return;
          }
          upc_all_broadcast(a, s, 8, nosync);
          done[MYTHREAD] = 1;
        });
        // found by thread 1 as it ends, reported for the thread in the call
        CHECK(spmd::contains(e, "upc_all_broadcast: thread 1 has already " + ended + ", so this collective call at "));
        CHECK(spmd::contains(e, "test_coll_check.cpp"));
        CHECK(spmd::contains(e, "can never be matched (it is the 4th collective call of this thread; thread 1 made 3)"));
        CHECK((spmd::contains(e, "(thread 0)") || spmd::contains(e, "(thread 2)")));
      }
    }
}

TEST_CASE("a collective and upc_barrier never pair: the deadlock report names both calls (issue 8.5)") {
  for (upc::backend_kind b : spmd::backends)
    for (bool earlier_collective : {false, true}) {
      if (spmd::skip_run(4, b)) continue;
      INFO("a collective ran earlier: ", earlier_collective);
      std::string e = run_failing(b, false, [earlier_collective] {
        upc::sptr<void> a = upc_all_alloc(THREADS, 8), s = upc_all_alloc(THREADS, 8);
        if (earlier_collective) upc_all_broadcast(a, s, 8, 0);
        if (MYTHREAD % 2) upc_all_broadcast(a, s, 8, 0);
        else upc_barrier;
      }, 4);
      CHECK(spmd::contains(e, "deadlock: every thread is waiting and none can go on"));
      CHECK(spmd::contains(e, "waiting in upc_all_broadcast at "));
      CHECK(spmd::contains(e, "waiting in upc_barrier at "));
      CHECK(spmd::contains(e, "test_coll_check.cpp"));
      CHECK(spmd::contains(e, "the threads wait in different synchronisation calls"));
      CHECK(!spmd::contains(e.substr(0, e.find("backtrace")), "lib/"));
      CHECK(!spmd::contains(e, "single-valued"));
    }
}

TEST_CASE("runtime calls from a thread that is not a UPC thread are refused (issue 8.11)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    std::string e = run_failing(b, false, [] {
      std::string what;
      std::thread helper([&what] {
        try {
          upc_barrier;
        } catch (const upc::error& err) {
          what = err.what();
        }
      });
      helper.join();
      SPMD_CHECK(spmd::contains(what, "upc_barrier: called from a thread that is not a UPC thread"));
      upc_barrier;  // the run is being stopped: this throws the stop
    });
    CHECK(spmd::contains(e, "upc_barrier: called from a thread that is not a UPC thread"));
  }
}

TEST_CASE("every runtime entry point refuses a non-UPC thread (issue 8.11)") {
  if (spmd::skip_run(2, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(2, upc::backend_kind::threads);
  upc::run_result r = upc::run(o, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 8);
    upc_lock_t* l = upc_all_lock_alloc();
    char buf[8];
    const std::vector<std::pair<const char*, std::function<void()>>> calls = {
        {"upc_notify", [] { upc_notify; }},
        {"upc_wait", [] { upc_wait; }},
        {"upc_lock", [l] { upc_lock(l); }},
        {"upc_unlock", [l] { upc_unlock(l); }},
        {"upc_lock_attempt", [l] { (void)upc_lock_attempt(l); }},
        {"upc_all_lock_alloc", [] { (void)upc_all_lock_alloc(); }},
        {"upc_global_lock_alloc", [] { (void)upc_global_lock_alloc(); }},
        {"upc_all_alloc", [] { (void)upc_all_alloc(1, 8); }},
        {"upc_alloc", [] { (void)upc_alloc(8); }},
        {"upc_free", [a] { upc_free(a); }},
        {"upc_memget", [a, &buf] { upc_memget(buf, a, 8); }},
        {"upc_memput", [a, &buf] { upc_memput(a, buf, 8); }},
        {"upc_all_broadcast", [a] { upc_all_broadcast(a, a, 8, 0); }},
        {"MYTHREAD", [] { (void)MYTHREAD; }},
    };
    for (const auto& [name, call] : calls) {
      std::string what;
      std::thread helper([&] {
        try {
          call();
        } catch (const upc::error& err) {
          what = err.what();
        }
      });
      helper.join();
      SPMD_CHECK(spmd::contains(what, std::string(name) + ": called from a thread that is not a UPC thread"));
    }
  });
  CHECK(r.failed);  // the first refusal stops the run
  CHECK(spmd::contains(r.error, "called from a thread that is not a UPC thread"));
}
