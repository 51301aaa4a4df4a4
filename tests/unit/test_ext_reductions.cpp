// The computational functions of the extended collectives (seed 003: reduce,
// allreduce and prefix reduce in their in-place, vector-variant, team-based and
// get/put/priv forms, eleven types each: 451 functions), every one through the
// invokers generated from the library's table, against a sequential model
// written from Appendix A: on both backends, THREADS 1-8, pull and push, with
// block sizes 0 (indefinite), 1, 3 and 5, teams of several shapes, zero-length
// chunks, UPC_ADD on every type and, on int, UPC_NONCOMM_FUNC with a function
// whose result shows the order of the operands.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../support/ext_runs.hpp"
#include "../support/spmd.hpp"
#include "extended_collectives_names.inc"
#include "../../lib/api/ext/call.hpp"
#include "teamutil.h"
#include "upc/coll.hpp"
#include "upc_collective_ext.h"

namespace {

using namespace ext_runs;

namespace X = upc::ext;


struct entry {
  const char* name;
  X::family fam;
  unsigned var;
  const char* letter;
  const char* params;
  void (*invoke)(const args&);
};
#define UPCEMU_ENTRY(fn, fam, var, letter, names, ...) entry{#fn, fam, var, letter, names, [](const args& a) { fn(__VA_ARGS__); }},
const entry entries[] = {UPCEMU_EXT_TYPED_INVOKERS(UPCEMU_ENTRY)};
#undef UPCEMU_ENTRY

bool has(const entry& e, unsigned v) { return (e.var & v) != 0; }


int left(int a, int) { return a; }  // associative, not commutative: the first operand wins

// The logical call: a source array shared [B] TYPE[N] from thread 0 (or its
// private form), values v(k); the members; chunks of the vector variants.
struct spec {
  int T;
  std::size_t N, B;
  std::vector<int> members;  // threads, team-id order
  int root;
  struct vchunk { std::size_t first, n, to; };
  std::vector<vchunk> chunks;
  bool noncomm = false;
  int value(std::size_t k) const { return static_cast<int>((k * 5 + 3) % 4); }
  int owner(std::size_t k) const { return B ? static_cast<int>((k / B) % static_cast<std::size_t>(T)) : 0; }
  std::size_t local(std::size_t k) const { return B ? (k / (B * static_cast<std::size_t>(T))) * B + k % B : k; }
  bool member(int t) const { return std::find(members.begin(), members.end(), t) != members.end(); }
};

// What each function leaves: the reduction's value, or each element's prefix.
struct expectation {
  long long total = 0;
  std::vector<long long> prefix;    // by destination index
  std::vector<char> written;        // by destination index
};

expectation model(const entry& e, const spec& s) {
  expectation x;
  const bool v = has(e, X::variant::v);
  std::vector<std::pair<std::size_t, std::size_t>> order;  // (src index, dst index) in combining order
  if (v) {
    for (const auto& c : s.chunks)
      for (std::size_t i = 0; i < c.n; ++i) order.push_back({c.first + i, c.to + i});
  } else {
    for (std::size_t k = 0; k < s.N; ++k)
      if (s.member(s.owner(k))) order.push_back({k, k});
  }
  std::size_t len = s.N;
  for (const auto& o : order) len = std::max(len, o.second + 1);
  x.prefix.assign(len, 0);
  x.written.assign(len, 0);
  long long run = 0;
  bool first = true;
  for (const auto& o : order) {
    const int val = s.value(o.first);
    if (s.noncomm) run = first ? val : run;  // left(a, b) = a
    else run = first ? val : run + val;
    first = false;
    x.prefix[o.second] = run;
    x.written[o.second] = 1;
  }
  x.total = run;
  return x;
}

spec make_spec(std::mt19937& rng, int T, const entry& e, const std::vector<int>& members) {
  auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  spec s;
  s.T = T;
  const std::size_t blocks[] = {0, 1, 3, 5};
  s.B = blocks[r(0, 3)];
  s.N = static_cast<std::size_t>(r(1, 30));
  s.members = members;
  s.root = r(0, T - 1);
  if (has(e, X::variant::in_place) && has(e, X::variant::rooted)) {
    if (s.B == 0) s.root = 0;
    else s.root = r(0, std::min<int>(T - 1, static_cast<int>((s.N - 1) / s.B)));
  }
  if (has(e, X::variant::team) && !s.member(0)) {
    // every thread owns an element, so that the team's members have some
    if (s.B == 0) s.B = 1;
    s.N = std::max(s.N, s.B * static_cast<std::size_t>(T) + 1);
  }
  if (has(e, X::variant::v)) {
    if (s.B == 0) s.B = 3;  // a vector variant's src_blk (and dst_blk) of 0 is tested below by hand
    const int K = r(1, 4);
    std::size_t to = static_cast<std::size_t>(r(0, 2));
    for (int j = 0; j < K; ++j) {
      const std::size_t n = static_cast<std::size_t>(r(0, 5));
      const std::size_t f = static_cast<std::size_t>(r(0, static_cast<int>(s.N)));
      s.chunks.push_back({f, n, to});
      to += n + static_cast<std::size_t>(r(0, 2));
    }
    if (std::all_of(s.chunks.begin(), s.chunks.end(), [](const spec::vchunk& c) { return c.n == 0; })) s.chunks[0].n = 1;
  }
  return s;
}

template <class TYPE>
struct run_one {
  const entry& e;
  const spec& s;
  std::size_t E = sizeof(TYPE);

  // A shared [B] TYPE array of `len` elements from thread 0, phase 0.
  upc::sptr<void> shared_array(std::size_t len) const {
    if (s.B == 0) return upc_all_alloc(1, std::max<std::size_t>(len, 1) * E);
    const std::size_t blocks = (len + s.B - 1) / s.B + 1;
    return upc_all_alloc(blocks, s.B * E);
  }
  TYPE* element(upc::sptr<void> base, std::size_t k) const {  // my element k
    const int t = s.owner(k);
    (void)t;
    char* mine = reinterpret_cast<char*>((upc::sptr<char>(base) + MYTHREAD).local());
    return reinterpret_cast<TYPE*>(mine + s.local(k) * E);
  }

  void operator()() const {
    const int me = MYTHREAD, T = s.T;
    const bool in_place = has(e, X::variant::in_place);
    const bool priv = has(e, X::variant::priv), get = has(e, X::variant::get), put = has(e, X::variant::put);
    const bool private_src = priv || put, private_dst = priv || get;
    std::size_t len = s.N;
    for (const auto& c : s.chunks) len = std::max({len, c.first + c.n, c.to + c.n});
    // shared source and destination arrays, and private forms (my elements, local order)
    upc::sptr<void> S = shared_array(len), D = shared_array(len), R = upc_all_alloc(T, E);
    std::size_t mine_count = 0;
    for (std::size_t k = 0; k < len; ++k)
      if (s.owner(k) == me) mine_count = std::max(mine_count, s.local(k) + 1);
    std::vector<TYPE> ps(mine_count + 1), pd(mine_count + 1, TYPE(77));
    for (std::size_t k = 0; k < len; ++k)
      if (s.owner(k) == me) {
        *element(S, k) = static_cast<TYPE>(s.value(k));
        *element(D, k) = TYPE(77);
        ps[s.local(k)] = static_cast<TYPE>(s.value(k));
      }
    *reinterpret_cast<TYPE*>((upc::sptr<char>(R) + me).local()) = TYPE(77);
    // arguments
    std::vector<int> sd, dd;
    std::vector<size_t> cn;
    for (const auto& c : s.chunks) {
      sd.push_back(static_cast<int>(c.first));
      dd.push_back(static_cast<int>(c.to));
      cn.push_back(c.n);
    }
    IntArray sdisp(upc_all_alloc(std::max<std::size_t>(sd.size(), 1), sizeof(int)));
    IntArray ddisp(upc_all_alloc(std::max<std::size_t>(dd.size(), 1), sizeof(int)));
    SizeArray counts(upc_all_alloc(std::max<std::size_t>(cn.size(), 1), sizeof(size_t)));
    if (me == 0)
      for (std::size_t j = 0; j < sd.size(); ++j) {
        sdisp[static_cast<std::ptrdiff_t>(j)] = sd[j];
        ddisp[static_cast<std::ptrdiff_t>(j)] = dd[j];
        counts[static_cast<std::ptrdiff_t>(j)] = cn[j];
      }
    team tm;
    const bool on_team = has(e, X::variant::team);
    if (on_team) {
      init(&tm);
      if (me == 0)
        for (int th : s.members) insert(th, tm);
    }
    upc_barrier;
    args a;
    a.op = s.noncomm ? UPC_NONCOMM_FUNC : UPC_ADD;
    a.flags = next_flags();
    a.func = s.noncomm ? reinterpret_cast<const void*>(&left) : nullptr;
    a.count = s.N;
    a.blk_size = s.B;
    a.src_blk = s.B;
    a.dst_blk = s.B;
    a.root = s.root;
    a.nchunks = static_cast<int>(s.chunks.size());
    a.sdisp_shared_int = sdisp;
    a.ddisp_shared_int = ddisp;
    a.counts_shared_size = counts;
    a.src_shared = S;
    a.src_private = ps.data();
    a.buffer_shared = S;
    a.buffer_private = ps.data();
    a.t = tm;
    // reduce's result: the element of R on the last thread; allreduce: R (dst + i); prefix: D
    const bool reduce = e.fam == X::family::reduce, all = e.fam == X::family::allreduce;
    a.dst_shared = reduce ? upc::sptr<void>(upc::sptr<char>(R) + (T - 1)) : all ? R : D;
    a.dst_private = pd.data();
    const bool member = !on_team || s.member(me);
    if (member) e.invoke(a);
    if (member && std::string(upc::coll::last_algorithm()) != g_algorithm)
      throw spmd::check_failed(std::string(e.name) + " ran " + upc::coll::last_algorithm());
    upc_barrier;
    // check
    const expectation x = model(e, s);
    auto fail = [&](const std::string& what, long long got, long long want) {
      throw spmd::check_failed(std::string(e.name) + " N=" + std::to_string(s.N) + " B=" + std::to_string(s.B) + " root=" +
                               std::to_string(s.root) + ": " + what + " is " + std::to_string(got) + ", the model says " +
                               std::to_string(want) + " (thread " + std::to_string(me) + ")");
    };
    auto expect = [&](const std::string& what, TYPE got, long long want) {
      if (got != static_cast<TYPE>(want)) fail(what, static_cast<long long>(got), want);
    };
    const int first_member = s.members.front();
    if (e.fam == X::family::prefix_reduce) {
      // every element of mine in the destination (the buffer in place)
      for (std::size_t k = 0; k < x.prefix.size() && k < len; ++k) {
        const bool mine = s.owner(k) == me;
        if (!mine) continue;
        const long long want = x.written[k] ? x.prefix[k] : (in_place ? s.value(k) : 77);
        TYPE got;
        if (in_place) got = private_src ? ps[s.local(k)] : *element(S, k);
        else got = private_dst ? pd[s.local(k)] : *element(D, k);
        expect("element " + std::to_string(k), got, want);
      }
    } else if (in_place) {
      // the result in the buffer: reduce at element 0 (rooted: the root's first), allreduce at buffer[i*B]
      for (std::size_t k = 0; k < len; ++k) {
        if (s.owner(k) != me) continue;
        long long want = s.value(k);
        if (reduce && k == (has(e, X::variant::rooted) ? static_cast<std::size_t>(s.root) * s.B : 0)) want = x.total;
        if (all && (s.B ? k % s.B == 0 && k / s.B < static_cast<std::size_t>(T) : k == 0)) want = x.total;
        expect("buffer element " + std::to_string(k), private_src ? ps[s.local(k)] : *element(S, k), want);
      }
    } else if (reduce) {
      if (private_dst) {
        if (me == first_member) expect("the private result", pd[0], x.total);
      } else if (me == T - 1) {
        expect("the result", *reinterpret_cast<TYPE*>((upc::sptr<char>(R) + me).local()), x.total);
      }
    } else {  // allreduce: dst + m for member m (threads in order), or my private dst[0]
      if (private_dst) {
        if (member) expect("my private result", pd[0], x.total);
      } else {
        const TYPE got = *reinterpret_cast<TYPE*>((upc::sptr<char>(R) + me).local());
        const long long want = me < static_cast<int>(s.members.size()) ? x.total : 77;
        expect("dst + " + std::to_string(me), got, want);
      }
    }
    upc_barrier;
    upc_all_free(S);
    upc_all_free(D);
    upc_all_free(R);
    upc_all_free(upc::sptr<void>(sdisp));
    upc_all_free(upc::sptr<void>(ddisp));
    upc_all_free(upc::sptr<void>(counts));
  }
};

void run_entry(const entry& e, const spec& s) {
  const std::string L = e.letter;
  if (L == "C") run_one<signed char>{e, s}();
  else if (L == "UC") run_one<unsigned char>{e, s}();
  else if (L == "S") run_one<short>{e, s}();
  else if (L == "US") run_one<unsigned short>{e, s}();
  else if (L == "I") run_one<int>{e, s}();
  else if (L == "UI") run_one<unsigned int>{e, s}();
  else if (L == "L") run_one<long>{e, s}();
  else if (L == "UL") run_one<unsigned long>{e, s}();
  else if (L == "F") run_one<float>{e, s}();
  else if (L == "D") run_one<double>{e, s}();
  else run_one<long double>{e, s}();
}

TEST_CASE("extended collectives: every computational function, eleven types, against the model") {
  everywhere([] {
    const int T = THREADS;
    std::mt19937 rng(static_cast<unsigned>(99 + T));
    std::vector<int> all_threads, evens, rest;
    for (int t = 0; t < T; ++t) {
      all_threads.push_back(t);
      if (t % 2 == 0) evens.push_back(t);
      if (t != 0 || T == 1) rest.push_back(t);
    }
    int ran = 0;
    for (int round = 0; round < rounds / 2; ++round)
      for (const entry& e : entries) {
        const bool on_team = has(e, X::variant::team);
        const std::vector<int>& members = on_team ? (ran % 3 == 0 ? evens : ran % 3 == 1 ? rest : all_threads) : all_threads;
        spec s = make_spec(rng, T, e, members);
        if (std::string(e.letter) == "I" && ran % 2 == 0) s.noncomm = true;
        run_entry(e, s);
        ++ran;
      }
    SPMD_CHECK_EQ(ran, 451 * (rounds / 2));
  });
}

}  // namespace
