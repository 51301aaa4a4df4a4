// Recursive strided run-length encoding of remap schedules (lib/remap/srle.hpp,
// ZPL remap paper §4.5.3): the paper's examples to the integer, partial inner
// runs, runs of one tuple, then round trips of thousands of random nested
// strided streams (widths 1-4, levels 1-4, random tails and noise), the NAS FT
// transposes, the give-up bound on random data, NR, and the straight-copy test
// of §4.5.5 against a brute-force scan.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "../../lib/remap/srle.hpp"

using upc::remap::srle;
using upc::remap::srle_encode;
using upc::remap::srle_encoder;
using upc::remap::srle_policy;
using ints = std::vector<std::int64_t>;

namespace {

srle encode(const ints& tuples, int width, int levels, srle_policy policy = srle_policy::never_give_up()) {
  return srle_encode(tuples, width, levels, policy);
}

ints decoded(const srle& s) {
  ints out;
  s.for_each([&](const std::int64_t* t) { out.insert(out.end(), t, t + s.width()); });
  return out;
}

// Round trip, the counts, and the canonical form of every run: lengths >= 1,
// stride 0 wherever the length is 1, and the run sizes adding up to count().
void check_round_trip(const ints& tuples, int width, int levels, srle_policy policy) {
  const srle s = encode(tuples, width, levels, policy);
  CHECK(s.width() == width);
  CHECK(s.count() == tuples.size() / static_cast<std::size_t>(width));
  CHECK(decoded(s) == tuples);
  CHECK(s.decode() == tuples);
  CHECK(s.size_in_ints() == s.flat().size());
  if (!s.encoded()) {
    CHECK(s.flat() == tuples);
    CHECK(s.runs() == s.count());
    return;
  }
  CHECK(s.flat().size() == s.runs() * s.run_ints());
  std::size_t total = 0;
  for (std::size_t r = 0; r < s.runs(); ++r) {
    const auto run = s.run(r);
    for (int j = 0; j < levels; ++j) {
      REQUIRE(run.length(j) >= 1);
      if (run.length(j) == 1)
        for (auto v : run.stride(j)) CHECK(v == 0);
    }
    total += run.count();
  }
  CHECK(total == s.count());
}

// tuples of the nest for i_D .. for i_1: start + sum i_j * stride_j.
struct nest {
  ints start;
  std::vector<ints> stride;      // innermost first
  std::vector<std::int64_t> extent;
  void emit(int width, ints& out, std::size_t limit) const {
    const int depth = static_cast<int>(extent.size());
    std::vector<std::int64_t> at(static_cast<std::size_t>(depth), 0);
    for (std::size_t emitted = 0; emitted < limit; ++emitted) {
      for (int d = 0; d < width; ++d) {
        std::int64_t v = start[d];
        for (int j = 0; j < depth; ++j) v += at[j] * stride[j][d];
        out.push_back(v);
      }
      int j = 0;
      while (j < depth && ++at[j] == extent[j]) at[j++] = 0;
      if (j == depth) return;
    }
  }
  std::size_t size() const {
    std::size_t n = 1;
    for (auto e : extent) n *= static_cast<std::size_t>(e);
    return n;
  }
};

// (i, j, k) over n1 x n2 x n3 row-major, each pushed in the order `perm` picks.
ints transpose3(std::int64_t n1, std::int64_t n2, std::int64_t n3, std::array<int, 3> perm) {
  ints out;
  for (std::int64_t i = 0; i < n1; ++i)
    for (std::int64_t j = 0; j < n2; ++j)
      for (std::int64_t k = 0; k < n3; ++k) {
        const std::int64_t ijk[3] = {i, j, k};
        for (int d : perm) out.push_back(ijk[d]);
      }
  return out;
}

std::optional<std::int64_t> straight_by_scan(const ints& tuples, const ints& weights) {
  const std::size_t w = weights.size(), n = tuples.size() / w;
  if (n == 0) return std::nullopt;
  auto offset = [&](std::size_t i) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < w; ++d) o += weights[d] * tuples[i * w + d];
    return o;
  };
  for (std::size_t i = 1; i < n; ++i)
    if (offset(i) != offset(0) + static_cast<std::int64_t>(i)) return std::nullopt;
  return offset(0);
}

}  // namespace

TEST_CASE("remap srle: the paper's 1..6 is 1 1 6") {
  const srle s = encode({1, 2, 3, 4, 5, 6}, 1, 1);
  CHECK(s.encoded());
  CHECK(s.flat() == ints{1, 1, 6});
  CHECK(s.runs() == 1);
  CHECK(s.count() == 6);
  CHECK(s.size_in_ints() == 3);
  CHECK(decoded(s) == ints{1, 2, 3, 4, 5, 6});
  // The same with the default policy: small schedules are never judged.
  CHECK(srle_encode(ints{1, 2, 3, 4, 5, 6}, 1, 1).flat() == ints{1, 1, 6});
}

TEST_CASE("remap srle: the paper's 4 x 4 transpose with one and two levels") {
  ints pairs;
  for (std::int64_t j = 1; j <= 4; ++j)
    for (std::int64_t i = 1; i <= 4; ++i) pairs.insert(pairs.end(), {i, j});
  const srle two = srle_encode(pairs, 2, 2);
  CHECK(two.encoded());
  CHECK(two.flat() == ints{1, 1, 1, 0, 4, 0, 1, 4});
  CHECK(two.runs() == 1);
  CHECK(two.run(0).count() == 16);
  CHECK(decoded(two) == pairs);
  const srle one = srle_encode(pairs, 2, 1);
  CHECK(one.encoded());
  CHECK(one.flat() == ints{1, 1, 1, 0, 4, 1, 2, 1, 0, 4, 1, 3, 1, 0, 4, 1, 4, 1, 0, 4});
  CHECK(one.runs() == 4);
  CHECK(decoded(one) == pairs);
}

TEST_CASE("remap srle: a tuple after a run stays exact; unmerged levels have length 1, stride 0") {
  const ints s{1, 2, 3, 4, 5, 6, 10};
  CHECK(encode(s, 1, 1).flat() == ints{1, 1, 6, 10, 0, 1});
  CHECK(encode(s, 1, 2).flat() == ints{1, 1, 6, 0, 1, 10, 0, 1, 0, 1});
  CHECK(encode(s, 1, 3).flat() == ints{1, 1, 6, 0, 1, 0, 1, 10, 0, 1, 0, 1, 0, 1});
  for (int levels = 1; levels <= 4; ++levels) CHECK(encode(s, 1, levels).decode() == s);
}

TEST_CASE("remap srle: inner runs of lengths 4, 4, 4, 3") {
  ints s;
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t j = 0; j < (i < 3 ? 4 : 3); ++j) s.push_back(10 * i + j);
  CHECK(encode(s, 1, 2).flat() == ints{0, 1, 4, 10, 3, 30, 1, 3, 0, 1});
  CHECK(encode(s, 1, 1).flat() == ints{0, 1, 4, 10, 1, 4, 20, 1, 4, 30, 1, 3});
  for (int levels = 1; levels <= 4; ++levels) CHECK(encode(s, 1, levels).decode() == s);
  // The short run first: 3, 4, 4, 4.
  ints t;
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t j = (i == 0 ? 1 : 0); j < 4; ++j) t.push_back(10 * i + j);
  CHECK(encode(t, 1, 2).flat() == ints{1, 1, 3, 0, 1, 10, 1, 4, 10, 3});
  for (int levels = 1; levels <= 4; ++levels) CHECK(encode(t, 1, levels).decode() == t);
}

TEST_CASE("remap srle: runs of one tuple") {
  SUBCASE("a single tuple") {
    const srle s = encode({7, -3}, 2, 2);
    CHECK(s.flat() == ints{7, -3, 0, 0, 1, 0, 0, 1});
    CHECK(s.decode() == ints{7, -3});
  }
  SUBCASE("repeated tuples: a real stride 0 merges with its equals only") {
    const ints s{7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9, 9};
    CHECK(encode(s, 1, 2).flat() == ints{7, 0, 4, 1, 2, 9, 0, 5, 0, 1});
    for (int levels = 1; levels <= 4; ++levels) CHECK(encode(s, 1, levels).decode() == s);
  }
  SUBCASE("single tuples between runs") {
    const ints s{1, 2, 3, 4, 100, 5, 6, 7, 8, 200, 9, 300};
    for (int levels = 1; levels <= 4; ++levels) check_round_trip(s, 1, levels, srle_policy::never_give_up());
  }
  SUBCASE("an inner extent of 1: the outer levels still merge") {
    // (i, 0, k): the middle loop runs once.
    ints s;
    for (std::int64_t i = 0; i < 3; ++i)
      for (std::int64_t k = 0; k < 5; ++k) s.insert(s.end(), {i, 0, k});
    const srle e = encode(s, 3, 3);
    CHECK(e.runs() == 1);
    CHECK(e.flat() == ints{0, 0, 0, 0, 0, 1, 5, 1, 0, 0, 3, 0, 0, 0, 1});
    CHECK(e.decode() == s);
  }
  SUBCASE("length-1 levels: stride 0, and merging still by the levels that repeat") {
    // 5, 9, 13, 17 is one level-1 run; its upper levels are placeholders.
    CHECK(encode(ints{5, 9, 13, 17}, 1, 3).flat() == ints{5, 4, 4, 0, 1, 0, 1});
    CHECK(encode(ints{5}, 1, 3).flat() == ints{5, 0, 1, 0, 1, 0, 1});
    // Alternating shapes A (4 tuples) and B (3 tuples): nothing merges above
    // level 1, every upper level is a placeholder, and it all decodes.
    ints s;
    for (std::int64_t r = 0; r < 3; ++r) {
      for (std::int64_t j = 0; j < 4; ++j) s.push_back(10 * r + j);
      for (std::int64_t j = 0; j < 3; ++j) s.push_back(100 + 10 * r + 2 * j);
    }
    const srle e = encode(s, 1, 3);
    CHECK(e.runs() == 6);
    CHECK(e.flat() == ints{0, 1, 4, 0, 1, 0, 1, 100, 2, 3, 0, 1, 0, 1, 10, 1, 4, 0, 1, 0, 1,
                           110, 2, 3, 0, 1, 0, 1, 20, 1, 4, 0, 1, 0, 1, 120, 2, 3, 0, 1, 0, 1});
    CHECK(e.decode() == s);
    // A level-2 run of one level-1 run merges at level 3 with the next such.
    // (i, j, k): k runs 3, j once, i twice; then (5, 5, k) with k runs 3 again.
    const ints t{0, 0, 0, 0, 0, 1, 0, 0, 2, 1, 0, 0, 1, 0, 1, 1, 0, 2};
    const srle f = encode(t, 3, 3);
    CHECK(f.flat() == ints{0, 0, 0, 0, 0, 1, 3, 1, 0, 0, 2, 0, 0, 0, 1});
    CHECK(f.decode() == t);
  }
}

TEST_CASE("remap srle: the empty stream") {
  for (int levels = 1; levels <= 4; ++levels) {
    const srle s = encode({}, 3, levels);
    CHECK(s.encoded());
    CHECK(s.count() == 0);
    CHECK(s.runs() == 0);
    CHECK(s.size_in_ints() == 0);
    CHECK(s.decode().empty());
    CHECK_FALSE(s.straight_offset(ints{1, 1, 1}).has_value());
  }
  const srle none;
  CHECK(none.count() == 0);
  CHECK(none.decode().empty());
}

TEST_CASE("remap srle: NAS FT style 3-D transposes compress to one run with three levels") {
  const std::array<std::array<int, 3>, 6> perms{{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (const auto& p : perms) {
    const ints s = transpose3(8, 6, 4, p);
    CAPTURE(p[0]);
    CAPTURE(p[1]);
    CAPTURE(p[2]);
    const srle three = srle_encode(s, 3, 3);  // default policy
    CHECK(three.encoded());
    CHECK(three.runs() == 1);
    CHECK(three.size_in_ints() == 3 + 3 * 4);
    CHECK(three.decode() == s);
    const srle four = srle_encode(s, 3, 4);
    CHECK(four.runs() == 1);
    CHECK(four.decode() == s);
    const srle two = encode(s, 3, 2);
    CHECK(two.runs() == 8);  // one per i
    CHECK(two.decode() == s);
  }
  // (k, i, j), FT's first transpose: k fastest, then j, then i.
  const srle kij = srle_encode(transpose3(8, 6, 4, {2, 0, 1}), 3, 3);
  CHECK(kij.flat() == ints{0, 0, 0, 1, 0, 0, 4, 0, 0, 1, 6, 0, 1, 0, 8});
  // Extents of 1 anywhere.
  for (auto [a, b, c] : std::array<std::array<std::int64_t, 3>, 4>{{{1, 6, 4}, {8, 1, 4}, {8, 6, 1}, {1, 1, 1}}})
    for (const auto& p : perms) {
      const ints s = transpose3(a, b, c, p);
      const srle e = srle_encode(s, 3, 3);
      CHECK(e.runs() == 1);
      CHECK(e.decode() == s);
    }
}

TEST_CASE("remap srle: random nested strided streams round-trip") {
  std::mt19937_64 rng(20030611);
  auto uniform = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  int encoded_whole = 0;
  for (int iteration = 0; iteration < 6000; ++iteration) {
    const int width = static_cast<int>(uniform(1, 4));
    ints s;
    const int segments = static_cast<int>(uniform(0, 3));
    for (int g = 0; g < segments; ++g) {
      nest n;
      const int depth = static_cast<int>(uniform(1, 4));
      for (int d = 0; d < width; ++d) n.start.push_back(uniform(-20, 20));
      for (int j = 0; j < depth; ++j) {
        ints stride;
        // Small strides, often 0 in some dimensions (as index tuples are).
        for (int d = 0; d < width; ++d) stride.push_back(uniform(0, 2) == 0 ? 0 : uniform(-4, 6));
        n.stride.push_back(stride);
        n.extent.push_back(uniform(1, 5));
      }
      // A whole nest, or one cut anywhere (a partial last inner run).
      const std::size_t limit = uniform(0, 1) ? n.size() : static_cast<std::size_t>(uniform(1, static_cast<std::int64_t>(n.size())));
      n.emit(width, s, limit);
      for (std::int64_t noise = uniform(0, 3) == 0 ? uniform(1, 3) : 0; noise > 0; --noise)
        for (int d = 0; d < width; ++d) s.push_back(uniform(-50, 50));
    }
    CAPTURE(iteration);
    CAPTURE(width);
    for (int levels = 1; levels <= 4; ++levels) {
      CAPTURE(levels);
      check_round_trip(s, width, levels, srle_policy::never_give_up());
      check_round_trip(s, width, levels, srle_policy{});
      const srle e = srle_encode(s, width, levels);
      encoded_whole += e.encoded();
    }
  }
  CHECK(encoded_whole > 6000);  // most structured streams do stay encoded
}

TEST_CASE("remap srle: a whole nest of depth <= levels with independent strides is one run") {
  std::mt19937_64 rng(4553);
  auto uniform = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  for (int iteration = 0; iteration < 2000; ++iteration) {
    const int width = static_cast<int>(uniform(1, 4));
    const int depth = static_cast<int>(uniform(1, width));
    nest n;
    for (int d = 0; d < width; ++d) n.start.push_back(uniform(-9, 9));
    // Level j moves dimension j only: no accidental continuations.
    for (int j = 0; j < depth; ++j) {
      ints stride(static_cast<std::size_t>(width), 0);
      stride[static_cast<std::size_t>(j)] = uniform(0, 1) ? uniform(1, 5) : -uniform(1, 5);
      n.stride.push_back(stride);
      n.extent.push_back(uniform(2, 6));
    }
    ints s;
    n.emit(width, s, n.size());
    for (int levels = depth; levels <= 4; ++levels) {
      const srle e = srle_encode(s, width, levels);
      CHECK(e.runs() == 1);
      CHECK(e.decode() == s);
      for (int j = 0; j < depth; ++j) CHECK(e.run(0).length(j) == n.extent[j]);
    }
  }
}

TEST_CASE("remap srle: extreme values wrap and still round-trip") {
  const std::int64_t big = INT64_MAX, small = INT64_MIN;
  const ints s{big, small, 0, big, small, 0, -1, 1, big - 1};
  for (int levels = 1; levels <= 4; ++levels) check_round_trip(s, 1, levels, srle_policy::never_give_up());
  const ints t{small, small + big, small + 2 * (big / 2) + 0};
  for (int levels = 1; levels <= 4; ++levels) check_round_trip(t, 1, levels, srle_policy::never_give_up());
}

TEST_CASE("remap srle: random data gives up and stays within the raw size") {
  std::mt19937_64 rng(77);
  auto uniform = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  const srle_policy policy;
  for (int width = 1; width <= 4; ++width)
    for (int levels = 1; levels <= 4; ++levels)
      for (std::size_t n : {0u, 1u, 5u, 31u, 32u, 33u, 100u, 1000u}) {
        srle_encoder e(width, levels, policy);
        ints s;
        const std::size_t run = static_cast<std::size_t>(width + levels * (width + 1));
        for (std::size_t i = 0; i < n; ++i) {
          ints t;
          for (int d = 0; d < width; ++d) t.push_back(uniform(-1000000, 1000000));
          e.push(std::span<const std::int64_t>(t));
          s.insert(s.end(), t.begin(), t.end());
          const std::size_t raw = e.count() * static_cast<std::size_t>(width);
          // Before judging: at most one run per tuple; after: within one run of
          // the kept fraction, or raw.
          if (e.count() < policy.judge_after) CHECK(e.size_in_ints() <= e.count() * run);
          else CHECK(e.size_in_ints() <= std::max(raw, static_cast<std::size_t>(policy.keep_fraction * raw) + run));
        }
        const srle done = e.finish();
        CAPTURE(width);
        CAPTURE(levels);
        CAPTURE(n);
        CHECK(done.decode() == s);
        const std::size_t raw = n * static_cast<std::size_t>(width);
        if (n >= policy.judge_after) {
          CHECK_FALSE(done.encoded());
          CHECK(done.size_in_ints() == raw);
        } else {
          CHECK(done.size_in_ints() <= n * run);
        }
      }
}

TEST_CASE("remap srle: a regular stream after an irregular start is judged early") {
  // 40 random tuples, then 10000 in order: given up at the start, raw after.
  std::mt19937_64 rng(5);
  ints s;
  for (int i = 0; i < 40; ++i) s.push_back(static_cast<std::int64_t>(rng() % 1000));
  for (int i = 0; i < 10000; ++i) s.push_back(i);
  const srle e = srle_encode(s, 1, 1);
  CHECK_FALSE(e.encoded());
  CHECK(e.flat() == s);
  // With no give-up, it would have been small.
  CHECK(encode(s, 1, 1).size_in_ints() < 100);
}

TEST_CASE("remap srle: NR keeps tuples raw") {
  ints pairs;
  for (std::int64_t j = 1; j <= 4; ++j)
    for (std::int64_t i = 1; i <= 4; ++i) pairs.insert(pairs.end(), {i, j});
  const srle s = srle_encode(pairs, 2, 2, srle_policy::raw());
  CHECK_FALSE(s.encoded());
  CHECK(s.flat() == pairs);
  CHECK(s.count() == 16);
  CHECK(s.runs() == 16);
  CHECK(s.size_in_ints() == 32);
  CHECK(s.decode() == pairs);
  srle_encoder e(2, 2, srle_policy::raw());
  CHECK_FALSE(e.encoding());
  CHECK_FALSE(srle_encode(ints{}, 2, 2, srle_policy::raw()).encoded());
}

TEST_CASE("remap srle: the encoder starts over after finish") {
  srle_encoder e(1, 2);
  for (std::int64_t i = 1; i <= 6; ++i) e.push(&i);
  const srle first = e.finish();
  CHECK(first.flat() == ints{1, 1, 6, 0, 1});
  CHECK(e.count() == 0);
  for (std::int64_t i = 10; i > 7; --i) e.push(&i);
  CHECK(e.finish().flat() == ints{10, -1, 3, 0, 1});
}

TEST_CASE("remap srle: bad widths, levels and tuples") {
  CHECK_THROWS_AS(srle_encoder(0, 1), std::invalid_argument);
  CHECK_THROWS_AS(srle_encoder(5, 1), std::invalid_argument);
  CHECK_THROWS_AS(srle_encoder(2, 0), std::invalid_argument);
  CHECK_THROWS_AS(srle_encoder(2, upc::remap::srle_max_levels + 1), std::invalid_argument);
  srle_encoder e(2, 2);
  CHECK_THROWS_AS(e.push(std::span<const std::int64_t>(ints{1, 2, 3})), std::invalid_argument);
  CHECK_THROWS_AS(srle_encode(ints{1, 2, 3}, 2, 2), std::invalid_argument);
  CHECK_THROWS_AS(srle_encode(ints{1, 2}, 2, 2).straight_offset(ints{1}), std::invalid_argument);
}

TEST_CASE("remap srle: straight_offset proves straight copies") {
  // A 4 x 5 array, 1-based, row-major: offset = 5 i + j (base not subtracted).
  const ints weights{5, 1};
  SUBCASE("a row-major traversal of whole rows is contiguous") {
    ints s;
    for (std::int64_t i = 2; i <= 4; ++i)
      for (std::int64_t j = 1; j <= 5; ++j) s.insert(s.end(), {i, j});
    for (int levels = 1; levels <= 3; ++levels) {
      const srle e = srle_encode(s, 2, levels);
      REQUIRE(e.encoded());
      CHECK(e.straight_offset(weights) == std::optional<std::int64_t>(11));
    }
    CHECK(srle_encode(s, 2, 2, srle_policy::raw()).straight_offset(weights) == std::optional<std::int64_t>(11));
    // A single row of a block; and a single element.
    CHECK(srle_encode(ints{3, 2, 3, 3, 3, 4}, 2, 2).straight_offset(weights) == std::optional<std::int64_t>(17));
    CHECK(srle_encode(ints{3, 2}, 2, 2).straight_offset(weights) == std::optional<std::int64_t>(17));
  }
  SUBCASE("a block narrower than the array is not") {
    ints s;
    for (std::int64_t i = 1; i <= 3; ++i)
      for (std::int64_t j = 2; j <= 4; ++j) s.insert(s.end(), {i, j});
    CHECK_FALSE(srle_encode(s, 2, 2).straight_offset(weights).has_value());
    CHECK_FALSE(srle_encode(s, 2, 1).straight_offset(weights).has_value());
  }
  SUBCASE("a transpose is not") {
    ints s;
    for (std::int64_t j = 1; j <= 5; ++j)
      for (std::int64_t i = 1; i <= 4; ++i) s.insert(s.end(), {i, j});
    CHECK_FALSE(srle_encode(s, 2, 2).straight_offset(weights).has_value());
    CHECK_FALSE(srle_encode(s, 2, 2, srle_policy::raw()).straight_offset(weights).has_value());
  }
  SUBCASE("a strided sequence is not") {
    CHECK_FALSE(srle_encode(ints{0, 2, 4, 6}, 1, 1).straight_offset(ints{1}).has_value());
    CHECK_FALSE(srle_encode(ints{6, 5, 4}, 1, 1).straight_offset(ints{1}).has_value());
    CHECK(srle_encode(ints{0, 2, 4, 6}, 1, 1).straight_offset(ints{-1}) == std::nullopt);
    // Reversed by the weight: 6, 5, 4 with weight -1 is -6, -5, -4.
    CHECK(srle_encode(ints{6, 5, 4}, 1, 1).straight_offset(ints{-1}) == std::optional<std::int64_t>(-6));
  }
}

TEST_CASE("remap srle: straight_offset agrees with a scan of the tuples") {
  std::mt19937_64 rng(1234);
  auto uniform = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  int straight = 0;
  for (int iteration = 0; iteration < 4000; ++iteration) {
    const int width = static_cast<int>(uniform(1, 4));
    // Row-major weights of a random array; tuples: row-major positions of a
    // random range of offsets, cut into pieces, sometimes disturbed.
    ints extent, weights(static_cast<std::size_t>(width));
    for (int d = 0; d < width; ++d) extent.push_back(uniform(1, 5));
    std::int64_t total = 1;
    for (int d = width - 1; d >= 0; --d) {
      weights[d] = total;
      total *= extent[d];
    }
    const std::int64_t first = uniform(0, total - 1), n = uniform(1, total - first);
    ints s;
    for (std::int64_t o = first; o < first + n; ++o) {
      std::int64_t rest = o;
      for (int d = 0; d < width; ++d) {
        s.push_back(rest / weights[d]);
        rest %= weights[d];
      }
    }
    switch (uniform(0, 3)) {
      case 0: break;
      case 1: s[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(s.size()) - 1))] += uniform(-1, 1); break;
      case 2: std::reverse(s.begin(), s.end()); break;  // width 1: the stream backwards; else scrambled
      case 3:
        if (s.size() >= static_cast<std::size_t>(2 * width))
          std::swap_ranges(s.begin(), s.begin() + width, s.end() - width);
        break;
    }
    const auto expected = straight_by_scan(s, weights);
    straight += expected.has_value();
    for (int levels = 1; levels <= 4; ++levels) {
      CAPTURE(iteration);
      CAPTURE(levels);
      CHECK(srle_encode(s, width, levels, srle_policy::never_give_up()).straight_offset(weights) == expected);
      CHECK(srle_encode(s, width, levels).straight_offset(weights) == expected);
    }
    CHECK(srle_encode(s, width, 1, srle_policy::raw()).straight_offset(weights) == expected);
  }
  CHECK(straight > 500);
}
