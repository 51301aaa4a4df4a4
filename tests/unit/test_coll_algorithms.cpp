// The tree, ring and recursive-doubling collective algorithms, each forced by name
// (upc::coll::force_algorithm), on both backends at THREADS {1,2,3,4,5,7,8,16}:
// every sync flag combination against simple expected patterns, back-to-back
// calls with IN_NOSYNC|OUT_NOSYNC (which reuse scratch and forwarding buffers
// while slower ranks may still read them), and reductions on floating-point data
// where the combination order matters, compared bit for bit with the order the
// determinism contract fixes and with the flat algorithms' results.
// (The full registry × reference-model matrix is tests/conformance/.)
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "../../lib/coll/kinds.hpp"
#include "../support/spmd.hpp"
#include "upc/coll.hpp"
#include "upc/layout.hpp"
#include "upc_castable.h"
#include "upc_collective.h"

namespace {

using upc::shared_address;

// Forces one algorithm per collective for the runs in its scope.
struct forced {
  forced(std::initializer_list<std::pair<const char*, const char*>> choices) {
    for (const auto& [collective, algorithm] : choices) upc::coll::force_algorithm(collective, algorithm);
  }
  ~forced() { upc::coll::reset_algorithms(); }
  forced(const forced&) = delete;
  forced& operator=(const forced&) = delete;
};

constexpr upc_flag_t in_flags[] = {UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC};
constexpr upc_flag_t out_flags[] = {UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC};
constexpr upc_flag_t nosync = UPC_IN_NOSYNC | UPC_OUT_NOSYNC;

constexpr std::size_t max_bytes = 700;  // nbytes per block
constexpr std::size_t max_elems = 300;  // reduction elements

unsigned char pattern(int salt, int from, std::size_t i) {
  return static_cast<unsigned char>((salt * 97 + from * 31 + static_cast<int>(i) * 7 + 3) & 0xff);
}

// The machine address of `offset` bytes into thread `thr`'s part of a
// upc_all_alloc'd area (every thread's part at the same offset).
char* at(upc::sptr<void> area, int thr, std::size_t offset = 0) {
  shared_address a = area.address();
  a.thread = static_cast<std::uint32_t>(thr);
  a.offset += offset;
  a.phase = 0;
  return static_cast<char*>(upc_cast(upc::sptr<void>(a)));
}
upc::sptr<void> on(upc::sptr<void> area, int thr, std::size_t offset = 0) {
  shared_address a = area.address();
  a.thread = static_cast<std::uint32_t>(thr);
  a.offset += offset;
  a.phase = 0;
  return upc::sptr<void>(a);
}

[[noreturn]] void mismatch(const std::string& what, std::size_t i, int got, int want) {
  throw spmd::check_failed(what + ": byte " + std::to_string(i) + " is " + std::to_string(got) + ", expected " +
                           std::to_string(want) + " (thread " + std::to_string(MYTHREAD) + " of " +
                           std::to_string(THREADS) + ")");
}
void expect_bytes(const std::string& what, const char* got, int salt, int from, std::size_t first, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (static_cast<unsigned char>(got[i]) != pattern(salt, from, first + i))
      mismatch(what, i, static_cast<unsigned char>(got[i]), pattern(salt, from, first + i));
}

void check_ran(const char* collective, const std::string& algorithm) {
  if (upc::coll::last_algorithm() != algorithm)
    throw spmd::check_failed(std::string(collective) + " ran '" + upc::coll::last_algorithm() + "', not the forced '" +
                             algorithm + "'");
}

// Buffers of one data-movement call; every thread's part is `bytes` long.
struct movement_areas {
  upc::sptr<void> src, dst;
};

volatile unsigned jitter_sink;
// A little per-thread jitter so that ranks reach the flags in varied orders.
void jitter(int salt) {
  const unsigned spins = static_cast<unsigned>((MYTHREAD * 7919 + salt * 104729) % 5) * 400;
  for (unsigned i = 0; i < spins; ++i) jitter_sink = i;
}

// ---- data movement -------------------------------------------------------------

enum class kind { broadcast, scatter, gather, gather_all };

// Fills the sources of one call (each thread its own part), for a later call.
void fill(kind k, const movement_areas& a, std::size_t n, int root, int salt) {
  const int T = THREADS, me = MYTHREAD;
  switch (k) {
    case kind::broadcast:
      if (me == root)
        for (std::size_t i = 0; i < n; ++i) at(a.src, root)[i] = static_cast<char>(pattern(salt, root, i));
      break;
    case kind::scatter:
      if (me == root)
        for (std::size_t i = 0; i < n * std::size_t(T); ++i)
          at(a.src, root)[i] = static_cast<char>(pattern(salt, 0, i));
      break;
    case kind::gather:
    case kind::gather_all:
      for (std::size_t i = 0; i < n; ++i) at(a.src, me)[i] = static_cast<char>(pattern(salt, me, i));
      break;
  }
  // Poison what this thread will check.
  const std::size_t mine = k == kind::gather ? (me == root ? n * std::size_t(T) : 0)
                                             : k == kind::gather_all ? n * std::size_t(T) : n;
  std::memset(at(a.dst, me), 0xEE, mine);
}

void call(kind k, const movement_areas& a, std::size_t n, int root, upc_flag_t flags) {
  switch (k) {
    case kind::broadcast: upc_all_broadcast(on(a.dst, 0), on(a.src, root), n, flags); break;
    case kind::scatter: upc_all_scatter(on(a.dst, 0), on(a.src, root), n, flags); break;
    case kind::gather: upc_all_gather(on(a.dst, root), on(a.src, 0), n, flags); break;
    case kind::gather_all: upc_all_gather_all(on(a.dst, 0), on(a.src, 0), n, flags); break;
  }
}

void verify(kind k, const movement_areas& a, std::size_t n, int root, int salt, const std::string& what) {
  const int T = THREADS, me = MYTHREAD;
  switch (k) {
    case kind::broadcast: expect_bytes(what, at(a.dst, me), salt, root, 0, n); break;
    case kind::scatter: expect_bytes(what, at(a.dst, me), salt, 0, std::size_t(me) * n, n); break;
    case kind::gather:
    case kind::gather_all:  // gather: the root's dst; gather_all: every thread's row
      if (k == kind::gather && me != root) break;
      for (int r = 0; r < T; ++r)
        expect_bytes(what + " block " + std::to_string(r), at(a.dst, me) + std::size_t(r) * n, salt, r, 0, n);
      break;
  }
}

const char* name_of(kind k) {
  using C = upc::coll::collective;
  switch (k) {
    case kind::broadcast: return upc::coll::name_of(C::broadcast);
    case kind::scatter: return upc::coll::name_of(C::scatter);
    case kind::gather: return upc::coll::name_of(C::gather);
    case kind::gather_all: return upc::coll::name_of(C::gather_all);
  }
  return "?";
}

// ---- reductions (double; the order of combination matters) ------------------------

// Values of very different magnitudes and both signs: any change in the order or
// grouping of the additions changes the rounded result.
double value(std::uint64_t k, int salt) {
  const double m = 1.0 + static_cast<double>((k * 2654435761u + std::uint64_t(salt)) % 1000) / 997.0;
  const int e = static_cast<int>((k * 37 + std::uint64_t(salt) * 11) % 90) - 45;
  return (k % 3 == 1 ? -m : m) * std::ldexp(1.0, e);
}
double noncomm(double a, double b) { return a * 0.75 - b * 1.25 + 0.5; }

struct reduction_case {
  std::size_t nelems, blk;
  int src_thread;
  std::uint32_t src_phase;
  upc_op_t op;
};

shared_address element(shared_address base, std::size_t k, std::size_t blk) {
  if (blk == 0) base.phase = 0;
  return upc::layout::advance(base, static_cast<std::ptrdiff_t>(k), sizeof(double), blk, THREADS);
}
double* element_ptr(shared_address base, std::size_t k, std::size_t blk) {
  return static_cast<double*>(upc_cast(upc::sptr<void>(element(base, k, blk))));
}
double combine(upc_op_t op, double a, double b) { return op == UPC_ADD ? a + b : noncomm(a, b); }

// The expression of the determinism contract (docs/collectives.md), sequentially.
double expected_reduce(const reduction_case& c, shared_address base, int salt) {
  const int T = THREADS;
  double result = 0;
  bool have = false;
  auto take = [&](double x) {
    result = have ? combine(c.op, result, x) : x;
    have = true;
  };
  if (c.op != UPC_NONCOMM_FUNC || c.blk == 0) {
    for (int t = 0; t < T; ++t) {
      double p = 0;
      bool any = false;
      for (std::size_t k = 0; k < c.nelems; ++k)
        if (static_cast<int>(element(base, k, c.blk).thread) == t) {
          p = any ? combine(c.op, p, value(k, salt)) : value(k, salt);
          any = true;
        }
      if (any) take(p);
    }
    return result;
  }
  double block = 0;
  for (std::size_t k = 0; k < c.nelems; ++k) {
    if (k > 0 && element(base, k, c.blk).phase == 0) take(block);
    block = (k == 0 || element(base, k, c.blk).phase == 0) ? value(k, salt) : combine(c.op, block, value(k, salt));
  }
  take(block);
  return result;
}

std::vector<double> expected_prefix(const reduction_case& c, shared_address base, int salt) {
  std::vector<double> out(c.nelems);
  double before = 0, block = 0;
  bool have_before = false;
  for (std::size_t k = 0; k < c.nelems; ++k) {
    const bool starts = k == 0 || (c.blk != 0 && element(base, k, c.blk).phase == 0);
    if (starts && k > 0) {
      before = have_before ? combine(c.op, before, block) : block;
      have_before = true;
    }
    block = starts ? value(k, salt) : combine(c.op, block, value(k, salt));
    out[k] = have_before ? combine(c.op, before, block) : block;
  }
  return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

const reduction_case reduction_cases[] = {
    {1, 0, 0, 0, UPC_ADD},          {37, 0, 1, 0, UPC_ADD},         {max_elems, 1, 0, 0, UPC_ADD},
    {97, 4, 2, 3, UPC_ADD},         {max_elems, 16, 1, 5, UPC_ADD}, {41, 3, 0, 2, UPC_NONCOMM_FUNC},
    {max_elems, 7, 3, 0, UPC_NONCOMM_FUNC}, {23, 0, 2, 0, UPC_NONCOMM_FUNC},
};

// src, dst (prefix) and the result slot (reduce) of the reduction tests.
struct reduction_areas {
  upc::sptr<void> src, dst, result;
};

shared_address src_base(const reduction_areas& a, const reduction_case& c) {
  shared_address s = a.src.address();
  s.thread = static_cast<std::uint32_t>(c.src_thread % THREADS);
  s.phase = c.blk ? c.src_phase % static_cast<std::uint32_t>(c.blk) : 0;
  s.offset += s.phase * sizeof(double);
  return s;
}
// dst of prefix: the same layout as src, or (odd salts) shifted one thread on.
shared_address dst_base(const reduction_areas& a, const reduction_case& c, int salt) {
  shared_address d = src_base(a, c);
  d.offset = d.offset - a.src.address().offset + a.dst.address().offset;
  if (salt % 2 && c.blk != 0) {
    d.thread = (d.thread + 1) % static_cast<std::uint32_t>(THREADS);
    if (d.thread == 0) d.offset += c.blk * sizeof(double);
  }
  return d;
}

void fill_reduction(const reduction_areas& a, const reduction_case& c, int salt) {
  const shared_address base = src_base(a, c);
  for (std::size_t k = 0; k < c.nelems; ++k)
    if (static_cast<int>(element(base, k, c.blk).thread) == MYTHREAD) *element_ptr(base, k, c.blk) = value(k, salt);
}

void call_reduce(const reduction_areas& a, const reduction_case& c, int root, upc_flag_t flags) {
  upc_all_reduceD(on(a.result, root), upc::sptr<void>(src_base(a, c)), c.op, c.nelems, c.blk,
                  c.op == UPC_NONCOMM_FUNC ? noncomm : nullptr, flags);
}
void call_prefix(const reduction_areas& a, const reduction_case& c, int salt, upc_flag_t flags) {
  upc_all_prefix_reduceD(upc::sptr<void>(dst_base(a, c, salt)), upc::sptr<void>(src_base(a, c)), c.op, c.nelems,
                         c.blk, c.op == UPC_NONCOMM_FUNC ? noncomm : nullptr, flags);
}

void verify_reduce(const reduction_areas& a, const reduction_case& c, int root, int salt, const std::string& what) {
  if (MYTHREAD != root) return;
  const double got = *reinterpret_cast<const double*>(at(a.result, root));
  const double want = expected_reduce(c, src_base(a, c), salt);
  if (!same_bits(got, want))
    throw spmd::check_failed(what + ": reduce gave " + std::to_string(got) + ", expected " + std::to_string(want) +
                             " (nelems " + std::to_string(c.nelems) + ", blk " + std::to_string(c.blk) + ")");
}
void verify_prefix(const reduction_areas& a, const reduction_case& c, int salt, const std::string& what) {
  const std::vector<double> want = expected_prefix(c, src_base(a, c), salt);
  const shared_address d = dst_base(a, c, salt);
  for (std::size_t k = 0; k < c.nelems; ++k) {
    if (static_cast<int>(element(d, k, c.blk).thread) != MYTHREAD) continue;
    const double got = *element_ptr(d, k, c.blk);
    if (!same_bits(got, want[k]))
      throw spmd::check_failed(what + ": prefix element " + std::to_string(k) + " is " + std::to_string(got) +
                               ", expected " + std::to_string(want[k]) + " (nelems " + std::to_string(c.nelems) +
                               ", blk " + std::to_string(c.blk) + ", thread " + std::to_string(MYTHREAD) + ")");
  }
}

// ---- the SPMD body -----------------------------------------------------------------

struct algorithms_under_test {
  const char* broadcast = "binomial";
  const char* scatter = "binomial";
  const char* gather = "binomial";
  const char* gather_all = "ring";
  const char* reduce = "binomial";
  const char* prefix_reduce = "binomial";
};

const char* algorithm_for(const algorithms_under_test& u, kind k) {
  switch (k) {
    case kind::broadcast: return u.broadcast;
    case kind::scatter: return u.scatter;
    case kind::gather: return u.gather;
    case kind::gather_all: return u.gather_all;
  }
  return "?";
}

constexpr kind movements[] = {kind::broadcast, kind::scatter, kind::gather, kind::gather_all};

void body(const algorithms_under_test& u) {
  const int T = THREADS;
  const std::size_t area = max_bytes * std::size_t(T);
  const std::size_t rarea = (max_elems / std::size_t(T) + 32) * sizeof(double) * 2;
  // One pair of movement areas per call of a back-to-back sequence.
  constexpr int sequence = 8;
  std::vector<movement_areas> areas;
  for (int i = 0; i < sequence; ++i) areas.push_back({upc_all_alloc(T, area), upc_all_alloc(T, area)});
  std::vector<reduction_areas> rareas;
  for (int i = 0; i < sequence; ++i)
    rareas.push_back({upc_all_alloc(T, rarea), upc_all_alloc(T, rarea), upc_all_alloc(T, sizeof(double))});

  // 1. Every sync flag combination, a few sizes and roots, one call at a time.
  int salt = 0;
  for (upc_flag_t in : in_flags)
    for (upc_flag_t out : out_flags)
      for (std::size_t n : {std::size_t(1), std::size_t(67), max_bytes})
        for (int root : {0, T - 1, T / 2}) {
          for (kind k : movements) {
            ++salt;
            const std::string what = std::string(name_of(k)) + " n=" + std::to_string(n) +
                                     " root=" + std::to_string(root) + " flags=" + std::to_string(in | out);
            fill(k, areas[0], n, root, salt);
            upc_barrier;
            call(k, areas[0], n, root, in | out);
            check_ran(name_of(k), algorithm_for(u, k));
            upc_barrier;
            verify(k, areas[0], n, root, salt, what);
          }
          if (n != 67) continue;  // reductions: every flag combination, every case, two roots
          for (const reduction_case& c : reduction_cases) {
            ++salt;
            const std::string what =
                "reduce/prefix flags=" + std::to_string(in | out) + " root=" + std::to_string(root);
            fill_reduction(rareas[0], c, salt);
            upc_barrier;
            call_reduce(rareas[0], c, root, in | out);
            check_ran("reduce", u.reduce);
            call_prefix(rareas[0], c, salt, in | out);
            check_ran("prefix_reduce", u.prefix_reduce);
            upc_barrier;
            verify_reduce(rareas[0], c, root, salt, what);
            verify_prefix(rareas[0], c, salt, what);
          }
        }

  // 2. Back to back with IN_NOSYNC|OUT_NOSYNC: a sequence of calls with no
  //    synchronisation between them (each into its own destination), ranks
  //    jittered, checked once at the end. Scratch and forwarding buffers are
  //    reused from one call to the next while slower ranks may still read them.
  for (int round = 0; round < 3; ++round)
    for (kind k : movements) {
      const std::size_t n = round == 0 ? 1 : round == 1 ? 67 : max_bytes;
      for (int i = 0; i < sequence; ++i) fill(k, areas[i], n, (i + round) % T, 1000 + 10 * i + round);
      upc_barrier;
      for (int i = 0; i < sequence; ++i) {
        jitter(i + round);
        call(k, areas[i], n, (i + round) % T, nosync);
      }
      upc_barrier;
      for (int i = 0; i < sequence; ++i)
        verify(k, areas[i], n, (i + round) % T, 1000 + 10 * i + round,
               std::string("back-to-back ") + name_of(k) + " call " + std::to_string(i) + " n=" + std::to_string(n));
    }
  for (const reduction_case& c : reduction_cases) {
    for (int i = 0; i < sequence; ++i) fill_reduction(rareas[i], c, 2000 + i);
    upc_barrier;
    for (int i = 0; i < sequence; ++i) {
      jitter(i);
      call_reduce(rareas[i], c, i % T, nosync);
      call_prefix(rareas[i], c, 2000 + i, nosync);
    }
    upc_barrier;
    for (int i = 0; i < sequence; ++i) {
      verify_reduce(rareas[i], c, i % T, 2000 + i, "back-to-back reduce call " + std::to_string(i));
      verify_prefix(rareas[i], c, 2000 + i, "back-to-back prefix_reduce call " + std::to_string(i));
    }
  }
  upc_barrier;
}

void run_forced(const algorithms_under_test& u) {
  forced f{{"broadcast", u.broadcast}, {"scatter", u.scatter},   {"gather", u.gather},
           {"gather_all", u.gather_all}, {"reduce", u.reduce}, {"prefix_reduce", u.prefix_reduce}};
  for (upc::backend_kind b : spmd::backends)
    for (int t : spmd::thread_counts) spmd::run_ok(t, b, [u] { body(u); });
}

}  // namespace

TEST_CASE("coll algorithms: binomial trees and the ring, every sync flag, back to back") {
  run_forced(algorithms_under_test{});
}

TEST_CASE("coll algorithms: gather_all recursive doubling, every THREADS count") {
  algorithms_under_test u;
  u.gather_all = "recursive_doubling";
  run_forced(u);
}

// The data are chosen so that order matters: folding all elements left to right
// in index order gives another result than the contract's order, for some case.
TEST_CASE("coll algorithms: the reduction test data are order-sensitive") {
  spmd::run_ok(4, upc::backend_kind::threads, [] {
    const reduction_areas a{upc_all_alloc(THREADS, 4096), upc_all_alloc(THREADS, 4096), upc_all_alloc(THREADS, 8)};
    bool differs = false;
    for (const reduction_case& c : reduction_cases) {
      if (c.op != UPC_ADD) continue;
      double naive = 0;
      for (std::size_t k = 0; k < c.nelems; ++k) naive = k ? naive + value(k, 7) : value(k, 7);
      if (MYTHREAD == 0 && !same_bits(naive, expected_reduce(c, src_base(a, c), 7))) differs = true;
    }
    if (MYTHREAD == 0) SPMD_CHECK(differs);  // checked in the run: under mpi only thread 0's rank sees thread 0
  });
}

// Every reduction case's result (and, with prefix, every prefix element) as
// thread 0 reads it, appended to `out`: what the bit-for-bit tests compare.
void reduce_results(std::vector<double>& out, const char* algo, bool with_prefix) {
  const std::size_t rarea = (max_elems / std::size_t(THREADS) + 32) * sizeof(double) * 2;
  const reduction_areas a{upc_all_alloc(THREADS, rarea), upc_all_alloc(THREADS, rarea), upc_all_alloc(THREADS, sizeof(double))};
  int salt = 0;
  for (const reduction_case& c : reduction_cases) {
    ++salt;
    fill_reduction(a, c, salt);
    upc_barrier;
    call_reduce(a, c, salt % THREADS, 0);
    check_ran("reduce", algo);
    if (with_prefix) call_prefix(a, c, salt, 0);
    upc_barrier;
    if (MYTHREAD == 0) {  // the result may be on another node: not castable there
      double v;
      upc_memget(&v, on(a.result, salt % THREADS), sizeof v);
      out.push_back(v);
      if (with_prefix) {
        const shared_address d = dst_base(a, c, salt);
        for (std::size_t k = 0; k < c.nelems; ++k) out.push_back(*element_ptr(d, k, c.blk));
      }
    }
    upc_barrier;
  }
}

// Bit for bit the same as the flat algorithms (threads backend: the results of
// both runs stay in this process).
TEST_CASE("coll algorithms: reduce and prefix_reduce binomial equal flat bit for bit") {
  for (int T : {3, 5, 8, 16}) {
    std::vector<double> results[2];
    for (int which = 0; which < 2; ++which) {
      const char* algo = which == 0 ? "flat" : "binomial";
      forced f{{"reduce", algo}, {"prefix_reduce", algo}};
      std::vector<double>& out = results[which];
      spmd::run_ok(T, upc::backend_kind::threads, [&out, algo] { reduce_results(out, algo, true); });
    }
    INFO("THREADS=", T);
    REQUIRE(results[0].size() == results[1].size());
    CHECK(std::memcmp(results[0].data(), results[1].data(), results[0].size() * sizeof(double)) == 0);
  }
}

// Regression (found by collbench): a failed scratch grow used to leave the team
// pointing at the freed chunk, so the next grow freed it twice on thread 0 only
// and the threads fell out of step (a hang or a bogus "returned from main").
TEST_CASE("a collective whose scratch cannot grow fails on every thread alike and the team stays usable") {
  upc::coll::force_algorithm("scatter", "binomial");
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(4, b)) continue;
    upc::launch_options o = spmd::options(4, b);
    o.heap_per_thread = 1300u << 10;  // src (1 MiB) and dst (256 KiB) fit, the 256 KiB scratch does not
    upc::run_result r = upc::run(o, [] {
      const std::size_t big = 256u << 10, small = 64;
      upc::sptr<void> src = upc_all_alloc(1, big * THREADS), dst = upc_all_alloc(THREADS, big);
      for (int attempt = 0; attempt < 2; ++attempt) {  // twice: the second grow must not double-free
        std::string why;
        try {
          upc_all_scatter(dst, src, big, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        } catch (const upc::error& e) {
          why = e.what();
        }
        SPMD_CHECK(spmd::contains(why, "out of shared memory"));
      }
      if (MYTHREAD == 0)
        for (std::size_t i = 0; i < small * THREADS; ++i) upc::sptr<char>(src).cast<char, upc::indefinite>()[i] = char(i);
      upc_all_scatter(dst, src, small, 0);  // a small one still works
      char got[64];
      upc_memget(got, upc::sptr<char, 64>(dst) + MYTHREAD * 64, small);
      for (std::size_t i = 0; i < small; ++i) SPMD_CHECK_EQ(int(got[i]), int(char(MYTHREAD * small + i)));
    });
    INFO(spmd::name(b), " ", r.error);
    CHECK(r.ok());
  }
  upc::coll::reset_algorithms();
}

TEST_CASE("the automatic policy depends on size and THREADS as documented") {
  struct expect { int threads; std::size_t nbytes; const char* exchange; const char* gather_all; const char* broadcast; };
  for (const expect& e : {expect{2, 64, "pull", "pull", "pull"}, expect{4, 64 * 1024, "pairwise", "push", "pull"},
                          expect{16, 64, "pull", "pull", "push"}, expect{16, 1 << 20, "pairwise", "push", "pull"}}) {
    if (spmd::skip_run(e.threads, upc::backend_kind::threads)) continue;
    // Unchecked: this is about the choice of algorithm, and at 16 threads x
    // 32 MiB the race check's shadow (16 bytes a byte) would touch 8 GiB.
    upc::launch_options o = spmd::options_unchecked(e.threads, upc::backend_kind::threads);
    o.heap_per_thread = 64u << 20;
    upc::run_result r = upc::run(o, [e] {
      upc::sptr<void> a = upc_all_alloc(THREADS, e.nbytes * THREADS), b = upc_all_alloc(THREADS, e.nbytes * THREADS);
      upc_all_exchange(b, a, e.nbytes, 0);
      SPMD_CHECK_EQ(upc::coll::last_algorithm(), std::string(e.exchange));
      upc_all_gather_all(b, a, e.nbytes, 0);
      SPMD_CHECK_EQ(upc::coll::last_algorithm(), std::string(e.gather_all));
      upc_all_broadcast(b, a, e.nbytes, 0);
      SPMD_CHECK_EQ(upc::coll::last_algorithm(), std::string(e.broadcast));
    });
    INFO("THREADS=", e.threads, " nbytes=", e.nbytes, " ", r.error);
    CHECK(r.ok());
  }
}

// The node-aware reduction too: the same bits as flat on 2, 3 and T nodes (block
// and cyclic maps), whatever the partials' route.
TEST_CASE("coll algorithms: reduce multicore and binomial_flat equal flat bit for bit on every topology") {
  for (int T : {3, 5, 8})
    for (const char* node_aware : {"multicore", "binomial_flat"}) {
      std::vector<double> flat_out, nodes_out;
      for (int which = 0; which < 2; ++which) {
        std::vector<double>& out = which == 0 ? flat_out : nodes_out;
        const char* algo = which == 0 ? "flat" : node_aware;
        for (auto [nodes, map] : {std::pair{2, "block"}, std::pair{3, "cyclic"}, std::pair{T, "block"}}) {
          spmd::topology_scope scope(nodes, map);
          forced f{{"reduce", algo}};
          spmd::run_ok(T, upc::backend_kind::threads, [&out, algo] { reduce_results(out, algo, false); });
        }
      }
      INFO("THREADS=", T, " algorithm=", node_aware);
      REQUIRE(flat_out.size() == nodes_out.size());
      CHECK(std::memcmp(flat_out.data(), nodes_out.data(), flat_out.size() * sizeof(double)) == 0);
    }
}
