// Conformance of the UPC Collectives 2.0 API (include/upccoll.h) against the
// sequential reference model (tests/support/upccoll_model.hpp).
//
// The default suite: the model checked on hand-worked cases; that the matrix's
// data make a wrong combination order visible; the registry lists every upccoll_*
// collective; every collective × every registered algorithm (read from
// upc::coll::algorithms("upccoll_..."), so a new one is tested without touching
// this file) and "auto" × both backends × THREADS {1,2,3,5,8}, on a sample of the
// matrix of upccoll_harness.hpp (counts 0..16K+3 bytes, data types, all 16 sync
// flag combinations, the four completions, sub-teams, roots, NULL/garbage
// arguments on non-roots, a late thread, UPCCOLL_IN_PLACE); the in-place cases
// alone, every algorithm included; and a subset with
// UPCEMU_UPCCOLL_PROGRESS=thread. tests/conformance/test_upccoll_full.cpp runs
// the whole matrix (`meson test -C build --suite full`).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "upccoll_harness.hpp"

using namespace uconf;
namespace M = upccoll_model;
using M::collective;

namespace {

M::bytes of_ints(std::initializer_list<int> v) {
  M::bytes b(v.size() * sizeof(int));
  std::size_t i = 0;
  for (int x : v) std::memcpy(b.data() + sizeof(int) * i++, &x, sizeof(int));
  return b;
}

template <class T>
M::bytes of_values(const std::vector<T>& v) {
  M::bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <class T>
T value_at(const M::bytes& b, std::size_t i) {
  T v;
  std::memcpy(static_cast<void*>(&v), b.data() + i * sizeof(T), sizeof(T));
  return v;
}

M::bytes filled(std::size_t n, std::uint8_t v) { return M::bytes(n, v); }

M::call movement_call(collective k, int n, int root, std::size_t count) {
  M::call c;
  c.kind = k;
  c.size = n;
  c.root = root;
  c.ranks.assign(n, {});
  for (M::rank_args& a : c.ranks) {
    a.sendtype = a.recvtype = UPC_INT;
    a.sendcount = a.recvcount = count;
  }
  return c;
}

}  // namespace

// ---------------------------------------------------------------------------
// The model itself, on cases worked by hand from the paper (§3.5)

TEST_CASE("upccoll model: bcast / scatter / gather / allgather / alltoall place the items the paper names") {
  const int n = 3;
  // rank t sends ints {10t, 10t+1, ..., 10t+5} (6 items; scatter/alltoall use 2 per rank)
  std::vector<M::bytes> sends;
  for (int t = 0; t < n; ++t) sends.push_back(of_ints({10 * t, 10 * t + 1, 10 * t + 2, 10 * t + 3, 10 * t + 4, 10 * t + 5}));
  const std::vector<M::bytes> before(n, filled(6 * sizeof(int), 0xEE));

  auto ints = [](const M::window& w, std::size_t k) { return value_at<int>(w.data, k); };

  std::vector<M::window> w = M::expected_all(movement_call(collective::bcast, n, 1, 2), sends, before);
  for (int r = 0; r < n; ++r) {
    CHECK(ints(w[r], 0) == 10);
    CHECK(ints(w[r], 1) == 11);
    CHECK(w[r].data[2 * sizeof(int)] == 0xEE);  // beyond recvcount: untouched
  }
  w = M::expected_all(movement_call(collective::scatter, n, 2, 2), sends, before);
  for (int r = 0; r < n; ++r) {  // rank r gets root items [2r, 2r+2)
    CHECK(ints(w[r], 0) == 20 + 2 * r);
    CHECK(ints(w[r], 1) == 21 + 2 * r);
  }
  w = M::expected_all(movement_call(collective::gather, n, 1, 2), sends, before);
  CHECK(ints(w[1], 0) == 0);
  CHECK(ints(w[1], 2) == 10);
  CHECK(ints(w[1], 5) == 21);
  CHECK(w[0].data == before[0]);  // non-roots receive nothing
  w = M::expected_all(movement_call(collective::allgather, n, 0, 1), sends, before);
  for (int r = 0; r < n; ++r)
    for (int t = 0; t < n; ++t) CHECK(ints(w[r], t) == 10 * t);
  w = M::expected_all(movement_call(collective::alltoall, n, 0, 2), sends, before);
  for (int r = 0; r < n; ++r)  // from t: t's items [2r, 2r+2) at [2t, 2t+2)
    for (int t = 0; t < n; ++t) {
      CHECK(ints(w[r], 2 * t) == 10 * t + 2 * r);
      CHECK(ints(w[r], 2 * t + 1) == 10 * t + 2 * r + 1);
    }
}

TEST_CASE("upccoll model: the v variants use counts and displacements in items of their own type") {
  const int n = 3;
  std::vector<M::bytes> sends;
  for (int t = 0; t < n; ++t) sends.push_back(of_ints({100 * t, 100 * t + 1, 100 * t + 2, 100 * t + 3, 100 * t + 4}));
  const std::vector<M::bytes> before(n, filled(12 * sizeof(int), 0));
  // scatterv from root 0: rank 0 gets 2 items at 3, rank 1 none, rank 2 one at 0
  M::call c = movement_call(collective::scatterv, n, 0, 0);
  c.ranks[0].sendcnts = {2, 0, 1};
  c.ranks[0].sdispls = {3, 4, 0};
  c.ranks[0].recvcount = 2;
  c.ranks[2].recvcount = 1;
  std::vector<M::window> w = M::expected_all(c, sends, before);
  CHECK(value_at<int>(w[0].data, 0) == 3);
  CHECK(value_at<int>(w[0].data, 1) == 4);
  CHECK(w[1].data == before[1]);
  CHECK(value_at<int>(w[2].data, 0) == 0);
  // gatherv to root 2, the root receiving as bytes: rank t's items at byte rdispls[t]
  c = movement_call(collective::gatherv, n, 2, 0);
  c.ranks[0].sendcount = 1;
  c.ranks[1].sendcount = 2;
  c.ranks[2].sendcount = 0;
  c.ranks[2].recvtype = UPC_BYTE;
  c.ranks[2].recvcnts = {4, 8, 0};
  c.ranks[2].rdispls = {12, 0, 40};
  w = M::expected_all(c, sends, before);
  CHECK(value_at<int>(w[2].data, 0) == 100);
  CHECK(value_at<int>(w[2].data, 1) == 101);
  CHECK(value_at<int>(w[2].data, 3) == 0);
  CHECK(value_at<int>(w[2].data, 2) == 0);  // untouched
  // alltoallv: rank r gets t's items [sdispls_t[r], +sendcnts_t[r]) at rdispls_r[t]
  c = movement_call(collective::alltoallv, n, 0, 0);
  for (int t = 0; t < n; ++t) {
    c.ranks[t].sendcnts = {1, 0, 2};
    c.ranks[t].sdispls = {4, 0, 1};
    c.ranks[t].recvcnts = t == 0 ? std::vector<std::size_t>{1, 1, 1} : t == 2 ? std::vector<std::size_t>{2, 2, 2} : std::vector<std::size_t>{0, 0, 0};
    c.ranks[t].rdispls = {6, 3, 0};
  }
  w = M::expected_all(c, sends, before);
  CHECK(value_at<int>(w[0].data, 6) == 4);    // from 0: its item 4
  CHECK(value_at<int>(w[0].data, 3) == 104);  // from 1
  CHECK(value_at<int>(w[0].data, 0) == 204);  // from 2
  CHECK(value_at<int>(w[2].data, 6) == 1);    // from 0: items 1, 2
  CHECK(value_at<int>(w[2].data, 7) == 2);
  CHECK(value_at<int>(w[2].data, 0) == 201);
  CHECK(w[1].data == before[1]);
  CHECK(M::recv_extent(c, 2) == 8 * sizeof(int));
  CHECK(M::send_extent(c, 1) == 5 * sizeof(int));  // max(4+1, 0+0, 1+2) items
}

TEST_CASE("upccoll model: reductions are left folds in rank order (bit for bit)") {
  const int n = 4;
  M::call c;
  c.kind = collective::allreduce;
  c.size = n;
  c.count = 1;
  c.red.dt = UPC_DOUBLE;
  c.red.op = UPC_ADD;
  // ((1e16 + 1) + -1e16) + 1 = 1; other groupings give 0 or 2
  std::vector<M::bytes> sends = {of_values<double>({1e16}), of_values<double>({1.0}), of_values<double>({-1e16}),
                                 of_values<double>({1.0})};
  const std::vector<M::bytes> before(n, filled(8, 0));
  std::vector<M::window> w = M::expected_all(c, sends, before);
  for (int r = 0; r < n; ++r) CHECK(value_at<double>(w[r].data, 0) == 1.0);
  CHECK(1e16 + (1.0 + (-1e16 + 1.0)) != 1.0);  // the data do tell the orders apart
  // exclusive scan: rank 0 untouched, rank l the fold of 0..l-1; inclusive: 0..l
  c.kind = collective::scan;
  w = M::expected_all(c, sends, before);
  CHECK(w[0].data == before[0]);
  CHECK(value_at<double>(w[1].data, 0) == 1e16);
  CHECK(value_at<double>(w[2].data, 0) == 1e16 + 1.0);
  CHECK(value_at<double>(w[3].data, 0) == (1e16 + 1.0) + -1e16);
  c.kind = collective::scan_inclusive;
  w = M::expected_all(c, sends, before);
  CHECK(value_at<double>(w[0].data, 0) == 1e16);
  CHECK(value_at<double>(w[3].data, 0) == 1.0);
  // reduce: only the root
  c.kind = collective::reduce;
  c.root = 2;
  w = M::expected_all(c, sends, before);
  CHECK(value_at<double>(w[2].data, 0) == 1.0);
  CHECK(w[1].data == before[1]);
  // reduce_scatter: rank t gets items [sum recvcounts[<t], +recvcounts[t]) of the fold
  c.kind = collective::reduce_scatter;
  c.red = {UPC_INT, UPC_MAX, nullptr};
  c.recvcounts = {1, 0, 2, 1};
  sends.clear();
  for (int t = 0; t < n; ++t) sends.push_back(of_ints({t, 10 - t, 5 * t, -t}));
  const std::vector<M::bytes> before_i(n, filled(4 * sizeof(int), 0x11));
  w = M::expected_all(c, sends, before_i);
  CHECK(value_at<int>(w[0].data, 0) == 3);
  CHECK(w[1].data == before_i[1]);
  CHECK(value_at<int>(w[2].data, 0) == 10);
  CHECK(value_at<int>(w[2].data, 1) == 15);
  CHECK(value_at<int>(w[2].data, 2) == value_at<int>(before_i[2], 2));
  CHECK(value_at<int>(w[3].data, 0) == 0);
}

TEST_CASE("upccoll model: in place (MPI_IN_PLACE's rules) the input comes from the receive window") {
  const int n = 3;
  const std::vector<M::bytes> no_send(n);  // in-place ranks have no send buffer: never read
  auto ints = [](const M::window& w, std::size_t k) { return value_at<int>(w.data, k); };
  // allgather: rank r's own block (int 100r) already at block r
  M::call c = movement_call(collective::allgather, n, 0, 1);
  c.in_place = true;
  std::vector<M::bytes> before;
  for (int r = 0; r < n; ++r) {
    before.push_back(filled(n * sizeof(int), 0xEE));
    std::memcpy(before[r].data() + r * sizeof(int), of_ints({100 * r}).data(), sizeof(int));
  }
  std::vector<M::window> w = M::expected_all(c, no_send, before);
  for (int r = 0; r < n; ++r)
    for (int t = 0; t < n; ++t) CHECK(ints(w[r], t) == 100 * t);
  CHECK(M::send_extent(c, 1) == 0);
  CHECK(M::in_place_input(c, 2).at == 2 * sizeof(int));
  // alltoall: rank r holds 10r + t for rank t; it gets 10t + r from t
  c = movement_call(collective::alltoall, n, 0, 1);
  c.in_place = true;
  before.clear();
  for (int r = 0; r < n; ++r) before.push_back(of_ints({10 * r, 10 * r + 1, 10 * r + 2}));
  w = M::expected_all(c, no_send, before);
  for (int r = 0; r < n; ++r)
    for (int t = 0; t < n; ++t) CHECK(ints(w[r], t) == 10 * t + r);
  // gather: only the root is in place; the others send from their send buffers
  c = movement_call(collective::gather, n, 1, 1);
  c.in_place = true;
  std::vector<M::bytes> sends = {of_ints({7}), of_ints({-1}), of_ints({9})};
  before.assign(n, filled(n * sizeof(int), 0));
  std::memcpy(before[1].data() + sizeof(int), of_ints({8}).data(), sizeof(int));
  w = M::expected_all(c, sends, before);
  CHECK(ints(w[1], 0) == 7);
  CHECK(ints(w[1], 1) == 8);  // the root's own block, not its send buffer
  CHECK(ints(w[1], 2) == 9);
  CHECK_FALSE(M::in_place_rank(c, 0));
  // scatter / bcast: the root's window is untouched; the others get their part
  c = movement_call(collective::scatter, n, 0, 1);
  c.in_place = true;
  sends = {of_ints({4, 5, 6}), {}, {}};
  before.assign(n, filled(sizeof(int), 0x33));
  w = M::expected_all(c, sends, before);
  CHECK(w[0].data == before[0]);
  CHECK(ints(w[1], 0) == 5);
  CHECK(ints(w[2], 0) == 6);
  CHECK(M::recv_extent(c, 0) == 0);
  CHECK(M::send_extent(c, 0) == 3 * sizeof(int));
  // reductions: the input is recvbuf; the exclusive scan leaves rank 0 as it was
  M::call r;
  r.kind = collective::allreduce;
  r.size = n;
  r.count = 2;
  r.red = {UPC_INT, UPC_ADD, nullptr};
  r.in_place = true;
  before = {of_ints({1, 2}), of_ints({10, 20}), of_ints({100, 200})};
  w = M::expected_all(r, no_send, before);
  for (int k = 0; k < n; ++k) {
    CHECK(ints(w[k], 0) == 111);
    CHECK(ints(w[k], 1) == 222);
  }
  r.kind = collective::scan;
  w = M::expected_all(r, no_send, before);
  CHECK(w[0].data == before[0]);
  CHECK(ints(w[1], 0) == 1);
  CHECK(ints(w[2], 1) == 22);
  // reduce_scatter: the whole vector in recvbuf; rank t's block replaces its start
  r.kind = collective::reduce_scatter;
  r.recvcounts = {1, 0, 2};
  before = {of_ints({1, 2, 3, -1}), of_ints({10, 20, 30, -1}), of_ints({100, 200, 300, -1})};
  w = M::expected_all(r, no_send, before);
  CHECK(ints(w[0], 0) == 111);
  CHECK(ints(w[0], 1) == 2);  // beyond its block: as it was
  CHECK(w[1].data == before[1]);
  CHECK(ints(w[2], 0) == 222);
  CHECK(ints(w[2], 1) == 333);
  CHECK(M::recv_extent(r, 1) == 3 * sizeof(int));  // in place: room for the whole input
}

TEST_CASE("upccoll harness: every collective with an in-place form has in-place cases in the matrix") {
  for (collective k : M::all_collectives) {
    INFO(M::name(k));
    std::size_t in_place = 0, rooted_non_root_in_place = 0;
    for (const ucase& c : matrix(k, 5, level::full, 42)) in_place += c.in_place;
    CHECK((in_place > 0) == has_in_place(k));
    for (const ucase& c : matrix(k, 5, level::quick, 42)) rooted_non_root_in_place += c.in_place;
    if (has_in_place(k)) CHECK(rooted_non_root_in_place > 0);
  }
}

TEST_CASE("upccoll model: MINLOC/MAXLOC take the lower index on ties; complex products; user ops in order") {
  using P = upccoll_double_int_t;
  P a{1.0, 7}, b{1.0, 2}, c{0.5, 9};
  CHECK(M::combine<P>(UPC_MINLOC, a, b).index == 2);
  CHECK(M::combine<P>(UPC_MINLOC, b, a).index == 2);
  CHECK(M::combine<P>(UPC_MINLOC, a, c).index == 9);
  CHECK(M::combine<P>(UPC_MAXLOC, a, c).index == 7);
  CHECK(M::combine<P>(UPC_MAXLOC, c, b).value == 1.0);
  const M::cplx<double> z = M::combine<M::cplx<double>>(UPC_MULT, {1.0, 2.0}, {3.0, -1.0});
  CHECK(z.re == 5.0);  // (1+2i)(3-i) = 3 - i + 6i + 2 = 5 + 5i
  CHECK(z.im == 5.0);
  // affine maps: f0 ∘ f1 ∘ f2 applied to x = f0(f1(f2(x)))
  const int n = 3;
  M::call call;
  call.kind = collective::allreduce;
  call.size = n;
  call.count = 1;
  call.red = {UPC_2INT, 0, &affine_compose};
  std::vector<M::bytes> sends = {of_ints({2, 1}), of_ints({3, 5}), of_ints({7, 11})};
  std::vector<M::window> w = M::expected_all(call, sends, std::vector<M::bytes>(n, filled(8, 0)));
  const int x = 4;  // f2(4) = 39, f1(39) = 122, f0(122) = 245  =>  a = 42, b = 2*(3*11+5)+1 = 77
  CHECK(value_at<int>(w[0].data, 0) * x + value_at<int>(w[0].data, 1) == 245);
  CHECK(value_at<int>(w[0].data, 0) == 42);
  CHECK(value_at<int>(w[0].data, 1) == 77);
  std::swap(sends[0], sends[2]);  // another order, another map
  w = M::expected_all(call, sends, std::vector<M::bytes>(n, filled(8, 0)));
  CHECK(value_at<int>(w[0].data, 1) != 77);
  g_bad_user_calls = 0;
}

TEST_CASE("upccoll model: the 23 types have the C sizes; padding is don't-care; the op table") {
  CHECK(M::types().size() == 23);
  CHECK(M::size_of(UPC_LONGDBLCPLX) == 2 * sizeof(long double));
  CHECK(M::size_of(UPC_SHORT_INT) == sizeof(upccoll_short_int_t));
  const std::vector<std::uint8_t> ld = M::value_mask(UPC_LONGDOUBLE);
  CHECK(std::count(ld.begin(), ld.end(), 1) == static_cast<long>(M::value_bytes<long double>()));
  const std::vector<std::uint8_t> si = M::value_mask(UPC_SHORT_INT);  // short, 2 bytes of padding, int
  CHECK(si == std::vector<std::uint8_t>{1, 1, 0, 0, 1, 1, 1, 1});
  int valid = 0;
  for (const M::type_info& t : M::types())
    for (upccoll_op_t op : M::predefined_ops) valid += M::op_valid(t.dt, op);
  // ADD/MULT: 17 types; AND/OR/XOR: 11; LOGAND/LOGOR/LOGXOR/MIN/MAX: 14; MINLOC/MAXLOC: 6
  CHECK(valid == 2 * 17 + 3 * 11 + 5 * 14 + 2 * 6);
  CHECK(M::op_valid(UPC_UINT, UPC_LOGXOR));
  CHECK(M::op_valid(UPC_FLOAT, UPC_LOGXOR));
  CHECK_FALSE(M::op_valid(UPC_CPLX, UPC_LOGXOR));
  CHECK_FALSE(M::op_valid(UPC_2INT, UPC_LOGXOR));
  CHECK(M::combine<int>(UPC_LOGXOR, 5, -3) == 0);
  CHECK(M::combine<int>(UPC_LOGXOR, 0, -3) == 1);
  CHECK(M::combine<double>(UPC_LOGXOR, 0.5, 0.0) == 1.0);
  CHECK_FALSE(M::op_valid(UPC_DOUBLE, UPC_AND));
  CHECK_FALSE(M::op_valid(UPC_CPLX, UPC_MIN));
  CHECK_FALSE(M::op_valid(UPC_2INT, UPC_ADD));
  CHECK_FALSE(M::op_valid(UPC_INT, UPC_MINLOC));
  CHECK(M::op_valid(UPC_BYTE, UPC_MAX));
  CHECK_FALSE(M::op_valid(UPC_DBLCPLX, UPC_LOGAND));
}

// The matrix's data show a wrong order: for each reduction (dt, op) of the
// matrix whose op is order-sensitive, the left fold of 8 ranks' items differs
// from the right fold somewhere in the first 64 items.
TEST_CASE("upccoll harness: the reduction data make the combination order visible") {
  for (const auto& [dt, op] : reduction_types()) {
    const bool order_sensitive = op == op_affine || op == op_matrix || op == op_dsum ||
                                 ((op == UPC_ADD || op == UPC_MULT) && M::type_of(dt).cls != M::type_class::signed_int &&
                                  M::type_of(dt).cls != M::type_class::unsigned_int && dt != UPC_BYTE);
    if (!order_sensitive) continue;
    const std::string label = std::string(M::type_name(dt)) + " " + op_text(op);
    INFO(label);
    const int n = 8;
    const std::size_t items = 64, E = M::size_of(dt);
    std::vector<M::bytes> sends(n, M::bytes(items * E));
    for (int t = 0; t < n; ++t)
      for (std::size_t i = 0; i < items; ++i) make_item(dt, op, 12345, t, i, sends[t].data() + i * E);
    M::reduction red{dt, op, user_function(op)};
    const M::send_source fwd = [&](int t, std::size_t off, std::size_t len, std::uint8_t* out) {
      std::memcpy(out, sends[t].data() + off, len);
    };
    const M::send_source rev = [&](int t, std::size_t off, std::size_t len, std::uint8_t* out) {
      std::memcpy(out, sends[n - 1 - t].data() + off, len);
    };
    const M::bytes left = M::fold(red, fwd, 0, n - 1, 0, items);
    M::bytes reversed = M::fold(red, rev, 0, n - 1, 0, items);
    const std::vector<std::uint8_t> mask = M::value_mask(dt);
    bool differs = false;
    for (std::size_t i = 0; i < left.size(); ++i) differs = differs || (mask[i % E] && left[i] != reversed[i]);
    CHECK(differs);
  }
  CHECK(g_bad_user_calls.load() == 0);
}

// ---------------------------------------------------------------------------
// The registry the matrix is generated from

TEST_CASE("registry: every upccoll_* collective has algorithms; unknown names are refused with the valid ones") {
  const std::vector<std::string> names = upc::coll::collectives();
  for (collective k : M::all_collectives) {
    const std::string c = M::registry_name(k);
    INFO(c);
    CHECK(std::find(names.begin(), names.end(), c) != names.end());
    const std::vector<std::string> algos = upc::coll::algorithms(c);
    REQUIRE(!algos.empty());
    const std::string err = spmd::error_of([&] { upc::coll::force_algorithm(c, "no_such_algorithm"); });
    CHECK(spmd::contains(err, "no_such_algorithm"));
    CHECK(spmd::contains(err, algos.front()));
  }
  upc::coll::reset_algorithms();
}

// ---------------------------------------------------------------------------
// The matrix, sampled (all of it in the full suite)

namespace {
constexpr std::initializer_list<int> quick_threads = {1, 2, 3, 5, 8};
}

TEST_CASE("conformance: upccoll_barrier") { run_matrix(collective::barrier, level::quick, quick_threads, 8); }
TEST_CASE("conformance: upccoll_bcast") { run_matrix(collective::bcast, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_scatter") { run_matrix(collective::scatter, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_scatterv") { run_matrix(collective::scatterv, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_gather") { run_matrix(collective::gather, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_gatherv") { run_matrix(collective::gatherv, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_allgather") { run_matrix(collective::allgather, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_allgatherv") { run_matrix(collective::allgatherv, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_alltoall") { run_matrix(collective::alltoall, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_alltoallv") { run_matrix(collective::alltoallv, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_reduce") { run_matrix(collective::reduce, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_allreduce") { run_matrix(collective::allreduce, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_reduce_scatter") { run_matrix(collective::reduce_scatter, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_scan") { run_matrix(collective::scan, level::quick, quick_threads); }
TEST_CASE("conformance: upccoll_scan_inclusive") { run_matrix(collective::scan_inclusive, level::quick, quick_threads); }

// ---------------------------------------------------------------------------
// UPCCOLL_IN_PLACE: the in-place cases of the matrix alone, for every algorithm

TEST_CASE("conformance: UPCCOLL_IN_PLACE for every collective, algorithm, backend and completion, on teams and sub-teams (issue 8.3)") {
  for (collective k : M::all_collectives) {
    if (!has_in_place(k)) continue;
    for (const std::string& algo : algorithms_of(k))
      for (upc::backend_kind b : spmd::backends)
        for (int T : {1, 2, 3, 5, 8}) {
          std::vector<ucase> cases;
          for (const ucase& c : matrix(k, T, level::full, salt_of(k, algo + "/in-place", b, T)))
            if (c.in_place && c.count * M::size_of(c.sendtype) <= 4096) cases.push_back(c);
          cases = sample(cases, 6, salt_of(k, algo, b, T));
          run_forced(M::registry_name(k), algo, b, T, [&] { run_cases(cases, algo); });
        }
  }
}

// ---------------------------------------------------------------------------
// The same results with the progress thread

TEST_CASE("UPCEMU_UPCCOLL_PROGRESS=thread: a sample of the matrix gives the same results") {
  env_guard progress("UPCEMU_UPCCOLL_PROGRESS", "thread");
  for (collective k : M::all_collectives)
    for (upc::backend_kind b : spmd::backends)
      for (int T : {2, 5}) {
        std::vector<ucase> cases = matrix(k, T, level::quick, salt_of(k, "progress", b, T), 4);
        for (ucase& c : cases)  // mostly non-blocking: what the progress thread advances
          if (c.how == completion::blocking) c.how = completion::test;
        run_forced(M::registry_name(k), "auto", b, T, [&] { run_cases(cases, "auto"); });
      }
}
