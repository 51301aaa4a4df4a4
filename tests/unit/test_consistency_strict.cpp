// A file whose default consistency is strict (<upc_strict.h> first, as UPC's
// `#include <upc_strict.h>`): its unqualified shared types are strict, the
// library's functions link and work from it, and it shares functions with the
// relaxed files through declarations that spell the consistency
// (consistency_shared.hpp; test_consistency.cpp runs the tests).
#include <upc_strict.h>

#include <upc_collective.h>

#include <type_traits>

#include "../support/spmd.hpp"
#include "consistency_shared.hpp"

namespace {

static_assert(std::is_same_v<upc::sptr<long>, upc::sptr<long, 1, upc::strict>>);
static_assert(std::is_same_v<upc::shared_ref<long>, upc::shared_ref<long, 1, upc::strict>>);
static_assert(std::is_same_v<upc::shared_array<int, 4>, upc::shared_array<int, 4, upc::strict>>);
static_assert(std::is_same_v<upc::shared<int>, upc::shared<int, upc::strict>>);
static_assert(std::is_same_v<upc::shared_array2d<int>, upc::shared_md<int, 2, 1, upc::strict>>);
static_assert(std::is_same_v<decltype(std::declval<upc::shared_array<long>&>()[0]), upc::shared_ref<long, 1, upc::strict>>);
// Spelled-out relaxed types stay relaxed, and shared void * is the library's.
static_assert(std::is_same_v<upc::relaxed_shared<int>, upc::shared<int, upc::relaxed>>);
static_assert(std::is_same_v<upc::relaxed_shared_array<int>, upc::shared_array<int, 1, upc::relaxed>>);
static_assert(std::is_same_v<upc::sptr<void>, upc::sptr<void, 1, upc::relaxed>>);
static_assert(std::is_same_v<upc::sptr<const void>, upc::sptr<const void, 1, upc::relaxed>>);

}  // namespace

upc::shared_array<long> cs_strict_data(upc::per_thread(4));  // shared long d[4*THREADS]; — strict in this file
upc::shared<int> cs_strict_flag;                            // strict shared int flag;

namespace consistency_test {

static_assert(std::is_same_v<decltype(cs_strict_data), upc::shared_array<long, 1, upc::strict>>);

long sum_in_strict_file(upc::sptr<const long, 1, upc::strict> p, std::size_t n) {
  long s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[static_cast<std::ptrdiff_t>(i)];
  return s;
}

void zero_in_strict_file(upc::sptr<void> p, std::size_t bytes) { upc_memset(p, 0, bytes); }

upc::consistency strict_file_default() { return default_of_this_file(nullptr); }

void strict_file_body() {
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  // Namespace-scope strict data, written in place, and a strict flag.
  for (std::size_t k = 0; k < 4; ++k) cs_strict_data[me + k * T] = static_cast<long>(me + k * T);
  upc_barrier;
  if (me == 0) cs_strict_flag = 1;
  upc_barrier;
  SPMD_CHECK_EQ(static_cast<int>(cs_strict_flag), 1);
  // A pointer of this file's default type passed to a function of the relaxed file.
  const upc::sptr<long> data = cs_strict_data;
  static_assert(consistency_of(upc::sptr<long>{}) == upc::strict);
  SPMD_CHECK_EQ(sum_in_relaxed_file(data, 4 * T), static_cast<long>(4 * T * (4 * T - 1) / 2));
  // Allocation and transfers (shared void *) from a strict file.
  upc::sptr<long> buf = upc_all_alloc(T, 2 * sizeof(long));
  long two[2] = {static_cast<long>(me), -static_cast<long>(me)};
  upc_memput(buf + static_cast<std::ptrdiff_t>(me), two, sizeof two);  // block size 1: my element and the next thread's
  upc_barrier;
  long back = 0;
  upc_memget(&back, buf + static_cast<std::ptrdiff_t>(me), sizeof back);
  SPMD_CHECK_EQ(back, static_cast<long>(me));
  upc_barrier;
  upc_all_free(buf);
  // Collectives, with a strict permutation array for shared const int *perm.
  upc::shared_array<int> perm(upc::per_thread(1));
  upc::shared_array<long> src(upc::per_thread(1)), dst(upc::per_thread(1)), total(1);
  perm[me] = static_cast<int>((me + 1) % T);
  src[me] = static_cast<long>(me) + 10;
  upc_all_permute(dst, src, perm, sizeof(long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  SPMD_CHECK_EQ(static_cast<long>(dst[(me + 1) % T]), static_cast<long>(me) + 10);
  upc_all_reduceL(total, src, UPC_ADD, T, 1, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  SPMD_CHECK_EQ(static_cast<long>(total[0]), static_cast<long>(T * 10 + T * (T - 1) / 2));
  // A lock around a strict read-modify-write.
  upc_lock_t* lock = upc_all_lock_alloc();
  upc_lock(lock);
  cs_strict_flag += 1;
  upc_unlock(lock);
  upc_barrier;
  SPMD_CHECK_EQ(static_cast<int>(cs_strict_flag), static_cast<int>(T) + 1);
  upc_barrier;
  if (me == 0) {
    cs_strict_flag = 0;
    upc_all_lock_free(lock);
  } else {
    upc_all_lock_free(lock);
  }
  zero_in_strict_file(cs_strict_data, 0);
  upc_barrier;
}

}  // namespace consistency_test
