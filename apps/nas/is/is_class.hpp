// The official NPB IS problem classes (NPB 3.x): how many keys, their range, the
// number of buckets of the parallel ranking, and the partial verification
// values — the ranks that five chosen keys must have in every iteration.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "../../../harness/npb_classes.h"

namespace is {

inline constexpr int max_iterations = NPB_IS_MAX_ITERATIONS;
inline constexpr int test_array_size = NPB_IS_TEST_ARRAY_SIZE;

// One class: a view of the official table (npb_classes.h, shared with the MPI peer).
struct problem_class {
  const npb_is_class* c;
  char name;

  std::int64_t total_keys() const { return std::int64_t{1} << c->total_keys_log2; }
  int max_key() const { return 1 << c->max_key_log2; }
  int num_buckets() const { return 1 << c->num_buckets_log2; }
  int bucket_shift() const { return c->max_key_log2 - c->num_buckets_log2; }
  std::int64_t test_index(int i) const { return c->test_index[i]; }
  // The rank test key `i` must have in `iteration`.
  std::int64_t expected_rank(int i, int iteration) const { return npb_is_expected_rank(c, i, iteration); }
};

inline std::optional<problem_class> find_class(char name) {
  for (const npb_is_class& c : npb_is_classes)
    if (c.name == name) return problem_class{&c, c.name};
  return std::nullopt;
}

}  // namespace is
