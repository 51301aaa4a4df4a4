// Collective arguments whose arithmetic would wrap, and areas larger than the
// object they point into (issue 8.8): each is a clear error naming the function
// and the argument, on every THREADS and both backends, never a crash or a write
// outside the object.
#include "../support/spmd.hpp"
#include "upc_collective.h"

namespace {
std::string fails(const std::function<void()>& body, int threads = 3,
                  upc::backend_kind b = upc::backend_kind::threads) {
  upc::launch_options o = spmd::options(threads, b);
  o.timeout_seconds = 30;
  upc::run_result r = upc::run(o, body);
  INFO("error: ", r.error);
  CHECK(r.failed);
  CHECK(r.exit_code == 1);
  return r.error.substr(0, r.error.find('\n'));
}
// The same, with the first line's expected text; under mpirun only where the
// run happens (spmd::skip_run).
void expect_refused(const std::function<void()>& body, int threads, upc::backend_kind b, const std::string& part) {
  if (spmd::skip_run(threads, b)) return;
  const std::string e = fails(body, threads, b);
  CHECK(spmd::contains(e, part));
}
constexpr std::size_t huge = std::size_t{1} << 62;
constexpr std::size_t minus_three = static_cast<std::size_t>(-3);
}  // namespace

TEST_CASE("collective sizes that would wrap are refused with the argument named (issue 8.8)") {
  for (upc::backend_kind b : spmd::backends) {
    expect_refused([] {
      upc::sptr<void> x = upc_all_alloc(THREADS, 64), y = upc_all_alloc(THREADS, 64);
      upc_all_exchange(y, x, huge, 0);  // nbytes x THREADS wraps
    }, 4, b,
        "upc_all_exchange: nbytes 4611686018427387904 is larger than a thread's whole shared heap");
    expect_refused([] {
      upc::sptr<void> x = upc_all_alloc(THREADS, 64), y = upc_all_alloc(THREADS, 64);
      upc_all_gather_all(y, x, (std::size_t{8} << 20), 0);  // fits a heap, but not THREADS of it
    }, 4, b,
        "upc_all_gather_all: nbytes x THREADS = 33554432 bytes (nbytes 8388608) is larger than a "
        "thread's whole shared heap");
    expect_refused([] {
      upc::sptr<void> x = upc_all_alloc(THREADS, 64), y = upc_all_alloc(THREADS, 64);
      upc_all_reduceD(y, x, UPC_ADD, huge, 1, nullptr, 0);  // nelems x sizeof wraps
    }, 3, b,
        "upc_all_reduceD: nelems x element size overflows (4611686018427387904 x 8)");
    for (const char* fn : {"reduce", "prefix", "sort"}) {
      INFO(fn);
      const std::string f = fn;
      expect_refused([f] {
        upc::sptr<void> x = upc_all_alloc(THREADS, 64), y = upc_all_alloc(THREADS, 64);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        if (f == "reduce") upc_all_reduceI(y, x, UPC_ADD, 10, minus_three, nullptr, 0);
        if (f == "prefix") upc_all_prefix_reduceI(y, x, UPC_ADD, 10, minus_three, nullptr, 0);
        if (f == "sort")
          upc_all_sort(x, sizeof(int), 10, minus_three,
                       [](upc::sptr<void>, upc::sptr<void>) { return 0; }, 0);
#pragma GCC diagnostic pop
      }, 3, b,
          "blk_size 18446744073709551613 (a negative value converted to size_t?) is larger than "
          "UPC_MAX_BLOCK_SIZE (4294967296)");
    }
    // blk_size x THREADS used to wrap to 0 and divide by it (SIGFPE).
    expect_refused([] {
      upc::sptr<void> x = upc_all_alloc(THREADS, 64), y = upc_all_alloc(THREADS, 64);
      upc_all_reduceC(y, x, UPC_ADD, 4, std::size_t{1} << 62, nullptr, 0);
    }, 4, b,
        "upc_all_reduceC: blk_size 4611686018427387904 is larger than UPC_MAX_BLOCK_SIZE");
  }
}

TEST_CASE("an area larger than the object it points into is refused (issue 8.8)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    SUBCASE("broadcast: nbytes larger than the destination blocks") {
      const std::string e = fails([] {
        upc::sptr<void> src = upc_all_alloc(THREADS, 4096);
        upc::sptr<void> dst = upc_all_alloc(THREADS, 1024);  // 1024 bytes per thread
        upc::sptr<void> next = upc_all_alloc(THREADS, 1024);  // what an overrun would overwrite
        (void)next;
        upc_all_broadcast(dst, src, 4096, 0);
      }, 3, b);
      CHECK(spmd::contains(e, "upc_all_broadcast: dst: 4096 bytes at offset "));
      CHECK(spmd::contains(e, "run past the end of the object it points into, the space of upc_all_alloc(nblocks 3, "
                              "nbytes 1024)"));
    }
    SUBCASE("gather: a destination too small for THREADS blocks") {
      const std::string e = fails([] {
        upc::sptr<void> src = upc_all_alloc(THREADS, 64);
        upc::sptr<void> small = upc_all_alloc(1, 64);  // 64 bytes on thread 0
        upc_all_gather(small, src, 64, 0);
      }, 3, b);
      CHECK(spmd::contains(e, "upc_all_gather: dst: 192 bytes at offset "));
      CHECK(spmd::contains(e, "run past the end of the object it points into"));
    }
    SUBCASE("a source that was freed") {
      const std::string e = fails([] {
        upc::sptr<void> src = upc_all_alloc(THREADS, 64), dst = upc_all_alloc(THREADS, 64);
        upc_all_free(src);
        upc_all_broadcast(dst, src, 64, 0);
      }, 3, b);
      CHECK(spmd::contains(e, "upc_all_broadcast: src: the 64 bytes at offset "));
      CHECK(spmd::contains(e, "are not inside any live shared object (freed, or never allocated)"));
    }
    SUBCASE("a reduction whose elements run past the source array") {
      const std::string e = fails([] {
        upc::shared_array<int> src(upc::per_thread(2));
        upc::shared<int> dst;
        upc_all_reduceI(&dst, src, UPC_ADD, 5 * THREADS, 1, nullptr, 0);
      }, 3, b);
      CHECK(spmd::contains(e, "upc_all_reduceI: src: "));
      CHECK(spmd::contains(e, "run past the end of the object it points into, the shared_array<int> of 6 elements declared at"));
    }
  }
}

TEST_CASE("areas inside their objects, at every offset and THREADS, pass") {
  spmd::run_everywhere([] {
    upc::sptr<void> src = upc_all_alloc(THREADS, 128), dst = upc_all_alloc(THREADS, 128 * THREADS);
    upc_all_broadcast(dst, src, 128, 0);
    upc_all_broadcast(upc::sptr<char, 64>(dst) + 64 * THREADS, src, 64, 0);  // the second half of each block
    upc_all_gather_all(dst, src, 128, 0);
    upc::shared_array<long> a(upc::per_thread(3));
    upc::shared<long> r;
    upc_all_reduceL(&r, a, UPC_ADD, 3 * THREADS, 1, nullptr, 0);
  });
}
