// Multi-dimensional shared arrays (issue 8, friction: `shared [B] T a[N][M]` had to
// be flattened by hand). Every address is checked against UPC's formulas written
// here, independently of include/upc/layout.hpp and shared_md.hpp:
//
//   element (i0, ..., i(R-1)) of `shared [B] T a[E0]...[E(R-1)]` has the flat,
//   row-major index k = (...(i0*E1 + i1)*E2 + ...)*E(R-1) + i(R-1), and then, as
//   in one dimension, thread = (k/B) % THREADS, phase = k % B,
//   local = ((k/B)/THREADS)*B + k%B elements from the base in its partition;
//   B = 0: thread 0, phase 0, local = k.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "../support/spmd.hpp"

namespace {

struct place {
  std::size_t thread, phase, local;
};
place expected_place(std::size_t k, std::size_t B, std::size_t T) {
  if (B == 0) return {0, 0, k};
  return {(k / B) % T, k % B, ((k / B) / T) * B + k % B};
}
template <std::size_t R>
std::size_t row_major(const std::array<std::size_t, R>& idx, const std::array<std::size_t, R>& ext) {
  std::size_t k = 0;
  for (std::size_t d = 0; d < R; ++d) k = k * ext[d] + idx[d];
  return k;
}
std::size_t localsize_closed(std::size_t n, std::size_t B, std::size_t T, std::size_t E) {
  if (B == 0) return n * E;
  const std::size_t blocks = (n + B - 1) / B;
  return (blocks + T - 1) / T * B * E;
}

template <class P>
void check_place(const P& p, const upc::sptr<void>& base, std::size_t k, std::size_t B, std::size_t E,
                 const std::string& what) {
  const place w = expected_place(k, B, static_cast<std::size_t>(THREADS));
  if (upc_threadof(p) != w.thread || upc_phaseof(p) != w.phase || upc_addrfield(p) != upc_addrfield(base) + w.local * E)
    throw spmd::check_failed(what + " (flat " + std::to_string(k) + ", B=" + std::to_string(B) + ", THREADS=" +
                             std::to_string(THREADS) + ") is (thread " + std::to_string(upc_threadof(p)) + ", phase " +
                             std::to_string(upc_phaseof(p)) + ", addrfield +" +
                             std::to_string(upc_addrfield(p) - upc_addrfield(base)) + "), expected (" +
                             std::to_string(w.thread) + ", " + std::to_string(w.phase) + ", +" +
                             std::to_string(w.local * E) + ")");
}

double value(std::size_t k) { return 0.5 + static_cast<double>(k); }

// Everything about one `shared [B] double m[R][C]`.
template <std::size_t B>
void two_dimensional(std::size_t R, std::size_t C) {
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  const std::size_t n = R * C, E = sizeof(double);
  upc::shared_array2d<double, B> m(R, C);
  const upc::sptr<void> base = m;
  SPMD_CHECK_EQ(m.size(), n);
  SPMD_CHECK_EQ(m.extent(0), R);
  SPMD_CHECK_EQ(m.extent(1), C);
  SPMD_CHECK_EQ(upc_threadof(base), 0u);
  SPMD_CHECK_EQ(upc_blocksizeof(m), B);
  SPMD_CHECK_EQ(upc_elemsizeof(m), E);
  SPMD_CHECK_EQ(upc_localsizeof(m), localsize_closed(n, B, T, E));

  for (std::size_t i = 0; i < R; ++i) {
    // m[i] decays to a pointer to m[i][0], with that element's phase.
    const upc::sptr<double, B> row = m[i];
    check_place(row, base, i * C, B, E, "m[" + std::to_string(i) + "]");
    SPMD_CHECK(row == m[i].data());
    SPMD_CHECK_EQ(m[i].size(), C);
    for (std::size_t j = 0; j < C; ++j) {
      const std::size_t k = row_major<2>({i, j}, {R, C});
      check_place(&m[i][j], base, k, B, E, "&m[" + std::to_string(i) + "][" + std::to_string(j) + "]");
      SPMD_CHECK(&m(i, j) == &m[i][j]);
      SPMD_CHECK(row + static_cast<std::ptrdiff_t>(j) == &m[i][j]);  // pointer arithmetic runs along the row
      SPMD_CHECK(m.data() + static_cast<std::ptrdiff_t>(k) == &m[i][j]);
    }
  }
  if (n > 0) SPMD_CHECK_EQ(static_cast<double>(m[R - 1][C - 1]), 0.0);  // zero-filled
  upc_barrier;

  // Owners write through local pointers at the formula's local offsets.
  double* local_base = nullptr;
  for (std::size_t k = 0; k < n && !local_base; ++k)
    if (expected_place(k, B, T).thread == me) local_base = (&m[k / C][k % C]).local() - expected_place(k, B, T).local;
  for (std::size_t k = 0; k < n; ++k) {
    const place p = expected_place(k, B, T);
    if (p.thread != me) continue;
    SPMD_CHECK((&m[k / C][k % C]).local() == local_base + p.local);
    local_base[p.local] = value(k);
  }
  upc_barrier;
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < C; ++j) {
      SPMD_CHECK_EQ(static_cast<double>(m[i][j]), value(i * C + j));
      SPMD_CHECK_EQ(static_cast<double>(m(i, j)), value(i * C + j));
    }

  // my_indices gives exactly my elements, in row-major order, as (i, j).
  std::vector<std::size_t> mine;
  for (auto [i, j] : upc::my_indices(m)) {
    SPMD_CHECK(i < R && j < C);
    mine.push_back(i * C + j);
  }
  std::vector<std::size_t> want;
  for (std::size_t k = 0; k < n; ++k)
    if (expected_place(k, B, T).thread == me) want.push_back(k);
  SPMD_CHECK(mine == want);

  // upc_forall with the address of an element (the outer loop, with
  // UPC_CONTINUE, does not control), and with a row as affinity.
  std::size_t visited = 0, rows_run = 0;
  upc_forall (std::size_t i = 0; i < R; i++, UPC_CONTINUE) {
    upc_forall (std::size_t j = 0; j < C; j++, &m[i][j]) ++visited;
  }
  upc_forall (std::size_t i = 0; i < R; i++, m[i]) ++rows_run;
  SPMD_CHECK_EQ(visited, want.size());
  std::size_t rows_owned = 0;
  for (std::size_t i = 0; i < R; ++i) rows_owned += expected_place(i * C, B, T).thread == me;
  SPMD_CHECK_EQ(rows_run, rows_owned);
  upc_barrier;
}

void three_dimensional(std::size_t X, std::size_t Y, std::size_t Z) {
  constexpr std::size_t B = 5;
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  upc::shared_md<int, 3, B> t(X, Y, Z);  // shared [5] int t[X][Y][Z];
  const upc::sptr<void> base = t;
  SPMD_CHECK_EQ(upc_localsizeof(t), localsize_closed(X * Y * Z, B, T, sizeof(int)));
  for (std::size_t x = 0; x < X; ++x) {
    check_place(upc::sptr<int, B>(t[x]), base, x * Y * Z, B, sizeof(int), "t[x]");
    for (std::size_t y = 0; y < Y; ++y) {
      check_place(upc::sptr<int, B>(t[x][y]), base, (x * Y + y) * Z, B, sizeof(int), "t[x][y]");
      for (std::size_t z = 0; z < Z; ++z) {
        const std::size_t k = row_major<3>({x, y, z}, {X, Y, Z});
        check_place(&t[x][y][z], base, k, B, sizeof(int), "&t[x][y][z]");
        SPMD_CHECK(&t(x, y, z) == &t[x][y][z]);
        if (upc_threadof(&t[x][y][z]) == me) t[x][y][z] = static_cast<int>(k);
      }
    }
  }
  upc_barrier;
  std::size_t count = 0;
  for (auto [x, y, z] : upc::my_indices(t)) {
    const std::size_t k = row_major<3>({x, y, z}, {X, Y, Z});
    SPMD_CHECK_EQ(expected_place(k, B, T).thread, me);
    SPMD_CHECK_EQ(static_cast<int>(t(x, y, z)), static_cast<int>(k));
    ++count;
  }
  std::size_t want = 0;
  for (std::size_t k = 0; k < X * Y * Z; ++k) want += expected_place(k, B, T).thread == me;
  SPMD_CHECK_EQ(count, want);
  upc_barrier;
}

}  // namespace

TEST_CASE("shared_md: elements are laid out row-major and blocked over the flat index (UPC 1.3 §6.5.1.1)") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        two_dimensional<1>(3, 5);             // shared double m[3][5];
        two_dimensional<3>(4, 7);             // rows that start mid-block
        two_dimensional<7>(T + 1, 7);         // shared [7] double m[THREADS+1][7]: one row per block
        two_dimensional<upc::indefinite>(2, 6);
        two_dimensional<4>(1, 1);
        two_dimensional<2>(0, 3);             // no elements
        three_dimensional(2, 3, 4);
        three_dimensional(T, 2, 3);
      },
      {1, 2, 3, 4, 7});
}

// shared [N] int a[THREADS][N]: the classic layout with row t on thread t, with
// THREADS in a dimension (upc::per_thread(1)) and in a size function.
constexpr std::size_t md_row = 6;
upc::shared_array2d<int, md_row> md_rows(upc::per_thread(1), md_row);
upc::shared_array2d<long> md_cyclic([] { return 2 * static_cast<std::size_t>(THREADS); }, 3);  // shared long c[2*THREADS][3];

TEST_CASE("shared_md: shared [N] int a[THREADS][N] at namespace scope puts row t on thread t") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        SPMD_CHECK_EQ(md_rows.extent(0), T);
        SPMD_CHECK_EQ(md_rows.extent(1), md_row);
        for (std::size_t j = 0; j < md_row; ++j) SPMD_CHECK_EQ(static_cast<int>(md_rows[me][j]), 0);
        upc_barrier;
        int* mine = static_cast<int*>(md_rows[me]);  // my whole row, privatised
        SPMD_CHECK(mine == md_rows[me].data().local());
        for (std::size_t j = 0; j < md_row; ++j) mine[j] = static_cast<int>(me * 100 + j);
        for (std::size_t t = 0; t < T; ++t) SPMD_CHECK_EQ(upc_threadof(md_rows[t].data()), t);
        SPMD_CHECK_EQ(upc_localsizeof(md_rows), md_row * sizeof(int));
        // shared long c[2*THREADS][3] (block 1): element k on thread k % THREADS.
        for (std::size_t i = 0; i < 2 * T; ++i)
          for (std::size_t j = 0; j < 3; ++j) SPMD_CHECK_EQ(upc_threadof(&md_cyclic[i][j]), (i * 3 + j) % T);
        upc_barrier;
        for (std::size_t t = 0; t < T; ++t)
          for (std::size_t j = 0; j < md_row; ++j) SPMD_CHECK_EQ(static_cast<int>(md_rows(t, j)), static_cast<int>(t * 100 + j));
        upc_barrier;
        for (std::size_t j = 0; j < md_row; ++j) mine[j] = 0;  // namespace-scope data is kept across runs
        upc_barrier;
      },
      {1, 3, 4});
}

TEST_CASE("shared_md: under --check an index past its dimension names the index, the dimension and the shape") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    upc::launch_options o = spmd::options(3, b);
    o.check = true;
    const upc::run_result r = upc::run(o, [] {
      upc::shared_array2d<int, 2> m(4, 5);
      upc::shared_md<char, 3> t(2, 3, 4);
      SPMD_CHECK_EQ(static_cast<int>(m[3][4]), 0);  // the last element is fine
      SPMD_CHECK_ERROR((void)m[4], "index 4 is out of bounds for dimension 0 of the shared array [4][5]");
      SPMD_CHECK_ERROR((void)m[1][5], "index 5 is out of bounds for dimension 1 of the shared array [4][5]");
      SPMD_CHECK_ERROR((void)m(0, 7), "index 7 is out of bounds for dimension 1");
      SPMD_CHECK_ERROR((void)m(9, 0), "shared_array()");
      SPMD_CHECK_ERROR((void)t[1][3][0], "dimension 1 of the shared array [2][3][4] (that dimension has 3 elements");
      SPMD_CHECK_ERROR((void)t[1][2][4], "index 4 is out of bounds for dimension 2");
      SPMD_CHECK_ERROR((void)t(0, 0, -1), "dimension 2");
      SPMD_CHECK_ERROR((void)m[1][5], "(thread " + std::to_string(MYTHREAD) + ")");
      upc_barrier;
    });
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.ok());
  }
}

TEST_CASE("shared_md: extents whose product overflows, or that are negative, are reported, not wrapped") {
  spmd::run_everywhere(
      [] {
        const std::size_t big = std::size_t{1} << 40;
        SPMD_CHECK_ERROR((upc::shared_array2d<int>(big, big)), "the element count overflows");
        SPMD_CHECK_ERROR((upc::shared_md<double, 3>(3, -2, 4)), "a negative size converted to size_t?");
        SPMD_CHECK_ERROR((upc::shared_array2d<int>(upc::per_thread(std::size_t{1} << 61), 2)), "too large");
        upc::shared_array2d<int> fine(2, 2);  // and the run goes on
        if (MYTHREAD == 0) fine[1][1] = 1;  // one writer: from every thread it would be a data race
        upc_barrier;
      },
      {1, 4});
}
