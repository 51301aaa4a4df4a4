// Work sharing (UPC 1.3 §6.6.2): upc_forall with integer, pointer-to-shared and
// element affinity, UPC_CONTINUE, nesting, and the C++ forms upc::forall_range and
// upc::my_indices. Every iteration is recorded in a shared tally; afterwards each
// one must have run exactly once overall, on the thread the spec names (or on every
// thread for UPC_CONTINUE).
#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../support/spmd.hpp"

namespace {

// hits[i*THREADS + t]: how often thread t ran iteration i. Element i*THREADS + t has
// affinity to thread t (block size 1), so each thread only writes its own elements.
class tally {
 public:
  explicit tally(std::size_t n) : n_(n), hits_(n * static_cast<std::size_t>(THREADS)) {}
  void record(std::size_t i) const {
    if (i >= n_) throw spmd::check_failed("iteration " + std::to_string(i) + " is outside [0, " + std::to_string(n_) + ")");
    hits_[i * static_cast<std::size_t>(THREADS) + static_cast<std::size_t>(MYTHREAD)] += 1;
  }
  // After a barrier: iteration i ran exactly once, on owner(i).
  void expect_owner(const std::function<std::size_t(std::size_t)>& owner, const char* what) const {
    upc_barrier;
    const std::size_t T = static_cast<std::size_t>(THREADS);
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t t = 0; t < T; ++t) {
        const int want = t == owner(i) ? 1 : 0;
        const int got = hits_[i * T + t];
        if (got != want)
          throw spmd::check_failed(std::string(what) + ": iteration " + std::to_string(i) + " ran " + std::to_string(got) +
                                   " times on thread " + std::to_string(t) + ", expected " + std::to_string(want) +
                                   " (THREADS " + std::to_string(T) + ", checked on thread " + std::to_string(MYTHREAD) + ")");
      }
    upc_barrier;
  }
  // After a barrier: iteration i ran exactly once on every thread.
  void expect_everywhere(const char* what) const {
    upc_barrier;
    const std::size_t T = static_cast<std::size_t>(THREADS);
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t t = 0; t < T; ++t)
        if (hits_[i * T + t] != 1)
          throw spmd::check_failed(std::string(what) + ": iteration " + std::to_string(i) + " ran " +
                                   std::to_string(static_cast<int>(hits_[i * T + t])) + " times on thread " + std::to_string(t));
    upc_barrier;
  }

 private:
  std::size_t n_;
  upc::shared_array<int> hits_;
};

std::size_t mod(long long a, std::size_t T) {
  const long long t = static_cast<long long>(T);
  return static_cast<std::size_t>(((a % t) + t) % t);
}

std::size_t owner_of(std::size_t i, std::size_t B, std::size_t T) { return B == 0 ? 0 : (i / B) % T; }

TEST_CASE("forall: integer affinity runs iteration i on thread (i mod THREADS), negative i included") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS);
    const std::pair<long, long> ranges[] = {{0, 3 * THREADS + 2}, {-37, 41}, {-2 * THREADS - 1, -1}, {5, 5}, {1000003, 1000003 + 2 * THREADS}};
    for (auto [begin, end] : ranges) {
      const std::size_t n = static_cast<std::size_t>(end > begin ? end - begin : 0);
      {
        tally t(n);
        upc_forall(long i = begin; i < end; i++, i) t.record(static_cast<std::size_t>(i - begin));
        t.expect_owner([&](std::size_t k) { return mod(begin + static_cast<long>(k), T); }, "affinity i");
      }
      {
        tally t(n);
        upc_forall(long i = begin; i < end; i++, 3 * i - 7) t.record(static_cast<std::size_t>(i - begin));
        t.expect_owner([&](std::size_t k) { return mod(3 * (begin + static_cast<long>(k)) - 7, T); }, "affinity 3*i-7");
      }
      {
        // Counting down.
        tally t(n);
        upc_forall(long i = end - 1; i >= begin; --i, i) t.record(static_cast<std::size_t>(i - begin));
        t.expect_owner([&](std::size_t k) { return mod(begin + static_cast<long>(k), T); }, "affinity i, descending");
      }
    }
    // Other integer types: char, unsigned, and unsigned values too big for a signed type.
    {
      tally t(20);
      upc_forall(signed char c = -10; c < 10; ++c, c) t.record(static_cast<std::size_t>(c + 10));
      t.expect_owner([&](std::size_t k) { return mod(static_cast<long>(k) - 10, T); }, "signed char affinity");
    }
    {
      tally t(20);
      upc_forall(std::size_t k = 0; k < 20; ++k, SIZE_MAX - k) t.record(k);
      t.expect_owner([&](std::size_t k) { return (SIZE_MAX - k) % T; }, "huge size_t affinity");
    }
    {
      tally t(20);
      upc_forall(unsigned k = 0; k < 20; ++k, UINT_MAX - k) t.record(k);
      t.expect_owner([&](std::size_t k) { return static_cast<std::size_t>((UINT_MAX - k) % T); }, "huge unsigned affinity");
    }
  });
}

template <std::size_t B>
void pointer_affinity(std::size_t n) {
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  upc::shared_array<int, B> x(n);
  {
    tally t(n);
    upc_forall(std::size_t i = 0; i < n; i++, &x[i]) {
      t.record(i);
      *static_cast<int*>(&x[i]) = static_cast<int>(me) + 1;  // local: this thread owns x[i]
    }
    t.expect_owner([&](std::size_t i) { return owner_of(i, B, T); }, "affinity &x[i]");
    for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<int>(x[i]), static_cast<int>(owner_of(i, B, T)) + 1);
  }
  {
    tally t(n);
    upc_forall(std::size_t i = 0; i < n; i++, x[i]) t.record(i);
    t.expect_owner([&](std::size_t i) { return owner_of(i, B, T); }, "affinity x[i]");
  }
  {
    // A pointer walking the array, and a generic pointer-to-shared.
    tally t(n);
    upc::sptr<int, B> p = x;
    upc_forall(std::size_t i = 0; i < n; i++, p + static_cast<std::ptrdiff_t>(i)) t.record(i);
    t.expect_owner([&](std::size_t i) { return owner_of(i, B, T); }, "affinity p+i");
  }
  {
    tally t(n);
    upc_forall(std::size_t i = 0; i < n; i++, upc::sptr<void>(&x[i])) t.record(i);
    t.expect_owner([&](std::size_t i) { return owner_of(i, B, T); }, "affinity (shared void *)&x[i]");
  }
  {
    // Backwards, with a stride.
    tally t(n);
    upc_forall(long i = static_cast<long>(n) - 1; i >= 0; i -= 2, &x[static_cast<std::size_t>(i)]) t.record(static_cast<std::size_t>(i));
    t.expect_owner([&](std::size_t i) { return (n - 1 - i) % 2 == 0 ? owner_of(i, B, T) : T; }, "affinity &x[i], step -2");
  }
  // my_indices(x): exactly the indices this thread owns, in increasing order.
  {
    std::vector<std::size_t> want, got;
    for (std::size_t i = 0; i < n; ++i)
      if (owner_of(i, B, T) == me) want.push_back(i);
    tally t(n);
    for (std::size_t i : upc::my_indices(x)) {
      got.push_back(i);
      t.record(i);
    }
    SPMD_CHECK(got == want);
    t.expect_owner([&](std::size_t i) { return owner_of(i, B, T); }, "my_indices(x)");
  }
}

template <std::size_t B>
void pointer_affinity_sizes() {
  const std::size_t T = static_cast<std::size_t>(THREADS), b = B == 0 ? 1 : B;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, T - 1, T + 1, b * T - 1, b * T, 2 * b * T + b / 2 + 3})
    pointer_affinity<B>(n);
}

TEST_CASE("forall: pointer and element affinity, and my_indices, for every block size") {
  spmd::run_everywhere([] {
    pointer_affinity_sizes<0>();
    pointer_affinity_sizes<1>();
    pointer_affinity_sizes<2>();
    pointer_affinity_sizes<3>();
    pointer_affinity_sizes<7>();
    pointer_affinity_sizes<64>();
  });
}

void inner_forall_in_a_function(const tally& t, std::size_t i, std::size_t K) {
  upc_forall(std::size_t j = 0; j < K; j++, j) t.record(i * K + j);
}

TEST_CASE("forall: UPC_CONTINUE, continue statements and nesting (UPC 1.3 §6.6.2)") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS);
    const std::size_t M = 2 * T + 1, K = T + 2;
    {
      tally t(M);
      upc_forall(std::size_t i = 0; i < M; i++, UPC_CONTINUE) t.record(i);
      t.expect_everywhere("UPC_CONTINUE");
    }
    {
      // A continue statement skips the rest of the body only.
      tally t(M);
      upc_forall(std::size_t i = 0; i < M; i++, i) {
        if (i % 3 == 1) continue;
        t.record(i);
      }
      t.expect_owner([&](std::size_t i) { return i % 3 == 1 ? T : i % T; }, "continue in the body");
    }
    {
      // Outer controls (integer affinity): the inner forall runs all its iterations.
      tally t(M * K);
      upc_forall(std::size_t i = 0; i < M; i++, i) {
        upc_forall(std::size_t j = 0; j < K; j++, j) t.record(i * K + j);
      }
      t.expect_owner([&](std::size_t p) { return (p / K) % T; }, "nested, outer integer affinity");
    }
    {
      // The same when the inner forall is reached through a function call.
      upc::shared_array<int> x(M);
      tally t(M * K);
      upc_forall(std::size_t i = 0; i < M; i++, &x[i]) inner_forall_in_a_function(t, i, K);
      t.expect_owner([&](std::size_t p) { return (p / K) % T; }, "nested through a call, outer pointer affinity");
    }
    {
      // An outer UPC_CONTINUE does not control: the inner forall (affinity j) does.
      tally t(M * K);
      upc_forall(std::size_t i = 0; i < M; i++, UPC_CONTINUE) {
        upc_forall(std::size_t j = 0; j < K; j++, j) t.record(i * K + j);
      }
      t.expect_owner([&](std::size_t p) { return (p % K) % T; }, "nested, outer UPC_CONTINUE");
    }
    {
      // Three levels: continue / integer (controls) / integer (runs everything).
      const std::size_t L = 3;
      tally t(M * K * L);
      upc_forall(std::size_t i = 0; i < M; i++, UPC_CONTINUE) {
        upc_forall(std::size_t j = 0; j < K; j++, j + 1) {
          upc_forall(std::size_t k = 0; k < L; k++, k) t.record((i * K + j) * L + k);
        }
      }
      t.expect_owner([&](std::size_t p) { return ((p / L) % K + 1) % T; }, "three levels");
    }
    {
      // After a nested forall, and after one left by an exception, a top-level forall
      // controls again.
      try {
        upc_forall(int i = 0; i < 10; i++, i) {
          upc_forall(int j = 0; j < 10; j++, j) {
            if (j == 3) throw 42;
          }
        }
      } catch (int) {
      }
      tally t(M);
      upc_forall(std::size_t i = 0; i < M; i++, i) t.record(i);
      t.expect_owner([&](std::size_t i) { return i % T; }, "forall after an exception");
    }
  });
}

TEST_CASE("forall: upc::forall_range covers each index once, on thread (i mod THREADS)") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
    const long t = THREADS;
    const std::pair<long, long> ranges[] = {{0, 3 * t + 1}, {-23, 17}, {5, 5}, {9, 3}, {-10, -3}, {7, 8}, {-1, 0}, {1, 2 * t + 1}};
    for (auto [begin, end] : ranges) {
      const std::size_t n = static_cast<std::size_t>(end > begin ? end - begin : 0);
      tally tl(n);
      long previous = LONG_MIN;
      for (long i : upc::forall_range(begin, end)) {
        SPMD_CHECK(i > previous);  // increasing
        previous = i;
        SPMD_CHECK(i >= begin && i < end);
        tl.record(static_cast<std::size_t>(i - begin));
      }
      tl.expect_owner([&](std::size_t k) { return mod(begin + static_cast<long>(k), T); }, "forall_range");
    }
    // A long range: count only.
    std::size_t mine = 0;
    for (long i : upc::forall_range(-50000, 50001)) {
      SPMD_CHECK_EQ(mod(i, T), me);
      ++mine;
    }
    std::size_t want = 0;
    for (long i = -50000; i < 50001; ++i) want += mod(i, T) == me;
    SPMD_CHECK_EQ(mine, want);
  });
}

}  // namespace
