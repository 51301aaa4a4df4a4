// The official NPB IS problem classes (NPB 3.x): how many keys, their range, the
// number of buckets of the parallel ranking, and the partial verification
// values — the ranks that five chosen keys must have in every iteration.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

namespace is {

inline constexpr int max_iterations = 10;  // NPB's MAX_ITERATIONS
inline constexpr int test_array_size = 5;  // NPB's TEST_ARRAY_SIZE

struct problem_class {
  char name;
  int total_keys_log2, max_key_log2, num_buckets_log2;
  std::array<std::int64_t, test_array_size> test_index, test_rank;

  std::int64_t total_keys() const { return std::int64_t{1} << total_keys_log2; }
  int max_key() const { return 1 << max_key_log2; }
  int num_buckets() const { return 1 << num_buckets_log2; }
  int bucket_shift() const { return max_key_log2 - num_buckets_log2; }

  // The rank test key `i` must have in `iteration` (NPB's per-class rule: the
  // iteration moves two keys, so some ranks go up and some down with it).
  std::int64_t expected_rank(int i, int iteration) const {
    const std::int64_t r = test_rank[static_cast<std::size_t>(i)];
    switch (name) {
      case 'S': return i <= 2 ? r + iteration : r - iteration;
      case 'W': return i < 2 ? r + (iteration - 2) : r - iteration;
      case 'A': return i <= 2 ? r + (iteration - 1) : r - (iteration - 1);
      case 'B': return i == 1 || i == 2 || i == 4 ? r + iteration : r - iteration;
      default: return i <= 2 ? r + iteration : r - iteration;  // 'C'
    }
  }
};

inline std::optional<problem_class> find_class(char name) {
  static constexpr problem_class classes[] = {
      {'S', 16, 11, 9, {48427, 17148, 23627, 62548, 4431}, {0, 18, 346, 64917, 65463}},
      {'W', 20, 16, 10, {357773, 934767, 875723, 898999, 404505}, {1249, 11698, 1039987, 1043896, 1048018}},
      {'A', 23, 19, 10, {2112377, 662041, 5336171, 3642833, 4250760}, {104, 17523, 123928, 8288932, 8388264}},
      {'B', 25, 21, 10, {41869, 812306, 5102857, 18232239, 26860214}, {33422937, 10244, 59149, 33135281, 99}},
      {'C', 27, 23, 10, {44172927, 72999161, 74326391, 129606274, 21736814}, {61147, 882988, 266290, 133997595, 133525895}},
  };
  for (const problem_class& c : classes)
    if (c.name == name) return c;
  return std::nullopt;
}

}  // namespace is
