// The remap operator of seed 004 (include/upc/remap.hpp): the examples of
// §4.1, the FT 3-D transposes of §4.2, random maps, against sequential
// expectations on both backends and several THREADS counts; bad input; map saving.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "upc.h"
#include "upc/remap.hpp"

using namespace upc::remap;

namespace {

double value(const point& i) { return static_cast<double>(i[0] * 1000000 + i[1] * 10000 + i[2] * 100 + i[3]); }

// A's elements get value(i) (every thread writes its own block).
void fill(darray<double>& A) {
  A.for_each_mine([](const point& i, double& v) { v = value(i); });
}

// Every element of D, read by every thread, equals want(i) (flooded
// dimensions: every replica, through the thread's own block).
template <class F>
void expect_all(const darray<double>& D, F&& want) {
  upc_barrier;
  const layout::block b = D.my_block();
  if (!b.empty) {
    const double* mine = D.local();
    D.each_index(b, [&](const point& i, std::uint64_t k) { SPMD_CHECK_EQ(mine[k], want(i)); });
  }
  upc_barrier;
}

// The THREADS counts of issue 12's test matrix, both backends.
void everywhere(const std::function<void()>& body) { spmd::run_everywhere(body, {1, 2, 3, 4, 6, 8, 16}); }

// A row permutation of 1..n for row i (the same on every thread).
long perm_of(long i, long j, long n) { return ((j - 1) * 3 + i) % n + 1; }  // n not divisible by 3

}  // namespace

TEST_CASE("remap: transpose and row permute, gather and scatter (seed 004 §1, §4.1.1)") {
  everywhere([] {
    const long n = 7;
    const region R{{1, n}, {1, n}};
    darray<double> A(R, "A"), B(R, "B");
    darray<long> M(R, "M");
    fill(A);
    M.for_each_mine([&](const point& i, long& v) { v = perm_of(i[0], i[1], n); });
    gather(B, A, {Index2, Index1});  // B := A#[Index2, Index1]
    expect_all(B, [](const point& i) { return value({i[1], i[0]}); });
    scatter(B, {Index2, Index1}, A);  // B#[Index2, Index1] := A
    expect_all(B, [](const point& i) { return value({i[1], i[0]}); });
    gather(B, A, {Index1, M});  // row permute: B[i, j] = A[i, M[i, j]]
    expect_all(B, [&](const point& i) { return value({i[0], perm_of(i[0], i[1], n)}); });
    scatter(B, {Index1, M}, A);  // B[i, M[i, j]] = A[i, j]
    expect_all(B, [&](const point& i) {
      long j = 1;
      while (perm_of(i[0], j, n) != i[1]) ++j;
      return value({i[0], j});
    });
  });
}

TEST_CASE("remap: skew both ways, redistribute by the identity gather and scatter (§4.1.2, §4.1.3)") {
  everywhere([] {
    const long n = 6;
    const region R{{1, n}, {1, n}};
    darray<double> A(R, "A"), B(R, "B");
    darray<double> Z(R, grid{upc::threads(), 1}, "Z");  // rows only: another distribution
    fill(A);
    const map skew = expr([n](const point& i) { return (i[1] + i[0] - 2) % n + 1; }, 1);
    gather(B, A, {Index1, skew});
    expect_all(B, [&](const point& i) { return value({i[0], (i[1] + i[0] - 2) % n + 1}); });
    scatter(B, {Index1, skew}, A);  // the shift the other way
    expect_all(B, [&](const point& i) {
      long j = 1;
      while ((j + i[0] - 2) % n + 1 != i[1]) ++j;
      return value({i[0], j});
    });
    gather(Z, A, {Index1, Index2});  // Z := A#[Index1, Index2]: a redistribution
    expect_all(Z, [](const point& i) { return value(i); });
    gather(B, Z, {Index1, Index2});
    expect_all(B, [](const point& i) { return value(i); });
    scatter(B, {Index1, Index2}, Z);
    expect_all(B, [](const point& i) { return value(i); });
  });
}

TEST_CASE("remap: diagonal replicate into a flooded row, diagonal reduce with += (§4.1.4, §4.1.5)") {
  everywhere([] {
    const long n = 5;
    const region R{{1, n}, {1, n}};
    darray<double> A(R, "A"), B(R, "B");
    darray<double> Row({dim::flood(1, n), {1, n}}, "Row");
    fill(A);
    gather(Row, A, {Index2, Index2});  // [*, 1..n] Row := A#[Index2, Index2]
    expect_all(Row, [](const point& i) { return value({i[1], i[1]}); });
    B.for_each_mine([](const point&, double& v) { v = 0; });
    scatter(B, {Index2, Index2}, A, plus_for<double>());  // [R] B#[Index2, Index2] += A
    expect_all(B, [&](const point& i) {
      if (i[0] != i[1]) return 0.0;
      double s = 0;
      for (long r = 1; r <= n; ++r) s += value({r, i[1]});
      return s;
    });
  });
}

TEST_CASE("remap: the NAS FT 3-D transposes (§4.2) on 1-D and 2-D layouts") {
  everywhere([] {
    const long nx = 5, ny = 4, nz = 3;
    const region XYZ{{1, nx}, {1, ny}, {1, nz}}, YZX{{1, ny}, {1, nz}, {1, nx}};
    for (int layout_kind = 0; layout_kind < 2; ++layout_kind) {
      const int T = upc::threads();
      const grid g1 = layout_kind == 0 ? grid{T, 1, 1} : grid::automatic(3, T);
      darray<double> X1(XYZ, g1, "X1"), X2(YZX, g1, "X2"), X3(XYZ, g1, "X3");
      fill(X1);
      gather(X2, X1, {Index3, Index1, Index2});  // [RYZX] X2 := X1#[Index3, Index1, Index2]
      expect_all(X2, [](const point& i) { return value({i[2], i[0], i[1]}); });
      gather(X3, X2, {Index2, Index3, Index1});  // and back: [RXYZ] X3 := X2#[Index2, Index3, Index1]
      expect_all(X3, [](const point& i) { return value(i); });
    }
  });
}

TEST_CASE("remap: random permutations and maps with duplicates, ranks 1-4, against a sequential model") {
  everywhere([] {
    std::mt19937 rng(12345);  // the same numbers on every thread
    for (int rank = 1; rank <= 4; ++rank)
      for (int round = 0; round < 3; ++round) {
        std::vector<dim> dims;
        for (int d = 0; d < rank; ++d) dims.push_back({1, static_cast<long>(2 + rng() % (rank == 4 ? 2 : 4))});
        const region R(dims);
        const std::uint64_t N = R.elements();
        // linear position <-> point
        auto index_of = [&](std::uint64_t k) {
          point i{};
          for (int d = rank - 1; d >= 0; --d) {
            const std::uint64_t e = static_cast<std::uint64_t>(R[d].extent());
            i[static_cast<std::size_t>(d)] = R[d].lo + static_cast<long>(k % e);
            k /= e;
          }
          return i;
        };
        auto linear = [&](const point& i) {
          std::uint64_t k = 0;
          for (int d = 0; d < rank; ++d) k = k * static_cast<std::uint64_t>(R[d].extent()) + static_cast<std::uint64_t>(i[static_cast<std::size_t>(d)] - R[d].lo);
          return k;
        };
        std::vector<std::uint64_t> target(N);
        std::iota(target.begin(), target.end(), 0);
        std::shuffle(target.begin(), target.end(), rng);
        const bool duplicates = round == 2;
        if (duplicates)
          for (auto& t : target) t = rng() % N;
        darray<double> S(R, "S"), D(R, "D");
        std::vector<darray<long>*> maps_arrays;
        std::vector<map> maps;
        for (int d = 0; d < rank; ++d) {
          maps_arrays.push_back(new darray<long>(R, "M"));
          maps_arrays.back()->for_each_mine(
              [&](const point& i, long& v) { v = index_of(target[linear(i)])[static_cast<std::size_t>(d)]; });
          maps.push_back(*maps_arrays.back());
        }
        fill(S);
        gather(D, S, maps);  // D[i] = S[target(i)]
        expect_all(D, [&](const point& i) { return value(index_of(target[linear(i)])); });
        if (duplicates) {  // many-to-one: D[k] = the sum of S[i] over target(i) = k (exact: integer values)
          D.for_each_mine([](const point&, double& v) { v = 0; });
          scatter(D, maps, S, plus_for<double>());
          expect_all(D, [&](const point& i) {
            const std::uint64_t k = linear(i);
            double sum = 0;
            for (std::uint64_t j = 0; j < N; ++j)
              if (target[j] == k) sum += value(index_of(j));
            return sum;
          });
        } else {
          scatter(D, maps, S);  // D[target(i)] = S[i]
          expect_all(D, [&](const point& i) {
            const std::uint64_t k = linear(i);
            return value(index_of(static_cast<std::uint64_t>(std::find(target.begin(), target.end(), k) - target.begin())));
          });
        }
        for (auto* m : maps_arrays) delete m;
      }
  });
}

TEST_CASE("remap: map saving reuses a schedule until a map array changes on any thread (§4.5.1)") {
  everywhere([] {
    const long n = 6;
    const region R{{1, n}, {1, n}};
    darray<double> A(R, "A"), B(R, "B");
    darray<long> M(R, "M");
    fill(A);
    M.for_each_mine([&](const point& i, long& v) { v = perm_of(i[0], i[1], n); });
    gather(B, A, {Index1, M});
    SPMD_CHECK(!last_stats().reused);
    gather(B, A, {Index1, M});
    SPMD_CHECK(last_stats().reused);
    SPMD_CHECK_EQ(last_stats().inspector_seconds, 0.0);
    // one thread changes one element of the map: every thread rebuilds
    upc_barrier;
    if (MYTHREAD == upc::threads() - 1) M.set({n, 1}, 1 + (perm_of(n, 1, n) % n));  // now a duplicate in row n: still valid
    gather(B, A, {Index1, M});
    SPMD_CHECK(!last_stats().reused);
    expect_all(B, [&](const point& i) {
      const long j = (i[0] == n && i[1] == 1) ? 1 + (perm_of(n, 1, n) % n) : perm_of(i[0], i[1], n);
      return value({i[0], j});
    });
    options no_saving;
    no_saving.map_saving = false;  // NM
    gather(B, A, {Index1, M}, no_saving);
    SPMD_CHECK(!last_stats().reused);
    gather(B, A, {Index1, M}, no_saving);
    SPMD_CHECK(!last_stats().reused);
    forget_schedules();
  });
}

TEST_CASE("remap: bad maps are refused before the destination is written, naming the map, index, position and thread") {
  auto fails_with = [](const std::vector<std::string>& want, const std::function<void()>& body) {
    for (upc::backend_kind b : spmd::backends) {
      if (spmd::skip_run(4, b)) continue;
      upc::launch_options o = spmd::options(4, b);
      const upc::run_result r = upc::run(o, body);
      INFO(spmd::name(b), ": ", r.error);
      CHECK(r.failed);
      for (const std::string& w : want) CHECK(spmd::contains(r.error, w));
    }
  };
  fails_with({"upc::remap::gather", "map 2 (an expression) gives 9 at position (3, 4)", "outside the source region [1..4, 1..8]"},
             [] {
               darray<double> A(region{{1, 4}, {1, 8}}), B(region{{1, 4}, {1, 8}});
               gather(B, A, {Index1, expr([](const point& i) { return i[0] == 3 && i[1] == 4 ? 9 : i[1]; })});
             });
  fails_with({"upc::remap::gather", "1 maps given", "rank 2"}, [] {
    darray<double> A(region{{1, 4}, {1, 4}}), B(region{{1, 4}, {1, 4}});
    gather(B, A, {Index1});
  });
  fails_with({"upc::remap::scatter", "two elements of the source are scattered to (", "collisions to be an error"}, [] {
    darray<double> A(region{{1, 4}, {1, 4}}), B(region{{1, 4}, {1, 4}});
    scatter(B, {Index2, Index2}, A, assign_once);
  });
  fails_with({"upc::remap::gather", "map 1 (array M)", "must have the layout"}, [] {
    darray<double> A(region{{1, 4}, {1, 4}}), B(region{{1, 4}, {1, 4}});
    darray<long> M(region{{1, 4}, {1, 4}}, grid{1, 4}, "M");
    gather(B, A, {M, Index2});
  });
}

TEST_CASE("remap: split phase, with computation between start and completion (§4.5.2)") {
  everywhere([] {
    const long n = 9;
    const region R{{1, n}, {1, n}};
    darray<double> A(R, "A"), B(R, "B"), C(R, "C");
    fill(A);
    pending g = gather_start(B, A, {Index2, Index1});
    double work = 0;  // independent computation while the data moves
    for (int k = 0; k < 1000; ++k) work += k * 0.5;
    g.complete();
    SPMD_CHECK_EQ(work, 249750.0);
    expect_all(B, [](const point& i) { return value({i[1], i[0]}); });
    {
      pending s = scatter_start(C, {Index2, Index1}, A);  // completes when it goes out of scope
    }
    expect_all(C, [](const point& i) { return value({i[1], i[0]}); });
  });
}

TEST_CASE("remap: the NAS CG replicated-vector transpose (§4.3) on 2 x 4 and 4 x 4 grids, standard and src_ind") {
  for (int T : {8, 16})
    for (upc::backend_kind b : spmd::backends) {
      if (spmd::skip_run(T, b)) continue;
      const upc::run_result r = upc::run(spmd::options(T, b), [] {
        const long n = 16;
        const grid g = grid::automatic(2, upc::threads());  // 2 x 4 or 4 x 4
        darray<double> P({{1, n}, dim::flood(1, n)}, g, "P");  // column vector [1..n, *]
        darray<double> W({dim::flood(1, n), {1, n}}, g, "W");  // row vector [*, 1..n]
        P.for_each_mine([](const point& i, double& v) { v = 100.0 + static_cast<double>(i[0]); });
        // the standard transpose: W := P#[Index2, Index1]
        gather(W, P, {Index2, Index1});
        expect_all(W, [](const point& i) { return 100.0 + static_cast<double>(i[1]); });
        // the one-to-one pattern of Figure 2(c): each thread reads the replica src_ind selects
        const auto c = g.coords_of(upc::mythread());
        const long rows = g[0], cols = g[1];
        const long src_ind = c[0] * (n / rows) + (c[1] * (n / cols)) % ((n + rows - 1) / rows) + 1;
        gather(W, P, {Index2, expr([src_ind](const point&) { return src_ind; }, 42)});
        expect_all(W, [](const point& i) { return 100.0 + static_cast<double>(i[1]); });
        // one-to-one: I read from one thread, and one thread reads from me;
        // the piece is contiguous at both ends, so it goes straight from P to W (§4.5.5)
        SPMD_CHECK_EQ(last_stats().sources, 1);
        SPMD_CHECK_EQ(last_stats().readers, 1);
        SPMD_CHECK_EQ(last_stats().direct_puts, 1);
        options nd;
        nd.direct = false;
        gather(W, P, {Index2, expr([src_ind](const point&) { return src_ind; }, 42)}, nd);
        expect_all(W, [](const point& i) { return 100.0 + static_cast<double>(i[1]); });
        SPMD_CHECK_EQ(last_stats().direct_puts, 0);
      });
      INFO("THREADS=", T, " ", spmd::name(b), ": ", r.error);
      CHECK(r.ok());
    }
}

TEST_CASE("remap: every optimization on and off gives the same results; compressed schedules are small (§4.5.3, §4.5.5)") {
  everywhere([] {
    const long nx = 16, ny = 12, nz = 8;
    const region XYZ{{1, nx}, {1, ny}, {1, nz}}, YZX{{1, ny}, {1, nz}, {1, nx}};
    const int T = upc::threads();
    darray<double> X1(XYZ, grid{T, 1, 1}, "X1"), X2(YZX, grid{T, 1, 1}, "X2");
    darray<long> M(YZX, grid{T, 1, 1}, "M");
    fill(X1);
    M.for_each_mine([&](const point& i, long& v) { v = (i[2] * 5) % nx + 1; });  // a permutation of 1..16
    std::uint64_t compressed_map = 0, raw_map = 0;
    for (int mask = 0; mask < 8; ++mask) {
      options o;
      o.map_saving = !(mask & 1);
      o.compression = !(mask & 2);
      o.direct = !(mask & 4);
      if (mask == 7) o = options::none();  // NO: every optimization off
      for (int round = 0; round < 2; ++round) {  // the second round reuses the saved schedule, if any
        gather(X2, X1, {Index3, Index1, Index2}, o);
        expect_all(X2, [](const point& i) { return value({i[2], i[0], i[1]}); });
        gather(X2, X1, {M, Index1, Index2}, o);
        expect_all(X2, [&](const point& i) { return value({(i[2] * 5) % nx + 1, i[0], i[1]}); });
        gather(X2, X1, {Index3, Index1, Index2}, o);
        if (mask == 1) {
          compressed_map = last_stats().map_bytes + last_stats().index_bytes;
          // the transpose's schedule: one run per list, two lists per thread pair
          SPMD_CHECK(last_stats().runs <= 2u * static_cast<unsigned>(T));
        }
        if (mask == 3) raw_map = last_stats().map_bytes + last_stats().index_bytes;
        SPMD_CHECK_EQ(last_stats().compressed, o.compression);
      }
    }
    // (lists of a few elements per thread pair, at 16 threads here, are kept
    // encoded whatever their size: the encoder judges from 32 elements on)
    if (X2.local_size() / static_cast<std::uint64_t>(T) >= 32) SPMD_CHECK(compressed_map * 2 < raw_map);
    // in place: A := A#[…] with every optimization on
    darray<double> Y(XYZ, grid{T, 1, 1}, "Y");
    fill(Y);
    gather(Y, Y, {Index1, Index2, expr([nz](const point& i) { return nz + 1 - i[2]; }, 7)});
    expect_all(Y, [&](const point& i) { return value({i[0], i[1], nz + 1 - i[2]}); });
    forget_schedules();
  });
}

TEST_CASE("remap: dead source and destination reuse: the FT transpose without data buckets (§4.5.4)") {
  everywhere([] {
    const long nx = 8, ny = 6, nz = 4;
    const region XYZ{{1, nx}, {1, ny}, {1, nz}}, YZX{{1, ny}, {1, nz}, {1, nx}};
    const int T = upc::threads();
    for (bool reuse : {true, false}) {  // NB: the same result with buckets of their own
      darray<double> X1(XYZ, grid{T, 1, 1}, "X1"), X2(YZX, grid{T, 1, 1}, "X2");
      fill(X1);
      options o;
      o.dead_source = o.dead_destination = true;  // X1 is not read again, X2's old contents do not matter
      o.reuse = reuse;
      for (int round = 0; round < 2; ++round) {
        if (round) fill(X1);  // (the first round destroyed it)
        gather(X2, X1, {Index3, Index1, Index2}, o);
        expect_all(X2, [](const point& i) { return value({i[2], i[0], i[1]}); });
        SPMD_CHECK_EQ(last_stats().reused_dead_arrays, reuse);
        // where my pieces fit in my dead block of X1: no data buckets of their own
        const bool fits = X2.local_size() <= X1.local_size();
        if (reuse && fits) SPMD_CHECK_EQ(last_stats().bucket_bytes, 0u);
        else SPMD_CHECK_EQ(last_stats().bucket_bytes, X2.local_size() * sizeof(double));
      }
    }
    forget_schedules();
  });
}

TEST_CASE("remap: the UPC form on blocked shared arrays: dst[i] = src[idx[i]] and dst[idx[i]] = src[i]") {
  everywhere([] {
    const std::size_t n = 23, nblocks = (n + 2) / 3;
    upc::sptr<double, 3> a(upc_all_alloc(nblocks, 3 * sizeof(double)));  // shared [3] double a[23]
    upc::sptr<double, 3> d(upc_all_alloc(nblocks, 3 * sizeof(double)));
    upc::sptr<long, 3> idx(upc_all_alloc(nblocks, 3 * sizeof(long)));
    auto target = [&](std::size_t i) { return static_cast<long>((i * 7 + 3) % n); };  // a permutation (7 and 23 coprime)
    if (MYTHREAD == 0)
      for (std::size_t i = 0; i < n; ++i) {
        a[static_cast<std::ptrdiff_t>(i)] = 10.0 * static_cast<double>(i);
        idx[static_cast<std::ptrdiff_t>(i)] = target(i);
      }
    upc_barrier;
    shared_view<double> A(a, n, "a"), D(d, n, "d");
    shared_view<long> I(idx, n, "idx");
    gather(D, A, {I});
    for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<double>(d[static_cast<std::ptrdiff_t>(i)]), 10.0 * static_cast<double>(target(i)));
    scatter(D, {I}, A);
    for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<double>(d[static_cast<std::ptrdiff_t>(target(i))]), 10.0 * static_cast<double>(i));
    // an index array written through pointers-to-shared: the next remap sees it (never saved)
    upc_barrier;
    if (MYTHREAD == 0) idx[0] = 5;
    gather(D, A, {I});
    SPMD_CHECK(!last_stats().reused);
    SPMD_CHECK_EQ(static_cast<double>(d[0]), 50.0);
    // the index arithmetic of another block size is another layout: refused by name
    upc_barrier;
  });
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    const upc::run_result r = upc::run(spmd::options(3, b), [] {
      upc::sptr<double, 3> a(upc_all_alloc(4, 3 * sizeof(double)));
      upc::sptr<long, 2> idx(upc_all_alloc(6, 2 * sizeof(long)));
      shared_view<double> A(a, 12, "a"), D(a, 12, "d");
      shared_view<long> I(idx, 12, "idx");
      gather(D, A, {I});
    });
    INFO(spmd::name(b), ": ", r.error);
    CHECK(r.failed);
    CHECK(spmd::contains(r.error, "map 1 (array idx)"));
    CHECK(spmd::contains(r.error, "must have the layout"));
  }
}

TEST_CASE("remap: the scatter's direct transfers (§4.5.5): straight runs read in place, written in place") {
  everywhere([] {
    const long n = 12;
    const region R{{1, n}, {1, n}};
    const int T = upc::threads();
    darray<double> A(R, grid{T, 1}, "A"), B(R, grid{T, 1}, "B"), C(R, grid{1, T}, "C");
    fill(A);
    for (bool direct : {true, false}) {
      options o;
      o.direct = direct;
      scatter(B, {Index1, Index2}, A, assign, o);  // the same layout: every bucket straight at both ends
      expect_all(B, [](const point& i) { return value(i); });
      if (A.local_size() > 0) SPMD_CHECK_EQ(last_stats().direct_puts > 0, direct);
      scatter(C, {Index1, Index2}, A, assign, o);  // rows to columns: runs of the source, scattered into C
      expect_all(C, [](const point& i) { return value(i); });
      scatter(B, {Index2, Index1}, A, plus_for<double>(), o);  // combining: read in place, never written in place
      expect_all(B, [](const point& i) { return value(i) + value({i[1], i[0]}); });
    }
    forget_schedules();
  });
}

namespace {
void keep_larger_magnitude(double& d, const double& v) {
  if (std::abs(v) > std::abs(d)) d = v;
}
}  // namespace

TEST_CASE("remap: rank change, the matrix product of §4.1.6, and min / max / user combining") {
  everywhere([] {
    const long n = 4;
    const region R{{1, n}, {1, n}};
    darray<double> A(R, "A"), B(R, "B"), P(R, "P");
    A.for_each_mine([](const point& i, double& v) { v = static_cast<double>(i[0] + 2 * i[1]); });
    B.for_each_mine([](const point& i, double& v) { v = static_cast<double>(i[0] * i[1] - 1); });
    // [IJ] A3 := A#[Index1, Index2]; [JK] B3 := B#[Index2, Index3] (2-D promoted into 3-D, flooded)
    darray<double> A3({{1, n}, {1, n}, dim::flood(1, n)}, "A3"), B3({dim::flood(1, n), {1, n}, {1, n}}, "B3");
    gather(A3, A, {Index1, Index2});
    gather(B3, B, {Index2, Index3});
    // [IJK] the products, then C#[Index1, 1, Index3] += them (the reduction over j, by a combining scatter)
    darray<double> T3({{1, n}, {1, n}, {1, n}}, "T3"), C({{1, n}, {1, 1}, {1, n}}, "C");
    darray<double> A3k({{1, n}, {1, n}, {1, n}}, "A3k"), B3i({{1, n}, {1, n}, {1, n}}, "B3i");
    gather(A3k, A3, {Index1, Index2, Index3});  // read the flooded arrays at every (i, j, k)
    gather(B3i, B3, {Index1, Index2, Index3});
    {
      double* t = T3.local();
      const double* a = A3k.local();
      const double* b = B3i.local();
      for (std::uint64_t k = 0; k < T3.local_size(); ++k) t[k] = a[k] * b[k];
    }
    C.for_each_mine([](const point&, double& v) { v = 0; });
    scatter(C, {Index1, expr([](const point&) { return 1L; }, 5), Index3}, T3, plus_for<double>());
    // [R] P := C#[Index1, 1, Index2]: back to rank 2
    gather(P, C, {Index1, expr([](const point&) { return 1L; }, 5), Index2});
    expect_all(P, [&](const point& i) {
      double s = 0;
      for (long j = 1; j <= n; ++j) s += static_cast<double>(i[0] + 2 * j) * static_cast<double>(j * i[1] - 1);
      return s;
    });
    // min, max and a user function as the collision rule: column extremes onto the diagonal
    darray<double> D(R, "D");
    D.for_each_mine([](const point&, double& v) { v = 1e9; });
    scatter(D, {Index2, Index2}, A, min_for<double>());
    expect_all(D, [&](const point& i) { return i[0] == i[1] ? static_cast<double>(1 + 2 * i[1]) : 1e9; });
    D.for_each_mine([](const point&, double& v) { v = -1e9; });
    scatter(D, {Index2, Index2}, A, max_for<double>());
    expect_all(D, [&](const point& i) { return i[0] == i[1] ? static_cast<double>(n + 2 * i[1]) : -1e9; });
    D.for_each_mine([](const point&, double& v) { v = 0; });
    scatter(D, {Index2, Index2}, B, with<double, keep_larger_magnitude>());
    expect_all(D, [&](const point& i) { return i[0] == i[1] ? static_cast<double>(n * i[1] - 1) : 0.0; });
  });
}
