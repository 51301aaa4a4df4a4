// upc_all_reduceT_all (the allreduce of seed 003 §3.1 and seed 001): every
// algorithm, both backends, THREADS {1..16}, every IN × OUT flag, source arrays
// with several block sizes and phases. The expected value is computed here, in
// the order the determinism contract fixes (docs/collectives.md §6: each
// thread's elements folded in index order, then the partials in thread order;
// by blocks for UPC_NONCOMM_FUNC), independently of the engine; every thread's
// element dst + i must hold it, bit for bit, and nothing around it may change.
#include <cmath>
#include <cstring>
#include <vector>

#include "../support/spmd.hpp"
#include "upc/coll.hpp"
#include "upc_collective.h"

namespace {

double value(std::size_t k) {  // +-huge and small: the grouping shows in the rounding
  const double big = 1e16;
  return (k % 3 == 0) ? big * ((k % 2) ? -1.0 : 1.0) : std::ldexp(1.0 + 0.001 * double(k % 97), int(k % 13) - 6);
}
double noncomm(double a, double b) { return a + b; }

// The element k of shared [blk] double starting at phase `ph` on thread `t0`.
struct layout_of {
  std::size_t blk, ph;
  int t0, T;
  int thread_of(std::size_t k) const {
    if (blk == 0) return t0;
    const std::size_t v = std::size_t(t0) * blk + ph + k;
    return static_cast<int>((v / blk) % std::size_t(T));
  }
  std::size_t block_of(std::size_t k) const { return blk == 0 ? 0 : (std::size_t(t0) * blk + ph + k) / blk; }
};

double expected(const layout_of& L, std::size_t n, upc_op_t op) {
  auto combine = [op](double a, double b) {
    switch (op) {
      case UPC_MAX: return a < b ? b : a;
      case UPC_MIN: return b < a ? b : a;
      default: return a + b;  // ADD, NONCOMM_FUNC (a sum in the given order)
    }
  };
  if (op == UPC_NONCOMM_FUNC && L.blk != 0) {  // block partials in index order
    double acc = 0;
    bool have = false;
    for (std::size_t k = 0; k < n;) {
      const std::size_t b = L.block_of(k);
      double part = value(k++);
      while (k < n && L.block_of(k) == b) part = combine(part, value(k++));
      acc = have ? combine(acc, part) : part;
      have = true;
    }
    return acc;
  }
  std::vector<double> partial(std::size_t(L.T));
  std::vector<bool> have(std::size_t(L.T), false);
  for (std::size_t k = 0; k < n; ++k) {
    const auto t = std::size_t(L.thread_of(k));
    partial[t] = have[t] ? combine(partial[t], value(k)) : value(k);
    have[t] = true;
  }
  double acc = 0;
  bool any = false;
  for (int t = 0; t < L.T; ++t)
    if (have[std::size_t(t)]) {
      acc = any ? combine(acc, partial[std::size_t(t)]) : partial[std::size_t(t)];
      any = true;
    }
  return acc;
}

struct forced {
  explicit forced(const char* algorithm) { upc::coll::force_algorithm("allreduce", algorithm); }
  ~forced() { upc::coll::reset_algorithms(); }
};

void check_all(const char* algorithm) {
  forced f(algorithm);
  spmd::run_everywhere([] {
    const int T = THREADS;
    constexpr std::size_t guard = 2;  // untouched doubles each side of every thread's result
    // dst: shared double[...] with block size 1, guard elements around each thread's one.
    upc::sptr<void> src_area = upc_all_alloc(THREADS, 64 * sizeof(double));
    upc::sptr<void> dst_area = upc_all_alloc(THREADS, (2 * guard + 1) * sizeof(double));
    for (std::size_t blk : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8)})
      for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(5 * T + 2)}) {
        if (blk == 0 && n > 64) continue;
        if (blk != 0 && (n + 2 * blk) > 64 * std::size_t(T)) continue;
        for (upc_op_t op : {UPC_ADD, UPC_MAX, UPC_NONCOMM_FUNC})
          for (upc_flag_t in : {UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC})
            for (upc_flag_t out : {UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC}) {
              const int t0 = blk ? static_cast<int>(n % std::size_t(T)) : T - 1;
              const std::size_t ph = blk > 1 ? 1 : 0;
              // src = shared [blk] double starting at thread t0, phase ph.
              upc::shared_address sa = src_area.address();
              sa.thread = static_cast<std::uint32_t>(t0);
              sa.phase = static_cast<std::uint32_t>(ph);
              sa.offset += ph * sizeof(double);
              const layout_of L{blk, ph, t0, T};
              // Fill my source elements and poison my dst slots.
              for (std::size_t k = 0; k < n; ++k) {
                const upc::shared_address e = upc::layout::advance(sa, static_cast<std::ptrdiff_t>(k), sizeof(double), blk, T);
                if (static_cast<int>(e.thread) == MYTHREAD) *upc::sptr<double, upc::indefinite>(e).local() = value(k);
              }
              upc::shared_address da = dst_area.address();
              da.thread = static_cast<std::uint32_t>(MYTHREAD);
              double* slots = upc::sptr<double, upc::indefinite>(da).local();
              for (std::size_t i = 0; i < 2 * guard + 1; ++i) slots[i] = -1.0 - double(i);
              upc_barrier;
              // dst: element `guard` of the area on dst_thread. dst + i (block size 1) is on thread
              // (dst_thread + i) mod T, one row (one double) further on once it wraps past thread T-1.
              const int dst_thread = (t0 + 1) % T;
              const int i_mine = (MYTHREAD - dst_thread + T) % T;
              const std::size_t slot = guard + std::size_t((dst_thread + i_mine) / T);
              upc::shared_address dd = dst_area.address();
              dd.thread = static_cast<std::uint32_t>(dst_thread);
              dd.offset += guard * sizeof(double);
              upc_all_reduceD_all(upc::sptr<void>(dd), upc::sptr<void>(sa), op, n, blk, op == UPC_NONCOMM_FUNC ? noncomm : nullptr,
                                  in | out);
              if (out == UPC_OUT_NOSYNC) upc_barrier;
              const double want = expected(L, n, op);
              if (std::memcmp(&slots[slot], &want, sizeof want) != 0)
                throw spmd::check_failed("blk=" + std::to_string(blk) + " n=" + std::to_string(n) + " op=" + std::to_string(op) +
                                         " flags=" + std::to_string(in | out) + " thread " + std::to_string(MYTHREAD) +
                                         ": got " + std::to_string(slots[slot]) + ", expected " + std::to_string(want));
              for (std::size_t i = 0; i < 2 * guard + 1; ++i)
                if (i != slot) SPMD_CHECK_EQ(slots[i], -1.0 - double(i));
              upc_barrier;  // nobody reads the source any more
            }
      }
  }, {1, 2, 3, 4, 5, 7, 8, 16});
}

}  // namespace

TEST_CASE("upc_all_reduceT_all: algorithm flat, against an independent fold") { check_all("flat"); }
TEST_CASE("upc_all_reduceT_all: algorithm binomial, against an independent fold") { check_all("binomial"); }
TEST_CASE("upc_all_reduceT_all: algorithm push, against an independent fold") { check_all("push"); }
TEST_CASE("upc_all_reduceT_all: algorithm multicore on 1, 2 and 3 nodes and a cyclic map, against an independent fold") {
  for (auto [nodes, map] : {std::pair{1, "block"}, std::pair{2, "block"}, std::pair{3, "block"}, std::pair{2, "cyclic"}}) {
    spmd::topology_scope scope(nodes, map);
    check_all("multicore");
  }
}

TEST_CASE("upc_all_reduceT_all: every type letter exists and reduces integers exactly") {
  spmd::run_everywhere([] {
    upc::shared_array<long> src(upc::per_thread(2));
    upc::shared_array<long> dst(upc::per_thread(1));
    src[2 * MYTHREAD] = MYTHREAD + 1;
    src[2 * MYTHREAD + 1] = 10 * (MYTHREAD + 1);
    upc_all_reduceL_all(dst, src, UPC_ADD, 2 * THREADS, 2, nullptr, 0);
    const long T = THREADS;
    SPMD_CHECK_EQ(dst[MYTHREAD].get(), 11 * T * (T + 1) / 2);
  }, {1, 3, 8});
}

TEST_CASE("upc_all_reduceT_all: a dst element that overlaps the source is refused") {
  if (spmd::skip_run(3, upc::backend_kind::threads)) return;
  const std::string e = spmd::run_failing(3, upc::backend_kind::threads, [] {
    upc::shared_array<int> a(upc::per_thread(4));
    upc_all_reduceI_all(a, a, UPC_ADD, 4 * THREADS, 1, nullptr, 0);
  });
  CHECK(spmd::contains(e, "upc_all_reduceI_all: src and dst overlap on thread 0"));
}
