// The default consistency of a file (issue 8, friction: <upc_strict.h> was a
// no-op). This file includes <upc_relaxed.h> (relaxed, also the default of a file
// that includes neither); test_consistency_strict.cpp includes <upc_strict.h>.
// Both link into one program and call each other through consistency_shared.hpp.
#include <upc_relaxed.h>

#include <type_traits>

#include "../support/spmd.hpp"
#include "consistency_shared.hpp"

static_assert(std::is_same_v<upc::sptr<long>, upc::sptr<long, 1, upc::relaxed>>);
static_assert(std::is_same_v<upc::shared_array<int, 4>, upc::shared_array<int, 4, upc::relaxed>>);
static_assert(std::is_same_v<upc::shared<int>, upc::shared<int, upc::relaxed>>);
static_assert(std::is_same_v<upc::strict_shared<int>, upc::shared<int, upc::strict>>);

namespace consistency_test {
long sum_in_relaxed_file(upc::sptr<const long, 1, upc::relaxed> p, std::size_t n) {
  long s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[static_cast<std::ptrdiff_t>(i)];
  return s;
}
}  // namespace consistency_test

TEST_CASE("<upc_strict.h> makes one file's unqualified shared types strict; files with either default share functions") {
  using namespace consistency_test;
  // The same inline function, written once, is a different function in each file.
  CHECK(default_of_this_file(nullptr) == upc::relaxed);
  CHECK(strict_file_default() == upc::strict);
  spmd::run_everywhere(
      [] {
        strict_file_body();
        // A relaxed pointer into a function of the strict file, and back.
        upc::shared_array<long> d(upc::per_thread(3));
        for (std::size_t i : upc::my_indices(d)) d[i] = static_cast<long>(i) + 1;
        upc_barrier;
        const std::size_t n = d.size();
        SPMD_CHECK_EQ(sum_in_strict_file(d, n), static_cast<long>(n * (n + 1) / 2));
        SPMD_CHECK_EQ(sum_in_relaxed_file(d, n), static_cast<long>(n * (n + 1) / 2));
        upc_barrier;
      },
      {1, 3, 4});
}
