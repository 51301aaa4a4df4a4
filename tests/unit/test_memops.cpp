// upc_memcpy / upc_memget / upc_memput / upc_memset: local and remote, odd sizes
// and offsets, nothing written outside the range, on both backends; bad arguments
// stop the run with a report naming the function, the argument and the thread.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../support/spmd.hpp"

using spmd::contains;
using spmd::error_of;
using spmd::run_failing;

namespace {

constexpr std::size_t cap = 9000;  // bytes per thread of each test array
constexpr std::size_t sizes[] = {1, 2, 3, 7, 8, 63, 64, 65, 1000, 4097, 8191};
constexpr std::size_t offsets[] = {0, 1, 13};

unsigned char pattern(int from, std::size_t i, std::size_t salt) {
  return static_cast<unsigned char>((static_cast<std::size_t>(from) * 131 + i * 7 + salt * 29 + 1) & 0xff);
}

std::vector<unsigned char> expected(int from, std::size_t n, std::size_t salt) {
  std::vector<unsigned char> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = pattern(from, i, salt);
  return v;
}

// Thread t's block of a upc_all_alloc(THREADS, cap) array, as shared [] char.
upc::sptr<char, upc::indefinite> block_of(upc::sptr<void> arr, int t) {
  upc::shared_address a = arr.address();
  a.thread = static_cast<std::uint32_t>(t);
  return upc::sptr<char, upc::indefinite>(a);
}

[[noreturn]] void mismatch(const char* what, std::size_t n, std::size_t off, std::size_t i, int got, int want) {
  throw spmd::check_failed(std::string(what) + ": n=" + std::to_string(n) + " off=" + std::to_string(off) + ": byte " +
                           std::to_string(i) + " is " + std::to_string(got) + ", expected " + std::to_string(want) +
                           " (thread " + std::to_string(MYTHREAD) + ")");
}

void memops_body() {
  const int T = THREADS, me = MYTHREAD, right = (me + 1) % T, left = (me + T - 1) % T;
  upc::sptr<void> a = upc_all_alloc(T, cap), b = upc_all_alloc(T, cap), c = upc_all_alloc(T, cap),
                  d = upc_all_alloc(T, cap);
  auto* my_b = reinterpret_cast<unsigned char*>(block_of(b, me).local());
  auto* my_c = reinterpret_cast<unsigned char*>(block_of(c, me).local());
  auto* my_d = reinterpret_cast<unsigned char*>(block_of(d, me).local());
  for (std::size_t n : sizes)
    for (std::size_t off : offsets) {
      if (off + n > cap) continue;
      const std::size_t salt = n + off;
      // Clear this thread's blocks of b and d (local memset) so overruns show.
      upc_memset(block_of(b, me), 0, cap);
      upc_memset(block_of(d, me), 0, cap);
      const std::vector<unsigned char> mine = expected(me, n, salt);
      upc_memput(block_of(a, right) + off, mine.data(), n);  // remote put
      upc_memput(block_of(c, me) + off, mine.data(), n);     // local put
      upc_barrier;

      std::vector<unsigned char> got(n + 2, 0xEE);
      upc_memget(got.data() + 1, block_of(a, me) + off, n);  // local get: the left neighbour's data
      if (got[0] != 0xEE || got[n + 1] != 0xEE) mismatch("upc_memget wrote outside dst", n, off, 0, 0, 0);
      const std::vector<unsigned char> from_left = expected(left, n, salt);
      if (std::memcmp(got.data() + 1, from_left.data(), n) != 0) mismatch("upc_memget (local)", n, off, 0, got[1], from_left[0]);
      upc_memget(got.data() + 1, block_of(a, right) + off, n);  // remote get: this thread's data
      if (std::memcmp(got.data() + 1, mine.data(), n) != 0) mismatch("upc_memget (remote)", n, off, 0, got[1], mine[0]);
      if (std::memcmp(my_c + off, mine.data(), n) != 0) mismatch("upc_memput (local)", n, off, 0, my_c[off], mine[0]);
      // remote -> remote: b of the right neighbour gets a's block of me+2, which me+1 wrote.
      upc_memcpy(block_of(b, right) + off, block_of(a, (me + 2) % T) + off, n);
      upc_memset(block_of(d, left) + off, 0x40 + me, n);  // remote set
      upc_barrier;

      // The owner's view, through its local pointers.
      const std::vector<unsigned char> want_b = expected(me, n, salt);
      for (std::size_t i = 0; i < n; ++i)
        if (my_b[off + i] != want_b[i]) mismatch("upc_memcpy", n, off, off + i, my_b[off + i], want_b[i]);
      for (std::size_t i = 0; i < n; ++i)
        if (my_d[off + i] != 0x40 + right) mismatch("upc_memset", n, off, off + i, my_d[off + i], 0x40 + right);
      for (unsigned char* blk : {my_b, my_d}) {
        if (off > 0 && blk[off - 1] != 0) mismatch("write before the range", n, off, off - 1, blk[off - 1], 0);
        if (off + n < cap && blk[off + n] != 0) mismatch("write after the range", n, off, off + n, blk[off + n], 0);
      }
      upc_barrier;
    }
  // Local -> local memcpy, and zero-length calls, which touch nothing (null is fine).
  upc_memcpy(block_of(b, me), block_of(c, me) + 1, 100);
  SPMD_CHECK(std::memcmp(my_b, my_c + 1, 100) == 0);
  upc_memcpy(nullptr, nullptr, 0);
  upc_memget(nullptr, nullptr, 0);
  upc_memput(nullptr, nullptr, 0);
  upc_memset(nullptr, 1, 0);
  upc_barrier;
  for (upc::sptr<void> p : {a, b, c, d}) upc_all_free(p);
}


struct error_case {
  const char* what;
  std::function<void(std::uint64_t end)> call;  // made by thread 1; end = bytes per partition
  std::function<std::string(std::uint64_t end)> message;
};

}  // namespace

TEST_CASE("memops: upc_memcpy/memget/memput/memset move exactly the bytes asked, local and remote, on both backends") {
  spmd::run_everywhere(memops_body, {1, 2, 3, 4, 7});
}

TEST_CASE("memops: bad arguments stop the run with the function, the argument and the thread") {
  static char buf[64];
  const auto at = [](std::uint64_t offset, std::uint32_t thread) { return upc::sptr<void>(upc::shared_address{offset, thread, 0}); };
  const std::vector<error_case> cases = {
      {"null dst of upc_memcpy", [&](std::uint64_t) { upc_memcpy(nullptr, at(64, 0), 4); },
       [](std::uint64_t) { return std::string("upc_memcpy: dst is a null pointer-to-shared (thread 1)"); }},
      {"null src of upc_memcpy", [&](std::uint64_t) { upc_memcpy(at(64, 0), nullptr, 4); },
       [](std::uint64_t) { return std::string("upc_memcpy: src is a null pointer-to-shared (thread 1)"); }},
      {"src of upc_memcpy past the end", [&](std::uint64_t e) { upc_memcpy(at(64, 1), at(e - 10, 0), 11); },
       [](std::uint64_t e) {
         return "upc_memcpy: src (thread 0, offset " + std::to_string(e - 10) +
                ") plus 11 bytes runs past the end of that thread's shared heap (" + std::to_string(e) + " bytes per thread) (thread 1)";
       }},
      {"dst of upc_memcpy past the end", [&](std::uint64_t e) { upc_memcpy(at(e, 1), at(64, 0), 1); },
       [](std::uint64_t e) { return "upc_memcpy: dst (thread 1, offset " + std::to_string(e) + ") plus 1 byte runs past the end"; }},
      {"null dst of upc_memget", [&](std::uint64_t) { upc_memget(nullptr, at(64, 0), 4); },
       [](std::uint64_t) { return std::string("upc_memget: dst is a null pointer (thread 1)"); }},
      {"null src of upc_memget", [&](std::uint64_t) { upc_memget(buf, nullptr, 4); },
       [](std::uint64_t) { return std::string("upc_memget: src is a null pointer-to-shared (thread 1)"); }},
      {"src of upc_memget past the end", [&](std::uint64_t e) { upc_memget(buf, at(e - 3, 0), 4); },
       [](std::uint64_t e) { return "upc_memget: src (thread 0, offset " + std::to_string(e - 3) + ") plus 4 bytes runs past the end"; }},
      {"src of upc_memget on no thread", [&](std::uint64_t) { upc_memget(buf, at(64, 9), 1); },
       [](std::uint64_t) { return std::string("upc_memget: src (thread 9, offset 64) names a thread that does not exist (THREADS is 2)"); }},
      {"null src of upc_memput", [&](std::uint64_t) { upc_memput(at(64, 0), nullptr, 4); },
       [](std::uint64_t) { return std::string("upc_memput: src is a null pointer (thread 1)"); }},
      {"dst of upc_memput past the end", [&](std::uint64_t e) { upc_memput(at(e - 1, 0), buf, 2); },
       [](std::uint64_t e) { return "upc_memput: dst (thread 0, offset " + std::to_string(e - 1) + ") plus 2 bytes runs past the end"; }},
      {"null dst of upc_memset", [&](std::uint64_t) { upc_memset(nullptr, 0, 1); },
       [](std::uint64_t) { return std::string("upc_memset: dst is a null pointer-to-shared (thread 1)"); }},
      {"dst of upc_memset far past the end", [&](std::uint64_t e) { upc_memset(at(e + 4096, 0), 0, 1); },
       [](std::uint64_t e) { return "upc_memset: dst (thread 0, offset " + std::to_string(e + 4096) + ") plus 1 byte runs past the end"; }},
  };
  for (upc::backend_kind b : spmd::backends)
    for (const error_case& ec : cases) {
      if (spmd::skip_run(2, b)) continue;
      INFO("backend ", std::string(spmd::name(b)), ": ", std::string(ec.what));
      // Partitions are the heap rounded up to pages.
      const std::uint64_t end = (spmd::options(2, b).heap_per_thread + 4095) / 4096 * 4096;
      upc::run_result r = spmd::run(spmd::options(2, b), [&] {
        SPMD_CHECK_EQ(upc::detail::g_partition_bytes, end);
        upc::sptr<void> a = upc_all_alloc(THREADS, 64);
        if (MYTHREAD == 1) ec.call(end);
        upc_barrier;
        upc_all_free(a);
      });
      INFO("error: ", r.error);
      CHECK(!r.ok());
      CHECK(r.failed_thread == 1);
      CHECK(contains(r.error, ec.message(end)));
    }
}

TEST_CASE("memops: the bytes up to the very end of a partition are reachable") {
  // Outside every object: what --check refuses, so never under UPCEMU_TEST_RACES.
  for (upc::backend_kind b : spmd::backends)
    for (int t : {1, 3}) {
      if (spmd::skip_run(t, b)) continue;
      upc::run_result r = spmd::run(spmd::options_unchecked(t, b), [] {
        const std::uint64_t end = upc::detail::g_partition_bytes;
        const int right = (MYTHREAD + 1) % THREADS;
        const upc::sptr<void> last(upc::shared_address{end - 16, static_cast<std::uint32_t>(right), 0});
        char in[17];
        upc_memget(in, last, 16);  // read only: the end of a partition belongs to its local heap
        upc_memget(in, upc::sptr<void>(upc::shared_address{end - 1, static_cast<std::uint32_t>(MYTHREAD), 0}), 1);
        upc_memcpy(upc::sptr<void>(upc::shared_address{end, 0, 0}), last, 0);  // one past the end, zero bytes
      });
      INFO("backend=", spmd::name(b), " THREADS=", t, " error: ", r.error);
      CHECK(r.ok());
    }
}

TEST_CASE("memops: under --check a upc_mem* range stays inside the part of one object that one thread holds") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    INFO("backend ", std::string(spmd::name(b)));
    upc::launch_options o = spmd::options(3, b);
    o.check = true;
    // Within a thread's part, across its blocks (contiguous there), is fine.
    upc::run_result ok = spmd::run(o, [] {
      upc::shared_array<int, 4> a{upc::per_thread(8)};  // two blocks of 4 per thread
      upc_forall (int i = 0; i < 8 * THREADS; i++, &a[i]) a[i] = i;
      upc_barrier;
      int got[8];
      const int right = (MYTHREAD + 1) % THREADS;
      upc_memget(got, &a[4 * right], sizeof got);  // both blocks of thread `right`
      SPMD_CHECK_EQ(got[0], 4 * right);
      SPMD_CHECK_EQ(got[4], 4 * right + 4 * THREADS);
      upc_memput(&a[4 * right], got, sizeof got);
      upc_barrier;
    });
    CHECK(ok.ok());
    // One element past the thread's part: the classroom mistake of a copy that
    // crosses into the next thread's block.
    upc::run_result r = spmd::run(o, [] {
      upc::shared_array<int, 4> a{upc::per_thread(4)};
      upc_barrier;
      int got[5];
      if (MYTHREAD == 2) upc_memget(got, &a[0], sizeof got);
      upc_barrier;
    });
    INFO("error: ", r.error);
    CHECK(r.failed_thread == 2);
    CHECK(contains(r.error, "upc_memget: src (thread 0, offset "));
    CHECK(contains(r.error, ") plus 20 bytes runs past the end of the shared_array<int, 4> of 12 elements declared at "));
    CHECK(contains(r.error, "on thread 0 (16 bytes of it from there): a upc_mem* copy reaches only the part of an object "
                            "that one thread holds; copy each thread's block separately (thread 2)"));
    // Free space (the middle of a partition, between the heaps) is no object.
    upc::run_result freed = spmd::run(o, [] {
      char buf[8];
      const upc::sptr<void> nowhere(upc::shared_address{upc::detail::g_partition_bytes / 2, 0, 0});
      if (MYTHREAD == 1) upc_memget(buf, nowhere, 8);
      upc_barrier;
    });
    INFO("error: ", freed.error);
    CHECK(freed.failed_thread == 1);
    CHECK(contains(freed.error, "upc_memget: src (thread 0, offset "));
    CHECK(contains(freed.error, ") is not inside any live shared object (freed or never allocated) (thread 1)"));
  }
}
