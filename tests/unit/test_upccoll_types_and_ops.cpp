// <upccoll.h> types and predefined ops: the 23 types and their sizes; which
// predefined op goes with which type, each valid pair against the model's left
// fold in rank order; MINLOC/MAXLOC ties worked by hand; UPC_LOGXOR.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

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
