// The xupc library of seed 001 (<xupc_collective.h>): its names run the same
// engine paths as the standard and extended collectives, with the algorithm
// flags; the MPI-like reductions against a sequential fold in thread order.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../support/spmd.hpp"
#include "../support/xupc_runs.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "xupc_collective.h"

namespace {

const upc_flag_t sync_sets[] = {UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_MYSYNC | UPC_OUT_MYSYNC, UPC_IN_NOSYNC | UPC_OUT_NOSYNC};
const upc_flag_t algorithm_bits[] = {0, UPC_PULL, UPC_PUSH, UPC_MULTICORE};

using xupc_runs::everywhere;

unsigned char byte_of(int thread, std::size_t i, int round) { return static_cast<unsigned char>(thread * 37 + i * 11 + round * 5 + 1); }

// Order-sensitive values: a fold in another order gives other bits.
double value(int thread, std::size_t i) { return (thread % 2 ? 1e16 : 1.0) + 0.1 * static_cast<double>(i + 3 * thread); }
double noncomm(double a, double b) { return 2.0 * a + b; }

}  // namespace

TEST_CASE("xupc: broadcast, scatter, gather, gather_all, exchange and permute with every algorithm flag") {
  everywhere([] {
    upc_coll_init();  // the library's one-time initialisation (a no-op here), as its programs call it
    const int T = THREADS, me = MYTHREAD;
    constexpr std::size_t n = 301;
    upc::sptr<char> one = upc::sptr<char>(upc_all_alloc(1, n * T));
    upc::sptr<char> each = upc::sptr<char>(upc_all_alloc(T, n));
    upc::sptr<char> rows = upc::sptr<char>(upc_all_alloc(T, n * T));
    upc::sptr<char> rows2 = upc::sptr<char>(upc_all_alloc(T, n * T));
    upc::sptr<int> perm = upc::sptr<int>(upc_all_alloc(T, sizeof(int)));
    perm[me] = (me + 1) % T;
    auto mine = [&](upc::sptr<char> p) { return (p + me).local(); };  // my block (block size 1 pointer arithmetic)
    int round = 0;
    for (upc_flag_t bits : algorithm_bits)
      for (upc_flag_t sync : sync_sets) {
        const upc_flag_t f = bits | sync;
        ++round;
        // broadcast: thread 0's area to every block
        if (me == 0)
          for (std::size_t i = 0; i < n; ++i) one.local()[i] = static_cast<char>(byte_of(0, i, round));
        upc_barrier;
xupc_all_broadcast(each, one, n, f);
        upc_barrier;
        for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<unsigned char>(mine(each)[i]), byte_of(0, i, round));
        // scatter: piece t of thread 0's area to thread t
        if (me == 0)
          for (std::size_t i = 0; i < n * T; ++i) one.local()[i] = static_cast<char>(byte_of(static_cast<int>(i / n), i % n, round));
        upc_barrier;
        xupc_all_scatter(each, one, n, f);
        upc_barrier;
        for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<unsigned char>(mine(each)[i]), byte_of(me, i, round));
        // gather: back to thread 0's area
        upc_barrier;
        if (me == 0) std::memset(one.local(), 0, n * T);
        upc_barrier;
xupc_all_gather(one, each, n, f);
        upc_barrier;
        if (me == 0)
          for (std::size_t i = 0; i < n * T; ++i)
            SPMD_CHECK_EQ(static_cast<unsigned char>(one.local()[i]), byte_of(static_cast<int>(i / n), i % n, round));
        // gather_all: every block to every row
        xupc_all_gather_all(rows, each, n, f);
        upc_barrier;
        for (std::size_t i = 0; i < n * T; ++i)
          SPMD_CHECK_EQ(static_cast<unsigned char>(mine(rows)[i]), byte_of(static_cast<int>(i / n), i % n, round));
        for (std::size_t i = 0; i < n * T; ++i) mine(rows)[i] = static_cast<char>(byte_of(me, i, round));
        upc_barrier;
        xupc_all_exchange(rows2, rows, n, f);
        upc_barrier;
        for (int s = 0; s < T; ++s)
          for (std::size_t i = 0; i < n; ++i)
            SPMD_CHECK_EQ(static_cast<unsigned char>(mine(rows2)[std::size_t(s) * n + i]), byte_of(s, std::size_t(me) * n + i, round));
        // permute has no multicore algorithm: the flag is refused (below)
        if (bits == UPC_MULTICORE) continue;
        xupc_all_permute(each, rows, perm, n, f);
        upc_barrier;
        const int from = (me - 1 + T) % T;
        for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<unsigned char>(mine(each)[i]), byte_of(from, i, round));
        upc_barrier;
      }
    upc_barrier;
    if (me == 0) {
      upc_free(one);
      upc_free(each);
      upc_free(rows);
      upc_free(rows2);
      upc_free(perm);
    }
  });
}

TEST_CASE("xupc: broadcast in place from buffer's block, every algorithm flag") {
  everywhere([] {
    const int T = THREADS, me = MYTHREAD;
    constexpr std::size_t n = 1000;
    // two rows: buffer = element `root` of row 0, so the blocks of threads
    // below the root are in row 1 (shared [n] char from buffer's thread)
    upc::sptr<char> buf = upc::sptr<char>(upc_all_alloc(2 * T, n));
    int round = 0;
    for (upc_flag_t bits : algorithm_bits)
      for (upc_flag_t sync : sync_sets) {
        ++round;
        const int root = round % T;
        char* my_block = (buf + me).local() + (me < root ? n : 0);
        for (std::size_t i = 0; i < n; ++i) my_block[i] = static_cast<char>(byte_of(me, i, round));
        upc_barrier;
        xupc_all_broadcast_in_place(buf + root, n, bits | sync);
        upc_barrier;
        for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<unsigned char>(my_block[i]), byte_of(root, i, round));
        upc_barrier;
      }
    if (me == 0) upc_free(buf);
  });
}

TEST_CASE("xupc: reduceT_all spreads the result with the flag's algorithm") {
  everywhere([] {
    const int T = THREADS, me = MYTHREAD;
    upc::sptr<long> src = upc::sptr<long>(upc_all_alloc(T, 4 * sizeof(long)));
    upc::sptr<long> dst = upc::sptr<long>(upc_all_alloc(T, sizeof(long)));
    for (upc_flag_t bits : algorithm_bits)
      for (upc_flag_t sync : sync_sets) {
        upc::sptr<long, upc::indefinite> mine(upc::sptr<void>(src + me));
        for (int k = 0; k < 4; ++k) mine.local()[k] = me * 10 + k;
        dst[me] = -1;
        upc_barrier;
        xupc_all_reduceL_all(dst, src, UPC_ADD, 4 * static_cast<std::size_t>(T), 4, nullptr, bits | sync);
        upc_barrier;
        long want = 0;
        for (int t = 0; t < T; ++t)
          for (int k = 0; k < 4; ++k) want += t * 10 + k;
        SPMD_CHECK_EQ(static_cast<long>(dst[me]), want);
        upc_barrier;
      }
    if (me == 0) {
      upc_free(src);
      upc_free(dst);
    }
  });
}

TEST_CASE("xupc: reduceT_mpi and _mpi_all fold each element over the threads in thread order (Figure 5)") {
  everywhere([] {
    const int T = THREADS, me = MYTHREAD;
    for (std::size_t blk : {std::size_t(1), std::size_t(7), std::size_t(300)}) {
      upc::sptr<double> src = upc::sptr<double>(upc_all_alloc(T, blk * sizeof(double)));
      upc::sptr<double> all = upc::sptr<double>(upc_all_alloc(T, blk * sizeof(double)));
      upc::sptr<double> one = upc::sptr<double>(upc_all_alloc(1, blk * sizeof(double)));  // on thread 0
      double* my_block = upc::sptr<double, upc::indefinite>(upc::sptr<void>(src + me)).local();
      for (std::size_t i = 0; i < blk; ++i) my_block[i] = value(me, i);
      for (upc_op_t op : {UPC_ADD, UPC_MAX, UPC_NONCOMM_FUNC})
        for (upc_flag_t sync : sync_sets) {
          upc_barrier;
          xupc_all_reduceD_mpi(one, upc::sptr<void>(src), op, blk * T, blk, op == UPC_NONCOMM_FUNC ? noncomm : nullptr, sync);
          xupc_all_reduceD_mpi_all(all, upc::sptr<void>(src), op, blk * T, blk, op == UPC_NONCOMM_FUNC ? noncomm : nullptr,
                                    sync | (T > 1 ? UPC_PUSH : 0));
          upc_barrier;
          const double* got_all = upc::sptr<double, upc::indefinite>(upc::sptr<void>(all + me)).local();
          for (std::size_t i = 0; i < blk; ++i) {
            double want = value(0, i);
            for (int t = 1; t < T; ++t) {
              const double x = value(t, i);
              want = op == UPC_ADD ? want + x : op == UPC_MAX ? (x > want ? x : want) : noncomm(want, x);
            }
            if (me == 0) SPMD_CHECK(std::memcmp(&one.local()[i], &want, sizeof want) == 0);
            SPMD_CHECK(std::memcmp(&got_all[i], &want, sizeof want) == 0);
          }
        }
      upc_barrier;
      if (me == 0) {
        upc_free(src);
        upc_free(all);
        upc_free(one);
      }
    }
  });
}

TEST_CASE("xupc: bad arguments name the xupc function, the argument and the thread") {
  if (spmd::skip_run(3, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(3, upc::backend_kind::threads);
  upc::run_result r = upc::run(o, [] {
    upc::sptr<int> a = upc::sptr<int>(upc_all_alloc(THREADS, 4 * sizeof(int)));
    xupc_all_reduceI_mpi(a, a + 1, UPC_ADD, 10, 4, nullptr, 0);
  });
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_all_reduceI_mpi: nelems is 10, but must be blk_size x THREADS = 4 x 3"));
  r = upc::run(o, [] {
    upc::sptr<char> a = upc::sptr<char>(upc_all_alloc(THREADS, 8));
    xupc_all_broadcast(a, a, 0, 0);
  });
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_all_broadcast: nbytes must be > 0"));
  r = upc::run(o, [] {
    upc::sptr<char> a = upc::sptr<char>(upc_all_alloc(THREADS, 8));
    upc::sptr<char> b = upc::sptr<char>(upc_all_alloc(THREADS, 8));
    upc::sptr<int> perm = upc::sptr<int>(upc_all_alloc(THREADS, sizeof(int)));
    perm[MYTHREAD] = MYTHREAD;
    upc_barrier;
    xupc_all_permute(b, a, perm, 8, UPC_MULTICORE);
  });
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_all_permute: UPC_MULTICORE has no algorithm for permute"));
}

TEST_CASE("xupc: reduceT_mpi with UPC_MULTICORE gathers the blocks through the node roots") {
  // the blocks travel as a chunk list to the root: the node-aware chunk tree
  // (chunks_node_aware.cpp), on both backends and 3 emulated nodes
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(7, b)) continue;
    upc::launch_options o = spmd::options(7, b);
    o.nodes = 3;
    const upc::run_result r = upc::run(o, [] {
      upc::sptr<int, 4> src = upc::sptr<int, 4>(upc_all_alloc(THREADS, 4 * sizeof(int)));  // shared [4] int[4*THREADS]
      upc::sptr<int, 4> dst = upc::sptr<int, 4>(upc_all_alloc(1, 4 * sizeof(int)));  // on thread 0
      for (int i = 0; i < 4; ++i) src[MYTHREAD * 4 + i] = MYTHREAD * 10 + i;
      xupc_all_reduceI_mpi(dst, src, UPC_ADD, 4 * static_cast<size_t>(THREADS), 4, nullptr,
                           UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_MULTICORE);
      SPMD_CHECK(upc::coll::last_algorithm() == std::string("multicore"));
      upc_barrier;
      for (int i = 0; i < 4; ++i) SPMD_CHECK_EQ(static_cast<int>(dst[i]), 10 * THREADS * (THREADS - 1) / 2 + THREADS * i);
    });
    INFO(spmd::name(b), ": ", r.error);
    CHECK(r.ok());
  }
}

namespace {

// The documented grouping of a suffix reduction (docs/xupc.md): block totals
// folded from their ends, S_b = T_b op S_{b+1}, s_i = x_i op s_{i+1} inside a
// block, s_hi = x_hi op S_{b+1}.
template <class T, class Op>
std::vector<T> suffix_model(const std::vector<T>& x, std::size_t blk, Op op) {
  const std::size_t n = x.size(), b = blk ? blk : n;
  std::vector<T> s(n);
  bool have_after = false;
  T after{};
  for (std::size_t hi = ((n - 1) / b) * b + b; hi > 0; hi -= b) {
    const std::size_t lo = hi - b, end = std::min(hi, n);
    T acc = x[end - 1];
    if (have_after) acc = op(acc, after);
    s[end - 1] = acc;
    for (std::size_t i = end - 1; i-- > lo;) s[i] = acc = op(x[i], acc);
    T total = x[end - 1];
    for (std::size_t i = end - 1; i-- > lo;) total = op(x[i], total);
    after = have_after ? op(total, after) : total;
    have_after = true;
  }
  return s;
}

double left(double a, double) { return a; }
double right(double, double b) { return b; }

}  // namespace

TEST_CASE("xupc: suffix_reduceT folds from the end, block by block, the same bits everywhere (Figure 6)") {
  everywhere([] {
    const int T = THREADS, me = MYTHREAD;
    for (std::size_t blk : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8)})
      for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(5 * T + 2)}) {
        const std::size_t blocks = blk ? (n + blk - 1) / blk : 1;
        const std::size_t per_thread = blk ? ((blocks + T - 1) / T) * blk : n;
        upc::sptr<void> src = upc_all_alloc(blk ? T : 1, per_thread * sizeof(double));
        upc::sptr<void> dst = upc_all_alloc(blk ? T : 1, per_thread * sizeof(double));
        std::vector<double> x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = value(static_cast<int>(i % 3), i);
        auto at = [&](upc::sptr<void> base, std::size_t i) {
          return upc::layout::advance(base.address(), static_cast<std::ptrdiff_t>(i), sizeof(double), blk, T);
        };
        int round = 0;
        for (auto [op, fn] : {std::pair{UPC_ADD, static_cast<double (*)(double, double)>(nullptr)}, std::pair{UPC_NONCOMM_FUNC, &left},
                              std::pair{UPC_NONCOMM_FUNC, &right}, std::pair{UPC_NONCOMM_FUNC, &noncomm}})
          for (upc_flag_t bits : {upc_flag_t(0), upc_flag_t(UPC_PULL), upc_flag_t(UPC_PUSH)}) {
            const upc_flag_t sync = sync_sets[static_cast<std::size_t>(round++) % 3];
            for (std::size_t i = 0; i < n; ++i) {
              const upc::shared_address a = at(src, i), d = at(dst, i);
              if (static_cast<int>(a.thread) == me) *upc::sptr<double, upc::indefinite>(a).local() = x[i];
              if (static_cast<int>(d.thread) == me) *upc::sptr<double, upc::indefinite>(d).local() = -1;
            }
            upc_barrier;
            xupc_all_suffix_reduceD(dst, src, op, n, blk, fn, sync | bits);
            upc_barrier;
            auto f = [&](double a, double b) { return fn ? fn(a, b) : a + b; };
            const std::vector<double> want = suffix_model(x, blk, f);
            for (std::size_t i = 0; i < n; ++i) {
              const upc::shared_address d = at(dst, i);
              if (static_cast<int>(d.thread) != me) continue;
              const double got = *upc::sptr<double, upc::indefinite>(d).local();
              if (std::memcmp(&got, &want[i], sizeof got) != 0)
                throw spmd::check_failed("blk=" + std::to_string(blk) + " n=" + std::to_string(n) + " i=" + std::to_string(i) +
                                         ": got " + std::to_string(got) + ", expected " + std::to_string(want[i]));
            }
            upc_barrier;
          }
        if (me == 0) {
          upc_free(src);
          upc_free(dst);
        }
      }
  });
}

TEST_CASE("xupc: broadcast_v, gather_v and gather_all_v place every piece where ddisp says (Figures 8, 9)") {
  everywhere([] {
    const int T = THREADS, me = MYTHREAD;
    constexpr std::size_t src_blk = 6, dst_blk = 40;  // elements (int)
    upc::sptr<int> src = upc::sptr<int>(upc_all_alloc(T, src_blk * sizeof(int)));
    upc::sptr<void> dst = upc_all_alloc(T, dst_blk * sizeof(int));
    upc::sptr<void> area = upc_all_alloc(1, dst_blk * static_cast<std::size_t>(T) * sizeof(int));  // on thread 0
    upc::sptr<int, 1, upc::relaxed> ddisp = upc::sptr<int, 1, upc::relaxed>(upc_all_alloc(T, sizeof(int)));
    upc::sptr<int, 1, upc::relaxed> sdisp = upc::sptr<int, 1, upc::relaxed>(upc_all_alloc(T, sizeof(int)));
    upc::sptr<size_t, 1, upc::relaxed> counts = upc::sptr<size_t, 1, upc::relaxed>(upc_all_alloc(T, sizeof(size_t)));
    auto count_of = [](int i) { return static_cast<std::size_t>(i % 4);  /* zero counts included */ };
    int* my_src = upc::sptr<int, upc::indefinite>(upc::sptr<void>(src + me)).local();
    int* my_dst = upc::sptr<int, upc::indefinite>(upc::sptr<void>(upc::sptr<char>(dst) + me)).local();
    int round = 0;
    for (upc_flag_t bits : {upc_flag_t(0), upc_flag_t(UPC_PULL), upc_flag_t(UPC_PUSH)})
      for (upc_flag_t sync : sync_sets) {
        ++round;
        // broadcast_v: 5 elements of thread 0's block to index ddisp[i] of dst, in thread i's block
        for (std::size_t k = 0; k < src_blk; ++k) my_src[k] = me * 100 + static_cast<int>(k) + round;
        for (std::size_t k = 0; k < dst_blk; ++k) my_dst[k] = -1;
        ddisp[me] = me * static_cast<int>(dst_blk) + me % 3;
        upc_barrier;
        xupc_all_broadcast_v(dst, src, ddisp, 5, dst_blk, sizeof(int), sync | bits);
        upc_barrier;
        for (std::size_t k = 0; k < dst_blk; ++k) {
          const std::size_t at = static_cast<std::size_t>(me % 3);
          const int want = k >= at && k < at + 5 ? static_cast<int>(k - at) + round : -1;
          SPMD_CHECK_EQ(my_dst[k], want);
        }
        // gather_v: thread i's count_of(i) elements from index i*src_blk + 1, placed in reverse thread order
        upc_barrier;
        sdisp[me] = me * static_cast<int>(src_blk) + 1;
        counts[me] = count_of(me);
        std::size_t from_end = 0;
        for (int i = T - 1; i > me; --i) from_end += count_of(i);
        ddisp[me] = static_cast<int>(from_end);  // higher threads first
        int* a = me == 0 ? upc::sptr<int, upc::indefinite>(area).local() : nullptr;  // the root's area
        if (me == 0)
          for (std::size_t k = 0; k < dst_blk * T; ++k) a[k] = -1;
        upc_barrier;
        xupc_all_gather_v(area, src, ddisp, sdisp, counts, dst_blk * T, src_blk, sizeof(int), sync | bits);
        upc_barrier;
        if (me == 0) {
          std::size_t at = 0;
          for (int i = T - 1; i >= 0; --i)
            for (std::size_t k = 0; k < count_of(i); ++k) SPMD_CHECK_EQ(a[at++], i * 100 + static_cast<int>(k) + 1 + round);
          SPMD_CHECK_EQ(a[at], -1);
        }
        // gather_all_v: the same pieces into every block, piece i at ddisp[i]
        for (std::size_t k = 0; k < dst_blk; ++k) my_dst[k] = -1;
        upc_barrier;
        if (T * 3 <= static_cast<int>(dst_blk)) {
          xupc_all_gather_all_v(dst, src, ddisp, sdisp, counts, dst_blk, src_blk, sizeof(int), sync | bits);
          upc_barrier;
          std::size_t at = 0;
          for (int i = T - 1; i >= 0; --i)
            for (std::size_t k = 0; k < count_of(i); ++k) SPMD_CHECK_EQ(my_dst[at++], i * 100 + static_cast<int>(k) + 1 + round);
          SPMD_CHECK_EQ(my_dst[at], -1);
        }
        upc_barrier;
      }
    if (me == 0) {
      upc_free(src);
      upc_free(dst);
      upc_free(area);
      upc_free(ddisp);
      upc_free(sdisp);
      upc_free(counts);
    }
  });
}

TEST_CASE("xupc: a _v gather whose pieces overlap, run past dst_blk or start before dst is refused, naming the argument") {
  if (spmd::skip_run(2, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(2, upc::backend_kind::threads);
  auto attempt = [&](int d0, int d1, std::size_t dst_blk) {
    return upc::run(o, [&] {
      upc::sptr<int> src = upc::sptr<int>(upc_all_alloc(THREADS, 4 * sizeof(int)));
      upc::sptr<void> area = upc_all_alloc(1, 16 * sizeof(int));
      upc::sptr<int, 1, upc::relaxed> ddisp = upc::sptr<int, 1, upc::relaxed>(upc_all_alloc(THREADS, sizeof(int)));
      upc::sptr<int, 1, upc::relaxed> sdisp = upc::sptr<int, 1, upc::relaxed>(upc_all_alloc(THREADS, sizeof(int)));
      upc::sptr<size_t, 1, upc::relaxed> counts = upc::sptr<size_t, 1, upc::relaxed>(upc_all_alloc(THREADS, sizeof(size_t)));
      ddisp[MYTHREAD] = MYTHREAD ? d1 : d0;
      sdisp[MYTHREAD] = MYTHREAD * 4;
      counts[MYTHREAD] = 3;
      upc_barrier;
      xupc_all_gather_v(area, src, ddisp, sdisp, counts, dst_blk, 4, sizeof(int), 0);
    });
  };
  upc::run_result r = attempt(0, 2, 16);
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_all_gather_v: dst: chunks 0 and 1"));
  r = attempt(0, 14, 16);
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_all_gather_v: ddisp[1] = 14: 12 bytes from byte 56 run past dst_blk (16 elements)"));
  r = attempt(-1, 4, 16);
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_all_gather_v: ddisp[0] = -1 is negative"));
}
