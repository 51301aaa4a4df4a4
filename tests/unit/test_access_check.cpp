// Writes outside any object (issue 8.7): sizes validated where objects are
// declared, an overflow-safe partition bound, and under --check every shared
// dereference checked against the live object it points into, with the heap's
// lookup service (lib/runtime/heap_index.hpp) that these checks rest on.
#include <cstdint>
#include <string>
#include <vector>

#include "../../lib/runtime/heap_index.hpp"
#include "../support/spmd.hpp"

// Sized by a flag: a negative count in the one test that asks for it.
bool ac_make_negative = false;
constexpr int ac_negative_line = __LINE__ + 1;
upc::shared_array<int> ac_maybe_negative([] { return ac_make_negative ? std::size_t{10} - std::size_t{12} : std::size_t{1}; });

namespace {

upc::launch_options checked(int threads, upc::backend_kind b) {
  upc::launch_options o = spmd::options(threads, b);
  o.check = true;
  return o;
}

void run_checked_ok(int threads, upc::backend_kind b, const std::function<void()>& body) {
  if (spmd::skip_run(threads, b)) return;
  const upc::run_result r = upc::run(checked(threads, b), body);
  INFO("backend=", spmd::name(b), " THREADS=", threads, " error: ", r.error);
  REQUIRE(r.ok());
}

const std::string this_file = std::source_location::current().file_name();

}  // namespace

// ---- sizes (8.7a) -------------------------------------------------------------

TEST_CASE("layout: local_bytes saturates instead of wrapping; affinity_size is 0 off the thread range") {
  using upc::layout::affinity_size;
  using upc::layout::local_bytes;
  CHECK(local_bytes(SIZE_MAX, 4, 1, 3) == SIZE_MAX);     // a negative count of ints
  CHECK(local_bytes(SIZE_MAX, 1, 0, 3) == SIZE_MAX);     // indefinite: count * size
  CHECK(local_bytes(SIZE_MAX / 2, 4, 0, 1) == SIZE_MAX);
  CHECK(local_bytes(SIZE_MAX, 1, 1, 1) == SIZE_MAX);     // (n + B - 1) must not wrap to 0
  CHECK(local_bytes(std::size_t{1} << 62, 8, 64, 2) == SIZE_MAX);
  CHECK(local_bytes(40, 4, 1, 3) == 56);                 // ordinary sizes are unchanged
  CHECK(local_bytes(130, 4, 64, 2) == 512);
  CHECK(local_bytes(5, 8, 0, 4) == 40);
  CHECK(local_bytes(5, 8, 2, 0) == 48);                  // no THREADS yet: no division by zero
  CHECK(affinity_size(100, 10, 0, 0) == 0);              // outside a run (THREADS 0)
  CHECK(affinity_size(100, 10, 3, 3) == 0);              // thread >= THREADS
  CHECK(affinity_size(100, 10, -1, 3) == 0);
  CHECK(affinity_size(SIZE_MAX, SIZE_MAX / 2, 1, 2) == SIZE_MAX / 2);
  CHECK(affinity_size(100, 10, 1, 3) == 30);
}

TEST_CASE("shared_array: a negative element count is reported with the declaration, not given 0 bytes (issue 8.7a)") {
  spmd::run_everywhere(
      [] {
        const std::size_t N = 10, M = 12;
        const int line = __LINE__ + 1;
        const std::string err = spmd::error_of([&] { upc::shared_array<int> a(N - M); });
        SPMD_CHECK(spmd::contains(err, "shared_array<int> (declared at " + this_file + ":" + std::to_string(line) + ")"));
        SPMD_CHECK(spmd::contains(err, "the element count 18446744073709551614 is too large (is it a negative number "
                                       "converted to size_t?) (thread " + std::to_string(MYTHREAD) + ")"));
        // count * element size wraps
        SPMD_CHECK_ERROR((upc::shared_array<double, 4>(SIZE_MAX / 4)), "elements of 8 bytes overflow size_t");
        // n * THREADS wraps (only with THREADS > 1) or the count looks negative
        SPMD_CHECK_ERROR((upc::shared_array<char>(upc::per_thread(SIZE_MAX - 1))), "the element count 18446744073709551614");
        SPMD_CHECK_ERROR((upc::shared_array<char>(upc::per_thread(SIZE_MAX - 1))), "is it a negative number converted to size_t?");
        SPMD_CHECK_ERROR((upc::shared_array<char, upc::indefinite>(SIZE_MAX)), "negative number converted to size_t");
        // A size function that throws is reported with the object it sizes.
        SPMD_CHECK_ERROR((upc::shared_array<int>([]() -> std::size_t { throw std::runtime_error("no size"); })),
                         "its size expression threw: no size");
        // Every thread failed the same way before any allocation: the heap is intact.
        upc::shared_array<int> fine(upc::per_thread(2));
        fine[MYTHREAD] = MYTHREAD;
        upc_barrier;
        SPMD_CHECK_EQ(static_cast<int>(fine[0]), 0);
        upc_barrier;
      },
      {1, 3});
}

TEST_CASE("shared_array: a namespace-scope array with a negative count stops the run before it starts, cleanly") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    ac_make_negative = true;
    bool body_ran = false;
    const upc::run_result r = upc::run(spmd::options(2, b), [&] { body_ran = true; });
    ac_make_negative = false;
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.failed);
    CHECK(r.exit_code != 0);
    CHECK(!body_ran);
    CHECK(spmd::contains(r.error, "shared_array<int> (declared at " + this_file + ":" + std::to_string(ac_negative_line) +
                                      "): the element count 18446744073709551614 is too large (is it a negative number "
                                      "converted to size_t?)"));
    CHECK(upc::run(spmd::options(2, b), [] { SPMD_CHECK_EQ(ac_maybe_negative.size(), 1u); }).ok());
  }
}

// ---- the partition bound (8.7b) ---------------------------------------------------

TEST_CASE("--check: an index below the first partition is refused, not written into the control block (issue 8.7b)") {
  for (upc::backend_kind b : spmd::backends)
    for (int threads : {1, 3}) {
      if (spmd::skip_run(threads, b)) continue;
      upc::launch_options o = checked(threads, b);
      o.timeout_seconds = 30;
      const upc::run_result r = upc::run(o, [] {
        upc::shared_array<int> a(upc::per_thread(4));
        const upc::sptr<int> p = a.data();
        // From element 0, far enough back that the offset goes below 0 of the partition.
        const std::ptrdiff_t back = static_cast<std::ptrdiff_t>(upc_addrfield(p) / sizeof(int) + 16) * THREADS;
        if (MYTHREAD == 0) p[-back] = 1;
        upc_barrier;
      });
      INFO("backend=", spmd::name(b), " THREADS=", threads, " error: ", r.error);
      CHECK(r.failed);
      CHECK(r.failed_thread == 0);
      CHECK(spmd::contains(r.error, "shared write: access of 4 bytes at thread 0, offset 1844674407370955"));
      CHECK(spmd::contains(r.error, "is outside the shared heap"));
    }
}

// ---- every dereference against its object (8.7c) ------------------------------------

namespace {
// Runs `body` under --check on THREADS threads; it must fail on `thread` with all `parts`.
void expect_check_failure(int threads, int thread, const std::function<void()>& body, const std::vector<std::string>& parts) {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(threads, b)) continue;
    upc::launch_options o = checked(threads, b);
    o.timeout_seconds = 30;
    const upc::run_result r = upc::run(o, body);
    INFO("backend=", spmd::name(b), " THREADS=", threads, " error: ", r.error);
    CHECK(r.failed);
    CHECK(r.failed_thread == thread);
    for (const std::string& part : parts) CHECK(spmd::contains(r.error, part));
  }
}

constexpr int forty_line = __LINE__ + 2;  // the declaration below
void write_before_element_0() {
  upc::shared_array<int> a(40);
  const upc::sptr<int> p = a.data();
  if (MYTHREAD == THREADS - 1) p[-2] = 1;
  upc_barrier;
}
}  // namespace

TEST_CASE("--check: element index -2 of a shared_array is reported with the array's declaration (issue 8.7c)") {
  const std::string decl = "is outside the shared_array<int> of 40 elements declared at " + this_file + ":" + std::to_string(forty_line) + " ";
  // THREADS 1: element -2 lies in the array's own chunk header; THREADS 3: in thread 1's part, below the array.
  expect_check_failure(1, 0, write_before_element_0, {"shared write: element index -2 (thread 0, offset ", decl, "(thread 0)"});
  expect_check_failure(3, 2, write_before_element_0, {"shared write: element index -2 (thread 1, offset ", decl, "(thread 2)"});
}

TEST_CASE("--check: reading past the last element of each kind of object is reported (issue 8.7c)") {
  // shared_array: element 40 of 40 lies in padding of its chunk (THREADS 1 and 4) or beyond thread 1's 13 elements (THREADS 3).
  for (int threads : {1, 3, 4})
    expect_check_failure(threads, 0, [] {
      upc::shared_array<int> a(40);
      if (MYTHREAD == 0) (void)static_cast<int>(a.data()[40]);
      upc_barrier;
    }, {"shared read: element index 40 (thread ", "is outside the shared_array<int> of 40 elements declared at " + this_file});
  // upc_all_alloc: one block of 16 bytes per thread.
  expect_check_failure(3, 1, [] {
    const upc::sptr<int, 4> p(upc_all_alloc(THREADS, 16));
    if (MYTHREAD == 1) p[4 * THREADS] = 0;
    upc_barrier;
  }, {"shared write: access of 4 bytes at (thread 0, offset ", "is outside the space of upc_all_alloc(nblocks 3, nbytes 16)",
      "(thread 0 holds 16 bytes of it, from offset "});
  // upc_global_alloc: thread 2 has no block of an allocation of 2 blocks.
  expect_check_failure(3, 0, [] {
    if (MYTHREAD == 0) {
      const upc::sptr<char, 8> p(upc_global_alloc(2, 8));
      p[16] = 'x';
    }
    upc_barrier;
  }, {"shared write: access of 1 byte at (thread 2, offset ", "is outside the space of upc_global_alloc(nblocks 2, nbytes 8)",
      "(thread 2 holds none of it)"});
  // upc_alloc: 10 bytes with affinity to the caller.
  expect_check_failure(2, 1, [] {
    const upc::sptr<char, upc::indefinite> p(upc_alloc(10));
    if (MYTHREAD == 1) (void)static_cast<char>(p[10]);
    upc_barrier;
  }, {"shared read: access of 1 byte at (thread 1, offset ", "is outside the 10 bytes of upc_alloc on thread 1"});
  // A block-scope static is named by its declaration too.
  expect_check_failure(2, 1, [] {
    static upc::shared<long> total;
    // Every thread has made it before the failure (on mpi each rank keeps its
    // own registry of statics, which must stay the same on every rank).
    upc_barrier;
    if (MYTHREAD == 1) (void)static_cast<long>((&total)[1]);
    upc_barrier;
  }, {"shared read: element index 1 (thread 1, offset ", "is outside the shared<long int> declared at " + this_file});
}

TEST_CASE("--check: an access to freed memory is reported even after the lookup was cached (issue 8.7c)") {
  expect_check_failure(1, 0, [] {
    const upc::sptr<char, upc::indefinite> a(upc_alloc(1000));
    a[500] = 'a';            // found and cached
    upc_free(a);
    const upc::sptr<char, upc::indefinite> b(upc_alloc(100));  // somewhere else in the same heap
    (void)b;
    (void)static_cast<char>(a[500]);
  }, {"shared read: access of 1 byte at (thread 0, offset ", "is not inside any live shared object (freed or never allocated) (thread 0)"});
}

TEST_CASE("--check: in-bounds accesses pass while other threads allocate and free concurrently") {
  for (upc::backend_kind b : spmd::backends)
    run_checked_ok(4, b, [] {
      const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
      upc::shared_array<upc::sptr<int, upc::indefinite>> ptrs(upc::per_thread(1));
      upc::shared_array<int> sizes(upc::per_thread(1));
      std::vector<upc::sptr<int, upc::indefinite>> mine;
      for (int round = 0; round < 200; ++round) {
        // Allocate or free some of mine while the others read theirs, through pointers-to-shared.
        const std::size_t n = 1 + (round * 7 + me * 13) % 300;
        mine.push_back(upc::sptr<int, upc::indefinite>(upc_alloc(n * sizeof(int))));
        for (std::size_t i = 0; i < n; ++i) mine.back()[static_cast<std::ptrdiff_t>(i)] = static_cast<int>(i + me);
        for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<int>(mine.back()[static_cast<std::ptrdiff_t>(i)]), static_cast<int>(i + me));
        if (mine.size() > 5) {
          upc_free(mine.front());
          mine.erase(mine.begin());
        }
      }
      ptrs[me] = mine.back();
      sizes[me] = static_cast<int>(1 + (199 * 7 + me * 13) % 300);
      upc_barrier;
      for (std::size_t t = 0; t < T; ++t) {
        const upc::sptr<int, upc::indefinite> p = ptrs[t];
        for (int i = 0; i < sizes[t]; ++i) SPMD_CHECK_EQ(static_cast<int>(p[i]), static_cast<int>(i + static_cast<int>(t)));
      }
      upc_barrier;
      for (auto& p : mine) upc_free(p);
    });
}

// ---- the lookup service ------------------------------------------------------------

TEST_CASE("heap index: find_allocation names each kind of allocation and its extent on every thread") {
  for (upc::backend_kind b : spmd::backends)
    spmd::run_ok(3, b, [] {
      using upc::detail::allocation_kind;
      using upc::detail::find_allocation;
      const std::uint32_t me = static_cast<std::uint32_t>(MYTHREAD);
      const int decl_line = __LINE__ + 1;
      upc::shared_array<short, 2> arr(7);  // blocks {0,1} {6} on thread 0, {2,3} on 1, {4,5} on 2
      auto a = find_allocation(1, upc_addrfield(arr.data()) + 2);
      SPMD_CHECK(a.has_value());
      SPMD_CHECK(a->kind == allocation_kind::declared);
      SPMD_CHECK(a->symmetric);
      SPMD_CHECK_EQ(a->start, upc_addrfield(arr.data()));
      SPMD_CHECK_EQ(a->count, 7u);
      SPMD_CHECK_EQ(a->affinity_bytes(0), 6u);
      SPMD_CHECK_EQ(a->affinity_bytes(1), 4u);
      SPMD_CHECK_EQ(a->affinity_bytes(2), 4u);
      SPMD_CHECK_EQ(a->describe(), "the shared_array<short int, 2> of 7 elements declared at " + this_file + ":" + std::to_string(decl_line));
      SPMD_CHECK_EQ(a->bytes_from(upc::shared_address{a->start + 2, 0, 0}), 4u);
      SPMD_CHECK_EQ(a->bytes_from(upc::shared_address{a->start + 4, 2, 0}), 0u);
      SPMD_CHECK(a->contains(upc::shared_address{a->start + 2, 2, 0}, 2));
      SPMD_CHECK(!a->contains(upc::shared_address{a->start + 2, 2, 0}, 4));

      const upc::sptr<void> all = upc_all_alloc(5, 100);
      a = find_allocation(2, upc_addrfield(all) + 150);  // padding of thread 2's part (100 bytes)
      SPMD_CHECK(a.has_value());
      SPMD_CHECK(a->kind == allocation_kind::all_alloc);
      SPMD_CHECK_EQ(a->nblocks, 5u);
      SPMD_CHECK_EQ(a->nbytes, 100u);
      SPMD_CHECK_EQ(a->requested, 200u);
      SPMD_CHECK_EQ(a->affinity_bytes(0), 200u);
      SPMD_CHECK_EQ(a->affinity_bytes(2), 100u);
      SPMD_CHECK_EQ(a->describe(), "the space of upc_all_alloc(nblocks 5, nbytes 100)");

      const upc::sptr<void> mine = upc_alloc(33);
      a = find_allocation(me, upc_addrfield(mine));
      SPMD_CHECK(a.has_value());
      SPMD_CHECK(a->kind == allocation_kind::local_alloc);
      SPMD_CHECK(!a->symmetric);
      SPMD_CHECK_EQ(a->thread, me);
      SPMD_CHECK_EQ(a->affinity_bytes(me), 33u);
      SPMD_CHECK_EQ(a->affinity_bytes((me + 1) % 3), 0u);
      SPMD_CHECK_EQ(a->describe(), "the 33 bytes of upc_alloc on thread " + std::to_string(me));
      // Runtime storage is named after the function that made it.
      upc_lock_t* lock = upc_all_lock_alloc();
      a = find_allocation(0, static_cast<std::uint64_t>(reinterpret_cast<char*>(lock) - upc::detail::g_partitions));
      SPMD_CHECK(a.has_value());
      SPMD_CHECK(a->kind == allocation_kind::runtime);
      SPMD_CHECK_EQ(a->describe(), "the runtime's storage for upc_all_lock_alloc");
      upc_barrier;
      // Nothing: a header-free middle of the partition, a thread that does not exist, past the end.
      SPMD_CHECK(!find_allocation(me, upc::detail::heap_extent(MYTHREAD).symmetric + 64).has_value());
      SPMD_CHECK(!find_allocation(3, 64).has_value());
      SPMD_CHECK(!find_allocation(0, ~std::uint64_t{0}).has_value());
      upc_free(mine);
      SPMD_CHECK(!find_allocation(me, upc_addrfield(mine)).has_value());  // freed
      upc_barrier;
      if (MYTHREAD == 0) upc_lock_free(lock);
      upc_all_free(all);
    });
}
