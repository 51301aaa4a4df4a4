// Dynamic shared memory (UPC 1.3 §7.2.2): upc_all_alloc, upc_global_alloc,
// upc_alloc, upc_free, upc_all_free — placement, sharing, reuse, exhaustion and
// misuse, on both backends.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../lib/runtime/heap_index.hpp"
#include "../support/spmd.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Runs `f` and returns the text of the upc::error it throws ("" if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const upc::error& e) {
    return e.what();
  }
  return "";
}

upc::launch_options small_heap(int threads, upc::backend_kind b, std::size_t heap) {
  upc::launch_options o = spmd::options(threads, b);
  o.heap_per_thread = heap;
  return o;
}

void run_ok(const upc::launch_options& o, const std::function<void()>& body) {
  const upc::run_result r = upc::run(o, body);
  INFO("backend=", std::string(spmd::name(o.backend)), " THREADS=", o.threads, " error: ", r.error);
  REQUIRE(r.ok());
}

TEST_CASE("alloc: upc_all_alloc gives every thread the same space; each writes its part, all read all") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
    upc::shared_array<std::uint64_t> seen(upc::per_thread(1));
    for (std::size_t nblocks : {T, 2 * T + 1, std::size_t{1}, 3 * T - 1}) {
      const upc::sptr<int, 5> p(upc_all_alloc(nblocks, 5 * sizeof(int)));
      SPMD_CHECK(p != nullptr);
      SPMD_CHECK_EQ(upc_threadof(p), 0u);
      SPMD_CHECK_EQ(upc_phaseof(p), 0u);
      seen[me] = upc_addrfield(p);
      upc_barrier;
      for (std::size_t t = 0; t < T; ++t) SPMD_CHECK_EQ(static_cast<std::uint64_t>(seen[t]), upc_addrfield(p));
      const std::size_t n = nblocks * 5;
      for (std::size_t i = 0; i < n; ++i)
        if ((i / 5) % T == me) *static_cast<int*>(p + static_cast<std::ptrdiff_t>(i)) = static_cast<int>(i * 13 + nblocks);
      upc_barrier;
      for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<int>(p[static_cast<std::ptrdiff_t>(i)]), static_cast<int>(i * 13 + nblocks));
      upc_all_free(p);
    }
    // Nothing to allocate: the null pointer, on every thread.
    SPMD_CHECK(!upc_all_alloc(0, 16));
    SPMD_CHECK(!upc_all_alloc(16, 0));
    upc_all_free(upc::sptr<void>());  // freeing null does nothing
  });
}

TEST_CASE("alloc: upc_global_alloc from every thread gives distinct spaces that all threads can use") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
    upc::shared_array<upc::sptr<long, 2>> ptrs(upc::per_thread(1));
    const std::size_t nblocks = T + 2, n = nblocks * 2;
    const upc::sptr<long, 2> mine(upc_global_alloc(nblocks, 2 * sizeof(long)));
    SPMD_CHECK(mine != nullptr);
    SPMD_CHECK_EQ(upc_threadof(mine), 0u);
    // The allocating thread fills all of it, remote parts included.
    for (std::size_t i = 0; i < n; ++i) mine[static_cast<std::ptrdiff_t>(i)] = static_cast<long>(me * 100000 + i);
    ptrs[me] = mine;
    upc_barrier;
    for (std::size_t t = 0; t < T; ++t) {
      const upc::sptr<long, 2> p = ptrs[t];
      if (t != me) SPMD_CHECK(p != mine);
      for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<long>(p[static_cast<std::ptrdiff_t>(i)]), static_cast<long>(t * 100000 + i));
    }
    upc_barrier;
    // Each thread rewrites, through local pointers, its own part of every space.
    for (std::size_t t = 0; t < T; ++t) {
      const upc::sptr<long, 2> p = ptrs[t];
      for (std::size_t i = 0; i < n; ++i)
        if ((i / 2) % T == me) *static_cast<long*>(p + static_cast<std::ptrdiff_t>(i)) = -static_cast<long>(i + 7 * t);
    }
    upc_barrier;
    for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<long>(mine[static_cast<std::ptrdiff_t>(i)]), -static_cast<long>(i + 7 * me));
    upc_barrier;
    // Any thread may free it: the previous thread frees mine.
    upc_free(upc::sptr<long, 2>(ptrs[(me + T - 1) % T]));
    SPMD_CHECK(!upc_global_alloc(0, 8));
    SPMD_CHECK(!upc_global_alloc(8, 0));
  });
}

TEST_CASE("alloc: upc_alloc gives local memory with affinity to the caller, readable by all") {
  spmd::run_everywhere([] {
    const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
    upc::shared_array<upc::sptr<int, upc::indefinite>> ptrs(upc::per_thread(1));
    const std::size_t n = 100 + me;
    const upc::sptr<int, upc::indefinite> mine(upc_alloc(n * sizeof(int)));
    SPMD_CHECK_EQ(upc_threadof(mine), me);
    SPMD_CHECK_EQ(upc_phaseof(mine), 0u);
    SPMD_CHECK_EQ(upc_threadof(mine + static_cast<std::ptrdiff_t>(n - 1)), me);
    int* l = static_cast<int*>(mine);
    for (std::size_t i = 0; i < n; ++i) l[i] = static_cast<int>(me * 1000 + i);
    ptrs[me] = mine;
    upc_barrier;
    for (std::size_t t = 0; t < T; ++t) {
      const upc::sptr<int, upc::indefinite> p = ptrs[t];
      SPMD_CHECK_EQ(upc_threadof(p), t);
      for (std::size_t i = 0; i < 100 + t; ++i) SPMD_CHECK_EQ(static_cast<int>(p[static_cast<std::ptrdiff_t>(i)]), static_cast<int>(t * 1000 + i));
    }
    upc_barrier;
    upc_free(mine);
    SPMD_CHECK(!upc_alloc(0));
    upc_free(upc::sptr<void>());  // freeing null does nothing
  });
}

// Live chunks carry a pattern that names their owner; a chunk that overlaps another
// one (or was handed out twice) shows up as a broken pattern.
struct live_chunk {
  upc::sptr<std::uint32_t, upc::indefinite> local;  // upc_alloc
  upc::sptr<std::uint32_t, 1> global;               // upc_global_alloc(THREADS*k, 4)
  std::size_t words;
  std::uint32_t tag;
};

std::uint32_t pattern(std::uint32_t tag, std::size_t i) { return tag * 2654435761u + static_cast<std::uint32_t>(i); }

void fill(const live_chunk& c) {
  if (c.local) {
    std::uint32_t* l = static_cast<std::uint32_t*>(c.local);
    for (std::size_t i = 0; i < c.words; ++i) l[i] = pattern(c.tag, i);
  } else {
    for (std::size_t i = 0; i < c.words; ++i) c.global[static_cast<std::ptrdiff_t>(i)] = pattern(c.tag, i);
  }
}

void verify_and_free(const live_chunk& c) {
  for (std::size_t i = 0; i < c.words; ++i) {
    const std::uint32_t v = c.local ? static_cast<std::uint32_t*>(c.local)[i]
                                    : static_cast<std::uint32_t>(c.global[static_cast<std::ptrdiff_t>(i)]);
    SPMD_CHECK_EQ(v, pattern(c.tag, i));
  }
  upc_free(c.local ? upc::sptr<void>(c.local) : upc::sptr<void>(c.global));
}

TEST_CASE("alloc: thousands of small local and global allocations and frees, concurrently, never overlap") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        std::mt19937 rng(static_cast<unsigned>(1234 + me));
        std::vector<live_chunk> live;
        std::uint32_t tag = static_cast<std::uint32_t>(me) << 20;
        const int ops = T >= 8 ? 1500 : 3000;
        for (int op = 0; op < ops; ++op) {
          const bool do_free = !live.empty() && (live.size() > 40 || rng() % 3 == 0);
          if (do_free) {
            const std::size_t k = rng() % live.size();
            verify_and_free(live[k]);
            live[k] = live.back();
            live.pop_back();
          } else {
            live_chunk c{};
            c.tag = ++tag;
            if (rng() % 2) {
              c.words = 1 + rng() % 200;
              c.local = upc::sptr<std::uint32_t, upc::indefinite>(upc_alloc(c.words * 4));
              SPMD_CHECK_EQ(upc_threadof(c.local), me);
            } else {
              const std::size_t k = 1 + rng() % 6;
              c.words = T * k;
              c.global = upc::sptr<std::uint32_t, 1>(upc_global_alloc(T * k, 4));
            }
            fill(c);
            live.push_back(c);
          }
        }
        for (const live_chunk& c : live) verify_and_free(c);
        upc_barrier;
        // Everything came back: one allocation of most of the heap fits again, both kinds.
        const std::size_t big = (8u << 20) * 3 / 4;
        if (MYTHREAD == 0) {
          upc::sptr<void> g = upc_global_alloc(T, big);
          SPMD_CHECK(g);
          upc_free(g);
        }
        upc_barrier;
        upc::sptr<void> l = upc_alloc(big);
        SPMD_CHECK(l);
        upc_free(l);
        upc_barrier;
      },
      {1, 2, 5, 16});
}

TEST_CASE("alloc: freed space is reused (the same space comes back)") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        // upc_alloc
        upc::sptr<void> a = upc_alloc(1000);
        upc_free(a);
        upc::sptr<void> b = upc_alloc(1000);
        SPMD_CHECK(a == b);
        // a hole in the middle of the local heap is filled by a request that fits
        upc::sptr<void> c = upc_alloc(500), d = upc_alloc(3000), e = upc_alloc(500);
        upc_free(d);
        upc::sptr<void> f = upc_alloc(2000);
        SPMD_CHECK(upc_addrfield(f) >= upc_addrfield(d));  // inside the hole (at its far end, issue 8.1)
        SPMD_CHECK(upc_addrfield(f) + 2000 <= upc_addrfield(d) + 3000);
        upc_free(b), upc_free(c), upc_free(e), upc_free(f);
        upc_barrier;
        // upc_all_alloc / upc_all_free
        upc::sptr<void> g = upc_all_alloc(T, 4096);
        upc_all_free(g);
        upc::sptr<void> h = upc_all_alloc(T, 4096);
        SPMD_CHECK(g == h);
        upc_all_free(h);
        // upc_global_alloc / upc_free, one thread at a time
        if (MYTHREAD == 0) {
          upc::sptr<void> i = upc_global_alloc(T, 512);
          upc_free(i);
          upc::sptr<void> j = upc_global_alloc(T, 512);
          SPMD_CHECK(i == j);
          // two neighbours freed merge into one chunk big enough for both
          upc::sptr<void> k1 = upc_global_alloc(T, 256), k2 = upc_global_alloc(T, 256), k3 = upc_global_alloc(T, 64);
          upc_free(k1);
          upc_free(k2);
          upc::sptr<void> k12 = upc_global_alloc(T, 512);
          SPMD_CHECK(k12 == k1);
          upc_free(k12), upc_free(k3), upc_free(j);
        }
        upc_barrier;
        // Allocating to exhaustion, freeing everything, and doing it again gives as many.
        std::vector<upc::sptr<void>> got;
        for (;;) {
          upc::sptr<void> p;
          const std::string err = error_of([&] { p = upc_alloc(100000); });
          if (!err.empty()) {
            SPMD_CHECK(contains(err, "upc_alloc"));
            break;
          }
          got.push_back(p);
        }
        const std::size_t first_round = got.size();
        SPMD_CHECK(first_round > 10);
        for (auto& p : got) upc_free(p);
        got.clear();
        for (;;) {
          upc::sptr<void> p;
          if (!error_of([&] { p = upc_alloc(100000); }).empty()) break;
          got.push_back(p);
        }
        SPMD_CHECK_EQ(got.size(), first_round);
        for (auto& p : got) upc_free(p);
      },
      {1, 3, 8});
}

TEST_CASE("alloc: large allocations spanning most of each partition") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        const std::size_t big = 6u << 20;  // of the 8 MiB test heap per thread
        upc::shared_array<upc::sptr<char, upc::indefinite>> ptrs(upc::per_thread(1));
        const upc::sptr<char, upc::indefinite> l(upc_alloc(big));
        char* c = static_cast<char*>(l);
        c[0] = static_cast<char>('a' + me);
        c[big / 2] = 'm';
        c[big - 1] = static_cast<char>('z' - me);
        ptrs[me] = l;
        upc_barrier;
        for (std::size_t t = 0; t < T; ++t) {
          const upc::sptr<char, upc::indefinite> p = ptrs[t];
          SPMD_CHECK_EQ(static_cast<char>(p[0]), static_cast<char>('a' + t));
          SPMD_CHECK_EQ(static_cast<char>(p[static_cast<std::ptrdiff_t>(big / 2)]), 'm');
          SPMD_CHECK_EQ(static_cast<char>(p[static_cast<std::ptrdiff_t>(big - 1)]), static_cast<char>('z' - t));
        }
        upc_barrier;
        upc_free(l);
        upc_barrier;
      },
      {1, 4});
  // The layout of a big upc_all_alloc: block t of nbytes on thread t.
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        const std::size_t big = 6u << 20;
        using block_ptr = upc::sptr<char, (6u << 20)>;
        const block_ptr p(upc_all_alloc(T, big));
        const block_ptr my_block = p + static_cast<std::ptrdiff_t>(me * big);
        SPMD_CHECK_EQ(upc_threadof(my_block), me);
        SPMD_CHECK_EQ(upc_phaseof(my_block), 0u);
        char* c = static_cast<char*>(my_block);
        c[0] = static_cast<char>('A' + me);
        c[big - 1] = static_cast<char>('a' + me);
        upc_barrier;
        for (std::size_t t = 0; t < T; ++t) {
          SPMD_CHECK_EQ(static_cast<char>(p[static_cast<std::ptrdiff_t>(t * big)]), static_cast<char>('A' + t));
          SPMD_CHECK_EQ(static_cast<char>(p[static_cast<std::ptrdiff_t>(t * big + big - 1)]), static_cast<char>('a' + t));
        }
        upc_all_free(p);
      },
      {1, 4});
}

TEST_CASE("alloc: exhaustion is a clear error naming the function, and the heap stays usable") {
  const std::size_t heap = 1u << 20;
  for (upc::backend_kind b : spmd::backends)
    for (int threads : {1, 4}) {
      if (spmd::skip_run(threads, b)) continue;
      run_ok(small_heap(threads, b, heap), [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        std::string err = error_of([] { (void)upc_alloc(2u << 20); });
        SPMD_CHECK(contains(err, "upc_alloc"));
        SPMD_CHECK(contains(err, "out of shared memory"));
        SPMD_CHECK(contains(err, "thread " + std::to_string(me)));
        SPMD_CHECK(contains(err, "--heap"));
        err = error_of([] { (void)upc_alloc(SIZE_MAX); });
        SPMD_CHECK(contains(err, "upc_alloc"));
        upc_barrier;
        if (MYTHREAD == 0) {
          err = error_of([] { (void)upc_global_alloc(THREADS, 2u << 20); });
          SPMD_CHECK(contains(err, "upc_global_alloc"));
          SPMD_CHECK(contains(err, "out of shared memory"));
          err = error_of([] { (void)upc_global_alloc(SIZE_MAX, 2); });
          SPMD_CHECK(contains(err, "upc_global_alloc"));
          // Huge nblocks with small nbytes must not wrap around to a tiny allocation.
          err = error_of([] { (void)upc_global_alloc(SIZE_MAX, 1); });
          SPMD_CHECK(contains(err, "upc_global_alloc"));
        }
        upc_barrier;
        // Collective: every thread gets the error.
        err = error_of([] { (void)upc_all_alloc(THREADS, 2u << 20); });
        SPMD_CHECK(contains(err, "upc_all_alloc"));
        err = error_of([] { (void)upc_all_alloc(SIZE_MAX - 1, 1); });
        SPMD_CHECK(contains(err, "upc_all_alloc"));
        upc_barrier;
        // Small requests still work afterwards, and each kind exhausts with its own name.
        upc::sptr<void> ok = upc_all_alloc(T, 1000);
        SPMD_CHECK(ok);
        upc_all_free(ok);
        std::vector<upc::sptr<void>> mine;
        for (int k = 0;; ++k) {
          SPMD_CHECK(k < 100000);
          upc::sptr<void> p;
          err = error_of([&] { p = upc_alloc(16000); });
          if (!err.empty()) break;
          mine.push_back(p);
        }
        SPMD_CHECK(contains(err, "upc_alloc: out of shared memory"));
        SPMD_CHECK(mine.size() >= 40);
        for (auto& p : mine) upc_free(p);
        upc_barrier;
      });
      // Uncaught, it ends the run with a report that names the function.
      const upc::run_result r = upc::run(small_heap(threads, b, heap), [] {
        if (MYTHREAD == THREADS - 1) (void)upc_alloc(2u << 20);
        upc_barrier;
      });
      INFO("backend=", std::string(spmd::name(b)), " THREADS=", threads);
      CHECK(r.failed);
      CHECK(r.exit_code != 0);
      CHECK(r.failed_thread == threads - 1);
      CHECK(contains(r.error, "upc_alloc: out of shared memory"));
      const upc::run_result r2 = upc::run(small_heap(threads, b, heap), [] { (void)upc_all_alloc(THREADS, 2u << 20); });
      CHECK(r2.failed);
      CHECK(contains(r2.error, "upc_all_alloc"));
      CHECK(contains(r2.error, "out of shared memory"));
    }
}

TEST_CASE("alloc: double free and freeing what was not allocated are clear errors") {
  for (upc::backend_kind b : spmd::backends)
    for (int threads : {1, 3}) {
      if (spmd::skip_run(threads, b)) continue;
      run_ok(spmd::options(threads, b), [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        // Double free of a local chunk, both when it went back to the heap edge and when
        // it sits in the free list between live chunks.
        upc::sptr<void> a = upc_alloc(256);
        upc_free(a);
        std::string err = error_of([&] { upc_free(a); });
        SPMD_CHECK(contains(err, "upc_free"));
        SPMD_CHECK(contains(err, "freed"));
        upc::sptr<void> x = upc_alloc(256), y = upc_alloc(256);
        upc_free(x);
        err = error_of([&] { upc_free(x); });
        SPMD_CHECK(contains(err, "upc_free"));
        SPMD_CHECK(contains(err, "already freed"));
        upc_free(y);
        upc_barrier;
        // Double free of a global chunk.
        if (MYTHREAD == 0) {
          upc::sptr<void> g1 = upc_global_alloc(T, 128), g2 = upc_global_alloc(T, 128);
          upc_free(g1);
          err = error_of([&] { upc_free(g1); });
          SPMD_CHECK(contains(err, "upc_free"));
          SPMD_CHECK(contains(err, "freed"));
          upc_free(g2);
          err = error_of([&] { upc_free(g2); });
          SPMD_CHECK(contains(err, "upc_free"));
          SPMD_CHECK(contains(err, "freed"));
        }
        upc_barrier;
        // A pointer into the middle of an allocation, or to another thread's block of it.
        upc::sptr<int, 16> arr(upc_all_alloc(T, 16 * sizeof(int)));
        if (MYTHREAD == 0) {
          err = error_of([&] { upc_free(arr + 1); });
          SPMD_CHECK(contains(err, "upc_free"));
          SPMD_CHECK(contains(err, "not"));
          err = error_of([&] { upc_free(arr + 16); });  // phase 0 of thread 1's block (or the next row)
          SPMD_CHECK(contains(err, "upc_free"));
          SPMD_CHECK(contains(err, "not"));
        }
        upc_barrier;
        upc_all_free(arr);
        // Shared arrays are not heap allocations: upc_free refuses them.
        upc::shared_array<int, 4> declared(4 * T);
        err = error_of([&] { upc_free(declared.data()); });
        SPMD_CHECK(contains(err, "upc_free"));
        SPMD_CHECK(contains(err, "not"));
        upc::shared<long> scalar;
        err = error_of([&] { upc_free(&scalar); });
        SPMD_CHECK(contains(err, "upc_free"));
        upc::shared_array<char, upc::indefinite> indef(100);
        err = error_of([&] { upc_free(indef.data()); });
        SPMD_CHECK(contains(err, "upc_free"));
        // The array is still intact and usable afterwards.
        upc_barrier;
        declared[MYTHREAD] = MYTHREAD + 1;
        upc_barrier;
        for (int t = 0; t < THREADS; ++t) SPMD_CHECK_EQ(static_cast<int>(declared[t]), t + 1);
        upc_barrier;
      });
      // Uncaught: the run stops with the report.
      const upc::run_result r = upc::run(spmd::options(threads, b), [] {
        upc::sptr<void> p = upc_alloc(64);
        upc_free(p);
        upc_free(p);
      });
      INFO("backend=", std::string(spmd::name(b)), " THREADS=", threads);
      CHECK(r.failed);
      CHECK(contains(r.error, "upc_free"));
      CHECK(contains(r.error, "freed"));
    }
}

TEST_CASE("alloc: under --check, upc_all_alloc and upc_all_free arguments must be single-valued") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    upc::launch_options o = spmd::options(3, b);
    o.check = true;
    upc::run_result r = upc::run(o, [] { (void)upc_all_alloc(THREADS, MYTHREAD == 1 ? 64 : 128); });
    INFO("backend=", std::string(spmd::name(b)), " error: ", r.error);
    CHECK(r.failed);
    CHECK(r.failed_thread == 1);
    CHECK(contains(r.error, "upc_all_alloc"));
    CHECK(contains(r.error, "single-valued"));
    r = upc::run(o, [] {
      upc::sptr<void> a = upc_all_alloc(THREADS, 64), c = upc_all_alloc(THREADS, 64);
      upc_all_free(MYTHREAD == 2 ? c : a);
    });
    INFO("error: ", r.error);
    CHECK(r.failed);
    CHECK(r.failed_thread == 2);
    CHECK(contains(r.error, "upc_all_free"));
    CHECK(contains(r.error, "single-valued"));
  }
}

}  // namespace

// ---- placement policy (issue 8.1) ---------------------------------------------------

namespace {

// The sequence of the report, rebuilt: 78 calls, 43 allocations and 35 frees;
// live data peaks at 51.4 MiB, the largest request is 19.6 MiB. A positive entry
// allocates that many bytes; -k frees what call k (counting from 1) allocated.
// With the local heap taking the lowest hole and carving from its low end, call 54
// found no room in a 64 MiB heap; placed as the symmetric heap places it (mirrored)
// it peaks at 52.5 MiB.
constexpr long long fragmenting_sequence[] = {
    356352, 2621440, -1, -2, 397312, 143360, 3670016, -6, 524288, 1572864, 6291456, -7, -9, -5, 761856, -15,
    782336, -17, -11, -10, 737280, 409600, 5767168, -22, 5242880, -21, 761856, 4194304, 8388608, -29,
    7340032, 5242880, 462848, -32, -28, -31, -33, 114688, 4194304, 7864320, 880640, -23, 573440, 7864320,
    2097152, 3145728, 20552089, -39, -27, -25, -46, -40, 524288, 20552089, 434176, -41, 421888, -53, -55,
    -38, -43, 868352, 1572864, -62, 155648, -45, 237568, -65, 229376, 159744, -44, 917504, 724992, -72, -67,
    -47, 942080, 20552089,
};

// Runs the sequence through alloc/free; returns the call that failed (1-based), 0 if none.
template <class Alloc, class Free>
std::size_t replay(Alloc alloc, Free free) {
  constexpr std::size_t calls = std::size(fragmenting_sequence);
  std::vector<upc::sptr<void>> result(calls);
  for (std::size_t i = 0; i < calls; ++i) {
    const long long v = fragmenting_sequence[i];
    if (v > 0) {
      if (!error_of([&] { result[i] = alloc(static_cast<std::size_t>(v)); }).empty()) return i + 1;
    } else {
      free(result[static_cast<std::size_t>(-v - 1)]);
      result[static_cast<std::size_t>(-v - 1)] = nullptr;
    }
  }
  for (auto& p : result)
    if (p) free(p);
  return 0;
}

}  // namespace

TEST_CASE("local heap: 78-call sequence that fragmented fits (issue 8.1)") {
  static_assert(std::size(fragmenting_sequence) == 78);
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(1, b)) continue;
    run_ok(small_heap(1, b, 64u << 20), [] {
      const std::size_t failed = replay([](std::size_t n) { return upc_alloc(n); }, [](upc::sptr<void> p) { upc_free(p); });
      SPMD_CHECK_EQ(failed, std::size_t{0});
      // The same sequence on the symmetric heap fits too.
      const std::size_t failed_sym = replay([](std::size_t n) { return upc_global_alloc(1, n); }, [](upc::sptr<void> p) { upc_free(p); });
      SPMD_CHECK_EQ(failed_sym, std::size_t{0});
    });
  }
}

namespace {

// A seeded random workload: 60% of requests up to 4 KiB, 35% up to 64 KiB, 5% from
// 256 KiB to 1 MiB; a free (of a random live chunk) 45% of the time, and always
// when more than 4 MiB are live. Only std::mt19937 (fully specified) and modulo
// are used, so every platform replays the same sequence.
struct workload_op {
  std::size_t bytes;   // > 0: allocate this many bytes
  std::size_t victim;  // bytes == 0: free the live chunk at this index (swap-removed)
};

std::uint64_t footprint(std::size_t n) { return (std::max<std::size_t>(n, 1) + 63) / 64 * 64 + 64; }  // with header

std::vector<workload_op> random_workload(unsigned seed, int ops) {
  std::mt19937 rng(seed);
  std::vector<workload_op> w;
  std::vector<std::uint64_t> live;
  std::uint64_t live_bytes = 0;
  for (int i = 0; i < ops; ++i) {
    if (!live.empty() && (live_bytes > (4u << 20) || rng() % 100 < 45)) {
      const std::size_t k = rng() % live.size();
      w.push_back({0, k});
      live_bytes -= live[k];
      live[k] = live.back();
      live.pop_back();
    } else {
      const unsigned kind = rng() % 100;
      const std::size_t n = kind < 60 ? 1 + rng() % 4096 : kind < 95 ? 1 + rng() % (64u << 10) : (256u << 10) + rng() % (768u << 10);
      w.push_back({n, 0});
      live.push_back(footprint(n));
      live_bytes += footprint(n);
    }
  }
  return w;
}

struct workload_result {
  std::uint64_t peak_live = 0;    // bytes of live chunks, headers included
  std::uint64_t peak_extent = 0;  // bytes of the partition the heap reached, from its end
  std::vector<std::uint64_t> extents;  // after every call
  std::uint64_t final_extent = 0;      // after freeing what was left: 0, all given back
};

// Replays a workload through one heap; `extent` tells how far that heap reaches.
template <class Alloc, class Free, class Extent>
workload_result replay_workload(const std::vector<workload_op>& w, Alloc alloc, Free free, Extent extent) {
  workload_result r;
  const std::uint64_t base = extent();
  std::vector<std::pair<upc::sptr<void>, std::uint64_t>> live;
  std::uint64_t live_bytes = 0;
  for (const workload_op& op : w) {
    if (op.bytes) {
      live.emplace_back(alloc(op.bytes), footprint(op.bytes));
      live_bytes += live.back().second;
    } else {
      free(live[op.victim].first);
      live_bytes -= live[op.victim].second;
      live[op.victim] = live.back();
      live.pop_back();
    }
    r.extents.push_back(extent() - base);
    r.peak_live = std::max(r.peak_live, live_bytes);
    r.peak_extent = std::max(r.peak_extent, r.extents.back());
  }
  for (auto& c : live) free(c.first);
  r.final_extent = extent() - base;
  return r;
}

std::uint64_t local_extent() { return upc::detail::heap_extent(MYTHREAD).local; }
std::uint64_t symmetric_extent() { return upc::detail::heap_extent(MYTHREAD).symmetric; }

// The bound the random workloads must keep: peak extent <= 2 x peak live data.
// Why it holds: both heaps are address-ordered first fit with neighbours merged and
// the boundary chunk given back. Knuth's fifty-percent rule (TAOCP vol. 1, 2.5)
// says that in the steady state of such an allocator there are about half as many
// holes as live chunks; holes no larger on average than chunks then waste about
// half the live data, an extent near 1.5 x live (a model of this allocator measured
// 1.19-1.62 over 200 seeds of this workload). Twice is the margin for one seed's
// variance. It is not a worst case (Robson: any allocator can be driven to
// M log2(n)), so the seeds are fixed and the test deterministic.
constexpr std::uint64_t extent_bound_factor = 2;

}  // namespace

TEST_CASE("local heap: long random upc_alloc/upc_free sequences keep the extent within 2x the live data (issue 8.1)") {
  for (upc::backend_kind b : spmd::backends)
    for (int threads : {1, 3}) {
      if (spmd::skip_run(threads, b)) continue;
      run_ok(small_heap(threads, b, 16u << 20), [] {
        const auto w = random_workload(811u + static_cast<unsigned>(MYTHREAD), 3000);
        const workload_result r = replay_workload(
            w, [](std::size_t n) { return upc_alloc(n); }, [](upc::sptr<void> p) { upc_free(p); }, local_extent);
        SPMD_CHECK(r.peak_live > (3u << 20));  // the workload is large enough to mean something
        SPMD_CHECK(r.peak_extent <= extent_bound_factor * r.peak_live);
        SPMD_CHECK_EQ(r.final_extent, 0u);
        upc_barrier;
      });
    }
}

TEST_CASE("symmetric heap: long random upc_all_alloc/upc_all_free and upc_global_alloc sequences keep the extent within 2x the live data") {
  for (upc::backend_kind b : spmd::backends)
    for (int threads : {1, 3}) {
      if (spmd::skip_run(threads, b)) continue;
      run_ok(small_heap(threads, b, 16u << 20), [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        // upc_all_alloc(THREADS, n): n bytes in every partition, the same sequence on every thread.
        const auto w = random_workload(977u, 1500);
        const workload_result r = replay_workload(
            w, [T](std::size_t n) { return upc_all_alloc(T, n); }, [](upc::sptr<void> p) { upc_all_free(p); },
            symmetric_extent);
        // Thread 0 frees for upc_all_free, so only its view of the extent is current.
        if (MYTHREAD == 0) {
          SPMD_CHECK(r.peak_live > (3u << 20));
          SPMD_CHECK(r.peak_extent <= extent_bound_factor * r.peak_live);
          SPMD_CHECK_EQ(r.final_extent, 0u);
        }
        upc_barrier;
        // upc_global_alloc by one thread.
        if (MYTHREAD == THREADS - 1) {
          const workload_result g = replay_workload(
              random_workload(1013u, 3000), [T](std::size_t n) { return upc_global_alloc(T, n); },
              [](upc::sptr<void> p) { upc_free(p); }, symmetric_extent);
          SPMD_CHECK(g.peak_live > (3u << 20));
          SPMD_CHECK(g.peak_extent <= extent_bound_factor * g.peak_live);
          SPMD_CHECK_EQ(g.final_extent, 0u);
        }
        upc_barrier;
      });
    }
}

TEST_CASE("local heap: it places chunks as the mirror image of the symmetric heap (issue 8.1)") {
  // The same sequence through upc_alloc and through upc_global_alloc(1, n) (THREADS 1,
  // so n bytes per thread): both heaps start with no holes, and every placement
  // decision of one is the other's seen from the opposite end, so their extents
  // agree after every call. A local heap that prefers the hole nearest its boundary
  // (the policy before issue 8.1) drifts apart within the first hundred calls.
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(1, b)) continue;
    run_ok(small_heap(1, b, 16u << 20), [] {
      for (unsigned seed : {5u, 6u, 7u}) {
        const auto w = random_workload(seed, 2000);
        const workload_result local = replay_workload(
            w, [](std::size_t n) { return upc_alloc(n); }, [](upc::sptr<void> p) { upc_free(p); }, local_extent);
        const workload_result sym = replay_workload(
            w, [](std::size_t n) { return upc_global_alloc(1, n); }, [](upc::sptr<void> p) { upc_free(p); },
            symmetric_extent);
        SPMD_CHECK(local.extents == sym.extents);
        SPMD_CHECK_EQ(local.peak_extent, sym.peak_extent);
      }
    });
  }
}

// ---- bad pointers and sizes (issues 8.7a, 8.8) --------------------------------------

TEST_CASE("alloc: upc_free / upc_all_free of a pointer whose thread is >= THREADS is an error, not SIGSEGV (issue 8.8)") {
  for (upc::backend_kind b : spmd::backends)
    for (int threads : {1, 3}) {
      if (spmd::skip_run(threads, b)) continue;
      run_ok(spmd::options(threads, b), [] {
        const std::uint32_t T = static_cast<std::uint32_t>(THREADS);
        const upc::sptr<void> far_thread(upc::shared_address{4096, T + 5, 0});
        std::string err = error_of([&] { upc_free(far_thread); });
        SPMD_CHECK(contains(err, "upc_free: pointer (thread " + std::to_string(T + 5) + ", offset 4096) names thread " +
                                     std::to_string(T + 5) + ", but THREADS is " + std::to_string(T)));
        const upc::sptr<void> far_offset(upc::shared_address{~std::uint64_t{0} - 63, 0, 0});
        err = error_of([&] { upc_free(far_offset); });
        SPMD_CHECK(contains(err, "upc_free: pointer (thread 0, offset 18446744073709551552) is outside the shared heap"));
        // Collective: every thread reports it, nobody waits for the others.
        err = error_of([&] { upc_all_free(far_thread); });
        SPMD_CHECK(contains(err, "upc_all_free: pointer (thread " + std::to_string(T + 5)));
        SPMD_CHECK(contains(err, "(thread " + std::to_string(MYTHREAD) + ")"));
        upc_barrier;
        // The heap is intact: a normal cycle still works.
        upc::sptr<void> p = upc_all_alloc(THREADS, 64);
        upc_all_free(p);
      });
    }
}

TEST_CASE("alloc: size arguments that are negative numbers converted to size_t are named (issue 8.7a)") {
  for (upc::backend_kind b : spmd::backends)
    if (!spmd::skip_run(2, b)) run_ok(spmd::options(2, b), [] {
      const long n = -8;
      std::string err = error_of([&] { (void)upc_alloc(static_cast<std::size_t>(n)); });
      SPMD_CHECK(contains(err, "upc_alloc: nbytes 18446744073709551608 is too large (is it a negative number converted to size_t?)"));
      err = error_of([&] { (void)upc_global_alloc(static_cast<std::size_t>(n), 4); });
      SPMD_CHECK(contains(err, "upc_global_alloc: nblocks 18446744073709551608 is too large"));
      err = error_of([&] { (void)upc_global_alloc(4, static_cast<std::size_t>(n)); });
      SPMD_CHECK(contains(err, "upc_global_alloc: nbytes 18446744073709551608 is too large"));
      err = error_of([&] { (void)upc_all_alloc(static_cast<std::size_t>(n), 4); });
      SPMD_CHECK(contains(err, "upc_all_alloc: nblocks 18446744073709551608 is too large"));
      err = error_of([&] { (void)upc_global_alloc(std::size_t{1} << 40, std::size_t{1} << 40); });
      SPMD_CHECK(contains(err, "upc_global_alloc: nblocks * nbytes overflows"));
      upc_barrier;
    });
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // upc_local_alloc is deprecated on purpose
TEST_CASE("alloc: upc_local_alloc(nblocks, nbytes) is upc_alloc(nblocks * nbytes), overflow-checked") {
  for (upc::backend_kind b : spmd::backends)
    if (!spmd::skip_run(3, b)) run_ok(spmd::options(3, b), [] {
      const std::size_t me = static_cast<std::size_t>(MYTHREAD);
      const upc::sptr<int, upc::indefinite> p(upc_local_alloc(5, 3 * sizeof(int)));
      SPMD_CHECK(p != nullptr);
      SPMD_CHECK_EQ(upc_threadof(p), me);
      const auto found = upc::detail::find_allocation(static_cast<std::uint32_t>(me), upc_addrfield(p));
      SPMD_CHECK(found.has_value());
      SPMD_CHECK_EQ(found->requested, 15 * sizeof(int));
      int* l = static_cast<int*>(p);
      for (int i = 0; i < 15; ++i) l[i] = i;
      upc_free(p);
      SPMD_CHECK(!upc_local_alloc(0, 8));
      SPMD_CHECK(!upc_local_alloc(8, 0));
      std::string err = error_of([] { (void)upc_local_alloc(std::size_t{1} << 40, std::size_t{1} << 40); });
      SPMD_CHECK(contains(err, "upc_local_alloc: nblocks * nbytes overflows"));
      err = error_of([] { (void)upc_local_alloc(static_cast<std::size_t>(-1), 1); });
      SPMD_CHECK(contains(err, "upc_local_alloc: nblocks 18446744073709551615 is too large (is it a negative number"));
      err = error_of([] { (void)upc_local_alloc(1, 1u << 30); });
      SPMD_CHECK(contains(err, "upc_local_alloc: out of shared memory"));
    });
}
#pragma GCC diagnostic pop
