// UPC 1.3 atomics (<upc_atomic.h>): every operation on every type it is defined
// for against a sequential model, the spec's type/op table enforced, contention by
// all threads on both backends, and the error messages for misuse.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "../support/spmd.hpp"

using spmd::contains;
using spmd::error_of;
using spmd::run_failing;
#include "upc_atomic.h"
#include "upc_castable.h"
#include "../../lib/runtime/op_names.hpp"

namespace {

constexpr upc_op_t access_ops = UPC_GET | UPC_SET | UPC_CSWAP;
constexpr upc_op_t numeric_ops = UPC_ADD | UPC_SUB | UPC_MULT | UPC_INC | UPC_DEC | UPC_MIN | UPC_MAX;
constexpr upc_op_t bitwise_ops = UPC_AND | UPC_OR | UPC_XOR;
constexpr upc_op_t every_op[] = {UPC_GET, UPC_SET, UPC_CSWAP, UPC_ADD, UPC_SUB, UPC_MULT, UPC_INC,
                                 UPC_DEC, UPC_AND, UPC_OR,  UPC_XOR,   UPC_MIN, UPC_MAX};

struct named_type {
  upc_type_t code;
  const char* name;
  bool integral;
};
constexpr named_type supported_types[] = {
    {UPC_INT, "UPC_INT", true},       {UPC_UINT, "UPC_UINT", true},     {UPC_LONG, "UPC_LONG", true},
    {UPC_ULONG, "UPC_ULONG", true},   {UPC_INT32, "UPC_INT32", true},   {UPC_UINT32, "UPC_UINT32", true},
    {UPC_INT64, "UPC_INT64", true},   {UPC_UINT64, "UPC_UINT64", true}, {UPC_FLOAT, "UPC_FLOAT", false},
    {UPC_DOUBLE, "UPC_DOUBLE", false}, {UPC_PTS, "UPC_PTS", false}};

// The spec's table, written out independently of the library's.
upc_op_t allowed_ops(upc_type_t t) {
  if (t == UPC_PTS) return access_ops;
  if (t == UPC_FLOAT || t == UPC_DOUBLE) return access_ops | numeric_ops;
  return access_ops | numeric_ops | bitwise_ops;
}

const char* op_name(upc_op_t op) {
  const char* name = upc::detail::op_name(op);
  return name ? name : "?";
}




// ---- sequential model ----------------------------------------------------------

template <class T>
T model(upc_op_t op, T x, T a, T b) {
  switch (op) {
    case UPC_GET: return x;
    case UPC_SET: return a;
    case UPC_CSWAP: return x == a ? b : x;
    case UPC_ADD: return static_cast<T>(x + a);
    case UPC_SUB: return static_cast<T>(x - a);
    case UPC_MULT: return static_cast<T>(x * a);
    case UPC_INC: return static_cast<T>(x + 1);
    case UPC_DEC: return static_cast<T>(x - 1);
    case UPC_MIN: return a < x ? a : x;
    case UPC_MAX: return x < a ? a : x;
    default:
      if constexpr (std::is_integral_v<T>) {
        if (op == UPC_AND) return static_cast<T>(x & a);
        if (op == UPC_OR) return static_cast<T>(x | a);
        if (op == UPC_XOR) return static_cast<T>(x ^ a);
      }
      throw spmd::check_failed("model: unexpected op");
  }
}

// Every op defined for `code`, strict and relaxed, with and without fetch_ptr,
// on cases {x,a,b}, {a,x,b} (MIN/MAX both ways) and {x,x,b} (CSWAP that matches),
// each thread on its right neighbour's element (remote unless THREADS is 1).
template <class T>
void check_every_op(upc_type_t code, T x, T a, T b) {
  const upc_op_t ops = allowed_ops(code);
  upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(code, ops, UPC_ATOMIC_HINT_DEFAULT);
  upc::sptr<T> arr(upc_all_alloc(THREADS, sizeof(T)));
  const int neighbour = (MYTHREAD + 1) % THREADS;
  upc::sptr<T> target = arr + neighbour;
  SPMD_CHECK_EQ(static_cast<int>(upc_threadof(target)), neighbour);
  const T cases[3][3] = {{x, a, b}, {a, x, b}, {x, x, b}};
  T last = x;
  for (upc_op_t op : every_op) {
    if (!(ops & op)) continue;
    for (const auto& c : cases)
      for (int strict = 0; strict < 2; ++strict)
        for (int with_fetch = 0; with_fetch < 2; ++with_fetch) {
          if (op == UPC_GET && !with_fetch) continue;
          target[0] = c[0];
          T fetched = static_cast<T>(99);
          T* fetch = with_fetch ? &fetched : nullptr;
          if (strict) upc_atomic_strict(d, fetch, op, target, &c[1], &c[2]);
          else upc_atomic_relaxed(d, fetch, op, target, &c[1], &c[2]);
          const T now = target[0];
          last = model(op, c[0], c[1], c[2]);
          if (!(now == last))
            throw spmd::check_failed(std::string(op_name(op)) + " on " + std::to_string(code) + ": target is " +
                                     std::to_string(now) + ", the model says " + std::to_string(last));
          if (with_fetch && !(fetched == c[0]))
            throw spmd::check_failed(std::string(op_name(op)) + " on " + std::to_string(code) + ": fetched " +
                                     std::to_string(fetched) + ", the old value was " + std::to_string(c[0]));
        }
  }
  upc_barrier;
  // The owner sees the last value its neighbour left.
  SPMD_CHECK(arr[MYTHREAD] == last);
  upc_barrier;
  upc_all_free(arr);
  upc_all_atomicdomain_free(d);
}

// Integer operands that exercise wrap-around of unsigned types and negative values.
template <class T>
void check_integer_type(upc_type_t code) {
  if constexpr (std::is_signed_v<T>) {
    check_every_op<T>(code, static_cast<T>(-7), static_cast<T>(5), static_cast<T>(42));
    check_every_op<T>(code, static_cast<T>(0x5a5a), static_cast<T>(-0x0ff0), static_cast<T>(-1));
  } else {
    check_every_op<T>(code, static_cast<T>(12), static_cast<T>(5), static_cast<T>(42));
    check_every_op<T>(code, static_cast<T>(3), static_cast<T>(~T{0} - 1), static_cast<T>(0x5a5a));  // wraps
  }
}

void check_pts() {
  upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_PTS, access_ops, 0);
  upc::sptr<upc::sptr<void>> slots(upc_all_alloc(THREADS, sizeof(upc::sptr<void>)));
  upc::sptr<int> ints(upc_all_alloc(THREADS, sizeof(int)));
  upc::sptr<upc::sptr<void>> target = slots + (MYTHREAD + 1) % THREADS;
  const upc::sptr<void> x = ints + MYTHREAD, a = ints + 3 * THREADS + 1, b = nullptr;
  const upc::sptr<void> cases[3][3] = {{x, a, b}, {a, x, b}, {x, x, b}};
  for (upc_op_t op : {UPC_GET, UPC_SET, UPC_CSWAP})
    for (const auto& c : cases)
      for (int strict = 0; strict < 2; ++strict) {
        target[0] = c[0];
        upc::sptr<void> fetched = ints;
        if (strict) upc_atomic_strict(d, &fetched, op, target, &c[1], &c[2]);
        else upc_atomic_relaxed(d, &fetched, op, target, &c[1], &c[2]);
        const upc::sptr<void> now = target[0];
        const upc::sptr<void> expect = op == UPC_GET ? c[0] : op == UPC_SET ? c[1] : (c[0] == c[1] ? c[2] : c[0]);
        SPMD_CHECK(now == expect);
        SPMD_CHECK(fetched == c[0]);
        SPMD_CHECK_EQ(fetched.address().phase, c[0].address().phase);
      }
  // CSWAP compares as == does: the same thread and offset match whatever the phase.
  upc::sptr<int, 4> blocked(upc::shared_address{64, 0, 0});
  upc::sptr<void> phase0 = blocked, phase1(upc::shared_address{64, 0, 1});
  target[0] = phase0;
  upc::sptr<void> fetched;
  upc_atomic_relaxed(d, &fetched, UPC_CSWAP, target, &phase1, &x);
  SPMD_CHECK(upc::sptr<void>(target[0]) == x);
  upc_barrier;
  upc_all_free(ints);
  upc_all_free(slots);
  upc_all_atomicdomain_free(d);
}

void check_all_types() {
  check_integer_type<int>(UPC_INT);
  check_integer_type<unsigned>(UPC_UINT);
  check_integer_type<long>(UPC_LONG);
  check_integer_type<unsigned long>(UPC_ULONG);
  check_integer_type<std::int32_t>(UPC_INT32);
  check_integer_type<std::uint32_t>(UPC_UINT32);
  check_integer_type<std::int64_t>(UPC_INT64);
  check_integer_type<std::uint64_t>(UPC_UINT64);
  check_every_op<float>(UPC_FLOAT, 2.5f, -1.25f, 8.0f);
  check_every_op<float>(UPC_FLOAT, -0.0f, 0.0f, 3.0f);  // CSWAP: -0.0 == 0.0
  check_every_op<double>(UPC_DOUBLE, 2.5, -1.25, 8.0);
  check_every_op<double>(UPC_DOUBLE, 1e300, 1e-300, -3.0);
  check_pts();
}

}  // namespace

TEST_CASE("atomics: every op on every type it is defined for matches the sequential model") {
  spmd::run_everywhere(check_all_types, {1, 3});
}

TEST_CASE("atomics: a NaN never matches in CSWAP and never wins MIN/MAX") {
  spmd::run_ok(1, upc::backend_kind::threads, [] {
    upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_CSWAP | UPC_MIN | UPC_MAX, 0);
    upc::sptr<double> x(upc_all_alloc(1, sizeof(double)));
    const double nan = std::nan(""), one = 1.0, two = 2.0;
    x[0] = nan;
    double old = 0;
    upc_atomic_relaxed(d, &old, UPC_CSWAP, x, &nan, &one);
    SPMD_CHECK(std::isnan(old));
    SPMD_CHECK(std::isnan(static_cast<double>(x[0])));
    x[0] = two;
    upc_atomic_relaxed(d, nullptr, UPC_MIN, x, &nan, nullptr);
    upc_atomic_relaxed(d, nullptr, UPC_MAX, x, &nan, nullptr);
    SPMD_CHECK_EQ(static_cast<double>(x[0]), 2.0);
    upc_all_free(x);
    upc_all_atomicdomain_free(d);
  });
}

TEST_CASE("atomics: domains accept exactly the spec's type/op table") {
  spmd::run_ok(2, upc::backend_kind::threads, [] {
    for (const named_type& t : supported_types) {
      // The whole allowed set at once, and each allowed op alone.
      upc_all_atomicdomain_free(upc_all_atomicdomain_alloc(t.code, allowed_ops(t.code), UPC_ATOMIC_HINT_LATENCY));
      for (upc_op_t op : every_op) {
        if (allowed_ops(t.code) & op) {
          upc_all_atomicdomain_free(upc_all_atomicdomain_alloc(t.code, op, UPC_ATOMIC_HINT_THROUGHPUT));
          SPMD_CHECK_EQ(upc_atomic_isfast(t.code, op, nullptr), t.code == UPC_PTS ? 0 : 1);
        } else {
          const std::string why = t.code == UPC_PTS ? "UPC_PTS allows only UPC_GET, UPC_SET and UPC_CSWAP"
                                                    : "bitwise operations need an integer type";
          const std::string expect = std::string("contains ") + op_name(op) + ", which is not defined for type " + t.name +
                                     " (" + why + ") (thread " + std::to_string(MYTHREAD) + ")";
          SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(t.code, op | UPC_GET, 0), "upc_all_atomicdomain_alloc: ops (");
          SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(t.code, op | UPC_GET, 0), expect);
          SPMD_CHECK_ERROR(upc_atomic_isfast(t.code, op, nullptr), std::string("upc_atomic_isfast: ops (") + op_name(op));
        }
      }
    }
    for (upc_type_t bad : {UPC_CHAR, UPC_UCHAR, UPC_SHORT, UPC_USHORT, UPC_LLONG, UPC_ULLONG, UPC_INT8, UPC_UINT16,
                           UPC_LONG_DOUBLE}) {
      SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(bad, UPC_GET, 0), "is not supported by the atomics library");
      SPMD_CHECK_ERROR(upc_atomic_isfast(bad, UPC_GET, nullptr), "is not supported by the atomics library");
    }
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(UPC_SHORT, UPC_GET, 0), "type UPC_SHORT (3) is not supported");
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(0, UPC_GET, 0), "type unknown type code 0 (0) is not supported");
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(99, UPC_GET, 0), "type unknown type code 99 (99)");
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(UPC_INT, 0, 0), "ops is 0: name at least one atomic operation");
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD | UPC_LOGAND, 0),
                     "ops (UPC_ADD | UPC_LOGAND) contains UPC_LOGAND, which is not an atomic operation");
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD | (1UL << 40), 0), "contains 0x10000000000, which is not");
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD, 4), "hints (4) is not a combination");
    SPMD_CHECK_ERROR(upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD, -1), "hints (-1)");
    SPMD_CHECK_EQ(upc_atomic_isfast(UPC_INT, UPC_ADD | UPC_MULT | UPC_MIN | UPC_XOR | UPC_CSWAP, nullptr), 1);
    SPMD_CHECK_EQ(upc_atomic_isfast(UPC_DOUBLE, allowed_ops(UPC_DOUBLE), nullptr), 1);
    SPMD_CHECK_EQ(upc_atomic_isfast(UPC_PTS, UPC_GET, nullptr), 0);
    upc::sptr<std::int64_t> x(upc_all_alloc(THREADS, 16));
    SPMD_CHECK_EQ(upc_atomic_isfast(UPC_INT64, UPC_ADD, x), 1);
    SPMD_CHECK_EQ(upc_atomic_isfast(UPC_INT64, UPC_ADD, upc::sptr<void>(upc::shared_address{x.addrfield() + 4, 1, 0})), 0);
    SPMD_CHECK_EQ(upc_atomic_isfast(UPC_INT32, UPC_ADD, upc::sptr<void>(upc::shared_address{x.addrfield() + 4, 1, 0})), 1);
    upc_all_free(x);
  });
}

TEST_CASE("atomics: misuse of an operation names the function, the argument and the value") {
  spmd::run_ok(2, upc::backend_kind::threads, [] {
    upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD | UPC_GET | UPC_CSWAP, 0);
    upc_atomicdomain_t* f = upc_all_atomicdomain_alloc(UPC_FLOAT, UPC_ADD, 0);
    upc::sptr<int> x(upc_all_alloc(THREADS, 16));
    x[MYTHREAD] = 0;
    upc_barrier;
    const std::string me = " (thread " + std::to_string(MYTHREAD) + ")";
    int v = 1, out = 0;
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_ADD | UPC_GET, x, &v, nullptr),
                     "upc_atomic_relaxed: op must be exactly one operation, got UPC_ADD | UPC_GET" + me);
    SPMD_CHECK_ERROR(upc_atomic_strict(d, &out, 0, x, &v, nullptr),
                     "upc_atomic_strict: op must be exactly one operation, got 0 (no operation)" + me);
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_MULT, x, &v, nullptr),
                     "upc_atomic_relaxed: op UPC_MULT is not in the operation set of this domain (UPC_ADD | UPC_GET | "
                     "UPC_CSWAP)" + me);
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_LOGOR, x, &v, nullptr),
                     "op UPC_LOGOR is not in the operation set of this domain (UPC_ADD | UPC_GET | UPC_CSWAP), and is "
                     "not an atomic operation at all");
    float fv = 1;
    SPMD_CHECK_ERROR(upc_atomic_relaxed(f, nullptr, UPC_XOR, x, &fv, nullptr),
                     "op UPC_XOR is not in the operation set of this domain (UPC_ADD), and is not defined for type UPC_FLOAT");
    SPMD_CHECK_ERROR(upc_atomic_relaxed(nullptr, &out, UPC_ADD, x, &v, nullptr), "upc_atomic_relaxed: domain is a null pointer" + me);
    SPMD_CHECK_ERROR(upc_atomic_strict(d, &out, UPC_ADD, nullptr, &v, nullptr),
                     "upc_atomic_strict: target is a null pointer-to-shared" + me);
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_ADD, upc::sptr<void>(upc::shared_address{x.addrfield() + 2, 1, 0}), &v, nullptr),
                     "target (thread 1, offset " + std::to_string(x.addrfield() + 2) +
                         ") is not aligned to 4 bytes, as a UPC_INT must be for atomic access");
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_ADD, upc::sptr<void>(upc::shared_address{64, 7, 0}), &v, nullptr),
                     "target (thread 7, offset 64) is not inside the shared heap of a thread (THREADS is 2)");
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, nullptr, UPC_GET, x, nullptr, nullptr),
                     "upc_atomic_relaxed: fetch_ptr is a null pointer, but UPC_GET needs somewhere to store the value" + me);
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_ADD, x, nullptr, nullptr),
                     "upc_atomic_relaxed: operand1 is a null pointer, but UPC_ADD needs it" + me);
    SPMD_CHECK_ERROR(upc_atomic_strict(d, &out, UPC_CSWAP, x, &v, nullptr),
                     "upc_atomic_strict: operand2 is a null pointer, but UPC_CSWAP needs it (the new value)" + me);
    int on_stack = 0;
    SPMD_CHECK_ERROR(upc_atomic_relaxed(reinterpret_cast<upc_atomicdomain_t*>(&on_stack), &out, UPC_ADD, x, &v, nullptr),
                     "is not in the shared heap (not made by upc_all_atomicdomain_alloc)");
    SPMD_CHECK_ERROR(upc_atomic_relaxed(static_cast<upc_atomicdomain_t*>(upc_cast(x)), &out, UPC_ADD, x, &v, nullptr),
                     "is not an atomic domain made by upc_all_atomicdomain_alloc");
    // Nothing above changed the target.
    upc_barrier;
    SPMD_CHECK_EQ(static_cast<int>(x[MYTHREAD]), 0);
    upc_barrier;
    // Operands an op does not use are never read (these would crash).
    const void* bogus = reinterpret_cast<const void*>(std::uintptr_t{8});
    int got = -1;
    upc_atomic_relaxed(d, &got, UPC_GET, x + MYTHREAD, bogus, bogus);
    SPMD_CHECK_EQ(got, 0);
    upc_atomic_strict(d, nullptr, UPC_ADD, x + MYTHREAD, &v, bogus);
    SPMD_CHECK_EQ(static_cast<int>(x[MYTHREAD]), 1);
    upc_barrier;
    upc_all_atomicdomain_free(f);
    upc_all_atomicdomain_free(d);
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_ADD, x, &v, nullptr),
                     "upc_atomic_relaxed: domain 0x");
    SPMD_CHECK_ERROR(upc_atomic_relaxed(d, &out, UPC_ADD, x, &v, nullptr), "was already freed by upc_all_atomicdomain_free" + me);
    upc_all_atomicdomain_free(nullptr);  // no effect
    upc_all_free(x);
  });
}

TEST_CASE("atomics: a failing call stops the run and reports function and thread, on both backends") {
  for (upc::backend_kind b : spmd::backends) {
    INFO("backend ", std::string(spmd::name(b)));
    if (!spmd::skip_run(3, b)) {
      upc::run_result r = spmd::run(spmd::options(3, b), [] {
        upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_LONG, UPC_ADD, 0);
        upc::sptr<long> x(upc_all_alloc(THREADS, sizeof(long)));
        long one = 1;
        upc_atomic_relaxed(d, nullptr, UPC_ADD, x, &one, nullptr);
        if (MYTHREAD == 1) upc_atomic_strict(d, nullptr, UPC_SUB, x, &one, nullptr);
        upc_barrier;
      });
      CHECK(!r.ok());
      CHECK(r.failed_thread == 1);
      CHECK(contains(r.error, "upc_atomic_strict: op UPC_SUB is not in the operation set of this domain (UPC_ADD) (thread 1)"));

      r = spmd::run(spmd::options(3, b), [] {
        upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_INT, MYTHREAD == 2 ? UPC_ADD | UPC_SUB : UPC_ADD, 0);
        upc_barrier;
        upc_all_atomicdomain_free(d);
      });
      CHECK(!r.ok());
      CHECK(r.failed_thread == 2);
      CHECK(contains(r.error, "upc_all_atomicdomain_alloc: argument ops must be single-valued (the same on every thread): "
                              "this thread passed UPC_ADD | UPC_SUB, thread 0 passed UPC_ADD (thread 2)"));
    }
    if (spmd::skip_run(2, b)) continue;
    const upc::run_result r = spmd::run(spmd::options(2, b), [] {
      upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_ADD, MYTHREAD == 1 ? UPC_ATOMIC_HINT_LATENCY : 0);
      upc_all_atomicdomain_free(d);
    });
    CHECK(!r.ok());
    CHECK(contains(r.error, "argument hints must be single-valued"));
    CHECK(contains(r.error, "(thread 1)"));
  }
}

namespace {
constexpr int K = 1000;  // operations per thread per contended counter

// x^n mod 2^64.
std::uint64_t wrapped_power(std::uint64_t x, long n) {
  std::uint64_t r = 1;
  while (n-- > 0) r *= x;
  return r;
}

void contention_body() {
  const int T = THREADS, me = MYTHREAD;
  const long total = static_cast<long>(T) * K;
  upc_atomicdomain_t* i64 = upc_all_atomicdomain_alloc(UPC_INT64, UPC_ADD | UPC_INC | UPC_DEC | UPC_GET | UPC_CSWAP | UPC_MIN | UPC_MAX, 0);
  upc_atomicdomain_t* u64 = upc_all_atomicdomain_alloc(UPC_UINT64, UPC_OR | UPC_MULT | UPC_GET, 0);
  upc_atomicdomain_t* dbl = upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_ADD | UPC_SUB, 0);
  upc_atomicdomain_t* flt = upc_all_atomicdomain_alloc(UPC_FLOAT, UPC_ADD | UPC_MAX, 0);
  upc_atomicdomain_t* pts = upc_all_atomicdomain_alloc(UPC_PTS, UPC_GET | UPC_CSWAP, 0);
  upc_atomicdomain_t* i32 = upc_all_atomicdomain_alloc(UPC_INT32, UPC_XOR | UPC_GET, 0);

  // Counters spread over threads: index i lives on thread i % T.
  upc::sptr<std::int64_t> c64(upc_all_alloc(8, 8));  // [0] fetch-add, [1] inc/dec, [2] cswap, [3] min, [4] max
  const std::size_t words = (static_cast<std::size_t>(total) + 63) / 64;
  upc::sptr<std::uint64_t> seen(upc_all_alloc(words, 8));  // a bit per fetched value
  upc::sptr<std::uint64_t> product(upc_all_alloc(1, 8));
  upc::sptr<double> dsum(upc_all_alloc(1, 8));
  upc::sptr<float> fsum(upc_all_alloc(2, 4));
  upc::sptr<upc::sptr<int>> cursor(upc_all_alloc(1, sizeof(upc::sptr<int>)));
  upc::sptr<int> base(upc_all_alloc(T, sizeof(int)));
  upc::sptr<std::int32_t> parity(upc_all_alloc(1, 4));
  if (me == 0) {
    for (int i = 0; i < 5; ++i) c64[i] = 0;
    c64[3] = INT64_MAX;
    c64[4] = INT64_MIN;
    for (std::size_t w = 0; w < words; ++w) seen[w] = 0;
    product[0] = 1;
    dsum[0] = 0.0;
    fsum[0] = 0.0f;
    fsum[1] = -1.0f;
    cursor[0] = base;
    parity[0] = 0;
  }
  upc_barrier;

  const std::int64_t one = 1;
  const std::uint64_t three = 3;
  const double half = 0.5;
  const float onef = 1.0f;
  for (int k = 0; k < K; ++k) {
    // 1. fetch-and-add: every fetched value is distinct, marked in a shared bitmap by OR.
    std::int64_t ticket = -1;
    if (k % 2) upc_atomic_relaxed(i64, &ticket, UPC_ADD, c64 + 0, &one, nullptr);
    else upc_atomic_strict(i64, &ticket, UPC_ADD, c64 + 0, &one, nullptr);
    SPMD_CHECK(ticket >= 0 && ticket < total);
    const std::uint64_t bit = std::uint64_t{1} << (ticket % 64);
    std::uint64_t before = 0;
    upc_atomic_relaxed(u64, &before, UPC_OR, seen + ticket / 64, &bit, nullptr);
    SPMD_CHECK((before & bit) == 0);  // nobody else got this ticket
    // 2. INC twice, DEC once.
    upc_atomic_relaxed(i64, nullptr, UPC_INC, c64 + 1, nullptr, nullptr);
    upc_atomic_strict(i64, nullptr, UPC_INC, c64 + 1, nullptr, nullptr);
    upc_atomic_relaxed(i64, nullptr, UPC_DEC, c64 + 1, nullptr, nullptr);
    // 3. An increment built from GET + CSWAP, retried until it wins.
    for (std::int64_t seen_value = -1, expect = 0;;) {
      upc_atomic_relaxed(i64, &expect, UPC_GET, c64 + 2, nullptr, nullptr);
      const std::int64_t next = expect + 1;
      upc_atomic_strict(i64, &seen_value, UPC_CSWAP, c64 + 2, &expect, &next);
      if (seen_value == expect) break;
    }
    // 4. MIN and MAX over every thread's values me*K + k.
    const std::int64_t v = static_cast<std::int64_t>(me) * K + k;
    upc_atomic_relaxed(i64, nullptr, UPC_MIN, c64 + 3, &v, nullptr);
    upc_atomic_relaxed(i64, nullptr, UPC_MAX, c64 + 4, &v, nullptr);
    // 5. MULT by 3 (commutative, so the order of the CAS loops does not matter).
    upc_atomic_relaxed(u64, nullptr, UPC_MULT, product, &three, nullptr);
    // 6. Floating-point sums, exact for these sizes.
    upc_atomic_relaxed(dbl, nullptr, UPC_ADD, dsum, &half, nullptr);
    upc_atomic_strict(flt, nullptr, UPC_ADD, fsum, &onef, nullptr);
    const float fv = static_cast<float>(v);
    upc_atomic_relaxed(flt, nullptr, UPC_MAX, fsum + 1, &fv, nullptr);
    // 7. A pointer-to-shared advanced one element at a time by CSWAP.
    for (upc::sptr<int> cur, got;;) {
      upc_atomic_relaxed(pts, &cur, UPC_GET, cursor, nullptr, nullptr);
      const upc::sptr<int> next = cur + 1;
      upc_atomic_strict(pts, &got, UPC_CSWAP, cursor, &cur, &next);
      if (got == cur) break;
    }
    // 8. XOR of 1 flips the parity word T*K times.
    const std::int32_t flip = 1;
    upc_atomic_relaxed(i32, nullptr, UPC_XOR, parity, &flip, nullptr);
  }
  upc_barrier;
  if (me == T - 1) {  // a thread without affinity to most counters checks
    SPMD_CHECK_EQ(static_cast<std::int64_t>(c64[0]), total);
    for (long i = 0; i < total; ++i) SPMD_CHECK((seen[i / 64] >> (i % 64)) & 1);
    SPMD_CHECK_EQ(static_cast<std::int64_t>(c64[1]), total);
    SPMD_CHECK_EQ(static_cast<std::int64_t>(c64[2]), total);
    SPMD_CHECK_EQ(static_cast<std::int64_t>(c64[3]), 0);
    SPMD_CHECK_EQ(static_cast<std::int64_t>(c64[4]), total - 1);
    SPMD_CHECK_EQ(static_cast<std::uint64_t>(product[0]), wrapped_power(3, total));
    SPMD_CHECK_EQ(static_cast<double>(dsum[0]), 0.5 * static_cast<double>(total));
    SPMD_CHECK_EQ(static_cast<float>(fsum[0]), static_cast<float>(total));
    SPMD_CHECK_EQ(static_cast<float>(fsum[1]), static_cast<float>(total - 1));
    SPMD_CHECK(upc::sptr<int>(cursor[0]) == base + total);
    SPMD_CHECK_EQ(static_cast<std::int32_t>(parity[0]), static_cast<std::int32_t>(total % 2));
  }
  upc_barrier;
  for (upc::sptr<void> p : {upc::sptr<void>(c64), upc::sptr<void>(seen), upc::sptr<void>(product), upc::sptr<void>(dsum),
                            upc::sptr<void>(fsum), upc::sptr<void>(cursor), upc::sptr<void>(base), upc::sptr<void>(parity)})
    upc_all_free(p);
  for (upc_atomicdomain_t* d : {i64, u64, dbl, flt, pts, i32}) upc_all_atomicdomain_free(d);
}
}  // namespace

TEST_CASE("atomics under contention: every thread's operations count exactly, on both backends") {
  spmd::run_everywhere(contention_body, {1, 2, 3, 4, 5, 8, 16});
}

TEST_CASE("atomics: a strict SET publishes relaxed data to a thread spinning on a strict GET") {
  spmd::run_everywhere(
      [] {
        upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_INT, UPC_GET | UPC_SET, 0);
        upc::sptr<int> flag(upc_all_alloc(THREADS, sizeof(int)));
        upc::sptr<long> data(upc_all_alloc(THREADS, sizeof(long)));
        flag[MYTHREAD] = 0;
        upc_barrier;
        // A ring: each thread hands a value to its right neighbour without a barrier.
        const int right = (MYTHREAD + 1) % THREADS;
        data[right] = 1000L + MYTHREAD;
        const int go = 1;
        upc_atomic_strict(d, nullptr, UPC_SET, flag + right, &go, nullptr);
        for (int f = 0; f == 0;) upc_atomic_strict(d, &f, UPC_GET, flag + MYTHREAD, nullptr, nullptr);
        SPMD_CHECK_EQ(static_cast<long>(data[MYTHREAD]), 1000L + (MYTHREAD + THREADS - 1) % THREADS);
        upc_barrier;
        upc_all_free(data);
        upc_all_free(flag);
        upc_all_atomicdomain_free(d);
      },
      {2, 5});
}

TEST_CASE("atomics: domains can be allocated and freed many times without exhausting the heap") {
  spmd::run_ok(4, upc::backend_kind::processes, [] {
    upc_atomicdomain_t* first = upc_all_atomicdomain_alloc(UPC_ULONG, UPC_ADD, 0);
    upc_all_atomicdomain_free(first);
    for (int i = 0; i < 200; ++i) {
      upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_ULONG, UPC_ADD | UPC_GET, 0);
      upc::sptr<unsigned long> x(upc_all_alloc(THREADS, sizeof(unsigned long)));
      x[MYTHREAD] = 0;
      upc_barrier;
      const unsigned long inc = static_cast<unsigned long>(i);
      upc_atomic_relaxed(d, nullptr, UPC_ADD, x + 0, &inc, nullptr);
      upc_barrier;
      unsigned long got = 0;
      upc_atomic_relaxed(d, &got, UPC_GET, x + 0, nullptr, nullptr);
      SPMD_CHECK_EQ(got, static_cast<unsigned long>(i) * THREADS);
      upc_barrier;
      upc_all_free(x);
      upc_all_atomicdomain_free(d);
    }
  });
}
