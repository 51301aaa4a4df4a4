// Block-scope static shared objects (issue 8.2; GUPC bug 323's test): a
// `static upc::shared<T>` or `static upc::shared_array<...>` inside a function is
// one object for all threads, allocated once per run without a barrier (C++ lets
// one thread construct it while the others wait in the local-static guard, so a
// collective allocation would hang), zero-filled, with its initial value, and
// allocated again in every later run in the same process. Both backends, several
// THREADS; every run of this file is also a "later run" of the ones before it.
#include <string>

#include "../support/spmd.hpp"

namespace {

constexpr int calls_per_thread = 25;

// Adds one to a static counter under a lock; returns the counter's address.
upc::sptr<int> bump(upc_lock_t* lock) {
  static upc::shared<int> counter;  // static shared int counter;
  upc_lock(lock);
  counter = counter + 1;
  upc_unlock(lock);
  return &counter;
}

// A static array of 3 elements per thread; the same object on every call.
upc::shared_array<long, 3>& blocks() {
  static upc::shared_array<long, 3> a(upc::per_thread(3));  // static shared [3] long a[3*THREADS];
  return a;
}

// A static scalar with an initial value.
upc::shared<int>& answer() {
  static upc::shared<int> x(42);  // static shared int x = 42;
  return x;
}

// Used only by the hang test below: its first construction must be in a run of 4 threads.
upc::sptr<int> first_constructed_with_four_threads(upc_lock_t* lock) {
  static upc::shared<int> hits;
  upc_lock(lock);
  hits = hits + 1;
  upc_unlock(lock);
  return &hits;
}

// Used only by the test of run orders below.
upc::shared<int>& order_probe() {
  static upc::shared<int> probe(5);
  return probe;
}

// An indefinite static array (all on thread 0).
upc::shared_array<char, upc::indefinite>& text() {
  static upc::shared_array<char, upc::indefinite> t(16);  // static shared [] char t[16];
  return t;
}

}  // namespace

TEST_CASE("block-scope static: a static shared scalar incremented under a lock by every thread is one object (issue 8.2)") {
  spmd::run_everywhere(
      [] {
        upc_lock_t* lock = upc_all_lock_alloc();
        upc::sptr<int> first = bump(lock);
        for (int i = 1; i < calls_per_thread; ++i) SPMD_CHECK(bump(lock) == first);  // a function called repeatedly
        SPMD_CHECK_EQ(upc_threadof(first), 0u);
        upc_barrier;
        // Zero at the start of every run, whichever run constructed the C++ object.
        SPMD_CHECK_EQ(static_cast<int>(*first), THREADS * calls_per_thread);
        upc_barrier;
        if (MYTHREAD == 0) upc_lock_free(lock);
      },
      {1, 2, 4, 7});
}

TEST_CASE("block-scope static: first constructed by one of 4 threads while the others wait in its guard, no hang (issue 8.2)") {
  // A collective allocation here waited in a barrier for the threads blocked in the
  // C++ local-static guard: a silent hang (the timeout turns one into a failure).
  if (spmd::skip_run(4, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(4, upc::backend_kind::threads);
  o.timeout_seconds = 20;
  const upc::run_result r = upc::run(o, [] {
    upc_lock_t* lock = upc_all_lock_alloc();
    const upc::sptr<int> hits = first_constructed_with_four_threads(lock);
    upc_barrier;
    SPMD_CHECK_EQ(static_cast<int>(*hits), 4);
    upc_barrier;
    if (MYTHREAD == 0) upc_lock_free(lock);
  });
  INFO("error: ", r.error);
  CHECK(r.ok());
}

TEST_CASE("block-scope static: a static shared array is zero-filled, sized for this run's THREADS and shared") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        upc::shared_array<long, 3>& a = blocks();
        SPMD_CHECK_EQ(a.size(), 3 * T);
        SPMD_CHECK(&blocks() == &a);
        for (std::size_t i = 0; i < a.size(); ++i) SPMD_CHECK_EQ(static_cast<long>(a[i]), 0L);
        upc_barrier;
        for (std::size_t i = 0; i < a.size(); ++i) {
          SPMD_CHECK_EQ(upc_threadof(&a[i]), (i / 3) % T);
          if ((i / 3) % T == me) a[i] = static_cast<long>(i * 7 + 1);
        }
        upc_barrier;
        for (std::size_t i = 0; i < blocks().size(); ++i) SPMD_CHECK_EQ(static_cast<long>(blocks()[i]), static_cast<long>(i * 7 + 1));
        // The indefinite one lives on thread 0.
        upc::shared_array<char, upc::indefinite>& t = text();
        SPMD_CHECK_EQ(upc_threadof(&t[15]), 0u);
        if (MYTHREAD == THREADS - 1) t[15] = 'z';
        upc_barrier;
        SPMD_CHECK_EQ(static_cast<char>(text()[15]), 'z');
        upc_barrier;
      },
      {1, 3, 4});
}

TEST_CASE("block-scope static: the initial value is written once per run, not by later constructions") {
  // On the processes backend every process constructs its own C++ object; only the
  // first construction of the run may write 42, or thread 0's 7 would be undone.
  spmd::run_everywhere(
      [] {
        if (MYTHREAD == 0) {
          SPMD_CHECK_EQ(static_cast<int>(answer()), 42);
          answer() = 7;
        }
        upc_barrier;
        SPMD_CHECK_EQ(static_cast<int>(answer()), 7);  // the first call on threads > 0
        upc_barrier;
      },
      {1, 2, 5});
}

TEST_CASE("block-scope static: two runs in one process each get fresh storage") {
  for (upc::backend_kind b : spmd::backends)
    for (int run = 0; run < 2; ++run)
      spmd::run_ok(3, b, [] {
        upc_lock_t* lock = upc_all_lock_alloc();
        upc::sptr<int> counter;
        for (int i = 0; i < calls_per_thread; ++i) counter = bump(lock);
        upc_barrier;
        SPMD_CHECK_EQ(static_cast<int>(*counter), THREADS * calls_per_thread);  // not twice that
        upc_barrier;
        if (MYTHREAD == 0) upc_lock_free(lock);
      });
}

TEST_CASE("block-scope static: first constructed in a processes run, then used in threads and processes runs") {
  // A processes run constructs only the workers' copies, so the threads run after it
  // constructs the launcher's; the processes run after that finds it registered.
  for (upc::backend_kind b : {upc::backend_kind::processes, upc::backend_kind::threads, upc::backend_kind::processes})
    spmd::run_ok(2, b, [] {
      SPMD_CHECK_EQ(static_cast<int>(order_probe()), 5);
      upc_barrier;
      if (MYTHREAD == 1) order_probe() = 6;
      upc_barrier;
      SPMD_CHECK_EQ(static_cast<int>(order_probe()), 6);
      upc_barrier;
    });
}

namespace {
constexpr int thread_local_line = __LINE__ + 2;
void declare_thread_local() {
  thread_local upc::shared<int> per_thread_copy;  // named in the report
  (void)per_thread_copy.get();
}
}  // namespace

TEST_CASE("block-scope static: a thread_local shared object is refused with its declaration") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    const std::string err = spmd::run_failing(2, b, [] { declare_thread_local(); });
    INFO("error: ", err);
    CHECK(spmd::contains(err, "shared<int> (declared at "));
    CHECK(spmd::contains(err, "test_block_static.cpp:" + std::to_string(thread_local_line) + ")"));
    CHECK(spmd::contains(err, "thread_local shared object is not supported"));
  }
}
