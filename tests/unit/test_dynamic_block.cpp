// Block sizes fixed when the program runs (issue 8, friction: no `[*]` and no block
// size computed from THREADS): shared [*] arrays (upc::star), arrays and pointers
// with upc::dynamic_block, and the conversions between static and dynamic block
// pointers. Layouts are checked against UPC's formulas written here
// (thread = (i/B) % THREADS, phase = i % B, local = ((i/B)/THREADS)*B + i%B) and
// [*]'s block size ceil(N / THREADS) (UPC 1.3 §6.5.1.1), not against the code
// under test.
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "../support/spmd.hpp"

namespace {

// A static block size stays free; a dynamic one is stored next to the address.
static_assert(sizeof(upc::sptr<int, 4>) == 16 && sizeof(upc::sptr<double>) == 16 &&
              sizeof(upc::sptr<char, upc::indefinite>) == 16);
static_assert(sizeof(upc::shared_ref<int, 4>) == 16);
static_assert(sizeof(upc::sptr<int, upc::dynamic_block>) == 24);
// Conversions: static -> dynamic is lossless (implicit); dynamic -> static is a cast.
static_assert(std::is_convertible_v<upc::sptr<int, 4>, upc::sptr<int, upc::dynamic_block>>);
static_assert(std::is_convertible_v<upc::sptr<int, upc::indefinite>, upc::sptr<const int, upc::dynamic_block>>);
static_assert(!std::is_convertible_v<upc::sptr<int, upc::dynamic_block>, upc::sptr<int, 4>>);
static_assert(std::is_constructible_v<upc::sptr<int, 4>, upc::sptr<int, upc::dynamic_block>>);
static_assert(!std::is_convertible_v<upc::sptr<const int, 4>, upc::sptr<int, upc::dynamic_block>>);
static_assert(std::is_constructible_v<upc::sptr<int, upc::dynamic_block>, upc::sptr<void>, std::size_t>);
// [*] and dynamic arrays give dynamic-block pointers and elements.
static_assert(std::is_same_v<upc::shared_array<int, upc::star>::pointer, upc::sptr<int, upc::dynamic_block>>);
static_assert(std::is_same_v<upc::shared_array2d<int, upc::star>::reference, upc::shared_ref<int, upc::dynamic_block>>);

struct place {
  std::size_t thread, phase, local;
};
place expected_place(std::size_t i, std::size_t B, std::size_t T) {
  if (B == 0) return {0, 0, i};
  return {(i / B) % T, i % B, ((i / B) / T) * B + i % B};
}
std::size_t star_block(std::size_t n, std::size_t T) { return (n + T - 1) / T; }
std::size_t localsize_closed(std::size_t n, std::size_t B, std::size_t T, std::size_t E) {
  if (B == 0) return n * E;
  const std::size_t blocks = (n + B - 1) / B;
  return (blocks + T - 1) / T * B * E;
}

template <class P>
void check_place(const P& p, const upc::sptr<void>& base, std::size_t i, std::size_t B, std::size_t E) {
  const place w = expected_place(i, B, static_cast<std::size_t>(THREADS));
  if (upc_threadof(p) != w.thread || upc_phaseof(p) != w.phase || upc_addrfield(p) != upc_addrfield(base) + w.local * E)
    throw spmd::check_failed("element " + std::to_string(i) + " (B=" + std::to_string(B) + ", THREADS=" +
                             std::to_string(THREADS) + ") is (thread " + std::to_string(upc_threadof(p)) + ", phase " +
                             std::to_string(upc_phaseof(p)) + ", +" + std::to_string(upc_addrfield(p) - upc_addrfield(base)) +
                             "), expected (" + std::to_string(w.thread) + ", " + std::to_string(w.phase) + ", +" +
                             std::to_string(w.local * E) + ") on thread " + std::to_string(MYTHREAD));
}

// Pointer walks through an array of n elements with block B held in a
// dynamic-block pointer: every p + k, p - q, ++, -- and comparison.
void dynamic_pointer_arithmetic(const upc::sptr<long, upc::dynamic_block>& p, std::size_t n, std::size_t B) {
  const std::ptrdiff_t b = static_cast<std::ptrdiff_t>(B ? B : 5), t = THREADS;
  const std::ptrdiff_t steps[] = {0, 1, 2, b - 1, b, b + 1, b * t - 1, b * t, b * t + 1, 2 * b * t + 3};
  SPMD_CHECK_EQ(p.block(), B);
  SPMD_CHECK_EQ(upc_blocksizeof(p), B);
  upc::sptr<long, upc::dynamic_block> w = p;
  for (std::size_t i = 0; i <= n; ++i) {
    const upc::sptr<long, upc::dynamic_block> q = p + static_cast<std::ptrdiff_t>(i);
    check_place(q, p, i, B, sizeof(long));
    SPMD_CHECK(w == q);
    if (i < n) ++w;
    SPMD_CHECK_EQ(q - p, static_cast<std::ptrdiff_t>(i));
    for (std::ptrdiff_t s : steps)
      for (std::ptrdiff_t k : {s, -s}) {
        const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) + k;
        if (j < 0 || j > static_cast<std::ptrdiff_t>(n)) continue;
        check_place(q + k, p, static_cast<std::size_t>(j), B, sizeof(long));
        SPMD_CHECK_EQ((q + k) - q, k);
        SPMD_CHECK_EQ(q + k < q, k < 0);
      }
  }
  for (std::size_t i = n; i > 0; --i) check_place(--w, p, i - 1, B, sizeof(long));
}

// shared [*] long a[n]: block ceil(n / THREADS), everything else as for a static block.
void star_array(std::size_t n) {
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  const std::size_t B = star_block(n, T);
  upc::shared_array<long, upc::star> a(n);
  SPMD_CHECK_EQ(a.size(), n);
  SPMD_CHECK_EQ(upc_blocksizeof(a), B);
  SPMD_CHECK_EQ(upc_blocksizeof(a.data()), B);
  SPMD_CHECK_EQ(upc_localsizeof(a), localsize_closed(n, B, T, sizeof(long)));
  const upc::sptr<void> base = a;
  for (std::size_t i = 0; i < n; ++i) {
    check_place(&a[i], base, i, B, sizeof(long));
    SPMD_CHECK_EQ(upc_blocksizeof(a[i]), B);
    if (upc_threadof(&a[i]) == me) a[i] = static_cast<long>(i) * 3;
  }
  dynamic_pointer_arithmetic(a.data(), n, B);
  upc_barrier;
  std::vector<std::size_t> mine;
  for (std::size_t i : upc::my_indices(a)) mine.push_back(i);
  std::vector<std::size_t> want;
  for (std::size_t i = 0; i < n; ++i)
    if (expected_place(i, B, T).thread == me) want.push_back(i);
  SPMD_CHECK(mine == want);
  std::size_t ran = 0;
  upc_forall (std::size_t i = 0; i < n; i++, &a[i]) {
    SPMD_CHECK_EQ(static_cast<long>(a[i]), static_cast<long>(i) * 3);
    ++ran;
  }
  SPMD_CHECK_EQ(ran, want.size());
  // [*] is the layout in which every thread's elements are one contiguous run.
  if (!want.empty()) {
    long* l = static_cast<long*>(&a[want.front()]);
    for (std::size_t k = 0; k < want.size(); ++k) SPMD_CHECK_EQ(l[k], static_cast<long>(want[k]) * 3);
  }
  upc_barrier;
}

// shared [*] int w[R][C]: the block counts the elements of both dimensions.
void star_matrix(std::size_t R, std::size_t C) {
  const std::size_t T = static_cast<std::size_t>(THREADS);
  const std::size_t B = star_block(R * C, T);
  upc::shared_array2d<int, upc::star> w(R, C);
  SPMD_CHECK_EQ(upc_blocksizeof(w), B);
  const upc::sptr<void> base = w;
  for (std::size_t i = 0; i < R; ++i) {
    check_place(upc::sptr<int, upc::dynamic_block>(w[i]), base, i * C, B, sizeof(int));
    for (std::size_t j = 0; j < C; ++j) check_place(&w[i][j], base, i * C + j, B, sizeof(int));
  }
  upc_barrier;
}

// shared_array<T, upc::dynamic_block>: the block size is any run-time value.
void dynamic_array(std::size_t n, std::size_t B) {
  const std::size_t T = static_cast<std::size_t>(THREADS);
  upc::shared_array<long, upc::dynamic_block> d(n, upc::block(B));
  SPMD_CHECK_EQ(upc_blocksizeof(d), B);
  SPMD_CHECK_EQ(upc_localsizeof(d), localsize_closed(n, B, T, sizeof(long)));
  const upc::sptr<void> base = d;
  for (std::size_t i = 0; i < n; ++i) check_place(&d[i], base, i, B, sizeof(long));
  dynamic_pointer_arithmetic(d.data(), n, B);
  upc_barrier;
}

}  // namespace

TEST_CASE("[*]: shared [*] T a[N] has block size ceil(N / THREADS), for one and two dimensions") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        for (std::size_t n : {std::size_t{1}, T, T + 1, 3 * T - 1, 3 * T, 10 * T + 7, std::size_t{37}}) star_array(n);
        star_array(0);
        star_matrix(3, 5);
        star_matrix(T, 4);
        star_matrix(2 * T + 1, 3);
      },
      {1, 2, 3, 4, 5, 7, 8});
}

TEST_CASE("dynamic_block: arrays and pointers with a run-time block size follow UPC's layout exactly") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        for (std::size_t B : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, 2 * T + 1})
          dynamic_array(3 * (B ? B : 1) * T + 2, B);
        dynamic_array(5, 64);
        // A block size computed from THREADS when the array is declared.
        upc::shared_array<int, upc::dynamic_block> e(upc::per_thread(6), upc::block([] { return 3 * THREADS; }));
        SPMD_CHECK_EQ(upc_blocksizeof(e), 3 * T);
        SPMD_CHECK_EQ(upc_threadof(&e[3 * T]), 1 % T);
        // Memory from upc_all_alloc with a block size chosen at run time.
        const std::size_t b = T + 2;
        upc::sptr<long, upc::dynamic_block> p(upc_all_alloc(2 * T, b * sizeof(long)), b);
        dynamic_pointer_arithmetic(p, 2 * T * b, b);
        upc_barrier;
        upc_all_free(p);
      },
      {1, 2, 3, 4, 7});
}

// Namespace scope: the block size is computed when the run starts.
upc::shared_array<int, upc::star> db_star(upc::per_thread(5));                         // shared [*] int s[5*THREADS];
upc::shared_array<short, upc::dynamic_block> db_dyn(40, upc::block([] { return 2 + static_cast<std::size_t>(THREADS); }));

TEST_CASE("[*] and dynamic_block arrays at namespace scope get their block size when the run starts") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        SPMD_CHECK_EQ(upc_blocksizeof(db_star), 5u);  // 5*THREADS elements: 5 per thread
        for (std::size_t i = 0; i < 5 * T; ++i) SPMD_CHECK_EQ(upc_threadof(&db_star[i]), i / 5);
        SPMD_CHECK_EQ(upc_blocksizeof(db_dyn), T + 2);
        for (std::size_t i = 0; i < 40; ++i) {
          SPMD_CHECK_EQ(upc_threadof(&db_dyn[i]), expected_place(i, T + 2, T).thread);
          SPMD_CHECK_EQ(static_cast<short>(db_dyn[i]), 0);
        }
        upc_barrier;
        if (me == 0) db_dyn[39] = 1;
        upc_barrier;
        SPMD_CHECK_EQ(static_cast<short>(db_dyn[39]), 1);
        upc_barrier;
        if (me == 0) db_dyn[39] = 0;
      },
      {1, 2, 5});
}

TEST_CASE("dynamic_block: conversions and casts between static and dynamic block pointers (UPC 1.3 §6.4.3)") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        upc::shared_array<int, 4> a(8 * T);
        const upc::sptr<int, 4> s = &a[6];  // phase 2
        // static -> dynamic keeps block size and phase.
        const upc::sptr<int, upc::dynamic_block> d = s;
        SPMD_CHECK_EQ(d.block(), 4u);
        SPMD_CHECK_EQ(upc_phaseof(d), 2u);
        SPMD_CHECK(d + 5 == s + 5);
        SPMD_CHECK(d == s);
        // dynamic -> static with the same block size keeps the phase...
        const upc::sptr<int, 4> back(d);
        SPMD_CHECK_EQ(upc_phaseof(back), 2u);
        SPMD_CHECK(back + 9 == s + 9);
        // ... and with another block size, as any cast between block sizes, resets it.
        SPMD_CHECK_EQ(upc_phaseof(upc::sptr<int, 8>(d)), 0u);
        SPMD_CHECK_EQ(upc_phaseof(d.cast<int, 8>()), 0u);
        SPMD_CHECK_EQ(upc_phaseof(d.cast<int, 4>()), 2u);
        SPMD_CHECK_EQ(upc_phaseof(d.cast<unsigned>(4)), 2u);     // same block and element size
        SPMD_CHECK_EQ(upc_phaseof(d.cast<int>(5)), 0u);           // other block size
        SPMD_CHECK_EQ(d.cast<int>(5).block(), 5u);
        SPMD_CHECK_EQ(upc_phaseof(d.cast<char, upc::dynamic_block>()), 0u);  // other element size
        SPMD_CHECK_EQ((d.cast<char, upc::dynamic_block>().block()), 4u);
        SPMD_CHECK_EQ(upc_phaseof(s.cast<int, upc::dynamic_block>()), 2u);
        // shared void * <-> dynamic: the block size must be given; the phase is kept when it fits.
        const upc::sptr<void> v = d;
        SPMD_CHECK_EQ(upc_phaseof(v), 2u);
        SPMD_CHECK_EQ(upc_phaseof(upc::sptr<int, upc::dynamic_block>(v, 4)), 2u);
        SPMD_CHECK_EQ(upc_phaseof(upc::sptr<int, upc::dynamic_block>(v, 2)), 0u);
        SPMD_CHECK_EQ(upc_phaseof(upc::sptr<int, upc::dynamic_block>(v, 1)), 0u);
        // upc_resetphase keeps the block size.
        SPMD_CHECK_EQ(upc_resetphase(d).block(), 4u);
        SPMD_CHECK_EQ(upc_phaseof(upc_resetphase(d)), 0u);
        // Other consistency and const.
        const upc::sptr<const int, upc::dynamic_block, upc::strict> c = d;
        SPMD_CHECK_EQ(c.block(), 4u);
        SPMD_CHECK_EQ(upc_phaseof(c), 2u);
        // An element of a dynamic array converts to a static pointer of its block size.
        upc::shared_array<int, upc::dynamic_block> e(8 * T, upc::block(4));
        const upc::sptr<int, 4> es(&e[6]);
        SPMD_CHECK_EQ(upc_phaseof(es), 2u);
        upc_barrier;
      },
      {1, 2, 3});
}

TEST_CASE("dynamic_block: a block size above UPC_MAX_BLOCK_SIZE, or one that differs between threads under --check, is an error") {
  spmd::run_everywhere(
      [] {
        const upc::sptr<void> v = upc_all_alloc(static_cast<std::size_t>(THREADS), 8);
        SPMD_CHECK_ERROR((upc::sptr<char, upc::dynamic_block>(v, UPC_MAX_BLOCK_SIZE + 1)), "exceeds UPC_MAX_BLOCK_SIZE");
        SPMD_CHECK_ERROR((void)(upc::sptr<char, upc::dynamic_block>(v, 8).cast<char>(UPC_MAX_BLOCK_SIZE * 2)),
                         "exceeds UPC_MAX_BLOCK_SIZE");
        SPMD_CHECK_ERROR((upc::shared_array<char, upc::dynamic_block>(10, upc::block(UPC_MAX_BLOCK_SIZE + 1))),
                         "exceeds UPC_MAX_BLOCK_SIZE (4294967296)");
        const upc::sptr<char, upc::dynamic_block> biggest(v, UPC_MAX_BLOCK_SIZE);  // the limit itself is fine
        SPMD_CHECK_EQ(upc_phaseof(biggest + static_cast<std::ptrdiff_t>(UPC_MAX_BLOCK_SIZE - 1)), UPC_MAX_BLOCK_SIZE - 1);
        upc_barrier;
        upc_all_free(v);
      },
      {1, 3});
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    upc::launch_options o = spmd::options(3, b);
    o.check = true;
    upc::run_result r = upc::run(o, [] {
      upc::shared_array<int, upc::dynamic_block> d(30, upc::block(MYTHREAD == 1 ? 5 : 10));
      upc_barrier;
    });
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.failed);
    CHECK(r.failed_thread == 1);
    CHECK(r.error.find("the block size must be single-valued (the same on every thread): this thread chose 5, thread 0 chose 10") !=
          std::string::npos);
    // [*] with a count that differs gives the same block (and the same bytes) but other bounds.
    r = upc::run(o, [] {
      upc::shared_array<int, upc::star> s(MYTHREAD == 2 ? 29 : 30);
      upc_barrier;
    });
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.failed);
    CHECK(r.failed_thread == 2);
    CHECK(r.error.find("the element count must be single-valued") != std::string::npos);
  }
}
