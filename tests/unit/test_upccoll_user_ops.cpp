// <upccoll.h> user operations: ops that do not commute, folded in rank order by
// every reduction; upccoll_op_free, upccoll_op_commutative; upccoll_reduce_local
// for every (type, op) and the user ops, against the model.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

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

}  // namespace

namespace upccoll_api_test {

// Every reduction with the non-commutative user ops (and a double sum declared
// commutative), against left folds computed here, by hand, in rank order.
// (The progress-thread test in test_upccoll_nonblocking.cpp runs it too.)
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

}  // namespace upccoll_api_test

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
