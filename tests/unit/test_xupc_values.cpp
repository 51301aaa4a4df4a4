// <xupc_collectiveav.h>: xupc's collectives on private arrays of values (seed
// 001 Table I), against sequential expectations, on both backends, one and two
// nodes, THREADS 1-8.
#include <string>
#include <utility>
#include <vector>

#include "../support/spmd.hpp"
#include "../support/xupc_runs.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "xupc_collectiveav.h"

namespace {
using xupc_runs::everywhere;
long v(int thread, std::size_t k) { return thread * 1000 + static_cast<long>(k) * 7 + 3; }
}  // namespace

TEST_CASE("xupc_allv: data movement on private arrays of values") {
  everywhere([] {
    const int T = THREADS, me = MYTHREAD;
    for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(3000)}) {
      std::vector<long> mine(n), all(n * T), got(n), rows(n * T);
      for (std::size_t k = 0; k < n; ++k) mine[k] = v(me, k);
      for (std::size_t i = 0; i < n * T; ++i) all[i] = v(me, i) + 1;
      const int root = static_cast<int>(n % static_cast<std::size_t>(T));
      // broadcast: the root's array everywhere
      std::vector<long> b = mine;
      xupc_allv_broadcast(long, b.data(), n, root);
      for (std::size_t k = 0; k < n; ++k) SPMD_CHECK_EQ(b[k], v(root, k));
      // scatter: piece me of the root's array
      xupc_allv_scatter(long, got.data(), me == root ? all.data() : nullptr, n, root);
      for (std::size_t k = 0; k < n; ++k) SPMD_CHECK_EQ(got[k], v(root, me * n + k) + 1);
      // gather: everyone's array into the root's, by thread
      xupc_allv_gather(long, me == root ? rows.data() : nullptr, mine.data(), n, root);
      if (me == root)
        for (int t = 0; t < T; ++t)
          for (std::size_t k = 0; k < n; ++k) SPMD_CHECK_EQ(rows[t * n + k], v(t, k));
      // gather_all
      std::fill(rows.begin(), rows.end(), -1);
      xupc_allv_gather_all(long, rows.data(), mine.data(), n);
      for (int t = 0; t < T; ++t)
        for (std::size_t k = 0; k < n; ++k) SPMD_CHECK_EQ(rows[t * n + k], v(t, k));
      // exchange: piece j of thread i's array to piece i of thread j's
      std::vector<long> ex(n * T);
      xupc_allv_exchange(long, ex.data(), all.data(), n);
      for (int i = 0; i < T; ++i)
        for (std::size_t k = 0; k < n; ++k) SPMD_CHECK_EQ(ex[i * n + k], v(i, me * n + k) + 1);
      // permute: to the right neighbour
      xupc_allv_permute(long, got.data(), mine.data(), n, (me + 1) % T);
      for (std::size_t k = 0; k < n; ++k) SPMD_CHECK_EQ(got[k], v((me - 1 + T) % T, k));
    }
  });
}

TEST_CASE("xupc_allv: reductions over every thread's values") {
  everywhere([] {
    const int T = THREADS, me = MYTHREAD;
    for (std::size_t n : {std::size_t(1), std::size_t(6)}) {
      std::vector<long> mine(n);
      for (std::size_t k = 0; k < n; ++k) mine[k] = v(me, k);
      long sum = 0, mx = v(0, 0);
      for (int t = 0; t < T; ++t)
        for (std::size_t k = 0; k < n; ++k) {
          sum += v(t, k);
          mx = std::max(mx, v(t, k));
        }
      SPMD_CHECK_EQ(xupc_allv_reduce_all(long, mine.data(), n, UPC_ADD), sum);
      SPMD_CHECK_EQ(xupc_allv_reduce_all(long, mine.data(), n, UPC_MAX), mx);
      const long r = xupc_allv_reduce(long, mine.data(), n, T - 1, UPC_ADD);
      if (me == T - 1) SPMD_CHECK_EQ(r, sum);
      std::vector<long> pre(n);
      xupc_allv_prefix_reduce(long, pre.data(), mine.data(), n, UPC_ADD);
      long before = 0;
      for (int t = 0; t < me; ++t)
        for (std::size_t k = 0; k < n; ++k) before += v(t, k);
      for (std::size_t k = 0; k < n; ++k) {
        before += v(me, k);
        SPMD_CHECK_EQ(pre[k], before);
      }
      // doubles give the standard reduction's bits
      std::vector<double> d(n);
      for (std::size_t k = 0; k < n; ++k) d[k] = (me % 2 ? 1e16 : 1.0) + 0.5 * static_cast<double>(k);
      const double a = xupc_allv_reduce_all(double, d.data(), n, UPC_ADD);
      const double b = xupc_allv_reduce_all(double, d.data(), n, UPC_ADD);
      SPMD_CHECK(a == b);
    }
  });
}

TEST_CASE("xupc_allv: bad arguments name the function and the argument") {
  if (spmd::skip_run(3, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(3, upc::backend_kind::threads);
  upc::run_result r = upc::run(o, [] {
    long x = 1;
    xupc_allv_broadcast(long, &x, 1, 3);
  });
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_allv_broadcast: rootthread is 3, not a thread (THREADS is 3)"));
  r = upc::run(o, [] {
    long x = MYTHREAD, y = 0;
    xupc_allv_permute(long, &y, &x, 1, 0);
  });
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_allv_permute: tothread is not a permutation: threads 0 and 1 both send to thread 0"));
  r = upc::run(o, [] {
    long y = 0;
    xupc_allv_scatter(long, &y, nullptr, 1, 0);
  });
  CHECK(r.failed);
  CHECK(spmd::contains(r.error, "xupc_allv_scatter: rootsrc is a null pointer"));
}
