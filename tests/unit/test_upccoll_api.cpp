// The UPC Collectives 2.0 API (include/upccoll.h, seed 000 §3) beyond the data
// matrix of tests/conformance/test_upccoll.cpp: the constants and error names;
// initialisation (argv, calls before it); the 23 types and their sizes; which
// predefined op goes with which type, against the model; MINLOC/MAXLOC ties;
// user ops that are not commutative, folded in rank order by every reduction;
// op_free, op_commutative, reduce_local, UPC_LOGXOR; teams (UPC_TEAM_ALL,
// split with colors and keys, keys in MPI's order (any ints), UPCCOLL_UNDEFINED
// and UPCCOLL_TEAM_NULL, splits of splits, disjoint teams at the same time,
// free, freed handles that stay dead); every valid sync flag
// combination with and without UPC_ASYNC_FENCE, and invalid ones; handles
// (test, wait, dead and foreign handles); many overlapping non-blocking
// collectives completed out of order, more than 32 in flight; UPC_ASYNC_FENCE
// completed by upccoll_fence and by upccoll_finalize; the paper's Figure 1
// (EX1: lock across start, EX2: lock across wait) without deadlock, in place
// too; every error code; overlapping send and receive areas and the misuse of
// UPCCOLL_IN_PLACE; and a subset again with the progress thread.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "../conformance/upccoll_harness.hpp"
#include "../support/capture_stderr.hpp"

using namespace uconf;
namespace M = upccoll_model;
using M::collective;

namespace {

constexpr std::initializer_list<int> all_threads = {1, 2, 3, 4, 5, 7, 8, 16};

upc::launch_options opts(int T, upc::backend_kind b, double timeout) {
  upc::launch_options o = spmd::options(T, b);
  o.heap_per_thread = 16u << 20;
  o.timeout_seconds = timeout;
  return o;
}

// Runs body on THREADS T; a failure (or a hang past `timeout`) fails the test.
void run_ok(int T, upc::backend_kind b, const std::function<void()>& body, double timeout = 60) {
  if (spmd::skip_run(T, b)) return;
  const upc::run_result r = upc::run(opts(T, b, timeout), body);
  INFO("backend=", spmd::name(b), " THREADS=", T, " error: ", r.error);
  CHECK(r.ok());
}

void everywhere(const std::function<void()>& body, std::initializer_list<int> counts = all_threads,
                double timeout = 60) {
  for (upc::backend_kind b : spmd::backends)
    for (int T : counts) run_ok(T, b, body, timeout);
}

template <class T>
T* L(upc::sptr<void> p) {
  return static_cast<T*>(p.local());
}

// A buffer with affinity to the calling thread.
upc::sptr<void> mine(std::size_t bytes) { return upc_alloc(std::max<std::size_t>(bytes, 1)); }

// Every rank of `team` passes MYTHREAD; the result lists the team's threads by rank.
std::vector<int> members_of(upccoll_team_t team) {
  int n = 0;
  UC_OK(upccoll_team_size(team, &n));
  upc::sptr<void> s = mine(sizeof(int)), r = mine(n * sizeof(int));
  *L<int>(s) = MYTHREAD;
  UC_OK(upccoll_allgather(s, 1, UPC_INT, r, 1, UPC_INT, team, 0, nullptr));
  std::vector<int> v(L<int>(r), L<int>(r) + n);
  upc_free(r);
  upc_free(s);
  return v;
}

// The team still works, and every thread made the same number of calls on it:
// an allreduce of (thread + 1) over its members.
void team_still_works(upccoll_team_t team = UPC_TEAM_ALL) {
  const std::vector<int> mem = members_of(team);
  upc::sptr<void> s = mine(sizeof(long)), r = mine(sizeof(long));
  *L<long>(s) = MYTHREAD + 1;
  UC_OK(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, team, 0, nullptr));
  long want = 0;
  for (int t : mem) want += t + 1;
  SPMD_CHECK_EQ(*L<long>(r), want);
  upc_free(r);
  upc_free(s);
}

const upccoll_team_t sentinel_team = reinterpret_cast<upccoll_team_t>(std::uintptr_t{0xfeedface});

using upc::test::stderr_of;

}  // namespace

// ---------------------------------------------------------------------------
// Constants, names, initialisation

TEST_CASE("upccoll.h: the paper's constants and the error codes' names") {
  CHECK(UPC_TEAM_ALL == nullptr);
  CHECK(UPCCOLL_INVALID_HANDLE == 0);
  CHECK(UPC_ASYNC_FENCE == (1 << 6));
  CHECK(UPC_PREDEFINED_OPS == 11);
  CHECK(UPCCOLL_USER_OP_BASE > UPC_MAXLOC);
  const char* names[] = {"UPCCOLL_SUCCESS",        "UPCCOLL_ERROR",          "UPCCOLL_ERROR_TEAM",
                         "UPCCOLL_ERROR_SIZE",     "UPCCOLL_ERROR_RANK",     "UPCCOLL_ERROR_HANDLE",
                         "UPCCOLL_ERROR_SENDBUF",  "UPCCOLL_ERROR_RECVBUF",  "UPCCOLL_ERROR_COUNT",
                         "UPCCOLL_ERROR_DATATYPE", "UPCCOLL_ERROR_UPC_OP",   "UPCCOLL_ERROR_FLAGS",
                         "UPCCOLL_ERROR_ROOT",     "UPCCOLL_ERROR_SENDTYPE", "UPCCOLL_ERROR_RECVTYPE",
                         "UPCCOLL_ERROR_SENDCNTS", "UPCCOLL_ERROR_RECVCNTS", "UPCCOLL_ERROR_SDISPLS",
                         "UPCCOLL_ERROR_RDISPLS",  "UPCCOLL_ERROR_MALLOC",   "UPCCOLL_ERROR_UNINITIALIZED"};
  CHECK(UPCCOLL_ERROR_UNINITIALIZED == 20);
  for (int code = 0; code <= 20; ++code) {
    const char* got = upccoll_error_name(static_cast<upccoll_return_t>(code));
    INFO("code ", code);
    REQUIRE(got != nullptr);
    CHECK(std::string(got) == names[code]);
  }
}

TEST_CASE("before upccoll_initialize every call returns UPCCOLL_ERROR_UNINITIALIZED; after it they work") {
  everywhere(
      [] {
        upc::sptr<void> s = mine(64), r = mine(64 * THREADS);
        int x = -1;
        size_t sz = 0;
        upccoll_team_t nt = sentinel_team;
        upccoll_op_t op = 0;
        UC_EXPECT(upccoll_team_rank(UPC_TEAM_ALL, &x), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_team_size(UPC_TEAM_ALL, &x), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &nt), UPCCOLL_ERROR_UNINITIALIZED);
        SPMD_CHECK(nt == sentinel_team);
        UC_EXPECT(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_bcast(s, 4, UPC_INT, r, 4, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_allreduce(s, r, 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_alltoall(s, 1, UPC_INT, r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_scan(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_op_create(&double_sum, 1, &op), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_op_free(UPCCOLL_USER_OP_BASE), UPCCOLL_ERROR_UNINITIALIZED);
        UC_OK(upccoll_initialize(nullptr, nullptr));
        UC_OK(upccoll_team_rank(UPC_TEAM_ALL, &x));
        SPMD_CHECK_EQ(x, MYTHREAD);
        UC_OK(upccoll_type_size(UPC_INT, &sz));
        SPMD_CHECK_EQ(sz, sizeof(int));
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr));
        team_still_works();
        UC_OK(upccoll_finalize());
        // and after upccoll_finalize (docs/teams-and-collectives-2.md, Errors)
        UC_EXPECT(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_team_rank(UPC_TEAM_ALL, &x), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_allreduce(s, r, 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        upc_barrier;
        upc_free(r);
        upc_free(s);
      },
      {1, 2, 3, 5});
}

TEST_CASE("upccoll_type_size (a call like any other) is UPCCOLL_ERROR_UNINITIALIZED before upccoll_initialize") {
  everywhere(
      [] {
        std::size_t sz = 0;
        UC_EXPECT(upccoll_type_size(UPC_INT, &sz), UPCCOLL_ERROR_UNINITIALIZED);
        UC_OK(upccoll_initialize(nullptr, nullptr));
        UC_OK(upccoll_finalize());
      },
      {1, 2});
}

TEST_CASE("upccoll_initialize removes --upccoll-progress options from argv and keeps the rest in order") {
  for (const char* mode : {"inline", "thread"})
    for (upc::backend_kind b : spmd::backends)
      run_ok(3, b, [mode] {
        const std::string opt = std::string("--upccoll-progress=") + mode;
        std::string a0 = "prog", a1 = opt, a2 = "-x", a3 = "--upccoll-progress=inline", a4 = "y";
        char* argv_store[] = {a0.data(), a1.data(), a2.data(), a3.data(), a4.data(), nullptr};
        char** argv = argv_store;
        int argc = 5;
        UC_OK(upccoll_initialize(&argc, &argv));
        SPMD_CHECK_EQ(argc, 3);
        SPMD_CHECK_EQ(std::string(argv[0]), std::string("prog"));
        SPMD_CHECK_EQ(std::string(argv[1]), std::string("-x"));
        SPMD_CHECK_EQ(std::string(argv[2]), std::string("y"));
        // it works in that mode, non-blocking included
        upc::sptr<void> s = mine(8), r = mine(8);
        *L<long>(s) = MYTHREAD;
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        UC_OK(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, 0, &h));
        UC_OK(upccoll_wait_status(h));
        SPMD_CHECK_EQ(*L<long>(r), 3L);
        UC_OK(upccoll_finalize());
        upc_free(r);
        upc_free(s);
      });
}

// ---------------------------------------------------------------------------
// Types and operations

TEST_CASE("upccoll_type_size: the 23 types have the sizes of their C types; anything else is UPCCOLL_ERROR_DATATYPE") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const std::pair<upccoll_dtype_t, std::size_t> sizes[] = {
            {UPC_BYTE, 1},
            {UPC_CHAR, sizeof(char)},
            {UPC_UCHAR, sizeof(unsigned char)},
            {UPC_SHORT, sizeof(short)},
            {UPC_USHORT, sizeof(unsigned short)},
            {UPC_INT, sizeof(int)},
            {UPC_UINT, sizeof(unsigned)},
            {UPC_LONG, sizeof(long)},
            {UPC_ULONG, sizeof(unsigned long)},
            {UPC_LONGLONG, sizeof(long long)},
            {UPC_ULONGLONG, sizeof(unsigned long long)},
            {UPC_FLOAT, sizeof(float)},
            {UPC_DOUBLE, sizeof(double)},
            {UPC_LONGDOUBLE, sizeof(long double)},
            {UPC_CPLX, 2 * sizeof(float)},
            {UPC_DBLCPLX, 2 * sizeof(double)},
            {UPC_LONGDBLCPLX, 2 * sizeof(long double)},
            {UPC_FLOAT_INT, sizeof(upccoll_float_int_t)},
            {UPC_DOUBLE_INT, sizeof(upccoll_double_int_t)},
            {UPC_LONG_INT, sizeof(upccoll_long_int_t)},
            {UPC_2INT, sizeof(upccoll_2int_t)},
            {UPC_SHORT_INT, sizeof(upccoll_short_int_t)},
            {UPC_LONG_DOUBLE_INT, sizeof(upccoll_long_double_int_t)}};
        for (const auto& [dt, want] : sizes) {
          std::size_t got = 0;
          expect_rc(upccoll_type_size(dt, &got), UPCCOLL_SUCCESS, std::string("upccoll_type_size(") + M::type_name(dt) + ")");
          if (got != want)
            fail(std::string("upccoll_type_size(") + M::type_name(dt) + ") = " + std::to_string(got) + ", expected " +
                 std::to_string(want));
          SPMD_CHECK_EQ(got, M::size_of(dt));
        }
        // not one of the 23: nonsense values, and the <upc_types.h> types the paper does not list
        for (upccoll_dtype_t dt : {0, -1, 42, 31, 1000, 1 << 20, UPC_INT8, UPC_UINT64, UPC_PTS}) {
          std::size_t got = 12345;
          expect_rc(upccoll_type_size(dt, &got), UPCCOLL_ERROR_DATATYPE, "upccoll_type_size(" + std::to_string(dt) + ")");
        }
        UC_OK(upccoll_finalize());
      },
      {1, 3});
}

namespace {

// allreduce of `count` items of (dt, op) on UPC_TEAM_ALL: a valid pair must give
// the model's left fold; any other must return UPCCOLL_ERROR_UPC_OP everywhere.
void op_table_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS;
  const std::size_t count = 3;
  const std::uint32_t seed = 77;
  const std::vector<upccoll_op_t> non_ops = {0,          UPC_FUNC, UPC_NONCOMM_FUNC, UPC_GET, UPC_CSWAP, 1UL << 30,
                                             UPCCOLL_USER_OP_BASE + 12345};
  for (const M::type_info& ti : M::types()) {
    const std::size_t E = ti.size;
    upc::sptr<void> s = mine(count * E), r = mine(count * E);
    std::vector<upccoll_op_t> ops(std::begin(M::predefined_ops), std::end(M::predefined_ops));
    ops.insert(ops.end(), non_ops.begin(), non_ops.end());
    for (upccoll_op_t op : ops) {
      const std::string what = std::string("upccoll_allreduce dt=") + ti.name + " op=" + M::op_name(op) + " (" +
                               std::to_string(op) + ")";
      const bool valid = M::op_valid(ti.dt, op);
      for (std::size_t i = 0; i < count; ++i) make_item(ti.dt, valid ? op : UPC_ADD, seed, MYTHREAD, i, L<std::uint8_t>(s) + i * E);
      std::memset(L<std::uint8_t>(r), 0xA5, count * E);
      const upccoll_return_t rc = upccoll_allreduce(s, r, count, ti.dt, op, UPC_TEAM_ALL, 0, nullptr);
      if (!valid) {
        expect_rc(rc, UPCCOLL_ERROR_UPC_OP, what);
        continue;
      }
      expect_rc(rc, UPCCOLL_SUCCESS, what);
      const M::reduction red{ti.dt, op, nullptr};
      const M::send_source src = [&](int t, std::size_t off, std::size_t n, std::uint8_t* out) {
        for (std::size_t k = 0; k < n; ++k) {
          std::vector<std::uint8_t> item(E);
          make_item(ti.dt, op, seed, t, (off + k) / E, item.data());
          out[k] = item[(off + k) % E];
        }
      };
      const M::bytes want = M::fold(red, src, 0, T - 1, 0, count);
      const std::vector<std::uint8_t> mask = M::value_mask(ti.dt);
      for (std::size_t k = 0; k < count * E; ++k)
        if (mask[k % E] && want[k] != L<std::uint8_t>(r)[k])
          fail(what + ": byte " + std::to_string(k) + " of the result is " + hex(L<std::uint8_t>(r)[k]) +
               ", the left fold in rank order gives " + hex(want[k]));
    }
    upc_barrier;
    upc_free(r);
    upc_free(s);
  }
  // the rooted and prefix reductions refuse the same pairs
  upc::sptr<void> s = mine(64), r = mine(64);
  UC_EXPECT(upccoll_reduce(s, r, 1, UPC_DOUBLE, UPC_XOR, T - 1, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UPC_OP);
  UC_EXPECT(upccoll_scan(s, r, 1, UPC_CPLX, UPC_MAX, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UPC_OP);
  UC_EXPECT(upccoll_scan_inclusive(s, r, 1, UPC_INT, UPC_MINLOC, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UPC_OP);
  std::size_t counts[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  UC_EXPECT(upccoll_reduce_scatter(s, r, counts, UPC_2INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UPC_OP);
  team_still_works();
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("predefined ops: each valid (type op) pair gives the left fold in rank order; every other pair is UPCCOLL_ERROR_UPC_OP") {
  everywhere(op_table_body, {1, 3, 4});
}

TEST_CASE("UPC_MINLOC / UPC_MAXLOC worked by hand: the min (max) value and on a tie the lower index") {
  for (upc::backend_kind b : spmd::backends)
    run_ok(4, b, [] {
      UC_OK(upccoll_initialize(nullptr, nullptr));
      // item 0: values 3, 1, 1, 5 with indices 7, 9, 2, 0  -> MINLOC (1, 2), MAXLOC (5, 0)
      // item 1: values 2, 2, 2, 2 with indices 4, 8, 1, 6  -> (2, 1) both ways
      // item 2: values -1, 4, 4, -1 with indices 5, 3, 0, 2 -> MINLOC (-1, 2), MAXLOC (4, 0)
      const double v[3][4] = {{3, 1, 1, 5}, {2, 2, 2, 2}, {-1, 4, 4, -1}};
      const int ix[3][4] = {{7, 9, 2, 0}, {4, 8, 1, 6}, {5, 3, 0, 2}};
      upc::sptr<void> s = mine(3 * sizeof(upccoll_double_int_t)), r = mine(3 * sizeof(upccoll_double_int_t));
      auto* in = L<upccoll_double_int_t>(s);
      for (int i = 0; i < 3; ++i) in[i] = {v[i][MYTHREAD], ix[i][MYTHREAD]};
      UC_OK(upccoll_allreduce(s, r, 3, UPC_DOUBLE_INT, UPC_MINLOC, UPC_TEAM_ALL, 0, nullptr));
      auto* out = L<upccoll_double_int_t>(r);
      SPMD_CHECK_EQ(out[0].value, 1.0);
      SPMD_CHECK_EQ(out[0].index, 2);
      SPMD_CHECK_EQ(out[1].value, 2.0);
      SPMD_CHECK_EQ(out[1].index, 1);
      SPMD_CHECK_EQ(out[2].value, -1.0);
      SPMD_CHECK_EQ(out[2].index, 2);
      UC_OK(upccoll_allreduce(s, r, 3, UPC_DOUBLE_INT, UPC_MAXLOC, UPC_TEAM_ALL, 0, nullptr));
      SPMD_CHECK_EQ(out[0].value, 5.0);
      SPMD_CHECK_EQ(out[0].index, 0);
      SPMD_CHECK_EQ(out[1].index, 1);
      SPMD_CHECK_EQ(out[2].value, 4.0);
      SPMD_CHECK_EQ(out[2].index, 0);
      // the same with UPC_2INT and a scan: rank l gets MINLOC over 0..l
      upc::sptr<void> s2 = mine(sizeof(upccoll_2int_t)), r2 = mine(sizeof(upccoll_2int_t));
      *L<upccoll_2int_t>(s2) = {static_cast<int>(v[0][MYTHREAD]), ix[0][MYTHREAD]};
      UC_OK(upccoll_scan_inclusive(s2, r2, 1, UPC_2INT, UPC_MINLOC, UPC_TEAM_ALL, 0, nullptr));
      const int want_v[4] = {3, 1, 1, 1}, want_i[4] = {7, 9, 2, 2};
      SPMD_CHECK_EQ(L<upccoll_2int_t>(r2)->value, want_v[MYTHREAD]);
      SPMD_CHECK_EQ(L<upccoll_2int_t>(r2)->index, want_i[MYTHREAD]);
      UC_OK(upccoll_finalize());
    });
}

namespace {

struct affine {
  std::uint32_t a, b;
};
affine compose(affine f, affine g) { return {f.a * g.a, f.a * g.b + f.b}; }  // f ∘ g
affine affine_item(int t, std::size_t i) {
  return {static_cast<std::uint32_t>(2 * (t + 3 * i) + 1), static_cast<std::uint32_t>(10 * t + i + 1)};
}
struct mat {
  std::uint32_t m[4];
};
mat mul(const mat& x, const mat& y) {
  return {{x.m[0] * y.m[0] + x.m[1] * y.m[2], x.m[0] * y.m[1] + x.m[1] * y.m[3], x.m[2] * y.m[0] + x.m[3] * y.m[2],
           x.m[2] * y.m[1] + x.m[3] * y.m[3]}};
}
mat mat_item(int t, std::size_t i) {
  return {{static_cast<std::uint32_t>(t + 1), static_cast<std::uint32_t>(i + 1), 1, 0}};
}

// Every reduction with the non-commutative user ops (and a double sum declared
// commutative), against left folds computed here, by hand, in rank order.
void user_op_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  upccoll_op_t aff = 0, mm = 0, ds = 0;
  UC_OK(upccoll_op_create(&affine_compose, 0, &aff));
  UC_OK(upccoll_op_create(&matrix_product, 0, &mm));
  UC_OK(upccoll_op_create(&double_sum, 1, &ds));
  const std::size_t count = 4;
  // recvcounts for reduce_scatter: t % 3 (zeros included)
  std::vector<std::size_t> rc(T);
  std::size_t total = 0;
  for (int t = 0; t < T; ++t) total += rc[t] = static_cast<std::size_t>(t % 3);
  const std::size_t items = std::max(count, total);
  auto fold_aff = [&](int first, int last, std::size_t i) {
    affine acc = affine_item(first, i);
    for (int t = first + 1; t <= last; ++t) acc = compose(acc, affine_item(t, i));
    return acc;
  };
  auto fold_mat = [&](int first, int last, std::size_t i) {
    mat acc = mat_item(first, i);
    for (int t = first + 1; t <= last; ++t) acc = mul(acc, mat_item(t, i));
    return acc;
  };
  upc::sptr<void> s = mine(items * 16), r = mine(items * 16);
  for (int which = 0; which < 2; ++which) {
    const std::size_t E = which == 0 ? 8 : 16;
    const upccoll_dtype_t dt = which == 0 ? UPC_2INT : UPC_DBLCPLX;
    const upccoll_op_t op = which == 0 ? aff : mm;
    for (std::size_t i = 0; i < items; ++i) {
      if (which == 0) {
        const affine f = affine_item(me, i);
        std::memcpy(L<std::uint8_t>(s) + 8 * i, &f, 8);
      } else {
        const mat x = mat_item(me, i);
        std::memcpy(L<std::uint8_t>(s) + 16 * i, &x, 16);
      }
    }
    auto check_items = [&](const char* what, int first, int last, std::size_t e0, std::size_t n) {
      for (std::size_t k = 0; k < n; ++k) {
        bool ok;
        if (which == 0) {
          const affine want = fold_aff(first, last, e0 + k);
          affine got;
          std::memcpy(&got, L<std::uint8_t>(r) + 8 * k, 8);
          ok = got.a == want.a && got.b == want.b;
        } else {
          const mat want = fold_mat(first, last, e0 + k);
          mat got;
          std::memcpy(&got, L<std::uint8_t>(r) + 16 * k, 16);
          ok = std::memcmp(&got, &want, 16) == 0;
        }
        if (!ok)
          fail(std::string(what) + (which == 0 ? " (affine maps)" : " (2x2 matrices)") + ": item " + std::to_string(k) +
               " is not the left fold over ranks " + std::to_string(first) + ".." + std::to_string(last));
      }
    };
    std::memset(L<std::uint8_t>(r), 0, items * E);
    UC_OK(upccoll_reduce(s, r, count, dt, op, T - 1, UPC_TEAM_ALL, 0, nullptr));
    if (me == T - 1) check_items("upccoll_reduce", 0, T - 1, 0, count);
    UC_OK(upccoll_allreduce(s, r, count, dt, op, UPC_TEAM_ALL, 0, nullptr));
    check_items("upccoll_allreduce", 0, T - 1, 0, count);
    UC_OK(upccoll_reduce_scatter(s, r, rc.data(), dt, op, UPC_TEAM_ALL, 0, nullptr));
    std::size_t e0 = 0;
    for (int t = 0; t < me; ++t) e0 += rc[t];
    check_items("upccoll_reduce_scatter", 0, T - 1, e0, rc[me]);
    std::memset(L<std::uint8_t>(r), 0x3c, items * E);
    UC_OK(upccoll_scan(s, r, count, dt, op, UPC_TEAM_ALL, 0, nullptr));
    if (me > 0) {
      check_items("upccoll_scan", 0, me - 1, 0, count);
    } else {
      for (std::size_t k = 0; k < count * E; ++k)
        if (L<std::uint8_t>(r)[k] != 0x3c) fail("upccoll_scan changed rank 0's recvbuf");
    }
    UC_OK(upccoll_scan_inclusive(s, r, count, dt, op, UPC_TEAM_ALL, 0, nullptr));
    check_items("upccoll_scan_inclusive", 0, me, 0, count);
    upc_barrier;
  }
  // a commutative-declared double sum: still the left fold, bit for bit
  *L<double>(s) = me == 0 ? 1e16 : me % 2 ? 1.0 : 0.75;
  UC_OK(upccoll_allreduce(s, r, 1, UPC_DOUBLE, ds, UPC_TEAM_ALL, 0, nullptr));
  double want = 1e16;
  for (int t = 1; t < T; ++t) want = want + (t % 2 ? 1.0 : 0.75);
  SPMD_CHECK_EQ(*L<double>(r), want);
  UC_OK(upccoll_scan_inclusive(s, r, 1, UPC_DOUBLE, ds, UPC_TEAM_ALL, 0, nullptr));
  double want_l = 1e16;
  for (int t = 1; t <= me; ++t) want_l = want_l + (t % 2 ? 1.0 : 0.75);
  SPMD_CHECK_EQ(*L<double>(r), want_l);
  UC_OK(upccoll_op_free(ds));
  UC_OK(upccoll_op_free(mm));
  UC_OK(upccoll_op_free(aff));
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
  SPMD_CHECK_EQ(g_bad_user_calls.load(), 0);
}

}  // namespace

TEST_CASE("user ops that do not commute: reduce / allreduce / reduce_scatter / scan / inclusive scan give the left fold in rank order") {
  everywhere(user_op_body, {1, 2, 3, 5, 8});
}

TEST_CASE("upccoll_op_free: a predefined / unknown / freed op is UPCCOLL_ERROR_UPC_OP; a freed op cannot be used") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        for (upccoll_op_t op : M::predefined_ops)
          expect_rc(upccoll_op_free(op), UPCCOLL_ERROR_UPC_OP, std::string("upccoll_op_free(") + M::op_name(op) + ")");
        UC_EXPECT(upccoll_op_free(UPCCOLL_USER_OP_BASE + 999), UPCCOLL_ERROR_UPC_OP);
        UC_EXPECT(upccoll_op_free(0), UPCCOLL_ERROR_UPC_OP);
        upccoll_op_t a = 0, b = 0;
        UC_OK(upccoll_op_create(&double_sum, 1, &a));
        UC_OK(upccoll_op_create(&affine_compose, 0, &b));
        SPMD_CHECK(a != b);
        SPMD_CHECK(a >= UPCCOLL_USER_OP_BASE && b >= UPCCOLL_USER_OP_BASE);
        upc::sptr<void> s = mine(16), r = mine(16);
        *L<double>(s) = 1.5;
        UC_OK(upccoll_allreduce(s, r, 1, UPC_DOUBLE, a, UPC_TEAM_ALL, 0, nullptr));
        SPMD_CHECK_EQ(*L<double>(r), 1.5 * THREADS);
        UC_OK(upccoll_op_free(a));
        UC_EXPECT(upccoll_op_free(a), UPCCOLL_ERROR_UPC_OP);  // twice
        UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_DOUBLE, a, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UPC_OP);
        UC_EXPECT(upccoll_scan(s, r, 1, UPC_DOUBLE, a, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UPC_OP);
        // the other op still works
        std::uint32_t f[2] = {3, static_cast<std::uint32_t>(MYTHREAD)};
        std::memcpy(L<void>(s), f, 8);
        UC_OK(upccoll_allreduce(s, r, 1, UPC_2INT, b, UPC_TEAM_ALL, 0, nullptr));
        std::uint32_t a_all = 1;
        for (int t = 0; t < THREADS; ++t) a_all *= 3;
        SPMD_CHECK_EQ(L<std::uint32_t>(r)[0], a_all);
        UC_OK(upccoll_op_free(b));
        team_still_works();
        upc_free(r);
        upc_free(s);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 4});
}

TEST_CASE("upccoll_op_commutative: 1 for every predefined op (UPC_LOGXOR included), a user op's commute as 0/1; anything else UPCCOLL_ERROR_UPC_OP") {
  everywhere(
      [] {
        int c = -5;
        UC_EXPECT(upccoll_op_commutative(UPC_ADD, &c), UPCCOLL_ERROR_UNINITIALIZED);
        UC_OK(upccoll_initialize(nullptr, nullptr));
        for (upccoll_op_t op : M::predefined_ops) {
          c = -5;
          expect_rc(upccoll_op_commutative(op, &c), UPCCOLL_SUCCESS, std::string("upccoll_op_commutative(") + M::op_name(op) + ")");
          SPMD_CHECK_EQ(c, 1);
        }
        upccoll_op_t a = 0, b = 0;
        UC_OK(upccoll_op_create(&double_sum, 7, &a));  // any nonzero commute means commutative
        UC_OK(upccoll_op_create(&affine_compose, 0, &b));
        UC_OK(upccoll_op_commutative(a, &c));
        SPMD_CHECK_EQ(c, 1);
        UC_OK(upccoll_op_commutative(b, &c));
        SPMD_CHECK_EQ(c, 0);
        UC_EXPECT(upccoll_op_commutative(a, nullptr), UPCCOLL_ERROR);
        UC_OK(upccoll_op_free(a));
        c = -5;
        for (upccoll_op_t bad : {a, upccoll_op_t{0}, upccoll_op_t{UPC_FUNC}, upccoll_op_t{UPC_NONCOMM_FUNC},
                                 upccoll_op_t{UPC_ADD | UPC_MULT}, UPCCOLL_USER_OP_BASE + 999}) {
          expect_rc(upccoll_op_commutative(bad, &c), UPCCOLL_ERROR_UPC_OP, "upccoll_op_commutative(" + std::to_string(bad) + ")");
          SPMD_CHECK_EQ(c, -5);
        }
        UC_OK(upccoll_op_free(b));
        UC_OK(upccoll_finalize());
      },
      {1, 3});
}

namespace {

// upccoll_reduce_local(in, inout) of `count` items against the model's fold of
// two ranks (x0 = in, x1 = inout): every valid (type, op), the user ops, a
// count spanning several 16 KiB sub-blocks.
void reduce_local_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  user_ops ops;
  ops.create();
  const std::uint32_t seed = 91;
  std::vector<std::pair<upccoll_dtype_t, upccoll_op_t>> pairs = {
      {UPC_2INT, op_affine}, {UPC_DBLCPLX, op_matrix}, {UPC_DOUBLE, op_dsum}};
  for (const M::type_info& ti : M::types())
    for (upccoll_op_t op : M::predefined_ops)
      if (M::op_valid(ti.dt, op)) pairs.push_back({ti.dt, op});
  for (const auto& [dt, op] : pairs) {
    const std::size_t E = M::size_of(dt);
    for (std::size_t count : {std::size_t{1}, std::size_t{7}, (40u << 10) / E + 3}) {
      const std::string what = std::string("upccoll_reduce_local dt=") + M::type_name(dt) + " op=" + op_text(op) +
                               " count=" + std::to_string(count);
      std::vector<std::uint8_t> in(count * E), inout(count * E);
      for (std::size_t i = 0; i < count; ++i) {
        make_item(dt, op, seed, 0, i, in.data() + i * E);
        make_item(dt, op, seed, 1, i, inout.data() + i * E);
      }
      const std::vector<std::uint8_t> in_before = in;
      const M::send_source src = [&](int t, std::size_t off, std::size_t n, std::uint8_t* out) {
        std::memcpy(out, (t == 0 ? in_before : inout).data() + off, n);
      };
      const M::bytes want = M::fold(M::reduction{dt, op, user_function(op)}, src, 0, 1, 0, count);
      expect_rc(upccoll_reduce_local(in.data(), inout.data(), count, dt, ops.map(op)), UPCCOLL_SUCCESS, what);
      if (in != in_before) fail(what + ": inbuf was changed");
      const std::vector<std::uint8_t> mask = M::value_mask(dt);
      for (std::size_t k = 0; k < count * E; ++k)
        if (mask[k % E] && want[k] != inout[k])
          fail(what + ": byte " + std::to_string(k) + " is " + hex(inout[k]) + ", in op inout gives " + hex(want[k]));
    }
  }
  // bad arguments: nothing is written
  long a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  const long b0[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  UC_EXPECT(upccoll_reduce_local(nullptr, b, 4, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_SENDBUF);
  UC_EXPECT(upccoll_reduce_local(a, nullptr, 4, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_RECVBUF);
  UC_EXPECT(upccoll_reduce_local(b, b, 4, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_RECVBUF);      // the same buffer
  UC_EXPECT(upccoll_reduce_local(b, b + 3, 4, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_RECVBUF);  // partly overlapping
  UC_EXPECT(upccoll_reduce_local(b + 3, b, 4, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_RECVBUF);
  UC_EXPECT(upccoll_reduce_local(a, b, 4, 999, UPC_ADD), UPCCOLL_ERROR_DATATYPE);
  UC_EXPECT(upccoll_reduce_local(a, b, 4, UPC_LONG, UPC_MINLOC), UPCCOLL_ERROR_UPC_OP);
  UC_EXPECT(upccoll_reduce_local(a, b, 4, UPC_DOUBLE, UPC_XOR), UPCCOLL_ERROR_UPC_OP);
  UC_EXPECT(upccoll_reduce_local(a, b, std::numeric_limits<std::size_t>::max() / 4, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_COUNT);
  UC_EXPECT(upccoll_reduce_local(a, b, std::size_t{1} << 61, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_COUNT);
  SPMD_CHECK(std::memcmp(b, b0, sizeof b) == 0);
  UC_OK(upccoll_reduce_local(nullptr, nullptr, 0, UPC_LONG, UPC_ADD));  // nothing to do
  UC_OK(upccoll_reduce_local(b, b + 4, 4, UPC_LONG, UPC_ADD));          // adjacent: fine
  SPMD_CHECK(b[4] == 60 && b[7] == 120);
  upccoll_op_t freed = 0;
  UC_OK(upccoll_op_create(&double_sum, 1, &freed));
  UC_OK(upccoll_op_free(freed));
  UC_EXPECT(upccoll_reduce_local(a, b, 1, UPC_DOUBLE, freed), UPCCOLL_ERROR_UPC_OP);
  ops.free();
  UC_OK(upccoll_finalize());
  UC_EXPECT(upccoll_reduce_local(a, b, 1, UPC_LONG, UPC_ADD), UPCCOLL_ERROR_UNINITIALIZED);
  SPMD_CHECK_EQ(g_bad_user_calls.load(), 0);
}

}  // namespace

TEST_CASE("upccoll_reduce_local: inoutbuf = inbuf op inoutbuf for every (type, op) and user ops, as the model; bad or overlapping buffers refused") {
  everywhere(reduce_local_body, {1, 2});
}

TEST_CASE("UPC_LOGXOR: logical exclusive or of integers and reals over a team, as 0/1; refused on complex and pairs") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int T = THREADS, me = MYTHREAD;
        upc::sptr<void> s = mine(64), r = mine(64), sd = mine(64);
        // item i: thread t contributes (t + i) % 3 != 0 ? -2 : 0 (ints) and 0.5 / 0.0 (doubles)
        for (int i = 0; i < 4; ++i) {
          L<int>(s)[i] = (me + i) % 3 ? -2 : 0;
          L<double>(sd)[i] = (me + i) % 3 ? 0.5 : 0.0;
        }
        auto odd_of = [&](int i) {
          int odd = 0;
          for (int t = 0; t < T; ++t) odd ^= (t + i) % 3 != 0;
          return odd;
        };
        UC_OK(upccoll_allreduce(s, r, 4, UPC_INT, UPC_LOGXOR, UPC_TEAM_ALL, 0, nullptr));
        // (one member: the fold of one item is that item, as for every op)
        for (int i = 0; i < 4; ++i) SPMD_CHECK_EQ(L<int>(r)[i], T == 1 ? L<int>(s)[i] : odd_of(i));
        UC_OK(upccoll_allreduce(sd, r, 4, UPC_DOUBLE, UPC_LOGXOR, UPC_TEAM_ALL, 0, nullptr));
        for (int i = 0; i < 4; ++i) SPMD_CHECK_EQ(L<double>(r)[i], T == 1 ? L<double>(sd)[i] : static_cast<double>(odd_of(i)));
        for (upccoll_dtype_t dt : {UPC_CPLX, UPC_DBLCPLX, UPC_2INT, UPC_DOUBLE_INT})
          UC_EXPECT(upccoll_allreduce(s, r, 1, dt, UPC_LOGXOR, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UPC_OP);
        team_still_works();
        upc_free(sd);
        upc_free(r);
        upc_free(s);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 4});
}

// ---------------------------------------------------------------------------
// Teams

TEST_CASE("UPC_TEAM_ALL: rank is MYTHREAD and size is THREADS") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    int r = -1, n = -1;
    UC_OK(upccoll_team_rank(UPC_TEAM_ALL, &r));
    UC_OK(upccoll_team_size(UPC_TEAM_ALL, &n));
    SPMD_CHECK_EQ(r, MYTHREAD);
    SPMD_CHECK_EQ(n, THREADS);
    const std::vector<int> mem = members_of(UPC_TEAM_ALL);
    for (int t = 0; t < THREADS; ++t) SPMD_CHECK_EQ(mem[t], t);
    UC_OK(upccoll_finalize());
  });
}

TEST_CASE("upccoll_team_split: equal colors make a team ranked by key; splits of splits; team_free") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    const int T = THREADS, me = MYTHREAD;
    // colors 5, -3, 11 by thread mod 3; keys: the reverse of thread order in each color
    const int colors[3] = {5, -3, 11};
    const int c = me % 3;
    std::vector<int> same;
    for (int t = c; t < T; t += 3) same.push_back(t);
    const int n = static_cast<int>(same.size());
    const int idx = static_cast<int>(std::find(same.begin(), same.end(), me) - same.begin());
    upccoll_team_t team = nullptr;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, colors[c], n - 1 - idx, &team));
    SPMD_CHECK(team != UPC_TEAM_ALL);
    int r = -1, sz = -1;
    UC_OK(upccoll_team_rank(team, &r));
    UC_OK(upccoll_team_size(team, &sz));
    SPMD_CHECK_EQ(r, n - 1 - idx);
    SPMD_CHECK_EQ(sz, n);
    const std::vector<int> mem = members_of(team);
    for (int k = 0; k < n; ++k) SPMD_CHECK_EQ(mem[k], same[n - 1 - k]);
    team_still_works(team);
    // a split of the split: by rank parity, key rank / 2
    upccoll_team_t sub = nullptr;
    UC_OK(upccoll_team_split(team, r % 2, r / 2, &sub));
    int r2 = -1, sz2 = -1;
    UC_OK(upccoll_team_rank(sub, &r2));
    UC_OK(upccoll_team_size(sub, &sz2));
    SPMD_CHECK_EQ(r2, r / 2);
    SPMD_CHECK_EQ(sz2, (n - r % 2 + 1) / 2);
    const std::vector<int> mem2 = members_of(sub);
    for (int k = 0; k < sz2; ++k) SPMD_CHECK_EQ(mem2[k], mem[2 * k + r % 2]);
    team_still_works(sub);
    // the whole team again, in reverse order, from UPC_TEAM_ALL
    upccoll_team_t rev = nullptr;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, T - 1 - me, &rev));
    const std::vector<int> mem3 = members_of(rev);
    for (int k = 0; k < T; ++k) SPMD_CHECK_EQ(mem3[k], T - 1 - k);
    upccoll_team_free(rev);
    upccoll_team_free(sub);
    team_still_works(team);
    upccoll_team_free(team);
    team_still_works();
    UC_OK(upccoll_finalize());
  });
}

namespace {

// The team's exclusive scan of 1s: every member's result is its rank (rank 0
// keeps -1), so reductions see the same rank order as team_rank.
void scan_gives_ranks(upccoll_team_t team) {
  int r = -1;
  UC_OK(upccoll_team_rank(team, &r));
  upc::sptr<void> s = mine(sizeof(long)), out = mine(sizeof(long));
  *L<long>(s) = 1;
  *L<long>(out) = -1;
  UC_OK(upccoll_exscan(s, out, 1, UPC_LONG, UPC_ADD, team, 0, nullptr));
  SPMD_CHECK_EQ(*L<long>(out), r == 0 ? -1L : static_cast<long>(r));
  upc_free(out);
  upc_free(s);
}

// Splits UPC_TEAM_ALL with (color, key) and checks the new team against the
// order MPI_Comm_split gives: by key, then by rank in the parent team.
upccoll_team_t split_and_check(int color, int key) {
  const int T = THREADS, me = MYTHREAD;
  upc::shared_array<int> ck{upc::per_thread(2)};  // [2t]: color, [2t+1]: key of thread t
  ck[2 * me] = color;
  ck[2 * me + 1] = key;
  upc_barrier;
  std::vector<std::pair<int, int>> want;  // (key, thread) of my color, sorted
  for (int t = 0; t < T; ++t)
    if (ck[2 * t].get() == color) want.push_back({ck[2 * t + 1].get(), t});
  std::sort(want.begin(), want.end());
  upc_barrier;
  upccoll_team_t team = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, color, key, &team));
  SPMD_CHECK(team != sentinel_team && team != UPC_TEAM_ALL && team != UPCCOLL_TEAM_NULL);
  int r = -1, n = -1;
  UC_OK(upccoll_team_rank(team, &r));
  UC_OK(upccoll_team_size(team, &n));
  SPMD_CHECK_EQ(n, static_cast<int>(want.size()));
  SPMD_CHECK_EQ(want.at(r).second, me);
  const std::vector<int> mem = members_of(team);
  for (int k = 0; k < n; ++k) SPMD_CHECK_EQ(mem[k], want[k].second);
  scan_gives_ranks(team);
  team_still_works(team);
  return team;
}

}  // namespace

TEST_CASE("upccoll_team_split: keys need not be 0..n-1; a color's members are ordered by key, then by parent rank (MPI_Comm_split)") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    const int T = THREADS, me = MYTHREAD;
    const std::pair<int, int> cases[] = {
        {1, 0},                        // every key equal: parent order
        {0, me == 0 ? -1 : me},        // a negative key
        {0, me + 1},                   // keys 1..T: no key 0
        {me % 2, me % 2 ? 7 * T : me / 2},  // a gap in one color of two
        {me % 2, 5},                   // a duplicate in each color
        {me % 3, 1000 - 10 * (me / 2)},  // descending, pairs of equal keys: ties by parent rank
        {-4, std::numeric_limits<int>::min() + me},  // extreme keys
        {me % 2, std::numeric_limits<int>::max() - me % 3},
    };
    for (const auto& [color, key] : cases) {
      upccoll_team_t t = split_and_check(color, key);
      upccoll_team_free(t);
    }
    // a split of a non-dense split: ranks come from the parent team, not from threads
    upccoll_team_t rev = split_and_check(0, -me);  // reverse order
    int r = -1;
    UC_OK(upccoll_team_rank(rev, &r));
    upccoll_team_t sub = sentinel_team;
    UC_OK(upccoll_team_split(rev, 0, 3, &sub));  // equal keys: the order of rev
    SPMD_CHECK(members_of(sub) == members_of(rev));
    scan_gives_ranks(sub);
    upccoll_team_free(sub);
    upccoll_team_free(rev);
    team_still_works();
    UC_OK(upccoll_finalize());
  });
}

TEST_CASE("upccoll_team_split: UPCCOLL_UNDEFINED joins no team and gets UPCCOLL_TEAM_NULL, which every call refuses") {
  everywhere([] {
    UC_OK(upccoll_initialize(nullptr, nullptr));
    const int T = THREADS, me = MYTHREAD;
    SPMD_CHECK(UPCCOLL_TEAM_NULL != UPC_TEAM_ALL);
    // odd threads join nothing; the even ones form a team ordered by thread
    upccoll_team_t t = sentinel_team;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % 2 ? UPCCOLL_UNDEFINED : 3, -me, &t));
    if (me % 2) {
      SPMD_CHECK(t == UPCCOLL_TEAM_NULL);
    } else {
      int n = -1;
      UC_OK(upccoll_team_size(t, &n));
      SPMD_CHECK_EQ(n, (T + 1) / 2);
      const std::vector<int> mem = members_of(t);
      for (int k = 0; k < n; ++k) SPMD_CHECK_EQ(mem[k], 2 * (n - 1 - k));
      team_still_works(t);
    }
    // UPCCOLL_TEAM_NULL in every kind of call
    upc::sptr<void> s = mine(64), r = mine(64);
    int x = -7;
    upccoll_team_t nt = sentinel_team;
    UC_EXPECT(upccoll_team_rank(UPCCOLL_TEAM_NULL, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_size(UPCCOLL_TEAM_NULL, &x), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK_EQ(x, -7);
    UC_EXPECT(upccoll_team_split(UPCCOLL_TEAM_NULL, 0, 0, &nt), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(nt == sentinel_team);
    UC_EXPECT(upccoll_barrier(UPCCOLL_TEAM_NULL, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPCCOLL_TEAM_NULL, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, UPCCOLL_TEAM_NULL, 0, nullptr), UPCCOLL_ERROR_TEAM);
    upccoll_team_free(UPCCOLL_TEAM_NULL);  // refused, nothing happens
    if (!(me % 2)) upccoll_team_free(t);
    // everyone undefined: no team anywhere
    t = sentinel_team;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, UPCCOLL_UNDEFINED, me, &t));
    SPMD_CHECK(t == UPCCOLL_TEAM_NULL);
    team_still_works();
    upc_free(r);
    upc_free(s);
    UC_OK(upccoll_finalize());
  });
}

namespace {

// The places stale_handle_body gives its upccoll_team_free(old) and first
// upccoll_finalize, which the reports name (the same in every worker process).
const std::source_location stale_free_at = std::source_location::current();
const std::source_location stale_finalize_at = std::source_location::current();

// upccoll_team_free(old) then a new split: the new team's record may sit where
// the old one was (a pointer handle then named the new team).
void stale_handle_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int me = MYTHREAD;
  upc::sptr<void> s = mine(64), r = mine(64);
  for (int round = 0; round < 4; ++round) {
    upccoll_team_t old = sentinel_team, fresh = sentinel_team;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &old));
    team_still_works(old);
    upccoll_team_free(old, stale_free_at);
    // the same split again (the old pointer handles then named the new team:
    // checked against the library before the fix) or another one
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, round % 2 ? me % 2 : 0, me, &fresh));
    SPMD_CHECK(fresh != old);
    int x = -7;
    upccoll_team_t nt = sentinel_team;
    UC_EXPECT(upccoll_team_rank(old, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_size(old, &x), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK_EQ(x, -7);
    UC_EXPECT(upccoll_team_split(old, 0, me, &nt), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(nt == sentinel_team);
    UC_EXPECT(upccoll_barrier(old, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, old, 0, nullptr), UPCCOLL_ERROR_TEAM);
    upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, old, 0, &h), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(h == UPCCOLL_INVALID_HANDLE);
    upccoll_team_free(old);  // freeing twice: refused, and no hang
    team_still_works(fresh);
    upccoll_team_free(fresh);
  }
  // a handle stays dead across finalize and a new initialize
  upccoll_team_t before = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &before));
  UC_OK(upccoll_finalize(stale_finalize_at));
  UC_OK(upccoll_initialize(nullptr, nullptr));
  upccoll_team_t after = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &after));
  int x = -7;
  UC_EXPECT(upccoll_team_rank(before, &x), UPCCOLL_ERROR_TEAM);
  // another thread's live handle is not this thread's
  upc::shared_array<std::uint64_t> slot{upc::per_thread(1)};
  if (me == 0) slot[0] = reinterpret_cast<std::uintptr_t>(after);
  upc_barrier;
  const auto theirs = reinterpret_cast<upccoll_team_t>(static_cast<std::uintptr_t>(slot[0].get()));
  if (me != 0) UC_EXPECT(upccoll_team_rank(theirs, &x), UPCCOLL_ERROR_TEAM);
  upc_barrier;
  team_still_works(after);
  upccoll_team_free(after);
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("a freed team handle stays UPCCOLL_ERROR_TEAM after a new split reuses its memory; free twice is refused (issue 8.14)") {
  everywhere(stale_handle_body, {1, 2, 3, 5});
}

TEST_CASE("a freed team handle is reported under --check, free twice included (issue 8.14)") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    upc::launch_options o = opts(2, b, 60);
    o.check = true;
    upc::run_result res;
    const std::string err = stderr_of([&] { res = upc::run(o, stale_handle_body); });
    INFO("backend=", spmd::name(b), " error: ", res.error, " stderr: ", err);
    CHECK(res.ok());
    // where it was freed (issue 27.8)
    CHECK(spmd::contains(err, "upccoll_team_free: team was freed by upccoll_team_free at "));
    CHECK(spmd::contains(err, "upccoll_barrier: team was freed by upccoll_team_free at "));
    CHECK(spmd::contains(err, "test_upccoll_api.cpp:" + std::to_string(stale_free_at.line()) +
                                  "; a freed team handle cannot be used again"));
    CHECK(spmd::contains(err, "upccoll_team_rank: team was released by upccoll_finalize at "));
    CHECK(spmd::contains(err, "test_upccoll_api.cpp:" + std::to_string(stale_finalize_at.line()) + ";"));
    CHECK(spmd::contains(err, "UPCCOLL_ERROR_TEAM"));
  }
}

namespace {

// Disjoint teams, each running a stream of collectives at its own pace.
void concurrent_teams_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  const int ncolors = std::min(T, 3);
  upccoll_team_t team = nullptr, sub = nullptr;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % ncolors, me / ncolors, &team));
  int r = 0, n = 0;
  UC_OK(upccoll_team_rank(team, &r));
  UC_OK(upccoll_team_size(team, &n));
  UC_OK(upccoll_team_split(team, r % 2, r / 2, &sub));  // and teams inside the teams
  int sr = 0, sn = 0;
  UC_OK(upccoll_team_rank(sub, &sr));
  UC_OK(upccoll_team_size(sub, &sn));
  upc::sptr<void> s = mine(8 * 64), rb = mine(8 * 64);
  auto* sv = L<long>(s);
  auto* rv = L<long>(rb);
  for (int it = 0; it < 40; ++it) {
    if ((it + me) % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300 * (me % 3 + 1)));
    // allreduce of (thread + it) over the team: its members are me % ncolors + k*ncolors
    sv[0] = me + it;
    UC_OK(upccoll_allreduce(s, rb, 1, UPC_LONG, UPC_ADD, team, 0, nullptr));
    long want = 0;
    for (int t = me % ncolors; t < T; t += ncolors) want += t + it;
    SPMD_CHECK_EQ(rv[0], want);
    // bcast from rank it % n of the team: that rank's thread
    sv[0] = 1000L * me + it;
    const int root = it % n;
    UC_OK(upccoll_bcast(s, 1, UPC_LONG, rb, 1, UPC_LONG, root, team, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, nullptr));
    SPMD_CHECK_EQ(rv[0], 1000L * (me % ncolors + root * ncolors) + it);
    // the inner team: an exclusive scan of 1s gives the rank (rank 0: unchanged)
    sv[0] = 1;
    rv[0] = -5;
    upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
    UC_OK(upccoll_scan(s, rb, 1, UPC_LONG, UPC_ADD, sub, 0, &h));
    UC_OK(upccoll_wait_status(h));
    SPMD_CHECK_EQ(rv[0], sr == 0 ? -5L : static_cast<long>(sr));
    if (it % 5 == 0) UC_OK(upccoll_barrier(team, 0, nullptr));
  }
  upccoll_team_free(sub);
  upccoll_team_free(team);
  team_still_works();
  upc_free(rb);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("disjoint teams run collectives at the same time; each gets its own results") {
  everywhere(concurrent_teams_body);
}

// ---------------------------------------------------------------------------
// Zero counts

TEST_CASE("zero counts are valid and write nothing; a buffer of zero bytes may be NULL") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int T = THREADS;
        upc::sptr<void> s = mine(64), r = mine(64);
        const upc::sptr<void> null;
        std::memset(L<void>(s), 0x11, 64);
        std::memset(L<void>(r), 0x5a, 64);
        std::vector<std::size_t> zeros(T, 0);
        for (int pass = 0; pass < 2; ++pass) {
          const upc::sptr<void> sb = pass ? null : s, rb = pass ? null : r;
          const std::string what = pass ? " (NULL buffers)" : "";
          expect_rc(upccoll_bcast(sb, 0, UPC_INT, rb, 0, UPC_INT, T - 1, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "bcast" + what);
          expect_rc(upccoll_scatter(sb, 0, UPC_DOUBLE, rb, 0, UPC_DOUBLE, 0, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "scatter" + what);
          expect_rc(upccoll_scatterv(sb, zeros.data(), zeros.data(), UPC_INT, rb, 0, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "scatterv" + what);
          expect_rc(upccoll_gather(sb, 0, UPC_BYTE, rb, 0, UPC_BYTE, T / 2, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "gather" + what);
          expect_rc(upccoll_gatherv(sb, 0, UPC_INT, rb, zeros.data(), zeros.data(), UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "gatherv" + what);
          expect_rc(upccoll_allgather(sb, 0, UPC_INT, rb, 0, UPC_INT, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "allgather" + what);
          expect_rc(upccoll_allgatherv(sb, 0, UPC_INT, rb, zeros.data(), zeros.data(), UPC_INT, UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "allgatherv" + what);
          expect_rc(upccoll_alltoall(sb, 0, UPC_INT, rb, 0, UPC_INT, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "alltoall" + what);
          expect_rc(upccoll_alltoallv(sb, zeros.data(), zeros.data(), UPC_INT, rb, zeros.data(), zeros.data(), UPC_INT,
                                      UPC_TEAM_ALL, 0, nullptr),
                    UPCCOLL_SUCCESS, "alltoallv" + what);
          expect_rc(upccoll_reduce(sb, rb, 0, UPC_DOUBLE, UPC_ADD, 0, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "reduce" + what);
          expect_rc(upccoll_allreduce(sb, rb, 0, UPC_INT, UPC_MAX, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "allreduce" + what);
          expect_rc(upccoll_reduce_scatter(sb, rb, zeros.data(), UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS,
                    "reduce_scatter" + what);
          expect_rc(upccoll_scan(sb, rb, 0, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS, "scan" + what);
          expect_rc(upccoll_scan_inclusive(sb, rb, 0, UPC_DOUBLE_INT, UPC_MINLOC, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_SUCCESS,
                    "scan_inclusive" + what);
          for (int i = 0; i < 64; ++i) {
            SPMD_CHECK_EQ(static_cast<int>(L<unsigned char>(r)[i]), 0x5a);
            SPMD_CHECK_EQ(static_cast<int>(L<unsigned char>(s)[i]), 0x11);
          }
        }
        team_still_works();
        upc_free(r);
        upc_free(s);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 5});
}

// ---------------------------------------------------------------------------
// Sync flags

namespace {

// barrier, bcast, allreduce and alltoall with flags f (UPC_ASYNC_FENCE: completed
// by upccoll_fence), data checked as the flags allow.
void flags_round(upccoll_flag_t f, int round) {
  const int T = THREADS, me = MYTHREAD;
  const std::string what = "flags " + flags_name(f);
  upc::sptr<void> s = mine(8 * T), r = mine(8 * T), s2 = mine(8 * T), r2 = mine(8 * T), s3 = mine(8), r3 = mine(8);
  for (int t = 0; t < T; ++t) L<long>(s)[t] = 100L * me + t + round;
  for (int t = 0; t < T; ++t) L<long>(s2)[t] = -1;
  L<long>(s3)[0] = me + round;
  if (me == T - 1) L<long>(s2)[0] = 4242 + round;
  if (f & UPC_IN_NOSYNC) upc_barrier;
  upccoll_handle_t h = reinterpret_cast<upccoll_handle_t>(std::uintptr_t{1});
  upccoll_handle_t* hp = (f & UPC_ASYNC_FENCE) && round % 2 ? &h : nullptr;
  expect_rc(upccoll_barrier(UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_barrier");
  expect_rc(upccoll_alltoall(s, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_alltoall");
  expect_rc(upccoll_bcast(s2, 1, UPC_LONG, r2, 1, UPC_LONG, T - 1, UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_bcast");
  expect_rc(upccoll_allreduce(s3, r3, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, f, hp), UPCCOLL_SUCCESS, what + ": upccoll_allreduce");
  if (hp && h != UPCCOLL_INVALID_HANDLE) fail(what + ": *handle must be UPCCOLL_INVALID_HANDLE under UPC_ASYNC_FENCE");
  if (f & UPC_ASYNC_FENCE) upccoll_fence();
  if (f & UPC_OUT_NOSYNC) upc_barrier;
  for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 100L * t + me + round);
  SPMD_CHECK_EQ(L<long>(r2)[0], 4242L + round);
  SPMD_CHECK_EQ(L<long>(r3)[0], static_cast<long>(T) * (T - 1) / 2 + static_cast<long>(T) * round);
  upc_barrier;
  upc_free(r3);
  upc_free(s3);
  upc_free(r2);
  upc_free(s2);
  upc_free(r);
  upc_free(s);
}

const std::vector<upccoll_flag_t>& invalid_flags() {
  static const std::vector<upccoll_flag_t> v = {
      UPC_IN_NOSYNC | UPC_IN_MYSYNC,
      UPC_IN_MYSYNC | UPC_IN_ALLSYNC,
      UPC_IN_NOSYNC | UPC_IN_ALLSYNC,
      UPC_IN_NOSYNC | UPC_IN_MYSYNC | UPC_IN_ALLSYNC,
      UPC_OUT_NOSYNC | UPC_OUT_MYSYNC,
      UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC,
      UPC_OUT_NOSYNC | UPC_OUT_ALLSYNC | UPC_IN_MYSYNC,
      UPC_PULL,
      UPC_PUSH,
      UPC_MULTICORE,
      UPC_PULL | UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
      UPC_PUSH | UPC_ASYNC_FENCE,
      1 << 10,
      1 << 16,
      1 << 30,
      -1};
  return v;
}

}  // namespace

TEST_CASE("sync flags: the 16 IN × OUT combinations (with and without UPC_ASYNC_FENCE) complete with the right data") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        int round = 0;
        for (upccoll_flag_t fence : {0, UPC_ASYNC_FENCE})
          for (upccoll_flag_t f : sync_flag_values()) flags_round(f | fence, round++);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 4, 7});
}

namespace {

// Invalid flags on every thread, then on the last one only. strict: every member
// gets UPCCOLL_ERROR_FLAGS; lenient: the last one does, the others that or
// SUCCESS (see error_check below) -- except in a barrier, whose every member
// waits for every member's post and so meets the failed one.
void flags_invalid_body(bool strict) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  upc::sptr<void> s = mine(8 * T + 8), r = mine(8 * T + 8);
  for (upccoll_flag_t bad : invalid_flags())
    for (int only_last = 0; only_last < 2; ++only_last) {
      if (only_last && T == 1) continue;
      const bool erring = !only_last || me == T - 1;
      const upccoll_flag_t f = erring ? bad : 0;
      const std::string what = "flags " + flags_name(bad) + " (" + std::to_string(bad) + ")" +
                                (only_last ? " on the last thread only" : "");
      auto check = [&](upccoll_return_t rc, const char* call, bool always_strict) {
        if (strict || erring || always_strict) {
          expect_rc(rc, UPCCOLL_ERROR_FLAGS, what + ": " + call);
        } else if (rc != UPCCOLL_SUCCESS && rc != UPCCOLL_ERROR_FLAGS) {
          fail(what + ": " + call + " returned " + code_name(rc));
        }
      };
      check(upccoll_barrier(UPC_TEAM_ALL, f, nullptr), "upccoll_barrier", true);
      check(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, f, nullptr), "upccoll_allreduce", false);
      check(upccoll_bcast(s, 2, UPC_INT, r, 2, UPC_INT, 0, UPC_TEAM_ALL, f, nullptr), "upccoll_bcast", false);
      if (!only_last) {  // non-blocking: refused at once
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        check(upccoll_alltoall(s, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, f, &h), "upccoll_alltoall (non-blocking)", true);
        if (h != UPCCOLL_INVALID_HANDLE) upccoll_wait(h);
      }
      team_still_works();
    }
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("sync flags: two IN or two OUT choices or unknown bits (UPC_PULL/PUSH/MULTICORE included) are UPCCOLL_ERROR_FLAGS") {
  everywhere([] { flags_invalid_body(false); }, {1, 2, 3});
}

// ---------------------------------------------------------------------------
// Completion: handles, overlapping collectives, the fence

TEST_CASE("handles: upccoll_test gives 0/1 and leaves the handle live; after upccoll_wait it is dead; garbage and foreign handles are refused") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int T = THREADS, me = MYTHREAD;
        upc::sptr<void> s = mine(64), r = mine(64);
        for (int i = 0; i < 4; ++i) L<int>(s)[i] = me * i;
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        UC_OK(upccoll_allreduce(s, r, 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, &h));
        SPMD_CHECK(h != UPCCOLL_INVALID_HANDLE);
        const auto t0 = std::chrono::steady_clock::now();
        int got;
        while ((got = upccoll_test(h)) == 0) {
          if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(30)) fail("upccoll_test never gave 1");
          std::this_thread::yield();
        }
        SPMD_CHECK_EQ(got, 1);
        SPMD_CHECK_EQ(upccoll_test(h), 1);  // still live until waited for
        UC_OK(upccoll_wait_status(h));
        for (int i = 0; i < 4; ++i) SPMD_CHECK_EQ(L<int>(r)[i], i * T * (T - 1) / 2);
        // dead now
        SPMD_CHECK_EQ(upccoll_test(h), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        UC_EXPECT(upccoll_wait_status(h), UPCCOLL_ERROR_HANDLE);
        upccoll_wait(h);  // returns
        // garbage
        long junk[4] = {0x1234, -1, 77, 0};
        SPMD_CHECK_EQ(upccoll_test(static_cast<upccoll_handle_t>(junk)), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        SPMD_CHECK_EQ(upccoll_test(reinterpret_cast<upccoll_handle_t>(std::uintptr_t{0x10})), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        SPMD_CHECK_EQ(upccoll_test(UPCCOLL_INVALID_HANDLE), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        UC_EXPECT(upccoll_wait_status(static_cast<upccoll_handle_t>(junk)), UPCCOLL_ERROR_HANDLE);
        UC_EXPECT(upccoll_wait_status(UPCCOLL_INVALID_HANDLE), UPCCOLL_ERROR_HANDLE);
        // a barrier by handle, waited with upccoll_wait
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &h));
        upccoll_wait(h);
        SPMD_CHECK_EQ(upccoll_test(h), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        // thread 0's live handle means nothing on another thread (unless it is that thread's own)
        upc::shared_array<std::uint64_t> slot{upc::per_thread(1)};
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, &h));
        if (me == 0) slot[0] = reinterpret_cast<std::uintptr_t>(h);
        upc_barrier;
        const auto h0 = reinterpret_cast<upccoll_handle_t>(static_cast<std::uintptr_t>(slot[0].get()));
        if (me != 0 && h0 != h)
          SPMD_CHECK_EQ(upccoll_test(h0), -static_cast<int>(UPCCOLL_ERROR_HANDLE));
        upc_barrier;
        upccoll_wait(h);
        // a local error in a non-blocking call: the erring thread gets the code at
        // once; the others' handles complete with it
        if (T >= 2) {
          const bool bad = me == T - 1;
          h = UPCCOLL_INVALID_HANDLE;
          const upccoll_return_t rc =
              upccoll_allreduce(bad ? upc::sptr<void>(nullptr) : s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, &h);
          if (bad) {
            UC_EXPECT(rc, UPCCOLL_ERROR_SENDBUF);
            if (h != UPCCOLL_INVALID_HANDLE) UC_EXPECT(upccoll_wait_status(h), UPCCOLL_ERROR_SENDBUF);
          } else if (rc == UPCCOLL_SUCCESS) {
            UC_EXPECT(upccoll_wait_status(h), UPCCOLL_ERROR_SENDBUF);
          } else {
            UC_EXPECT(rc, UPCCOLL_ERROR_SENDBUF);
          }
          team_still_works();
        }
        upc_free(r);
        upc_free(s);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 5});
}

namespace {

// 24+ calls of every kind (several of each), small to medium, with flags and
// completions cycling (mostly by handle), on UPC_TEAM_ALL (levels 0) or each on
// a split of its own.
std::vector<ucase> overlapping_cases(int T, std::uint64_t salt, int team_levels, bool fence_only = false) {
  std::vector<ucase> v;
  const std::vector<upccoll_flag_t>& flags = sync_flag_values();
  const std::size_t count_set[] = {1, 13, 200, 1021};
  for (std::size_t i = 0; i < 30; ++i) {
    ucase c;
    c.kind = M::all_collectives[(i * 4) % 15];  // every kind twice
    c.seed = seed_of(salt, i);
    if (M::is_reduction(c.kind)) {
      const auto& rt = reduction_types()[(i * 5) % reduction_types().size()];
      c.sendtype = c.recvtype = rt.first;
      c.op = rt.second;
    } else {
      const auto& mt = movement_types()[(i * 3) % movement_types().size()];
      c.sendtype = mt.first;
      c.recvtype = mt.second;
    }
    c.count = std::max<std::size_t>(1, count_set[i % 4] / M::size_of(c.sendtype));
    c.flags = flags[(i * 5) % flags.size()];
    c.how = fence_only ? completion::fence
                       : (i % 6 == 5 ? completion::fence : i % 6 == 4 ? completion::blocking
                                                                      : i % 2 ? completion::test : completion::wait);
    c.team_levels = team_levels;
    c.root_pick = static_cast<int>(i % 4);
    c.garbage = i % 3 == 0;
    c.in_place = has_in_place(c.kind) && (i % 4 == 1 || i % 5 == 2);
    (void)T;
    v.push_back(c);
  }
  return v;
}

}  // namespace

TEST_CASE("30 overlapping non-blocking collectives of every kind on one team completed in reverse / random / start order") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 2, 3, 4, 5, 8, 16})
      for (int order = 0; order < 3; ++order) {
        if (T == 16 && order != 1) continue;
        const std::vector<ucase> cases = overlapping_cases(T, h3(T, order, static_cast<int>(b)), 0);
        const std::string label = std::string("order ") + (order == 0 ? "reverse" : order == 1 ? "random per thread" : "start order");
        INFO(label);
        run_ok(T, b, [&] { run_overlapped(cases, order); }, 120);
      }
}

TEST_CASE("overlapping non-blocking collectives on several split teams at once") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {3, 5, 8}) {
      const std::vector<ucase> cases = overlapping_cases(T, h3(T, 99, static_cast<int>(b)), 1);
      run_ok(T, b, [&] { run_overlapped(cases, 1); }, 120);
    }
}

namespace {

// 40 non-blocking allreduces and barriers in flight at once on one team (more
// than the 32 a team keeps), then 8 fenced ones; waited in reverse.
void many_in_flight_body(upccoll_team_t team) {
  const int N = 40, me = MYTHREAD;
  int n = 0, rank = 0;
  UC_OK(upccoll_team_size(team, &n));
  UC_OK(upccoll_team_rank(team, &rank));
  const std::vector<int> mem = members_of(team);
  std::vector<upc::sptr<void>> s(N + 8), r(N + 8);
  std::vector<upccoll_handle_t> h(N, UPCCOLL_INVALID_HANDLE);
  for (int j = 0; j < N + 8; ++j) {
    s[j] = mine(16);
    r[j] = mine(16);
    L<long>(s[j])[0] = me + j;
    L<long>(s[j])[1] = static_cast<long>(j) * me;
    L<long>(r[j])[0] = L<long>(r[j])[1] = -1;
  }
  for (int j = 0; j < N; ++j) {
    const upccoll_flag_t f = j % 3 == 0 ? UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC : 0;
    if (j % 10 == 9) {
      UC_OK(upccoll_barrier(team, f, &h[j]));
    } else {
      UC_OK(upccoll_allreduce(s[j], r[j], 2, UPC_LONG, UPC_ADD, team, f, &h[j]));
    }
  }
  for (int j = N; j < N + 8; ++j) UC_OK(upccoll_allreduce(s[j], r[j], 2, UPC_LONG, UPC_ADD, team, UPC_ASYNC_FENCE, nullptr));
  for (int j = N - 1; j >= 0; --j) UC_OK(upccoll_wait_status(h[j]));
  upccoll_fence();
  for (int j = 0; j < N + 8; ++j) {
    if (j < N && j % 10 == 9) continue;
    long w0 = 0, w1 = 0;
    for (int t : mem) {
      w0 += t + j;
      w1 += static_cast<long>(j) * t;
    }
    SPMD_CHECK_EQ(L<long>(r[j])[0], w0);
    SPMD_CHECK_EQ(L<long>(r[j])[1], w1);
  }
  for (int j = N + 7; j >= 0; --j) {
    upc_free(r[j]);
    upc_free(s[j]);
  }
}

}  // namespace

TEST_CASE("more than 32 non-blocking collectives in flight on one team (and on two teams at once)") {
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        many_in_flight_body(UPC_TEAM_ALL);
        upccoll_team_t half = nullptr;
        UC_OK(upccoll_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD / 2, &half));
        many_in_flight_body(half);
        upccoll_team_free(half);
        UC_OK(upccoll_finalize());
      },
      {1, 2, 3, 5, 8, 16}, 120);
}

TEST_CASE("UPC_ASYNC_FENCE: every kind completes at upccoll_fence; pending ones complete at upccoll_finalize") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 2, 3, 5, 8}) {
      const std::vector<ucase> cases = overlapping_cases(T, h3(T, 7, static_cast<int>(b)), 0, true);
      run_ok(T, b, [&] { run_overlapped(cases, 0); }, 120);
      run_ok(T, b, [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const int n = THREADS, me = MYTHREAD;
        upc::sptr<void> s = mine(8 * n), r = mine(8 * n), s2 = mine(8), r2 = mine(8);
        for (int t = 0; t < n; ++t) L<long>(s)[t] = 10L * me + t;
        L<long>(s2)[0] = me + 1;
        upccoll_handle_t h = reinterpret_cast<upccoll_handle_t>(std::uintptr_t{3});
        UC_OK(upccoll_alltoall(s, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, UPC_ASYNC_FENCE, &h));
        SPMD_CHECK(h == UPCCOLL_INVALID_HANDLE);
        UC_OK(upccoll_allreduce(s2, r2, 1, UPC_LONG, UPC_MULT, UPC_TEAM_ALL, UPC_ASYNC_FENCE | UPC_IN_ALLSYNC, nullptr));
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, UPC_ASYNC_FENCE, nullptr));
        UC_OK(upccoll_finalize());  // completes them
        for (int t = 0; t < n; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 10L * t + me);
        long fact = 1;
        for (int t = 1; t <= n; ++t) fact *= t;
        SPMD_CHECK_EQ(L<long>(r2)[0], fact);
        upc_barrier;
        upc_free(r2);
        upc_free(s2);
        upc_free(r);
        upc_free(s);
      });
    }
}

// ---------------------------------------------------------------------------
// The paper's Figure 1: starts are not synchronised with one another, nor are
// completions

namespace {

enum class ex { lock_across_start, lock_across_wait };

// in_place: allreduce and alltoall with UPCCOLL_IN_PLACE (their stage tasks
// must be claimable by whoever waits, too), gather at the root.
void ex_body(collective k, upccoll_flag_t f, ex which, bool in_place = false) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD;
  upc_lock_t* lock = upc_all_lock_alloc();
  upc::sptr<void> s = mine(8 * std::max(T, 2)), r = mine(8 * std::max(T, 2));
  for (int it = 0; it < 4; ++it) {
    const int slow = it % T;  // this thread is late to start (and, in EX1, holds the lock meanwhile)
    for (int t = 0; t < std::max(T, 2); ++t) L<long>(s)[t] = 1000L * me + 10 * t + it;
    for (int t = 0; t < std::max(T, 2); ++t) L<long>(r)[t] = -1;
    upc::sptr<void> src = s;
    if (in_place) {  // the input where the in-place form reads it
      if (k == collective::gather) {
        L<long>(r)[me] = L<long>(s)[0];
        if (me == T / 2) src = UPCCOLL_IN_PLACE;
      } else {
        for (int t = 0; t < std::max(T, 2); ++t) L<long>(r)[t] = L<long>(s)[t];
        src = UPCCOLL_IN_PLACE;
      }
    }
    upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
    auto start = [&] {
      switch (k) {
        case collective::barrier: return upccoll_barrier(UPC_TEAM_ALL, f, &h);
        case collective::bcast: return upccoll_bcast(s, 2, UPC_LONG, r, 2, UPC_LONG, T - 1, UPC_TEAM_ALL, f, &h);
        case collective::allreduce: return upccoll_allreduce(src, r, 2, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, f, &h);
        case collective::alltoall: return upccoll_alltoall(src, 1, UPC_LONG, r, 1, UPC_LONG, UPC_TEAM_ALL, f, &h);
        case collective::gather: return upccoll_gather(src, 1, UPC_LONG, r, 1, UPC_LONG, T / 2, UPC_TEAM_ALL, f, &h);
        default: return UPCCOLL_ERROR;
      }
    };
    upccoll_return_t rc, rs;
    if (which == ex::lock_across_start) {  // EX1
      upc_lock(lock);
      if (me == slow) std::this_thread::sleep_for(std::chrono::milliseconds(3));
      rc = start();
      upc_unlock(lock);
      rs = upccoll_wait_status(h);
    } else {  // EX2
      if (me == slow) std::this_thread::sleep_for(std::chrono::milliseconds(3));
      rc = start();
      upc_lock(lock);
      rs = upccoll_wait_status(h);
      upc_unlock(lock);
    }
    UC_OK(rc);
    UC_OK(rs);
    switch (k) {
      case collective::bcast:
        SPMD_CHECK_EQ(L<long>(r)[0], 1000L * (T - 1) + it);
        SPMD_CHECK_EQ(L<long>(r)[1], 1000L * (T - 1) + 10 + it);
        break;
      case collective::allreduce:
        SPMD_CHECK_EQ(L<long>(r)[0], 1000L * T * (T - 1) / 2 + static_cast<long>(T) * it);
        SPMD_CHECK_EQ(L<long>(r)[1], 1000L * T * (T - 1) / 2 + static_cast<long>(T) * (10 + it));
        break;
      case collective::alltoall:
        for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 1000L * t + 10 * me + it);
        break;
      case collective::gather:
        if (me == T / 2)
          for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(L<long>(r)[t], 1000L * t + it);
        break;
      default: break;
    }
    upc_barrier;
  }
  upc_free(r);
  upc_free(s);
  upc_all_lock_free(lock);
  UC_OK(upccoll_finalize());
}

void run_figure1(std::initializer_list<int> counts) {
  for (collective k : {collective::barrier, collective::bcast, collective::allreduce, collective::alltoall, collective::gather})
    for (upccoll_flag_t f : {0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC})
      for (ex which : {ex::lock_across_start, ex::lock_across_wait}) {
        const std::string label = std::string(M::name(k)) + " flags " + flags_name(f) +
                                  (which == ex::lock_across_start ? " EX1 (lock across start)" : " EX2 (lock across wait)");
        INFO(label);
        everywhere([=] { ex_body(k, f, which); }, counts, 30);
      }
}

}  // namespace

TEST_CASE("Figure 1: EX1 (lock across start) and EX2 (lock across wait) complete with flags 0 and with ALLSYNC") {
  run_figure1(all_threads);
}

TEST_CASE("Figure 1 with UPCCOLL_IN_PLACE: allreduce and alltoall (stage tasks) and gather complete in EX1 and EX2") {
  for (collective k : {collective::allreduce, collective::alltoall, collective::gather})
    for (upccoll_flag_t f : {0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC})
      for (ex which : {ex::lock_across_start, ex::lock_across_wait}) {
        INFO(M::name(k), " flags ", flags_name(f), which == ex::lock_across_start ? " EX1" : " EX2");
        everywhere([=] { ex_body(k, f, which, true); }, {1, 2, 3, 5, 8}, 30);
      }
}

// ---------------------------------------------------------------------------
// Errors: each code, from the thread that makes the mistake; every other thread
// of a valid team gets the same code from the same call and the team goes on

namespace {

// Who makes the mistake in an error case.
constexpr int last_too = -3;  // call(true) everywhere, then call(me == last)
constexpr int mismatch = -2;  // the members disagree (root, counts, collective): no one is wrong alone
constexpr int every = -1;     // call(true) everywhere
// (>= 0: that thread; call(false) is not used)

// How strictly the other members' codes are checked.
//   strict: every member of the team gets `want` (the requirement; what
//           upcrun --check gives)
//   lenient: the erring member gets `want`; the others `want` or SUCCESS (a
//           member whose part of the collective never met the mistake may end
//           first, docs/teams-and-collectives-2.md "Errors"); for a mismatch at
//           least one member gets `want`
// Either way nobody hangs and the team goes on working.
struct error_check {
  bool strict = true;
  upc::sptr<void> codes;  // an int per thread (upc_all_alloc(THREADS, sizeof(int)))

  void one(upccoll_return_t want, const std::string& what, int erring, upccoll_return_t rc) const {
    const int me = MYTHREAD;
    if (strict || erring == every || erring == me) {
      expect_rc(rc, want, what);
    } else if (rc != want && rc != UPCCOLL_SUCCESS) {
      fail(what + ": returned " + code_name(rc) + ", expected " + code_name(want) + " (or UPCCOLL_SUCCESS)");
    }
    if (!strict && erring == mismatch) {
      upc::shared_address a = codes.address();
      a.thread = static_cast<std::uint32_t>(me);
      *static_cast<int*>(upc::sptr<void>(a).local()) = rc;
      upc_barrier;
      bool any = false;
      for (int t = 0; t < THREADS; ++t) {
        a.thread = static_cast<std::uint32_t>(t);
        int c = 0;
        upc_memget(&c, upc::sptr<void>(a), sizeof c);
        any = any || c == static_cast<int>(want);
      }
      if (!any) fail(what + ": no member returned " + code_name(want));
      upc_barrier;
    }
    team_still_works();
  }

  // `call(bad)` as `erring` says.
  void operator()(upccoll_return_t want, const std::string& what, const std::function<upccoll_return_t(bool)>& call,
                  int erring = last_too) const {
    if (erring == last_too || erring == every) {
      one(want, what + " (every thread)", every, call(true));
      if (erring == last_too && THREADS >= 2)
        one(want, what + " (on the last thread only)", THREADS - 1, call(MYTHREAD == THREADS - 1));
    } else {
      one(want, what, erring, call(false));
    }
  }
};

void errors_body(bool strict) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int T = THREADS, me = MYTHREAD, last = T - 1;
  error_check expect_everywhere;
  expect_everywhere.strict = strict;
  expect_everywhere.codes = upc_all_alloc(T, sizeof(int));
  const std::size_t huge = std::size_t{1} << 28;  // items: far beyond a 16 MiB heap for any type
  const std::size_t overflow = std::numeric_limits<std::size_t>::max() / 2;
  upc::sptr<void> s = mine(64 * T + 64), r = mine(64 * T + 64);
  const upc::sptr<void> other_arr = upc_all_alloc(T, 64);
  upc::shared_address oa = other_arr.address();
  oa.thread = static_cast<std::uint32_t>((me + 1) % T);
  const upc::sptr<void> other(oa);  // a buffer with affinity to the next thread
  const upc::sptr<void> null;
  std::vector<std::size_t> ones(T, 1), disp(T), big_cnt(T, 1), big_disp(T);
  for (int t = 0; t < T; ++t) big_disp[t] = disp[t] = static_cast<std::size_t>(t);
  big_cnt[T / 2] = huge;
  big_disp[T / 2] = huge;

  // SENDBUF / RECVBUF: null where used, or not affine to the caller
  expect_everywhere(UPCCOLL_ERROR_SENDBUF, "allreduce, sendbuf NULL",
                    [&](bool bad) { return upccoll_allreduce(bad ? null : s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_RECVBUF, "allreduce, recvbuf NULL",
                    [&](bool bad) { return upccoll_allreduce(s, bad ? null : r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_SENDBUF, "bcast, the root's sendbuf NULL", [&](bool) {
    return upccoll_bcast(me == last ? null : s, 1, UPC_INT, r, 1, UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_RECVBUF, "gather, the root's recvbuf NULL", [&](bool) {
    return upccoll_gather(s, 1, UPC_INT, me == 0 ? null : r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_RECVBUF, "alltoall, recvbuf NULL",
                    [&](bool bad) { return upccoll_alltoall(s, 1, UPC_INT, bad ? null : r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr); });
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR_SENDBUF, "allgather, sendbuf on another thread", [&](bool bad) {
      return upccoll_allgather(bad ? other : s, 1, UPC_INT, r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr);
    });
    expect_everywhere(UPCCOLL_ERROR_RECVBUF, "scan, recvbuf on another thread", [&](bool bad) {
      return upccoll_scan(s, bad ? other : r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    });
  }

  // COUNT: beyond the caller's heap (or overflowing count × size)
  expect_everywhere(UPCCOLL_ERROR_COUNT, "allreduce, count beyond the heap",
                    [&](bool bad) { return upccoll_allreduce(s, r, bad ? huge : 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_COUNT, "allreduce, count × size overflows",
                    [&](bool bad) { return upccoll_allreduce(s, r, bad ? overflow : 1, UPC_DOUBLE, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); }, every);
  expect_everywhere(UPCCOLL_ERROR_COUNT, "bcast, the root's sendcount beyond the heap (receivers agreeing)", [&](bool) {
    return upccoll_bcast(s, huge, UPC_BYTE, r, huge, UPC_BYTE, 0, UPC_TEAM_ALL, 0, nullptr);
  }, every);
  // COUNT: the sides' byte counts disagree (found while running): every rank
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR_COUNT, "bcast, a receiver's recvcount differs from the root's sendcount", [&](bool) {
      return upccoll_bcast(s, 4, UPC_INT, r, me == 1 ? 3 : 4, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "scatter, a receiver expects more", [&](bool) {
      return upccoll_scatter(s, 2, UPC_INT, r, me == last ? 3 : 2, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "gather, one sender sends less", [&](bool) {
      return upccoll_gather(s, me == 1 ? 1 : 2, UPC_INT, r, 2, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "allgather, one sender sends more", [&](bool) {
      return upccoll_allgather(s, me == 0 ? 3 : 2, UPC_INT, r, 2, UPC_INT, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "alltoall, one receiver's recvcount differs", [&](bool) {
      return upccoll_alltoall(s, 2, UPC_INT, r, me == last ? 1 : 2, UPC_INT, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    // the v-variants: the counts of one pair disagree. Thread 0 calls last, so
    // it (and in gatherv a sender whose part was staged) can end its part
    // before anyone has run the task that meets the mistake: it learns of it
    // only from the pairwise comparison every member makes once every post is in.
    const auto late0 = [&] {
      if (me == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    };
    expect_everywhere(UPCCOLL_ERROR_COUNT, "scatterv, the last receiver expects more than the root's sendcnts entry",
                      [&](bool) {
                        late0();
                        return upccoll_scatterv(s, ones.data(), disp.data(), UPC_INT, r, me == last ? 2 : 1, UPC_INT, 0,
                                                UPC_TEAM_ALL, 0, nullptr);
                      }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "gatherv, the last sender sends more than the root's recvcnts entry", [&](bool) {
      late0();
      return upccoll_gatherv(s, me == last ? 2 : 1, UPC_INT, r, ones.data(), disp.data(), UPC_INT, 0, UPC_TEAM_ALL, 0,
                             nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_COUNT, "allgatherv, the last sender sends less than the recvcnts entry", [&](bool) {
      late0();
      return upccoll_allgatherv(s, me == last ? 0 : 1, UPC_INT, r, ones.data(), disp.data(), UPC_INT, UPC_TEAM_ALL, 0,
                                nullptr);
    }, mismatch);
    {
      std::vector<std::size_t> recv_cnt(ones);
      if (me == last) recv_cnt[0] = 2;  // thread 0 sends it one item
      expect_everywhere(UPCCOLL_ERROR_COUNT, "alltoallv, the last member's recvcnts[0] differs from what thread 0 sends",
                        [&](bool) {
                          late0();
                          return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, recv_cnt.data(),
                                                   disp.data(), UPC_INT, UPC_TEAM_ALL, 0, nullptr);
                        }, mismatch);
    }
    // the same bytes in different types are fine: 2 ints = 8 bytes = 1 double
    for (int t = 0; t < 2; ++t) L<int>(s)[t] = 31 * t + 5;
    UC_OK(upccoll_bcast(s, 2, UPC_INT, r, me == 1 ? 8 : 1, me == 1 ? UPC_BYTE : UPC_DOUBLE, 0, UPC_TEAM_ALL, 0, nullptr));
    SPMD_CHECK_EQ(L<int>(r)[0], 5);
    SPMD_CHECK_EQ(L<int>(r)[1], 36);
  }

  // DATATYPE / SENDTYPE / RECVTYPE
  for (upccoll_dtype_t dt : {999, -1, UPC_PTS}) {
    expect_everywhere(UPCCOLL_ERROR_DATATYPE, "allreduce, dt " + std::to_string(dt),
                      [&](bool bad) { return upccoll_allreduce(s, r, 1, bad ? dt : UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
    expect_everywhere(UPCCOLL_ERROR_DATATYPE, "reduce, dt " + std::to_string(dt),
                      [&](bool bad) { return upccoll_reduce(s, r, 1, bad ? dt : UPC_INT, UPC_ADD, 0, UPC_TEAM_ALL, 0, nullptr); });
    expect_everywhere(UPCCOLL_ERROR_DATATYPE, "scan, dt " + std::to_string(dt),
                      [&](bool bad) { return upccoll_scan(s, r, 1, bad ? dt : UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr); });
  }
  expect_everywhere(UPCCOLL_ERROR_SENDTYPE, "bcast, the root's sendtype", [&](bool) {
    return upccoll_bcast(s, 1, me == last ? 999 : UPC_INT, r, 1, UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_SENDTYPE, "alltoall, sendtype",
                    [&](bool bad) { return upccoll_alltoall(s, 1, bad ? 999 : UPC_INT, r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_SENDTYPE, "gather, a sender's sendtype", [&](bool bad) {
    return upccoll_gather(s, 1, bad ? -4 : UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVTYPE, "bcast, recvtype",
                    [&](bool bad) { return upccoll_bcast(s, 1, UPC_INT, r, 1, bad ? 999 : UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr); });
  expect_everywhere(UPCCOLL_ERROR_RECVTYPE, "gather, the root's recvtype", [&](bool) {
    return upccoll_gather(s, 1, UPC_INT, r, 1, me == last ? 999 : UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_RECVTYPE, "allgatherv, recvtype", [&](bool bad) {
    return upccoll_allgatherv(s, 1, UPC_INT, r, ones.data(), disp.data(), bad ? 777 : UPC_INT, UPC_TEAM_ALL, 0, nullptr);
  });

  // UPC_OP
  for (upccoll_op_t op : {upccoll_op_t{0}, upccoll_op_t{UPC_FUNC}, upccoll_op_t{UPC_AND}}) {
    expect_everywhere(UPCCOLL_ERROR_UPC_OP, std::string("allreduce on doubles, op ") + M::op_name(op), [&](bool bad) {
      return upccoll_allreduce(s, r, 1, UPC_DOUBLE, bad ? op : UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    });
  }
  expect_everywhere(UPCCOLL_ERROR_UPC_OP, "reduce_scatter, MINLOC on ints", [&](bool bad) {
    return upccoll_reduce_scatter(s, r, ones.data(), UPC_INT, bad ? UPC_MINLOC : UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
  });

  // ROOT: out of range, or not the same everywhere
  for (int root : {-1, T, T + 5}) {
    expect_everywhere(UPCCOLL_ERROR_ROOT, "bcast, root " + std::to_string(root),
                      [&](bool bad) { return upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, bad ? root : 0, UPC_TEAM_ALL, 0, nullptr); });
    expect_everywhere(UPCCOLL_ERROR_ROOT, "reduce, root " + std::to_string(root), [&](bool bad) {
      return upccoll_reduce(s, r, 1, UPC_INT, UPC_ADD, bad ? root : 0, UPC_TEAM_ALL, 0, nullptr);
    });
  }
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR_ROOT, "gather, thread 0 says root 0, the others root 1", [&](bool) {
      return upccoll_gather(s, 1, UPC_INT, r, 1, UPC_INT, me == 0 ? 0 : 1, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR_ROOT, "scatterv, the last thread names another root", [&](bool) {
      return upccoll_scatterv(s, ones.data(), disp.data(), UPC_INT, r, 1, UPC_INT, me == last ? 0 : last, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
  }

  // SENDCNTS / SDISPLS / RECVCNTS / RDISPLS: null where used, or beyond the heap
  expect_everywhere(UPCCOLL_ERROR_SENDCNTS, "scatterv, the root's sendcnts NULL", [&](bool) {
    return upccoll_scatterv(s, me == 0 ? nullptr : ones.data(), disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_SDISPLS, "scatterv, the root's sdispls NULL", [&](bool) {
    return upccoll_scatterv(s, ones.data(), me == 0 ? nullptr : disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_SENDCNTS, "alltoallv, sendcnts NULL", [&](bool bad) {
    return upccoll_alltoallv(s, bad ? nullptr : ones.data(), disp.data(), UPC_INT, r, ones.data(), disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_SDISPLS, "alltoallv, sdispls NULL", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), bad ? nullptr : disp.data(), UPC_INT, r, ones.data(), disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "alltoallv, recvcnts NULL", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, bad ? nullptr : ones.data(), disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RDISPLS, "alltoallv, rdispls NULL", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, ones.data(), bad ? nullptr : disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "gatherv, the root's recvcnts NULL", [&](bool) {
    return upccoll_gatherv(s, 1, UPC_INT, r, me == last ? nullptr : ones.data(), disp.data(), UPC_INT, last, UPC_TEAM_ALL, 0, nullptr);
  }, last);
  expect_everywhere(UPCCOLL_ERROR_RDISPLS, "allgatherv, displs NULL", [&](bool bad) {
    return upccoll_allgatherv(s, 1, UPC_INT, r, ones.data(), bad ? nullptr : disp.data(), UPC_INT, UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "reduce_scatter, recvcounts NULL", [&](bool bad) {
    return upccoll_reduce_scatter(s, r, bad ? nullptr : ones.data(), UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
  }, every);
  expect_everywhere(UPCCOLL_ERROR_SENDCNTS, "scatterv, a sendcnts entry beyond the root's heap", [&](bool) {
    // (the receiver of that entry expects 1 item: only the root makes a mistake)
    return upccoll_scatterv(s, big_cnt.data(), disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_SDISPLS, "scatterv, an sdispls entry beyond the root's heap", [&](bool) {
    return upccoll_scatterv(s, ones.data(), big_disp.data(), UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);
  expect_everywhere(UPCCOLL_ERROR_RDISPLS, "alltoallv, an rdispls entry beyond the heap", [&](bool bad) {
    return upccoll_alltoallv(s, ones.data(), disp.data(), UPC_INT, r, ones.data(), bad ? big_disp.data() : disp.data(), UPC_INT,
                             UPC_TEAM_ALL, 0, nullptr);
  });
  expect_everywhere(UPCCOLL_ERROR_RECVCNTS, "gatherv, a recvcnts entry beyond the root's heap", [&](bool) {
    return upccoll_gatherv(s, 1, UPC_INT, r, big_cnt.data(), disp.data(), UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
  }, 0);

  // TEAM: garbage, or freed
  long junk[8] = {0x5151, 7, -3, 0, 0, 0, 0, 0};
  for (upccoll_team_t bad_team : {static_cast<upccoll_team_t>(junk), reinterpret_cast<upccoll_team_t>(std::uintptr_t{1})}) {
    int x = 0;
    upccoll_team_t nt = sentinel_team;
    UC_EXPECT(upccoll_team_rank(bad_team, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_size(bad_team, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_team_split(bad_team, 0, me, &nt), UPCCOLL_ERROR_TEAM);
    SPMD_CHECK(nt == sentinel_team);
    UC_EXPECT(upccoll_barrier(bad_team, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, bad_team, 0, nullptr), UPCCOLL_ERROR_TEAM);
  }
  {
    upccoll_team_t t2 = nullptr;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, me % 2, me / 2, &t2));
    team_still_works(t2);
    upccoll_team_free(t2);
    int x = 0;
    UC_EXPECT(upccoll_team_rank(t2, &x), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_barrier(t2, 0, nullptr), UPCCOLL_ERROR_TEAM);
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, t2, 0, nullptr), UPCCOLL_ERROR_TEAM);
    team_still_works();
  }

  // UPCCOLL_ERROR: different collectives at the same point of a team
  if (T >= 2) {
    expect_everywhere(UPCCOLL_ERROR, "thread 0 calls barrier, the others allreduce", [&](bool) {
      return me == 0 ? upccoll_barrier(UPC_TEAM_ALL, 0, nullptr)
                     : upccoll_allreduce(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR, "the last thread calls scatter, the others bcast", [&](bool) {
      return me == last ? upccoll_scatter(s, 1, UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr)
                        : upccoll_bcast(s, 1, UPC_INT, r, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
    expect_everywhere(UPCCOLL_ERROR, "thread 0 calls scan, the others the inclusive scan", [&](bool) {
      return me == 0 ? upccoll_scan(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr)
                     : upccoll_scan_inclusive(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    }, mismatch);
  }

  upc_barrier;
  upc_all_free(expect_everywhere.codes);
  upc_all_free(other_arr);
  upc_free(r);
  upc_free(s);
  UC_OK(upccoll_finalize());
}

// Fills the calling thread's heap with upc_alloc (the run's heap is `heap`).
std::vector<upc::sptr<void>> fill_heap() {
  std::vector<upc::sptr<void>> hog;
  for (std::size_t chunk = std::size_t{1} << 22; chunk >= 16;) {
    try {
      hog.push_back(upc_alloc(chunk));
    } catch (const upc::error&) {
      chunk /= 2;
    }
  }
  return hog;
}

void malloc_body() {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  const int me = MYTHREAD, last = THREADS - 1;
  for (int who = 0; who < 2; ++who) {  // every thread's heap full, then only the last one's
    upc_barrier;
    std::vector<upc::sptr<void>> hog;
    if (who == 0 || me == last) hog = fill_heap();
    upc_barrier;
    upccoll_team_t nt = sentinel_team;
    expect_rc(upccoll_team_split(UPC_TEAM_ALL, 0, me, &nt), UPCCOLL_ERROR_MALLOC,
              who == 0 ? "split with every heap full" : "split with the last thread's heap full");
    SPMD_CHECK(nt == sentinel_team);
    upc_barrier;
    for (auto it = hog.rbegin(); it != hog.rend(); ++it) upc_free(*it);
    upc_barrier;
    UC_OK(upccoll_team_split(UPC_TEAM_ALL, 0, me, &nt));
    team_still_works(nt);
    upccoll_team_free(nt);
  }
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("errors: every code on the member that makes the mistake; the others end with it or with success; the team goes on") {
  everywhere([] { errors_body(false); }, {1, 2, 3, 5}, 60);
}

TEST_CASE("errors under upcrun --check: every member of the team gets the code") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 2, 3, 5}) {
      if (spmd::skip_run(T, b)) continue;
      upc::launch_options o = opts(T, b, 60);
      o.check = true;
      const upc::run_result r = upc::run(o, [] {
        errors_body(true);
        flags_invalid_body(true);
      });
      INFO("backend=", spmd::name(b), " THREADS=", T, " error: ", r.error);
      CHECK(r.ok());
    }
}

// The requirement that the other members' calls return the same code, without
// --check (docs/teams-and-collectives-2.md, "Errors", promises it only for the
// members whose part of the collective meets the mistake).
TEST_CASE("errors without --check: every member of the team gets the code as under --check") {
  everywhere(
      [] {
        errors_body(true);
        flags_invalid_body(true);
      },
      {2, 3, 5}, 60);
}

TEST_CASE("errors: UPCCOLL_ERROR_MALLOC when the shared heap is full (a split); a split works once it is freed") {
  everywhere(malloc_body, {1, 2, 4}, 60);
}

// ---------------------------------------------------------------------------
// Overlapping buffers and UPCCOLL_IN_PLACE (issue 8.3)

namespace {

// A buffer of this thread, with pointers into it at byte offsets.
struct arena {
  upc::sptr<void> base;
  std::size_t bytes;
  explicit arena(std::size_t n) : base(mine(n)), bytes(n) {}
  upc::sptr<void> at(std::size_t off) const {
    upc::shared_address a = base.address();
    a.offset += off;
    return upc::sptr<void>(a);
  }
  int* ints() const { return L<int>(base); }
  void fill(int salt) const {
    for (std::size_t i = 0; i < bytes / sizeof(int); ++i) ints()[i] = salt * 1000 + static_cast<int>(i);
  }
  bool holds(int salt) const {
    for (std::size_t i = 0; i < bytes / sizeof(int); ++i)
      if (ints()[i] != salt * 1000 + static_cast<int>(i)) return false;
    return true;
  }
};

enum class completion_kind { blocking, handle, fence };
const char* name_of(completion_kind k) {
  return k == completion_kind::blocking ? "blocking" : k == completion_kind::handle ? "handle" : "UPC_ASYNC_FENCE";
}

using collective_call = std::function<upccoll_return_t(upc::sptr<void> s, upc::sptr<void> r, upccoll_flag_t, upccoll_handle_t*)>;

// The code this member's call ends with: the call's own, or its handle's.
upccoll_return_t ends_with(completion_kind how, const collective_call& call, upc::sptr<void> s, upc::sptr<void> r) {
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  switch (how) {
    case completion_kind::blocking: return call(s, r, 0, nullptr);
    case completion_kind::handle: {
      const upccoll_return_t rc = call(s, r, 0, &h);
      return rc != UPCCOLL_SUCCESS ? rc : upccoll_wait_status(h);
    }
    case completion_kind::fence: {
      const upccoll_return_t rc = call(s, r, UPC_ASYNC_FENCE, &h);
      upccoll_fence();
      return rc;
    }
  }
  return UPCCOLL_ERROR;
}

// Every collective called with two ints per block (P blocks where it has
// several), the root the team's last rank; `s` and `r` the send and receive
// pointers every member passes.
struct overlap_case {
  const char* name;
  bool rooted;        // only the root reads and writes: only it errs
  bool exclusive;     // an exclusive scan: with one member nothing is written
  collective_call call;
};

std::vector<overlap_case> overlap_cases(upccoll_team_t team, int P, std::vector<std::size_t>& two, std::vector<std::size_t>& displ) {
  two.assign(P, 2);
  displ.resize(P);
  for (int t = 0; t < P; ++t) displ[t] = 2 * static_cast<std::size_t>(t);
  const int root = P - 1;
  std::size_t* c = two.data();
  std::size_t* d = displ.data();
  using S = upc::sptr<void>;
  using F = upccoll_flag_t;
  using H = upccoll_handle_t*;
  return {
      {"upccoll_bcast", true, false, [=](S s, S r, F f, H h) { return upccoll_bcast(s, 2, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_scatter", true, false, [=](S s, S r, F f, H h) { return upccoll_scatter(s, 2, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_scatterv", true, false, [=](S s, S r, F f, H h) { return upccoll_scatterv(s, c, d, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_gather", true, false, [=](S s, S r, F f, H h) { return upccoll_gather(s, 2, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_gatherv", true, false, [=](S s, S r, F f, H h) { return upccoll_gatherv(s, 2, UPC_INT, r, c, d, UPC_INT, root, team, f, h); }},
      {"upccoll_allgather", false, false, [=](S s, S r, F f, H h) { return upccoll_allgather(s, 2, UPC_INT, r, 2, UPC_INT, team, f, h); }},
      {"upccoll_allgatherv", false, false, [=](S s, S r, F f, H h) { return upccoll_allgatherv(s, 2, UPC_INT, r, c, d, UPC_INT, team, f, h); }},
      {"upccoll_alltoall", false, false, [=](S s, S r, F f, H h) { return upccoll_alltoall(s, 2, UPC_INT, r, 2, UPC_INT, team, f, h); }},
      {"upccoll_alltoallv", false, false, [=](S s, S r, F f, H h) { return upccoll_alltoallv(s, c, d, UPC_INT, r, c, d, UPC_INT, team, f, h); }},
      {"upccoll_reduce", true, false, [=](S s, S r, F f, H h) { return upccoll_reduce(s, r, 2, UPC_INT, UPC_ADD, root, team, f, h); }},
      {"upccoll_allreduce", false, false, [=](S s, S r, F f, H h) { return upccoll_allreduce(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_reduce_scatter", false, false, [=](S s, S r, F f, H h) { return upccoll_reduce_scatter(s, r, c, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_scan", false, true, [=](S s, S r, F f, H h) { return upccoll_scan(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_exscan", false, true, [=](S s, S r, F f, H h) { return upccoll_exscan(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_scan_inclusive", false, false, [=](S s, S r, F f, H h) { return upccoll_scan_inclusive(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
  };
}

// Every collective with sendbuf == recvbuf and with the two a few bytes apart:
// UPCCOLL_ERROR_RECVBUF on every member of the team, and nothing written.
void overlap_refused_body(upccoll_team_t team, completion_kind how) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  std::vector<std::size_t> two, displ;
  const arena a(sizeof(int) * (4 * static_cast<std::size_t>(P) + 8));
  for (const overlap_case& oc : overlap_cases(team, P, two, displ))
    for (std::size_t shift : {std::size_t{0}, std::size_t{4}, std::size_t{8} * static_cast<std::size_t>(P) - 4})
      for (bool recv_after : {true, false}) {
        if (shift == 0 && !recv_after) continue;
        const std::string what = std::string(oc.name) + (shift == 0 ? " sendbuf == recvbuf" : " recvbuf " +
                                 std::string(recv_after ? "+" : "-") + std::to_string(shift) + " bytes from sendbuf") +
                                 ", " + name_of(how) + ", team of " + std::to_string(P);
        const upc::sptr<void> s = a.at(recv_after ? 0 : shift), r = a.at(recv_after ? shift : 0);
        // bytes the call reads and writes at the root / everywhere all overlap
        // for these shifts, but a buffer of one block (shift past it) does not
        const bool one_block_apart = shift >= 8 && (std::string(oc.name) == "upccoll_bcast" ||
                                      std::string(oc.name) == "upccoll_reduce" || std::string(oc.name) == "upccoll_allreduce" ||
                                      std::string(oc.name).find("scan") != std::string::npos ||
                                      (std::string(oc.name) == "upccoll_scatter" && !recv_after) ||
                                      (std::string(oc.name) == "upccoll_scatterv" && !recv_after) ||
                                      (std::string(oc.name) == "upccoll_gather" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_gatherv" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_allgather" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_allgatherv" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_reduce_scatter" && !recv_after));
        const bool nothing_written = oc.exclusive && P == 1;
        const bool expect_error = !one_block_apart && !nothing_written;
        a.fill(MYTHREAD + 1);
        upc_barrier;
        const upccoll_return_t rc = ends_with(how, oc.call, s, r);
        if (!expect_error) {
          // not an overlap after all: the call runs (the data need not be checked here)
          expect_rc(rc, UPCCOLL_SUCCESS, what);
        } else if (how == completion_kind::fence && ((oc.rooted && me != P - 1) || (oc.exclusive && me == 0))) {
          // a fence-completed call of a member that made no mistake (a non-root;
          // rank 0 of an exclusive scan, which writes nothing) succeeds;
          // upccoll_fence reports the collective's error under --check
          if (rc != UPCCOLL_SUCCESS) expect_rc(rc, UPCCOLL_ERROR_RECVBUF, what);
        } else {
          expect_rc(rc, UPCCOLL_ERROR_RECVBUF, what);
        }
        if (expect_error && !a.holds(MYTHREAD + 1)) fail(what + ": the refused call wrote into the buffer");
        upc_barrier;
      }
  team_still_works(team);
}

// The same buffer for both sides is fine when the blocks each side uses are
// apart: v-variants' blocks interleaved, allgatherv's send block in a gap.
void disjoint_blocks_body(upccoll_team_t team) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  const std::size_t n = static_cast<std::size_t>(P);
  const arena a(sizeof(int) * (4 * n + 8));
  int* x = a.ints();
  std::vector<std::size_t> one(n, 1), even(n), odd(n);
  for (std::size_t t = 0; t < n; ++t) {
    even[t] = 2 * t;
    odd[t] = 2 * t + 1;
  }
  const std::vector<int> mem = members_of(team);
  // alltoallv: send from the even ints, receive into the odd ones
  for (std::size_t t = 0; t < n; ++t) x[2 * t] = 100 * me + static_cast<int>(t);
  UC_OK(upccoll_alltoallv(a.base, one.data(), even.data(), UPC_INT, a.base, one.data(), odd.data(), UPC_INT, team, 0, nullptr));
  for (std::size_t t = 0; t < n; ++t) {
    SPMD_CHECK_EQ(x[2 * t + 1], 100 * static_cast<int>(t) + me);
    SPMD_CHECK_EQ(x[2 * t], 100 * me + static_cast<int>(t));  // the sent ints are as they were
  }
  // allgatherv: the send int sits in the gap after the receive blocks' odd slots
  x[2 * n] = 7 * mem[me];
  UC_OK(upccoll_allgatherv(a.at(sizeof(int) * 2 * n), 1, UPC_INT, a.base, one.data(), odd.data(), UPC_INT, team, 0, nullptr));
  for (std::size_t t = 0; t < n; ++t) SPMD_CHECK_EQ(x[2 * t + 1], 7 * mem[t]);
  // ... and one receive block moved onto the send int: refused
  std::vector<std::size_t> bad = odd;
  bad[n - 1] = 2 * n;
  UC_EXPECT(upccoll_allgatherv(a.at(sizeof(int) * 2 * n), 1, UPC_INT, a.base, one.data(), bad.data(), UPC_INT, team, 0, nullptr),
            UPCCOLL_ERROR_RECVBUF);
  // scatterv / gatherv at the root, within one buffer
  const int root = 0;
  for (std::size_t t = 0; t < n; ++t) x[2 * t] = 10 * static_cast<int>(t) + 1;
  UC_OK(upccoll_scatterv(a.base, one.data(), even.data(), UPC_INT, a.at(sizeof(int)), 1, UPC_INT, root, team, 0, nullptr));
  SPMD_CHECK_EQ(x[1], me == root ? 1 : 10 * me + 1);
  x[2 * n + 1] = 3 * me;
  UC_OK(upccoll_gatherv(a.at(sizeof(int) * (2 * n + 1)), 1, UPC_INT, a.base, one.data(), even.data(), UPC_INT, root, team, 0,
                        nullptr));
  if (me == root)
    for (std::size_t t = 0; t < n; ++t) SPMD_CHECK_EQ(x[2 * t], 3 * static_cast<int>(t));
  team_still_works(team);
}

// UPCCOLL_IN_PLACE where MPI puts it works (the matrix checks the data); where
// it does not, or on some members only, the call fails on every member.
void in_place_misuse_body(upccoll_team_t team) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  const int last = P - 1;
  const arena a(sizeof(int) * (4 * static_cast<std::size_t>(P) + 8)), b(sizeof(int) * (4 * static_cast<std::size_t>(P) + 8));
  std::vector<std::size_t> one(P, 1), disp(P);
  for (int t = 0; t < P; ++t) disp[t] = static_cast<std::size_t>(t);
  const upc::sptr<void> IP = UPCCOLL_IN_PLACE, s = a.base, r = b.base;
  // in the argument MPI does not use for it
  UC_EXPECT(upccoll_allreduce(s, IP, 1, UPC_INT, UPC_ADD, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  UC_EXPECT(upccoll_alltoall(s, 1, UPC_INT, IP, 1, UPC_INT, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  UC_EXPECT(upccoll_bcast(me == last ? IP : s, 1, UPC_INT, r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_SENDBUF);
  UC_EXPECT(upccoll_gather(s, 1, UPC_INT, me == last ? IP : r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  if (P >= 2) {
    // on a member that is not the root (the root's call is fine: the error reaches it)
    UC_EXPECT(upccoll_reduce(me == 0 ? IP : s, r, 1, UPC_INT, UPC_ADD, last, team, 0, nullptr), UPCCOLL_ERROR_SENDBUF);
    UC_EXPECT(upccoll_gather(me == 0 ? IP : s, 1, UPC_INT, r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_SENDBUF);
    UC_EXPECT(upccoll_gatherv(me == 0 ? IP : s, 1, UPC_INT, r, one.data(), disp.data(), UPC_INT, last, team, 0, nullptr),
              UPCCOLL_ERROR_SENDBUF);
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, me == 0 ? IP : r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
    UC_EXPECT(upccoll_scatter(s, 1, UPC_INT, me == 0 ? IP : r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
    UC_EXPECT(upccoll_scatterv(s, one.data(), disp.data(), UPC_INT, me == 0 ? IP : r, 1, UPC_INT, last, team, 0, nullptr),
              UPCCOLL_ERROR_RECVBUF);
    // on some members only (MPI: all or none)
    for (const bool handle : {false, true}) {
      upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
      const auto end = [&](upccoll_return_t rc) { return rc == UPCCOLL_SUCCESS && handle ? upccoll_wait_status(h) : rc; };
      upccoll_handle_t* hp = handle ? &h : nullptr;
      UC_EXPECT(end(upccoll_allreduce(me == 0 ? IP : s, r, 1, UPC_INT, UPC_ADD, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
      UC_EXPECT(end(upccoll_alltoall(me == last ? IP : s, 1, UPC_INT, r, 1, UPC_INT, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
      UC_EXPECT(end(upccoll_allgather(me == 0 ? s : IP, 1, UPC_INT, r, 1, UPC_INT, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
      UC_EXPECT(end(upccoll_scan_inclusive(me == 0 ? IP : s, r, 1, UPC_INT, UPC_ADD, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
    }
  }
  // in-place allgatherv whose own block overlaps another receive block
  if (P >= 2) {
    std::vector<std::size_t> two(P, 2), d(P);
    for (int t = 0; t < P; ++t) d[t] = 2 * static_cast<std::size_t>(t);
    d[(me + 1) % P] = 2 * static_cast<std::size_t>(me) + 1;  // the next rank's block half on ours
    UC_EXPECT(upccoll_allgatherv(IP, 0, UPC_INT, r, two.data(), d.data(), UPC_INT, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  }
  team_still_works(team);
}

// The bug: allreduce(b, b) returned UPCCOLL_SUCCESS with every element wrong.
// Now it is refused, and UPCCOLL_IN_PLACE computes the sums in b, for small
// and large vectors (both allreduce algorithms), blocking and not.
void allreduce_same_buffer_body(upccoll_team_t team) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  const std::vector<int> mem = members_of(team);
  for (std::size_t count : {std::size_t{1}, std::size_t{100}, std::size_t{5000}})
    for (completion_kind how : {completion_kind::blocking, completion_kind::handle, completion_kind::fence}) {
      const arena b(count * sizeof(long));
      long* v = L<long>(b.base);
      for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<long>(mem[me] * 1000 + i);
      const collective_call allreduce = [&](upc::sptr<void> s, upc::sptr<void> r, upccoll_flag_t f, upccoll_handle_t* h) {
        return upccoll_allreduce(s, r, count, UPC_LONG, UPC_ADD, team, f, h);
      };
      expect_rc(ends_with(how == completion_kind::fence ? completion_kind::handle : how, allreduce, b.base, b.base),
                UPCCOLL_ERROR_RECVBUF, "allreduce(b, b)");
      for (std::size_t i = 0; i < count; ++i) SPMD_CHECK_EQ(v[i], static_cast<long>(mem[me] * 1000 + i));
      expect_rc(ends_with(how, allreduce, UPCCOLL_IN_PLACE, b.base), UPCCOLL_SUCCESS, "allreduce(UPCCOLL_IN_PLACE, b)");
      long base = 0;
      for (int t : mem) base += t * 1000;
      for (std::size_t i = 0; i < count; ++i) SPMD_CHECK_EQ(v[i], base + static_cast<long>(P * i));
    }
}

// Runs `body` on UPC_TEAM_ALL and on a split with non-dense keys (two halves,
// reversed).
void on_world_and_split(const std::function<void(upccoll_team_t)>& body) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  body(UPC_TEAM_ALL);
  upccoll_team_t half = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, MYTHREAD % 2, -MYTHREAD, &half));
  body(half);
  upccoll_team_free(half);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("upccoll_allreduce(b, b) is refused with UPCCOLL_ERROR_RECVBUF and UPCCOLL_IN_PLACE gives the sums (issue 8.3)") {
  everywhere([] { on_world_and_split(allreduce_same_buffer_body); }, {1, 2, 3, 5});
}

TEST_CASE("every collective with aliased or partly overlapping send and receive areas: UPCCOLL_ERROR_RECVBUF on every member, nothing written (issue 8.3)") {
  for (completion_kind how : {completion_kind::blocking, completion_kind::handle, completion_kind::fence}) {
    INFO(name_of(how));
    everywhere([how] { on_world_and_split([how](upccoll_team_t t) { overlap_refused_body(t, how); }); }, {1, 2, 3, 5});
  }
}

TEST_CASE("overlap is judged on the exact bytes: blocks apart in one buffer are fine, one block onto the send area is refused") {
  everywhere([] { on_world_and_split(disjoint_blocks_body); }, {1, 2, 3, 5});
}

TEST_CASE("UPCCOLL_IN_PLACE in an argument or on a member MPI does not allow, or on some members only: an error on every member") {
  everywhere([] { on_world_and_split(in_place_misuse_body); }, {1, 2, 3, 5});
}

TEST_CASE("under --check an overlap names the function, both arguments, the bytes they share and the in-place form") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    upc::launch_options o = opts(2, b, 60);
    o.check = true;
    upc::run_result res;
    const std::string err = stderr_of([&] {
      res = upc::run(o, [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const arena a(64);
        UC_EXPECT(upccoll_allreduce(a.base, a.at(8), 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
        std::vector<std::size_t> one(2, 1), d = {0, 3};
        UC_EXPECT(upccoll_alltoallv(a.base, one.data(), d.data(), UPC_INT, a.at(12), one.data(), d.data(), UPC_INT,
                                    UPC_TEAM_ALL, 0, nullptr),
                  UPCCOLL_ERROR_RECVBUF);
        UC_OK(upccoll_finalize());
      });
    });
    INFO("backend=", spmd::name(b), " error: ", res.error, " stderr: ", err);
    CHECK(res.ok());
    CHECK(spmd::contains(err, "upcemu: upccoll_allreduce: sendbuf (bytes ["));
    CHECK(spmd::contains(err, ") is read and recvbuf (bytes ["));
    CHECK(spmd::contains(err, "overlap in bytes ["));
    CHECK(spmd::contains(err, "to compute in place pass UPCCOLL_IN_PLACE (upccoll_allreduce takes it as sendbuf, on every member)"));
    CHECK(spmd::contains(err, "upcemu: upccoll_alltoallv: sendbuf block 1 (bytes ["));
    CHECK(spmd::contains(err, "recvbuf block 0 (bytes ["));
    CHECK(spmd::contains(err, "UPCCOLL_ERROR_RECVBUF"));
  }
}

// ---------------------------------------------------------------------------
// The progress thread gives the same results

TEST_CASE("UPCEMU_UPCCOLL_PROGRESS=thread: overlapping collectives / >32 in flight / Figure 1 / teams / user ops") {
  env_guard progress("UPCEMU_UPCCOLL_PROGRESS", "thread");
  for (upc::backend_kind b : spmd::backends)
    for (int T : {1, 3, 5}) {
      const std::vector<ucase> cases = overlapping_cases(T, h3(T, 4242, static_cast<int>(b)), 0);
      run_ok(T, b, [&] { run_overlapped(cases, 1); }, 120);
    }
  everywhere(
      [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        many_in_flight_body(UPC_TEAM_ALL);
        UC_OK(upccoll_finalize());
      },
      {2, 5}, 120);
  for (collective k : {collective::bcast, collective::allreduce, collective::alltoall})
    for (ex which : {ex::lock_across_start, ex::lock_across_wait})
      everywhere([=] { ex_body(k, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, which); }, {2, 4}, 30);
  everywhere(concurrent_teams_body, {3, 5});
  everywhere(user_op_body, {3});
}
