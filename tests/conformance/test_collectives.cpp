// Conformance of the UPC standard collectives (<upc_collective.h>) against the
// sequential reference model (tests/support/coll_model.hpp).
//
// The default suite: the model checked on hand-worked cases; every collective ×
// every registered algorithm (read from upc::coll::algorithms, so a new one is
// tested without touching this file) × both backends × THREADS {1,2,3,4,5,7,8,16}
// × sync flags × sizes {1, 13, 1021, 64 KiB+3} × root/placement/phase, complete at
// THREADS <= 4 and sampled above (tests/conformance/test_collectives_full.cpp runs
// everything: `meson test -C build --suite full`); IN_MYSYNC and late threads; the
// worked examples of the UPC collectives specification; bad arguments.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "coll_harness.hpp"

using namespace conf;
using coll_model::movement;

namespace {

coll_model::memory bytes_from(const std::vector<std::vector<std::uint8_t>>& parts) {
  return [&parts](int t, std::uint64_t off) -> std::uint8_t { return parts[t][off]; };
}

// Zeroed partitions of `bytes_per_thread` bytes, seen through the model's memory.
coll_model::memory zeroed(int threads, std::uint64_t bytes_per_thread, std::vector<std::vector<std::uint8_t>>& parts) {
  parts.assign(static_cast<std::size_t>(threads), std::vector<std::uint8_t>(bytes_per_thread, 0));
  return bytes_from(parts);
}

template <class T>
void put_value(std::vector<std::vector<std::uint8_t>>& parts, upc::shared_address a, T v) {
  std::memcpy(parts[a.thread].data() + a.offset, static_cast<const void*>(&v), sizeof(T));
}

template <class T>
T written_value(const coll_model::effect& e, std::size_t i = 0) {
  T v;
  std::memcpy(static_cast<void*>(&v), e.writes.at(i).bytes.data(), sizeof(T));
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------
// The model itself, on cases worked by hand from the spec text

TEST_CASE("model: broadcast fills the block of every thread; from a dst on thread r, threads < r are one row on") {
  coll_model::movement_call c;
  c.kind = movement::broadcast;
  c.threads = 3;
  c.nbytes = 4;
  c.src = address(1, 50);
  c.dst = address(0, 100, 2);  // the phase is taken as 0
  coll_model::effect e = coll_model::relocalize(c);
  REQUIRE(e.copies.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(e.copies[i].dst == address(i, 100));
    CHECK(e.copies[i].src == address(1, 50));
    CHECK(e.copies[i].bytes == 4);
  }
  c.dst = address(2, 100);  // shared [4] char: thread 2 at 100, then threads 0 and 1 at 104
  e = coll_model::relocalize(c);
  CHECK(e.copies[0].dst == address(0, 104));
  CHECK(e.copies[1].dst == address(1, 104));
  CHECK(e.copies[2].dst == address(2, 100));
}

TEST_CASE("model: scatter, gather, gather_all, exchange and permute move the blocks the spec names") {
  coll_model::movement_call c;
  c.threads = 2;
  c.nbytes = 3;
  c.src = address(1, 10);
  c.dst = address(0, 40);
  c.kind = movement::scatter;  // src bytes [3i, 3i+3) on thread 1 -> thread i
  coll_model::effect e = coll_model::relocalize(c);
  CHECK(e.copies[1].src == address(1, 13));
  CHECK(e.copies[1].dst == address(1, 40));
  c.dst = address(1, 40);  // the block of thread 0 is then one row on
  e = coll_model::relocalize(c);
  CHECK(e.copies[0].src == address(1, 10));
  CHECK(e.copies[0].dst == address(0, 43));
  c.dst = address(0, 40);
  c.kind = movement::gather;  // thread i's block -> dst bytes [3i, 3i+3) on dst's thread
  c.src = address(0, 10);
  c.dst = address(1, 40);
  e = coll_model::relocalize(c);
  CHECK(e.copies[1].src == address(1, 10));
  CHECK(e.copies[1].dst == address(1, 43));
  c.kind = movement::gather_all;  // row j (thread j, 6 bytes) gets block i at 3i
  c.dst = address(0, 40);
  e = coll_model::relocalize(c);
  REQUIRE(e.copies.size() == 4);
  CHECK(e.copies[1].dst == address(0, 43));  // row 0, block 1
  CHECK(e.copies[1].src == address(1, 10));
  CHECK(e.copies[2].dst == address(1, 40));  // row 1, block 0
  c.kind = movement::exchange;  // dst row j block i <- src row i block j
  e = coll_model::relocalize(c);
  CHECK(e.copies[1].src == address(0, 13));  // src row 0, block 1
  CHECK(e.copies[1].dst == address(1, 40));  // dst row 1, block 0
  c.kind = movement::permute;
  c.threads = 3;
  c.perm = {2, 0, 1};
  e = coll_model::relocalize(c);
  CHECK(e.copies[0].src == address(0, 10));
  CHECK(e.copies[0].dst == address(2, 40));
  CHECK(e.copies[2].src == address(2, 10));
  CHECK(e.copies[2].dst == address(1, 40));
}

TEST_CASE("model: expected bytes apply the copies and keep everything else") {
  std::vector<std::vector<std::uint8_t>> parts(2, std::vector<std::uint8_t>(16));
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < 16; ++i) parts[t][i] = static_cast<std::uint8_t>(t * 16 + i);
  coll_model::movement_call c;
  c.kind = movement::broadcast;
  c.threads = 2;
  c.nbytes = 2;
  c.src = address(1, 0);
  c.dst = address(0, 8);
  const coll_model::window w = coll_model::expected_bytes(coll_model::relocalize(c), bytes_from(parts), 0, 6, 6);
  CHECK(w.bytes == std::vector<std::uint8_t>{6, 7, 16, 17, 10, 11});
}

TEST_CASE("model: reduce folds per thread, then threads in order (floating point shows the grouping)") {
  std::vector<std::vector<std::uint8_t>> parts;
  coll_model::memory m = zeroed(2, 64, parts);
  // shared [1] float A[4] = {1e8, 1, -1e8, 1}: thread 0 has 1e8, -1e8; thread 1 has 1, 1.
  const float a[] = {1e8f, 1.0f, -1e8f, 1.0f};
  for (int k = 0; k < 4; ++k) put_value(parts, coll_model::element_at(address(0, 0), k, 4, 1, 2), a[k]);
  coll_model::reduce_call<float> rc;
  rc.src = address(0, 0);
  rc.dst = address(1, 32);
  rc.nelems = 4;
  rc.blk_size = 1;
  rc.threads = 2;
  rc.op = UPC_ADD;
  coll_model::effect e = coll_model::reduce(rc, m);
  CHECK(written_value<float>(e) == 2.0f);  // (1e8 + -1e8) + (1 + 1); a plain left fold gives 1
  CHECK(e.writes[0].at == address(1, 32));
  // Non-commutative: block partials in index order; with blk 2 from element 1
  // (phase 1) the blocks are {a1}, {a2, a3}: 1 + (-1e8 + 1) = -1e8 + 1 rounds to -1e8.
  float (*sum)(float, float) = [](float x, float y) { return x + y; };
  rc.op = UPC_NONCOMM_FUNC;
  rc.func = sum;
  rc.blk_size = 2;
  for (int k = 0; k < 4; ++k) put_value(parts, coll_model::element_at(address(0, 0), k, 4, 2, 2), a[k]);
  rc.src = coll_model::element_at(address(0, 0), 1, 4, 2, 2);
  rc.nelems = 3;
  CHECK(rc.src.phase == 1);
  e = coll_model::reduce(rc, m);
  CHECK(written_value<float>(e) == 1.0f + (-1e8f + 1.0f));
  // Threads owning no element are skipped; MIN and the bitwise ops on integers.
  coll_model::reduce_call<int> ri;
  ri.threads = 3;
  ri.nelems = 2;
  ri.blk_size = 0;
  ri.src = address(2, 0);
  ri.dst = address(0, 40);
  std::vector<std::vector<std::uint8_t>> ip;
  coll_model::memory mi = zeroed(3, 64, ip);
  put_value(ip, address(2, 0), 6);
  put_value(ip, address(2, 4), 3);
  ri.op = UPC_MIN;
  CHECK(written_value<int>(coll_model::reduce(ri, mi)) == 3);
  ri.op = UPC_XOR;
  CHECK(written_value<int>(coll_model::reduce(ri, mi)) == 5);
  ri.op = UPC_LOGAND;
  CHECK(written_value<int>(coll_model::reduce(ri, mi)) == 1);
}

TEST_CASE("model: prefix reduce = totals of the earlier blocks, then the block's own prefix") {
  std::vector<std::vector<std::uint8_t>> parts;
  coll_model::memory m = zeroed(2, 128, parts);
  // shared [2] double A[5] = {1e16, 1, -1e16, 1, 1}; blocks {0,1} {2,3} {4}.
  const double a[] = {1e16, 1.0, -1e16, 1.0, 1.0};
  for (int k = 0; k < 5; ++k) put_value(parts, coll_model::element_at(address(0, 0), k, 8, 2, 2), a[k]);
  coll_model::reduce_call<double> rc;
  rc.src = address(0, 0);
  rc.dst = address(0, 64);
  rc.nelems = 5;
  rc.blk_size = 2;
  rc.threads = 2;
  rc.op = UPC_ADD;
  const std::vector<double> v = coll_model::prefix_values(rc, m);
  REQUIRE(v.size() == 5);
  const double b0 = 1e16 + 1.0, b1 = -1e16 + 1.0;
  CHECK(v[0] == 1e16);
  CHECK(v[1] == b0);
  CHECK(v[2] == b0 + -1e16);
  CHECK(v[3] == b0 + b1);
  CHECK(v[4] == (b0 + b1) + 1.0);
  CHECK(v[3] == 0.0);  // a plain left fold gives 1: the data do make the grouping visible
  const coll_model::effect e = coll_model::prefix_reduce(rc, m);
  CHECK(e.writes[3].at == coll_model::element_at(address(0, 64), 3, 8, 2, 2));
}

TEST_CASE("model: sort orders the elements in place, keeping their positions in the layout") {
  std::vector<std::vector<std::uint8_t>> parts(2, std::vector<std::uint8_t>(8, 0));
  const std::uint8_t vals[] = {5, 1, 4, 1, 3};  // shared [2] char A[5]
  for (int k = 0; k < 5; ++k) {
    const upc::shared_address a = coll_model::element_at(address(0, 0), k, 1, 2, 2);
    parts[a.thread][a.offset] = vals[k];
  }
  coll_model::sort_call sc;
  sc.a = address(0, 0);
  sc.elem_size = 1;
  sc.nelems = 5;
  sc.blk_size = 2;
  sc.threads = 2;
  sc.compare = [](const std::uint8_t* x, const std::uint8_t* y) { return int(*x) - int(*y); };
  const coll_model::effect e = coll_model::sort(sc, bytes_from(parts));
  std::vector<int> got;
  for (const auto& w : e.writes) got.push_back(w.bytes[0]);
  CHECK(got == std::vector<int>{1, 1, 3, 4, 5});
  CHECK(e.writes[2].at == address(1, 0));
}

namespace {
// The harness's data for `op` on T, as shared [3] T on 4 threads: the model's
// result and a plain left fold of all elements, which must differ.
template <class T>
std::pair<T, T> grouped_and_plain(op_choice op, bool prefix_last) {
  const int threads = 4;
  const std::size_t n = 1021, blk = 3, E = sizeof(T);
  const std::uint32_t seed = 1;  // most seeds show some of the differences; this one shows them all
  coll_model::memory m = [&](int t, std::uint64_t off) -> std::uint8_t {
    std::uint8_t b[sizeof(T)];
    element_bytes<T>(op, slot_index(E, blk, t, off - off % E, threads), seed, b);
    return b[off % E];
  };
  coll_model::reduce_call<T> rc;
  rc.src = address(0, 0);
  rc.dst = address(0, 1 << 20);
  rc.op = op.op;
  rc.func = func_pointer<T>(op.func);
  rc.nelems = n;
  rc.blk_size = blk;
  rc.threads = threads;
  T plain = element_value<T>(op, 0, seed);
  for (std::size_t k = 1; k < n; ++k) plain = coll_model::combine(op.op, rc.func, plain, element_value<T>(op, k, seed));
  const T grouped = prefix_last ? coll_model::prefix_values(rc, m).back() : coll_model::reduce_value(rc, m);
  return {grouped, plain};
}

template <class T>
void check_grouping_visible() {
  for (const op_choice op : {op_choice{UPC_ADD, func_kind::none}, op_choice{UPC_MULT, func_kind::none},
                             op_choice{UPC_FUNC, func_kind::comm}, op_choice{UPC_NONCOMM_FUNC, func_kind::float_sum}}) {
    const std::string label = std::string(coll_model::op_name(op.op)) + func_name(op.func);
    INFO(label, " on a ", sizeof(T), "-byte type");
    const bool prefix_too = op.op != UPC_NONCOMM_FUNC;  // the reduce of a non-commutative op folds blocks like prefix
    auto [grouped, plain] = grouped_and_plain<T>(op, false);
    CHECK_FALSE(coll_model::same_bits(grouped, plain));
    if (prefix_too) {
      auto [pg, pp] = grouped_and_plain<T>(op, true);
      CHECK_FALSE(coll_model::same_bits(pg, pp));
    }
  }
}
}  // namespace

TEST_CASE("the floating-point data of the matrix make the grouping of a reduction visible") {
  check_grouping_visible<float>();
  check_grouping_visible<double>();
  check_grouping_visible<long double>();
}

// ---------------------------------------------------------------------------
// The registry the matrix is generated from

TEST_CASE("registry: every standard collective has algorithms; unknown names are refused with the valid ones") {
  const std::vector<std::string> names = upc::coll::collectives();
  for (const char* c : {"broadcast", "scatter", "gather", "gather_all", "exchange", "permute", "reduce",
                        "prefix_reduce", "sort"}) {
    const std::string name = c;
    INFO(name);
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
// The matrix (complete at THREADS <= 4, sampled above; all of it in the full suite)

TEST_CASE("conformance: upc_all_broadcast") { run_movement_matrix(movement::broadcast, level::quick); }
TEST_CASE("conformance: upc_all_scatter") { run_movement_matrix(movement::scatter, level::quick); }
TEST_CASE("conformance: upc_all_gather") { run_movement_matrix(movement::gather, level::quick); }
TEST_CASE("conformance: upc_all_gather_all") { run_movement_matrix(movement::gather_all, level::quick); }
TEST_CASE("conformance: upc_all_exchange") { run_movement_matrix(movement::exchange, level::quick); }
TEST_CASE("conformance: upc_all_permute") { run_movement_matrix(movement::permute, level::quick); }
TEST_CASE("conformance: upc_all_reduceT") { run_reduce_matrix(false, level::quick); }
TEST_CASE("conformance: upc_all_prefix_reduceT") { run_reduce_matrix(true, level::quick); }
TEST_CASE("conformance: upc_all_sort") { run_sort_matrix(level::quick); }

// ---------------------------------------------------------------------------
// IN_MYSYNC / IN_ALLSYNC: nothing is read or written before its owner entered

// One thread sets up its data (source, destination poison, perm entry) only after
// a delay and then enters; the others enter at once. An implementation reading
// that thread's source early gets the previous case's bytes; one writing its
// destination early has its result overwritten by the late poison.
TEST_CASE("IN_MYSYNC and IN_ALLSYNC: a late thread's data is read and written only after it entered") {
  const upc_flag_t flag_set[] = {UPC_IN_MYSYNC | UPC_OUT_MYSYNC, UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,
                                 UPC_IN_ALLSYNC | UPC_OUT_NOSYNC};
  for (movement k : movements) {
    const std::string coll = coll_model::name(k);
    for (const std::string& algo : upc::coll::algorithms(coll))
      for (upc::backend_kind b : spmd::backends)
        for (int T : {2, 4}) {
          std::vector<movement_case> cases;
          for (upc_flag_t f : flag_set)
            for (int late : {0, T - 1}) {  // the root (src or dst owner) or another thread
              movement_case c;
              c.kind = k;
              c.nbytes = 64;
              c.flags = f;
              c.root = 0;
              c.late = late;
              c.seed = seed_of(salt_of(coll, algo, b, T), cases.size() + 100);
              cases.push_back(c);
            }
          run_forced(coll, algo, b, T, [&] { movement_body(cases, algo); });
        }
  }
  for (bool prefix : {false, true}) {
    const std::string coll = prefix ? "prefix_reduce" : "reduce";
    for (const std::string& algo : upc::coll::algorithms(coll))
      for (upc::backend_kind b : spmd::backends)
        for (int T : {2, 4}) {
          std::vector<reduce_case> cases;
          for (upc_flag_t f : {UPC_IN_MYSYNC | UPC_OUT_MYSYNC, UPC_IN_ALLSYNC | UPC_OUT_NOSYNC})
            for (int late : {0, T - 1}) {
              reduce_case c;
              c.type = 5;  // unsigned int
              c.op = {UPC_ADD, func_kind::none};
              c.prefix = prefix;
              c.nelems = 20;
              c.blk_size = 3;
              c.root = T - 1 - late;  // reduce: dst on another thread than the late one
              c.flags = f;
              c.late = late;
              c.seed = seed_of(salt_of(coll, algo, b, T), cases.size() + 100);
              cases.push_back(c);
            }
          run_forced(coll, algo, b, T, [&] { reduce_body(cases, algo); });
        }
  }
}

TEST_CASE("IN_MYSYNC: the root writes its source after a sleep, then broadcasts; every thread gets the new data") {
  for (const std::string& algo : upc::coll::algorithms("broadcast"))
    for (upc::backend_kind b : spmd::backends)
      run_forced("broadcast", algo, b, 4, [] {
        constexpr std::size_t n = 256;
        upc::shared_array<unsigned char, upc::indefinite> src{n};  // on thread 0
        upc::shared_array<unsigned char, n> dst{upc::per_thread(n)};
        for (int round = 1; round <= 3; ++round) {
          if (MYTHREAD == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            unsigned char* s = static_cast<unsigned char*>(upc::sptr<unsigned char, upc::indefinite>(src).local());
            for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<unsigned char>(i * 3 + round);
          }
          upc_all_broadcast(dst, src, n, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
          const unsigned char* d = (&dst[n * static_cast<std::size_t>(MYTHREAD)]).local();
          for (std::size_t i = 0; i < n; ++i)
            if (d[i] != static_cast<unsigned char>(i * 3 + round))
              throw spmd::check_failed("round " + std::to_string(round) + ": thread " + std::to_string(MYTHREAD) +
                                       " byte " + std::to_string(i) + " is " + std::to_string(d[i]) + ", expected " +
                                       std::to_string(static_cast<unsigned char>(i * 3 + round)) +
                                       " (data read before the root entered?)");
          upc_barrier;
        }
      });
}

// ---------------------------------------------------------------------------
// UPC_PULL / UPC_PUSH force the flat algorithms

TEST_CASE("UPC_PULL and UPC_PUSH select the pull and push algorithms") {
  for (upc::backend_kind b : spmd::backends)
    spmd::run_ok(3, b, [] {
      upc::sptr<void> src = upc_all_alloc(THREADS, 8 * THREADS), dst = upc_all_alloc(THREADS, 8 * THREADS);
      for (movement k : movements) {
        const std::vector<std::string> algos = upc::coll::algorithms(coll_model::name(k));
        upc::shared_array<int> perm{upc::per_thread(1)};
        perm[MYTHREAD] = (MYTHREAD + 1) % THREADS;
        upc_barrier;
        for (const char* want : {"pull", "push"}) {
          if (std::find(algos.begin(), algos.end(), want) == algos.end()) continue;
          const upc_flag_t f = std::string(want) == "pull" ? UPC_PULL : UPC_PUSH;
          call_movement(k, dst, src, perm, 4, f);
          SPMD_CHECK_EQ(upc::coll::last_algorithm(), std::string(want));
        }
        upc_barrier;
      }
      upc_all_free(dst);
      upc_all_free(src);
    });
}

// ---------------------------------------------------------------------------
// The worked examples of the UPC collectives specification (UPC 1.3 §7.4),
// in this library's spelling, with their results checked

namespace examples {
constexpr std::size_t NELEMS = 10;

void broadcast_1() {  // shared int A[THREADS], B[THREADS]; broadcast(B, &A[1], sizeof(int))
  upc::shared_array<int> A{upc::per_thread(1)}, B{upc::per_thread(1)};
  A[MYTHREAD] = 100 + MYTHREAD;
  upc_barrier;
  upc_all_broadcast(B, &A[1], sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  for (int i = 0; i < THREADS; ++i) SPMD_CHECK_EQ(B[i].get(), 101);
}

void broadcast_2() {  // shared [] int A[NELEMS]; shared [NELEMS] int B[NELEMS*THREADS]
  upc::shared_array<int, upc::indefinite> A{NELEMS};
  upc::shared_array<int, NELEMS> B{upc::per_thread(NELEMS)};
  if (MYTHREAD == 0)
    for (std::size_t i = 0; i < NELEMS; ++i) A[i] = static_cast<int>(i * i);
  upc_all_broadcast(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) SPMD_CHECK_EQ(B[i].get(), static_cast<int>((i % NELEMS) * (i % NELEMS)));
}

void broadcast_3() {  // A, B dynamically allocated: A = upc_all_alloc(1, ...), B = upc_all_alloc(THREADS, ...)
  upc::sptr<int, upc::indefinite> A(upc_all_alloc(1, NELEMS * sizeof(int)));
  upc::sptr<int, NELEMS> B(upc_all_alloc(THREADS, NELEMS * sizeof(int)));
  if (MYTHREAD == 0)
    for (std::size_t i = 0; i < NELEMS; ++i) A[i] = static_cast<int>(7 * i + 1);
  upc_barrier;
  upc_all_broadcast(B, A, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) SPMD_CHECK_EQ(B[i].get(), static_cast<int>(7 * (i % NELEMS) + 1));
  upc_barrier;
  upc_all_free(B);
  upc_all_free(A);
}

void scatter_1() {  // each thread fills its row of A; the row of SRC_THREAD is scattered into B
  const int SRC_THREAD = 1 % THREADS;
  upc::sptr<int> A(upc_all_alloc(THREADS, THREADS * NELEMS * sizeof(int)));
  upc::shared_array<int, NELEMS> B{upc::per_thread(NELEMS)};
  upc::sptr<int, upc::indefinite> myA = (&A[MYTHREAD]).cast<int, upc::indefinite>();
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) myA[i] = static_cast<int>(i + NELEMS * THREADS * MYTHREAD);
  upc::sptr<int, upc::indefinite> srcA = (&A[SRC_THREAD]).cast<int, upc::indefinite>();
  upc_barrier;
  upc_all_scatter(B, srcA, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i)
    SPMD_CHECK_EQ(B[i].get(), static_cast<int>(i + NELEMS * THREADS * SRC_THREAD));
  upc_barrier;
  upc_all_free(A);
}

void gather_1() {  // shared [NELEMS] int A[NELEMS*THREADS]; shared [] int B[NELEMS*THREADS]
  upc::shared_array<int, NELEMS> A{upc::per_thread(NELEMS)};
  upc::shared_array<int, upc::indefinite> B{upc::per_thread(NELEMS)};
  upc_forall (std::size_t i = 0; i < NELEMS * THREADS; i++, &A[i]) A[i] = MYTHREAD;
  upc_all_gather(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) SPMD_CHECK_EQ(B[i].get(), static_cast<int>(i / NELEMS));
}

void gather_all_1() {  // B[THREADS][NELEMS*THREADS] blocked by rows: every row gets all of A
  upc::shared_array<int, NELEMS> A{upc::per_thread(NELEMS)};
  upc::sptr<int, upc::indefinite> Bdata(upc_all_alloc(THREADS, NELEMS * THREADS * sizeof(int)));
  upc_forall (std::size_t i = 0; i < NELEMS * THREADS; i++, &A[i]) A[i] = static_cast<int>(1000 * MYTHREAD + i);
  upc_barrier;
  upc_all_gather_all(Bdata, A, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  upc::shared_address row = Bdata.address();
  row.thread = static_cast<std::uint32_t>(MYTHREAD);
  const int* mine = upc::sptr<int, upc::indefinite>(row).local();
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) SPMD_CHECK_EQ(mine[i], static_cast<int>(1000 * (i / NELEMS) + i));
  upc_barrier;
  upc_all_free(Bdata);
}

void exchange_1() {  // A, B: shared [NELEMS*THREADS] int [THREADS][NELEMS*THREADS]
  upc::sptr<void> A = upc_all_alloc(THREADS, NELEMS * THREADS * sizeof(int));
  upc::sptr<void> B = upc_all_alloc(THREADS, NELEMS * THREADS * sizeof(int));
  auto row_of = [](upc::sptr<void> p, int t) {
    upc::shared_address a = p.address();
    a.thread = static_cast<std::uint32_t>(t);
    return upc::sptr<int, upc::indefinite>(a);
  };
  int* a = row_of(A, MYTHREAD).local();
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) a[i] = static_cast<int>(MYTHREAD * 100000 + i);
  upc_barrier;
  upc_all_exchange(B, A, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  const int* b = row_of(B, MYTHREAD).local();
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i)  // block j of my row = block MYTHREAD of row j
    SPMD_CHECK_EQ(b[i], static_cast<int>((i / NELEMS) * 100000 + MYTHREAD * NELEMS + i % NELEMS));
  upc_barrier;
  upc_all_free(B);
  upc_all_free(A);
}

void permute_1() {  // P[MYTHREAD] = (MYTHREAD+1) % THREADS
  upc::shared_array<int, NELEMS> A{upc::per_thread(NELEMS)}, B{upc::per_thread(NELEMS)};
  upc::shared_array<int> P{upc::per_thread(1)};
  upc_forall (std::size_t i = 0; i < NELEMS * THREADS; i++, &A[i]) A[i] = MYTHREAD;
  P[MYTHREAD] = (MYTHREAD + 1) % THREADS;
  upc_barrier;
  upc_all_permute(B, A, P, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i)
    SPMD_CHECK_EQ(B[i].get(), static_cast<int>((i / NELEMS + THREADS - 1) % THREADS));
}

void reduce_1() {  // shared [BLK_SIZE] long A[NELEMS*THREADS]; A[i] = i; sum into B
  constexpr std::size_t BLK_SIZE = 3;
  upc::shared_array<long, BLK_SIZE> A{upc::per_thread(NELEMS)};
  upc::shared<long> B;
  upc_forall (std::size_t i = 0; i < NELEMS * THREADS; i++, &A[i]) A[i] = static_cast<long>(i);
  upc_barrier;
  upc_all_reduceL(&B, A, UPC_ADD, NELEMS * THREADS, BLK_SIZE, nullptr, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  upc_barrier;
  const long N = static_cast<long>(NELEMS) * THREADS;
  SPMD_CHECK_EQ(B.get(), N * (N - 1) / 2);
}

void prefix_reduce_1() {  // B[i] = A[0] + ... + A[i]
  constexpr std::size_t BLK_SIZE = 3;
  upc::shared_array<long, BLK_SIZE> A{upc::per_thread(NELEMS)}, B{upc::per_thread(NELEMS)};
  upc_forall (std::size_t i = 0; i < NELEMS * THREADS; i++, &A[i]) A[i] = static_cast<long>(i);
  upc_all_prefix_reduceL(B, A, UPC_ADD, NELEMS * THREADS, BLK_SIZE, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) SPMD_CHECK_EQ(B[i].get(), static_cast<long>(i * (i + 1) / 2));
}

int descending(upc::sptr<void> a, upc::sptr<void> b) {
  const int x = *upc::sptr<int>(a), y = *upc::sptr<int>(b);
  return (x < y) - (x > y);
}

void sort_1() {  // shared [2] int A[NELEMS*THREADS], sorted with a user comparison
  upc::shared_array<int, 2> A{upc::per_thread(NELEMS)};
  upc_forall (std::size_t i = 0; i < NELEMS * THREADS; i++, &A[i]) A[i] = static_cast<int>((i * 7) % 11);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  upc_all_sort(A, sizeof(int), NELEMS * THREADS, 2, &descending, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
#pragma GCC diagnostic pop
  std::vector<int> want;
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) want.push_back(static_cast<int>((i * 7) % 11));
  std::sort(want.rbegin(), want.rend());
  for (std::size_t i = 0; i < NELEMS * THREADS; ++i) SPMD_CHECK_EQ(A[i].get(), want[i]);
}
}  // namespace examples

TEST_CASE("the worked examples of the UPC collectives specification") {
  const std::pair<const char*, void (*)()> all[] = {
      {"broadcast 1", examples::broadcast_1}, {"broadcast 2", examples::broadcast_2},
      {"broadcast 3", examples::broadcast_3}, {"scatter", examples::scatter_1},
      {"gather", examples::gather_1},         {"gather_all", examples::gather_all_1},
      {"exchange", examples::exchange_1},     {"permute", examples::permute_1},
      {"reduceL", examples::reduce_1},        {"prefix_reduceL", examples::prefix_reduce_1},
      {"sort", examples::sort_1}};
  for (const auto& [name, body] : all)
    for (upc::backend_kind b : spmd::backends)
      for (int T : {2, 3, 5}) {
        INFO("example ", std::string(name));
        spmd::run_ok(T, b, body);
      }
}

// ---------------------------------------------------------------------------
// Bad arguments stop the run with an error naming the function, the argument
// and the thread

namespace {
void expect_error(const char* what, const std::function<void()>& body, std::initializer_list<const char*> parts) {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    INFO(std::string(what), " on ", spmd::name(b));
    const std::string err = spmd::run_failing(3, b, body);
    INFO("error: ", err);
    for (const char* p : parts) CHECK(spmd::contains(err, p));
    CHECK(spmd::contains(err, "(thread "));
  }
}
}  // namespace

TEST_CASE("bad arguments: nbytes 0, a perm that is not a permutation, a bitwise op on a float, overlap, null") {
  expect_error("nbytes 0", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64), b = upc_all_alloc(THREADS, 64);
    upc_all_broadcast(b, a, 0, 0);
  }, {"upc_all_broadcast", "nbytes"});
  expect_error("nbytes 0 (exchange)", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64), b = upc_all_alloc(THREADS, 64);
    upc_all_exchange(b, a, 0, 0);
  }, {"upc_all_exchange", "nbytes"});
  expect_error("perm with a repeat", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64), b = upc_all_alloc(THREADS, 64);
    upc::shared_array<int> perm{upc::per_thread(1)};
    perm[MYTHREAD] = 0;
    upc_barrier;
    upc_all_permute(b, a, perm, 8, UPC_IN_NOSYNC);
  }, {"upc_all_permute", "perm"});
  expect_error("perm out of range", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64), b = upc_all_alloc(THREADS, 64);
    upc::shared_array<int> perm{upc::per_thread(1)};
    perm[MYTHREAD] = MYTHREAD == 1 ? THREADS : MYTHREAD;
    upc_barrier;
    upc_all_permute(b, a, perm, 8, UPC_IN_NOSYNC);
  }, {"upc_all_permute", "perm"});
  expect_error("UPC_AND on float", [] {
    upc::shared_array<float> a{upc::per_thread(4)};
    upc::shared<float> r;
    upc_all_reduceF(&r, a, UPC_AND, 4, 1, nullptr, 0);
  }, {"upc_all_reduceF", "op", "UPC_AND"});
  expect_error("UPC_XOR on double (prefix)", [] {
    upc::shared_array<double> a{upc::per_thread(4)}, d{upc::per_thread(4)};
    upc_all_prefix_reduceD(d, a, UPC_XOR, 4, 1, nullptr, 0);
  }, {"upc_all_prefix_reduceD", "op", "UPC_XOR"});
  expect_error("overlapping src and dst", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64 * THREADS);
    upc_all_exchange(a, a, 8, 0);
  }, {"upc_all_exchange", "overlap", "src", "dst"});
  expect_error("overlapping src and dst (broadcast)", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64);
    upc_all_broadcast(a, a, 16, 0);
  }, {"upc_all_broadcast", "overlap"});
  expect_error("null dst", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64);
    upc_all_gather(upc::sptr<void>(nullptr), a, 8, 0);
  }, {"upc_all_gather", "dst", "null"});
  expect_error("null src", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64);
    upc_all_scatter(a, upc::sptr<const void>(nullptr), 8, 0);
  }, {"upc_all_scatter", "src", "null"});
  expect_error("null perm", [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64), b = upc_all_alloc(THREADS, 64);
    upc_all_permute(b, a, upc::sptr<const int>(nullptr), 8, 0);
  }, {"upc_all_permute", "perm", "null"});
  expect_error("nelems 0", [] {
    upc::shared_array<long> a{upc::per_thread(4)};
    upc::shared<long> r;
    upc_all_reduceL(&r, a, UPC_ADD, 0, 1, nullptr, 0);
  }, {"upc_all_reduceL", "nelems"});
  expect_error("a src phase that blk_size cannot have", [] {
    upc::shared_array<int, 4> a{upc::per_thread(8)};
    upc::shared<int> r;
    upc_all_reduceI(&r, &a[2], UPC_ADD, 4, 2, nullptr, 0);  // phase 2 read as shared [2]
  }, {"upc_all_reduceI", "src", "phase"});
  expect_error("UPC_FUNC without a function", [] {
    upc::shared_array<int> a{upc::per_thread(4)};
    upc::shared<int> r;
    upc_all_reduceI(&r, a, UPC_FUNC, 4, 1, nullptr, 0);
  }, {"upc_all_reduceI", "func"});
}
