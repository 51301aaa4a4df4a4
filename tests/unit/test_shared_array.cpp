// Shared arrays and scalars: namespace-scope objects (allocated and zero-filled
// before every run), shared scalars with initial values, strict objects,
// collectively declared arrays inside the program, bounds checks under --check,
// and the privatisation idiom of the thesis' Listing 2.1.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include "../support/spmd.hpp"

namespace {

struct point {  // 12 bytes: neither a power of two nor lock-free
  int x, y, z;
};

}  // namespace

// ---- namespace scope: every block size, sizes with and without THREADS ---------------
// (kept small: they are allocated in every run of this test binary)
upc::shared_array<int> sa_cyclic(upc::per_thread(5));                  // shared int a[5*THREADS];
upc::shared_array<int> sa_cyclic_fixed(11);                            // shared int a[11];
upc::shared_array<long, 2> sa_b2(upc::per_thread(3));                  // shared [2] long a[3*THREADS];
upc::shared_array<long, 2> sa_b2_fixed(9);                             // shared [2] long a[9];
upc::shared_array<short, 3> sa_b3(upc::per_thread(4));                 // shared [3] short a[4*THREADS];
upc::shared_array<short, 3> sa_b3_fixed(100);                          // shared [3] short a[100];
upc::shared_array<double, 7> sa_b7(upc::per_thread(7));                // shared [7] double a[7*THREADS];
upc::shared_array<double, 7> sa_b7_fixed(20);                          // shared [7] double a[20];
upc::shared_array<int, 64> sa_b64(upc::per_thread(64));                // shared [64] int a[64*THREADS];
upc::shared_array<int, 64> sa_b64_fixed(130);                          // shared [64] int a[130];
upc::shared_array<int, upc::indefinite> sa_indef(upc::per_thread(3));  // shared [] int a[3*THREADS];
upc::shared_array<char, upc::indefinite> sa_indef_fixed(50);           // shared [] char a[50];
upc::shared_array<point> sa_points([] { return 2 * static_cast<std::size_t>(THREADS) + 1; });
upc::shared<int> sa_answer(42);                                        // shared int answer = 42;
upc::shared<long> sa_counter;                                          // shared long counter;
upc::shared<point> sa_origin(point{1, -2, 3});
upc::strict_shared<int> sa_flag;                                       // strict shared int flag;
upc::strict_shared_array<long> sa_strict_data(upc::per_thread(4));     // strict shared long a[4*THREADS];
// Tiny, except in the one test that makes it too big for the heap.
bool sa_make_huge = false;
upc::shared_array<char, 16> sa_sometimes_huge([] { return sa_make_huge ? std::size_t{64} << 20 : std::size_t{1}; });

namespace {

std::size_t owner_of(std::size_t i, std::size_t B, std::size_t T) { return B == 0 ? 0 : (i / B) % T; }

template <class E>
E value_for(std::size_t i) {
  if constexpr (std::is_same_v<E, point>) {
    return point{static_cast<int>(i), -static_cast<int>(i), static_cast<int>(i * i)};
  } else {
    return static_cast<E>(i % 100 + 1);
  }
}
template <class E>
bool equal(const E& a, const E& b) {
  return std::memcmp(&a, &b, sizeof(E)) == 0;
}

// Zero at the start of the run; each owner writes its elements; everybody sees them.
template <class E, std::size_t B, upc::consistency C>
void check_declared(const upc::shared_array<E, B, C>& a, std::size_t expected_size, const char* name) {
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  if (a.size() != expected_size)
    throw spmd::check_failed(std::string(name) + ": size " + std::to_string(a.size()) + ", expected " + std::to_string(expected_size));
  SPMD_CHECK_EQ(upc_threadof(a.data()), 0u);
  SPMD_CHECK_EQ(upc_blocksizeof(a), B);
  SPMD_CHECK_EQ(upc_elemsizeof(a), sizeof(E));
  for (std::size_t t = 0; t < T; ++t) SPMD_CHECK(upc_affinitysize(a.size() * sizeof(E), B * sizeof(E), t) <= upc_localsizeof(a));
  const E zero{};
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!equal<E>(a[i], zero)) throw spmd::check_failed(std::string(name) + ": element " + std::to_string(i) + " is not zero at the start of the run");
  upc_barrier;
  for (std::size_t i = 0; i < a.size(); ++i) {
    SPMD_CHECK_EQ(upc_threadof(&a[i]), owner_of(i, B, T));
    if (owner_of(i, B, T) == me) a[i] = value_for<E>(i);
  }
  upc_barrier;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!equal<E>(a[i], value_for<E>(i))) throw spmd::check_failed(std::string(name) + ": element " + std::to_string(i) + " has the wrong value");
  upc_barrier;
}

TEST_CASE("shared_array: namespace-scope arrays of every block size are zero-filled and shared by all threads") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS);
    check_declared(sa_cyclic, 5 * T, "sa_cyclic");
    check_declared(sa_cyclic_fixed, 11, "sa_cyclic_fixed");
    check_declared(sa_b2, 3 * T, "sa_b2");
    check_declared(sa_b2_fixed, 9, "sa_b2_fixed");
    check_declared(sa_b3, 4 * T, "sa_b3");
    check_declared(sa_b3_fixed, 100, "sa_b3_fixed");
    check_declared(sa_b7, 7 * T, "sa_b7");
    check_declared(sa_b7_fixed, 20, "sa_b7_fixed");
    check_declared(sa_b64, 64 * T, "sa_b64");
    check_declared(sa_b64_fixed, 130, "sa_b64_fixed");
    check_declared(sa_indef, 3 * T, "sa_indef");
    check_declared(sa_indef_fixed, 50, "sa_indef_fixed");
    check_declared(sa_points, 2 * T + 1, "sa_points");
    check_declared(sa_strict_data, 4 * T, "sa_strict_data");
    // The sizeof family on declared arrays (upc_localsizeof: whole rows of blocks).
    SPMD_CHECK_EQ(upc_localsizeof(sa_cyclic), 5 * sizeof(int));
    SPMD_CHECK_EQ(upc_localsizeof(sa_b64), 64 * sizeof(int));
    SPMD_CHECK_EQ(upc_localsizeof(sa_b64_fixed), (3 + T - 1) / T * 64 * sizeof(int));
    SPMD_CHECK_EQ(upc_localsizeof(sa_indef_fixed), 50u);
    SPMD_CHECK_EQ(upc_blocksizeof(sa_indef_fixed), 0u);
    // Different objects never overlap.
    SPMD_CHECK(upc_addrfield(sa_cyclic.data()) != upc_addrfield(sa_cyclic_fixed.data()));
    // They are not heap memory.
    bool threw = false;
    try {
      upc_free(sa_b2.data());
    } catch (const upc::error& e) {
      threw = true;
      SPMD_CHECK(std::string(e.what()).find("upc_free") != std::string::npos);
    }
    SPMD_CHECK(threw);
    upc_barrier;
  });
}

TEST_CASE("shared_array: shared scalars have affinity to thread 0 and their initial value in every run") {
  spmd::run_everywhere([] {
    SPMD_CHECK_EQ(static_cast<int>(sa_answer), 42);
    SPMD_CHECK_EQ(sa_answer.get(), 42);
    SPMD_CHECK_EQ(static_cast<long>(sa_counter), 0L);
    SPMD_CHECK(equal<point>(sa_origin, point{1, -2, 3}));
    SPMD_CHECK_EQ(static_cast<int>(sa_flag), 0);
    SPMD_CHECK_EQ(upc_threadof(&sa_answer), 0u);
    SPMD_CHECK_EQ(upc_threadof(&sa_counter), 0u);
    SPMD_CHECK_EQ(upc_threadof(&sa_origin), 0u);
    SPMD_CHECK(&sa_answer != nullptr);
    SPMD_CHECK_EQ(upc_localsizeof(sa_origin), sizeof(point));
    SPMD_CHECK_EQ(upc_blocksizeof(sa_origin), 1u);
    SPMD_CHECK_EQ(upc_elemsizeof(sa_counter), sizeof(long));
    upc_barrier;
    if (MYTHREAD == THREADS - 1) {
      sa_answer = 7;
      sa_answer += 3;  // 10
      ++sa_answer;     // 11
      SPMD_CHECK_EQ(sa_answer++, 11);
      sa_answer *= 2;  // 24
      sa_answer -= 1;  // 23
      sa_counter.put(-5);
      sa_origin = point{4, 5, 6};
    }
    upc_barrier;
    SPMD_CHECK_EQ(static_cast<int>(sa_answer), 23);
    SPMD_CHECK_EQ(static_cast<long>(*(&sa_counter)), -5L);
    SPMD_CHECK(equal<point>(sa_origin, point{4, 5, 6}));
    if (MYTHREAD == 0) SPMD_CHECK_EQ(*static_cast<int*>(&sa_answer), 23);  // local to thread 0
    upc_barrier;
  });
}

TEST_CASE("shared_array: a strict flag publishes relaxed data written before it") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        // Relaxed data in a namespace-scope array, written by thread 0, then the flag.
        if (MYTHREAD == 0) {
          for (std::size_t i = 0; i < sa_cyclic.size(); ++i) sa_cyclic[i] = static_cast<int>(1000 + i);
          sa_flag = 1;
        } else if (MYTHREAD == THREADS - 1) {
          while (sa_flag == 0) std::this_thread::yield();
          for (std::size_t i = 0; i < sa_cyclic.size(); ++i) SPMD_CHECK_EQ(static_cast<int>(sa_cyclic[i]), static_cast<int>(1000 + i));
        }
        upc_barrier;
        // A strict array element as a flag, written by the last thread.
        upc::strict_shared_array<int> flags(upc::per_thread(1));
        upc::shared_array<long, 4> data(4 * T);
        if (MYTHREAD == THREADS - 1) {
          for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<long>(i) * 3;
          for (std::size_t t = 0; t < T; ++t) flags[t] = 1;
        }
        while (flags[MYTHREAD] == 0) std::this_thread::yield();
        for (std::size_t i = 0; i < data.size(); ++i) SPMD_CHECK_EQ(static_cast<long>(data[i]), static_cast<long>(i) * 3);
        upc_barrier;
      },
      {1, 2, 5, 8});
}

// Arrays declared inside the program: collective, zero-filled, freed at the end of
// their scope (so the same space comes back each time round).
template <class E, std::size_t B>
void declared_in_body(std::size_t n) {
  std::uint64_t first_offset = 0;
  for (int round = 0; round < 20; ++round) {
    upc::shared_array<E, B> a(n);
    SPMD_CHECK_EQ(a.size(), n);
    if (round == 0) first_offset = upc_addrfield(a.data());
    SPMD_CHECK_EQ(upc_addrfield(a.data()), first_offset);
    check_declared(a, n, "array declared in the body");  // zero-filled although the space is reused
  }
}

TEST_CASE("shared_array: arrays declared in the program body, every block size, collectively allocated and freed") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS);
    declared_in_body<int, 0>(23);
    declared_in_body<int, 1>(3 * T + 1);
    declared_in_body<long, 2>(5 * T);
    declared_in_body<point, 3>(3 * T + 2);
    declared_in_body<short, 7>(7 * T - 1);
    declared_in_body<int, 64>(64 * T + 3);
    declared_in_body<double, 64>(5);
    {
      upc::shared_array<int> sized([] { return static_cast<std::size_t>(THREADS) * 2 + 3; });
      SPMD_CHECK_EQ(sized.size(), 2 * T + 3);
      upc::shared<int> s;
      upc::shared<int> s7(7);
      SPMD_CHECK_EQ(static_cast<int>(s), 0);
      SPMD_CHECK_EQ(static_cast<int>(s7), 7);
      SPMD_CHECK_EQ(upc_threadof(&s7), 0u);
      upc_barrier;  // everybody has read s7 before anybody changes it
      if (MYTHREAD == THREADS - 1) s7 = 8;
      upc_barrier;
      SPMD_CHECK_EQ(static_cast<int>(s7), 8);
      upc_barrier;
    }
  });
}

TEST_CASE("shared_array: shared element references read, write and update the owner's element") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        upc::shared_array<long, 3> a(3 * T);
        // Each thread updates the elements of its right neighbour.
        const std::size_t right = (me + 1) % T;
        for (std::size_t k = 0; k < 3; ++k) {
          const auto r = a[right * 3 + k];
          SPMD_CHECK_EQ(upc_threadof(&r), right);
          r = 10;
          r += 5;
          r -= 1;
          r *= 3;   // 42
          r /= 2;   // 21
          r %= 8;   // 5
          r <<= 2;  // 20
          r >>= 1;  // 10
          r |= 1;   // 11
          r &= 7;   // 3
          r ^= 6;   // 5
          ++r;
          r++;      // 7
          --r;      // 6
          SPMD_CHECK_EQ(r--, 6L);
          SPMD_CHECK_EQ(static_cast<long>(r), 5L);
        }
        upc_barrier;
        // Assignment from another element (a copy of the value, not of the reference).
        a[me * 3 + 1] = a[me * 3 + 2];
        upc_barrier;
        for (std::size_t i = 0; i < a.size(); ++i) SPMD_CHECK_EQ(static_cast<long>(a[i]), 5L);
        // Reading through a pointer to const.
        const upc::sptr<const long, 3> c = a.data();
        SPMD_CHECK_EQ(static_cast<long>(c[static_cast<std::ptrdiff_t>(a.size() - 1)]), 5L);
        upc_barrier;
      },
      {1, 3, 4});
}

TEST_CASE("shared_array: out-of-bounds indexing under --check is a clear error") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    upc::launch_options o = spmd::options(3, b);
    o.check = true;
    upc::run_result r = upc::run(o, [] {
      upc::shared_array<int, 2> a(7);
      SPMD_CHECK_EQ(static_cast<int>(a[6]), 0);  // the last element is fine
      bool threw = false;
      try {
        (void)static_cast<int>(a[7]);
      } catch (const upc::error& e) {
        threw = true;
        const std::string w = e.what();
        SPMD_CHECK(w.find("shared_array[]") != std::string::npos);
        SPMD_CHECK(w.find("index 7 is out of bounds") != std::string::npos);
        SPMD_CHECK(w.find("of 7 elements") != std::string::npos);
        SPMD_CHECK(w.find("(thread " + std::to_string(MYTHREAD) + ")") != std::string::npos);
      }
      SPMD_CHECK(threw);
      threw = false;
      try {
        sa_cyclic[sa_cyclic.size()] = 1;  // namespace-scope arrays too
      } catch (const upc::error& e) {
        threw = true;
        SPMD_CHECK(std::string(e.what()).find("index " + std::to_string(sa_cyclic.size()) + " is out of bounds") != std::string::npos);
      }
      SPMD_CHECK(threw);
      upc_barrier;
    });
    INFO("backend=", std::string(spmd::name(b)), " error: ", r.error);
    CHECK(r.ok());
    // Uncaught, the run stops and the report names the function, index and thread.
    r = upc::run(o, [] {
      upc::shared_array<double, 64> a(static_cast<std::size_t>(THREADS) * 64);
      if (MYTHREAD == 1) a[static_cast<std::size_t>(THREADS) * 64 + 5] = 1.0;
      upc_barrier;
    });
    INFO("error: ", r.error);
    CHECK(r.failed);
    CHECK(r.failed_thread == 1);
    CHECK(r.error.find("shared_array[]: index 197 is out of bounds for a shared array of 192 elements (thread 1)") != std::string::npos);
  }
}

// Thesis Listing 2.1: every thread sums the elements of x with affinity to it, with
// upc_forall over &x[i], and with a private pointer to its first element.
template <std::size_t B>
void privatised_sum(std::size_t rows) {
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  const std::size_t N = rows * B * T;
  upc::shared_array<int, B> x(N);
  upc::shared_array<long> shared_sums(upc::per_thread(1)), private_sums(upc::per_thread(1));
  upc_forall(std::size_t i = 0; i < N; i++, &x[i]) x[i] = static_cast<int>(i % 1000) + 1;
  upc_barrier;
  long accum = 0;
  upc_forall(std::size_t i = 0; i < N; i++, &x[i]) accum += x[i];
  int* x_local = static_cast<int*>(&x[me * B]);  // (int *)&x[MYTHREAD*B]
  long local_accum = 0;
  for (std::size_t i = 0; i < rows * B; ++i) local_accum += x_local[i];
  SPMD_CHECK_EQ(local_accum, accum);
  SPMD_CHECK_EQ(upc_affinitysize(N * sizeof(int), B * sizeof(int), me), rows * B * sizeof(int));
  // The k-th local element is global element ((k/B)*THREADS + MYTHREAD)*B + k%B.
  for (std::size_t k = 0; k < rows * B; ++k) SPMD_CHECK_EQ(x_local[k], static_cast<int>(x[((k / B) * T + me) * B + k % B]));
  shared_sums[me] = accum;
  private_sums[me] = local_accum;
  upc_barrier;
  long total = 0, total_private = 0;
  for (std::size_t t = 0; t < T; ++t) total += shared_sums[t], total_private += private_sums[t];
  long want = 0;
  for (std::size_t i = 0; i < N; ++i) want += static_cast<long>(i % 1000) + 1;
  SPMD_CHECK_EQ(total, want);
  SPMD_CHECK_EQ(total_private, want);
  upc_barrier;
}

TEST_CASE("shared_array: the privatisation idiom (thesis Listing 2.1) gives the same sums as the shared loop") {
  spmd::run_everywhere([] {
    privatised_sum<1>(1);
    privatised_sum<5>(1);
    privatised_sum<64>(1);
    privatised_sum<3>(4);
    privatised_sum<7>(2);
  });
}

TEST_CASE("shared_array: a namespace-scope array too big for the heap stops the run before it starts") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    upc::launch_options o = spmd::options(2, b);
    o.heap_per_thread = 1u << 20;
    sa_make_huge = true;
    bool body_ran = false;
    const upc::run_result r = upc::run(o, [&] { body_ran = true; });
    sa_make_huge = false;
    INFO("backend=", std::string(spmd::name(b)), " error: ", r.error);
    CHECK(r.failed);
    CHECK(r.exit_code != 0);
    CHECK(!body_ran);
    CHECK(r.error.find("shared_array") != std::string::npos);
    CHECK(r.error.find("out of shared memory") != std::string::npos);
    // The next run is fine again.
    CHECK(upc::run(o, [] { SPMD_CHECK_EQ(sa_sometimes_huge.size(), 1u); }).ok());
  }
}

TEST_CASE("shared_array: under --check, an array declared with different sizes on different threads is reported") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    upc::launch_options o = spmd::options(3, b);
    o.check = true;
    const upc::run_result r = upc::run(o, [] {
      upc::shared_array<int, 2> a(MYTHREAD == 2 ? 10 : 12);
      upc_barrier;
    });
    INFO("backend=", std::string(spmd::name(b)), " error: ", r.error);
    CHECK(r.failed);
    CHECK(r.failed_thread == 2);
    CHECK(r.error.find("shared_array") != std::string::npos);
    CHECK(r.error.find("single-valued") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("shared arrays and shared pointers convert to shared void * like in UPC") {
  spmd::run_everywhere([] {
    upc::shared_array<int> x(upc::per_thread(1));
    x[MYTHREAD] = 100 + MYTHREAD;
    upc_barrier;
    int first = -1;
    upc_memget(&first, x, sizeof first);  // the array itself, as in UPC
    SPMD_CHECK_EQ(first, 100);

    upc::shared_array<upc::sptr<int, upc::indefinite>> ptrs(upc::per_thread(1));
    ptrs[MYTHREAD] = upc::sptr<int, upc::indefinite>(upc_alloc(sizeof(int)));
    upc_barrier;
    if (MYTHREAD == 0)
      for (int t = 0; t < THREADS; ++t) upc_free(ptrs[t]);  // a pointer read from shared memory
    upc_barrier;
  }, {1, 3});
}
