// UPC 1.3 castability (<upc_castable.h>): every shared address is castable by
// every thread here, local or remote, on both backends; writes through a cast
// pointer are what the owner reads; upc_thread_info reports that; bad arguments
// give clear errors.
#include <cstdint>
#include <string>

#include "../support/spmd.hpp"

using spmd::contains;
using spmd::error_of;
using spmd::run_failing;
#include "upc_castable.h"

namespace {



void cast_body() {
  const int T = THREADS, me = MYTHREAD, right = (me + 1) % T;
  // shared [5] long x[5*THREADS*2]: two blocks per thread.
  upc::sptr<long, 5> x(upc_all_alloc(2 * T, 5 * sizeof(long)));
  upc::sptr<double, upc::indefinite> mine(upc_alloc(3 * sizeof(double)));
  upc::sptr<upc::sptr<double, upc::indefinite>> published(upc_all_alloc(T, sizeof(upc::sptr<double, upc::indefinite>)));
  published[me] = mine;

  // Own elements: upc_cast agrees with privatisation.
  for (int i = 0; i < 10 * T; ++i) {
    upc::sptr<long, 5> p = x + i;
    if (p.thread() == me) SPMD_CHECK(upc_cast(p) == static_cast<void*>(p.local()));
  }
  // Every element of the right neighbour's blocks: write through the cast pointer.
  for (int i = 0; i < 10 * T; ++i) {
    upc::sptr<long, 5> p = x + i;
    if (p.thread() != right) continue;
    long* q = static_cast<long*>(upc_cast(p));
    SPMD_CHECK(q != nullptr);
    *q = 1000L * i + me;
  }
  // Consecutive elements within a block are consecutive longs in the cast view.
  SPMD_CHECK(static_cast<long*>(upc_cast(x + 5 * right + 1)) == static_cast<long*>(upc_cast(x + 5 * right)) + 1);
  upc_barrier;
  // The owner reads, through the pointer-to-shared, what its left neighbour wrote.
  const int left = (me + T - 1) % T;
  for (int i = 0; i < 10 * T; ++i) {
    upc::sptr<long, 5> p = x + i;
    if (p.thread() == me) SPMD_CHECK_EQ(static_cast<long>(*p), 1000L * i + left);
  }
  // upc_alloc'd memory of another thread, cast and written by this one.
  upc::sptr<double, upc::indefinite> theirs = published[right];
  double* r = static_cast<double*>(upc_cast(theirs));
  for (int k = 0; k < 3; ++k) r[k] = me + 0.25 * k;
  upc_barrier;
  const double* m = mine.local();
  for (int k = 0; k < 3; ++k) SPMD_CHECK_EQ(m[k], left + 0.25 * k);

  // The null pointer casts to NULL; a const element type is fine.
  SPMD_CHECK(upc_cast(nullptr) == nullptr);
  SPMD_CHECK(upc_cast(upc::sptr<const long, 5>(x)) == upc_cast(x));

  // Every thread's objects of every kind are guaranteed castable.
  for (int t = 0; t < T; ++t) {
    upc_thread_info_t info = upc_thread_info(static_cast<std::size_t>(t));
    SPMD_CHECK_EQ(info.guaranteedCastable, UPC_CASTABLE_ALL);
    SPMD_CHECK_EQ(info.probablyCastable, UPC_CASTABLE_ALL);
  }
  upc_barrier;
  upc_free(mine);
  upc_all_free(published);
  upc_all_free(x);
}

}  // namespace

TEST_CASE("castable: every shared address casts to a usable local pointer, local or remote, on both backends") {
  spmd::run_everywhere(cast_body, {1, 2, 3, 4, 8});
}

TEST_CASE("castable: the UPC_CASTABLE_* flags are distinct bits and ALL is their union") {
  const int flags[] = {UPC_CASTABLE_ALL_ALLOC, UPC_CASTABLE_GLOBAL_ALLOC, UPC_CASTABLE_ALLOC, UPC_CASTABLE_STATIC};
  int all = 0;
  for (int f : flags) {
    CHECK(f != 0);
    CHECK((f & (f - 1)) == 0);
    CHECK((all & f) == 0);
    all |= f;
  }
  CHECK(all == UPC_CASTABLE_ALL);
  CHECK(__UPC_CASTABLE__ == 1);
}

TEST_CASE("castable: bad arguments name the function, the argument, the value and the thread") {
  spmd::run_ok(3, upc::backend_kind::threads, [] {
    const std::string me = " (thread " + std::to_string(MYTHREAD) + ")";
    std::string e = error_of([] { (void)upc_thread_info(3); });
    SPMD_CHECK(contains(e, "upc_thread_info: threadId 3 is not a thread: THREADS is 3, so it must be 0 to 2" + me));
    e = error_of([] { (void)upc_thread_info(static_cast<std::size_t>(-1)); });
    SPMD_CHECK(contains(e, "upc_thread_info: threadId 18446744073709551615 is not a thread"));
    e = error_of([] { (void)upc_cast(upc::sptr<void>(upc::shared_address{64, 3, 0})); });
    SPMD_CHECK(contains(e, "upc_cast: ptr has thread 3, but THREADS is 3" + me));
    const std::uint64_t end = upc::detail::g_partition_bytes;
    e = error_of([&] { (void)upc_cast(upc::sptr<void>(upc::shared_address{end + 1, 1, 0})); });
    SPMD_CHECK(contains(e, "upc_cast: ptr (thread 1, offset " + std::to_string(end + 1) +
                               ") lies past the end of that thread's shared heap"));
    // One past the end of a partition is still a pointer one may form and cast.
    SPMD_CHECK(upc_cast(upc::sptr<void>(upc::shared_address{end, 1, 0})) != nullptr);
  });
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    INFO("backend ", std::string(spmd::name(b)));
    upc::run_result r = spmd::run(spmd::options(2, b), [] {
      if (MYTHREAD == 1) (void)upc_thread_info(7);
      upc_barrier;
    });
    CHECK(!r.ok());
    CHECK(r.failed_thread == 1);
    CHECK(contains(r.error, "upc_thread_info: threadId 7 is not a thread: THREADS is 2, so it must be 0 to 1 (thread 1)"));
  }
}
