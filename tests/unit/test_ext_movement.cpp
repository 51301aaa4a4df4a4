// The data-movement functions of the extended collectives (seed 003,
// <upc_collective_ext.h>): every family (broadcast, scatter, gather,
// gather_all, exchange, permute, vector_copy) in its in-place, get/put/priv,
// vector-variant (_local, _raw, _rooted, _privparam, _merge) and team forms,
// against a sequential model written from Appendix A, on both backends and
// THREADS 1, 2, 3, 4, 5, 7 and 8, with pull and push; the thesis's team
// interface; and the names: exactly the appendix's 643.
//
// The model: every area is a blocked array from thread 0 (upc_all_alloc) or a
// private buffer; a byte is named (side, thread, offset in that thread's block
// or buffer). A call is a list of copies of such bytes, derived here from the
// appendix's wording, not from the library; every thread checks every byte of
// its own destination block and private buffer: copied bytes hold their
// source's initial value, all others their own.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../support/ext_runs.hpp"
#include "../support/spmd.hpp"
#include "upc_collective_ext.h"
#include "extended_collectives_names.inc"
#include "../../lib/api/ext/call.hpp"
#include "teamutil.h"
#include "upc/coll.hpp"

namespace {

using namespace ext_runs;

enum side_id : int { S = 0, D = 1, PS = 2, PD = 3 };

unsigned char pattern(int side, int thread, std::size_t off) {
  std::uint32_t h = static_cast<std::uint32_t>(side * 7919 + thread * 104729) ^ static_cast<std::uint32_t>(off * 2654435761u);
  h ^= h >> 13;
  return static_cast<unsigned char>(h * 31 + 7);
}

struct copy_op {
  int sside, sthread;
  std::size_t soff;
  int dside, dthread;
  std::size_t doff, n;
};

// The areas of one run: shared src (S) and dst (D) blocks, private src (PS)
// and dst (PD) buffers of every thread.
struct areas {
  std::size_t bs, bd;  // bytes of a block / buffer
  upc::sptr<void> s, d;
  std::vector<unsigned char> ps, pd;
  bool in_place = false;  // the call uses S (or PS) only

  // My block of a blocked area from thread 0.
  static unsigned char* mine(upc::sptr<void> p) { return reinterpret_cast<unsigned char*>((upc::sptr<char>(p) + MYTHREAD).local()); }

  void fill() {
    const int me = MYTHREAD;
    auto* sl = mine(s);
    auto* dl = mine(d);
    for (std::size_t i = 0; i < bs; ++i) sl[i] = pattern(S, me, i);
    for (std::size_t i = 0; i < bd; ++i) dl[i] = pattern(D, me, i);
    ps.resize(bs);
    pd.resize(bd);
    for (std::size_t i = 0; i < bs; ++i) ps[i] = pattern(PS, me, i);
    for (std::size_t i = 0; i < bd; ++i) pd[i] = pattern(PD, me, i);
  }

  // Every byte of my destination block and buffer against the model.
  void verify(const std::vector<copy_op>& ops) const {
    const int me = MYTHREAD;
    for (int side : {S, D, PS, PD}) {
      const std::size_t len = (side == S || side == PS) ? bs : bd;
      std::vector<unsigned char> want(len);
      for (std::size_t i = 0; i < len; ++i) want[i] = pattern(side, me, i);
      for (const copy_op& o : ops)
        if (o.dside == side && o.dthread == me)
          for (std::size_t k = 0; k < o.n; ++k) want[o.doff + k] = pattern(o.sside, o.sthread, o.soff + k);
      const unsigned char* got = side == S ? mine(s)
                                 : side == D ? mine(d)
                                 : side == PS ? ps.data() : pd.data();
      for (std::size_t i = 0; i < len; ++i)
        if (got[i] != want[i])
          throw spmd::check_failed("thread " + std::to_string(me) + ": side " + std::to_string(side) + " byte " + std::to_string(i) +
                                   " is " + std::to_string(got[i]) + ", the model says " + std::to_string(want[i]));
    }
  }
};

areas make_areas(std::size_t bs, std::size_t bd) {
  areas a{bs, bd, upc_all_alloc(THREADS, std::max<std::size_t>(bs, 1)), upc_all_alloc(THREADS, std::max<std::size_t>(bd, 1)), {}, {}};
  a.fill();
  upc_barrier;
  return a;
}

void release(areas& a) {
  upc_barrier;
  upc_all_free(a.s);
  upc_all_free(a.d);
}




// A shared int (or size_t) array of `n` elements, block size 1, written by thread 0.
template <class T>
upc::sptr<T, 1, upc::relaxed> shared_values(const std::vector<T>& v) {
  upc::sptr<T, 1, upc::relaxed> p(upc_all_alloc(std::max<std::size_t>(v.size(), 1), sizeof(T)));
  if (MYTHREAD == 0)
    for (std::size_t i = 0; i < v.size(); ++i) p[static_cast<std::ptrdiff_t>(i)] = v[i];
  upc_barrier;
  return p;
}

// ---- standard collectives with private endpoints (A.4) -------------------------

// side ids of a get/put/priv variant
struct ends {
  int src, dst;
};
constexpr ends get_{S, PD}, put_{PS, D}, priv_{PS, PD}, shared_{S, D};

std::vector<copy_op> standard_model(const std::string& fam, ends e, std::size_t n, int root, const std::vector<int>& perm) {
  const int T = THREADS;
  std::vector<copy_op> v;
  auto add = [&](int st, std::size_t so, int dt, std::size_t d) { v.push_back({e.src, st, so, e.dst, dt, d, n}); };
  for (int i = 0; i < T; ++i) {
    if (fam == "broadcast") add(root, 0, i, 0);
    if (fam == "scatter") add(root, static_cast<std::size_t>(i) * n, i, 0);
    if (fam == "gather") add(i, 0, root, static_cast<std::size_t>(i) * n);
    if (fam == "permute") add(i, 0, perm[static_cast<std::size_t>(i)], 0);
    for (int j = 0; j < T; ++j) {
      if (fam == "gather_all") add(i, 0, j, static_cast<std::size_t>(i) * n);
      if (fam == "exchange") add(i, static_cast<std::size_t>(j) * n, j, static_cast<std::size_t>(i) * n);
    }
  }
  return v;
}

TEST_CASE("extended collectives: get, put and priv forms of the standard collectives (A.4)") {
  everywhere([] {
    const int T = THREADS;
    for (std::size_t n : {std::size_t{1}, std::size_t{13}, std::size_t{64}}) {
      const std::size_t row = n * static_cast<std::size_t>(T);
      std::vector<int> perm(static_cast<std::size_t>(T));
      for (int i = 0; i < T; ++i) perm[static_cast<std::size_t>(i)] = (i * 3 + 1) % T;
      if (std::set<int>(perm.begin(), perm.end()).size() != perm.size())
        for (int i = 0; i < T; ++i) perm[static_cast<std::size_t>(i)] = T - 1 - i;
      auto P = shared_values(perm);
      for (const char* fam : {"broadcast", "scatter", "gather", "gather_all", "exchange", "permute"}) {
        const std::string f = fam;
        const bool rowsrc = f == "exchange", rowdst = f == "gather_all" || f == "exchange" || f == "gather";
        const bool rooted_src = f == "broadcast" || f == "scatter";
        const std::size_t bs = rowsrc || f == "scatter" ? row : n, bd = rowdst ? row : n;
        for (ends e : {get_, put_, priv_}) {
          areas a = make_areas(bs, bd);
          // shared single areas (broadcast/scatter src, gather dst) start at thread root's block
          const int root = (e.src == S && rooted_src) || (e.dst == D && f == "gather") ? T - 1 : 0;
          const upc::sptr<void> sroot(upc::sptr<char>(a.s) + root);
          const upc::sptr<void> droot(upc::sptr<char>(a.d) + root);
          void* pd = a.pd.data();
          const void* ps = a.ps.data();
          const upc_flag_t fl = next_flags();
          if (f == "broadcast") {
            if (e.dst == PD && e.src == S) upc_all_broadcast_get(pd, sroot, n, fl);
            if (e.src == PS && e.dst == D) upc_all_broadcast_put(a.d, ps, n, fl);
            if (e.src == PS && e.dst == PD) upc_all_broadcast_priv(pd, ps, n, fl);
          } else if (f == "scatter") {
            if (e.dst == PD && e.src == S) upc_all_scatter_get(pd, sroot, n, fl);
            if (e.src == PS && e.dst == D) upc_all_scatter_put(a.d, ps, n, fl);
            if (e.src == PS && e.dst == PD) upc_all_scatter_priv(pd, ps, n, fl);
          } else if (f == "gather") {
            if (e.dst == PD && e.src == S) upc_all_gather_get(pd, a.s, n, fl);
            if (e.src == PS && e.dst == D) upc_all_gather_put(droot, ps, n, fl);
            if (e.src == PS && e.dst == PD) upc_all_gather_priv(pd, ps, n, fl);
          } else if (f == "gather_all") {
            if (e.dst == PD && e.src == S) upc_all_gather_all_get(pd, a.s, n, fl);
            if (e.src == PS && e.dst == D) upc_all_gather_all_put(a.d, ps, n, fl);
            if (e.src == PS && e.dst == PD) upc_all_gather_all_priv(pd, ps, n, fl);
          } else if (f == "exchange") {
            if (e.dst == PD && e.src == S) upc_all_exchange_get(pd, a.s, n, fl);
            if (e.src == PS && e.dst == D) upc_all_exchange_put(a.d, ps, n, fl);
            if (e.src == PS && e.dst == PD) upc_all_exchange_priv(pd, ps, n, fl);
          } else {
            if (e.dst == PD && e.src == S) upc_all_permute_get(pd, a.s, P, n, fl);
            if (e.src == PS && e.dst == D) upc_all_permute_put(a.d, ps, P, n, fl);
            if (e.src == PS && e.dst == PD) upc_all_permute_priv(pd, ps, P, n, fl);
          }
          upc_barrier;  // OUT_NOSYNC: the data is there once everyone is past the call
          a.verify(standard_model(f, e, n, root, perm));
          release(a);
        }
      }
      upc_barrier;
      upc_all_free(P);
    }
  });
}

// ---- in place (A.1) ----------------------------------------------------------------

std::vector<copy_op> in_place_model(const std::string& fam, int side, std::size_t n, int root, const std::vector<int>& perm) {
  const int T = THREADS;
  std::vector<copy_op> v;
  auto add = [&](int st, std::size_t so, int dt, std::size_t d) {
    if (!(st == dt && so == d)) v.push_back({side, st, so, side, dt, d, n});
  };
  for (int t = 0; t < T; ++t) {
    const std::size_t at = static_cast<std::size_t>(t) * n;
    if (fam == "broadcast" && t != root) add(root, 0, t, 0);
    if (fam == "scatter" && t != root) add(root, at, t, at);
    if (fam == "gather" && t != root) add(t, at, root, at);
    if (fam == "permute") add(t, 0, perm[static_cast<std::size_t>(t)], 0);
    for (int u = 0; u < T; ++u) {
      if (fam == "gather_all" && u != t) add(t, at, u, at);
      if (fam == "exchange") add(t, static_cast<std::size_t>(u) * n, u, at);
    }
  }
  return v;
}

TEST_CASE("extended collectives: in place, rooted in place and their priv forms (A.1)") {
  everywhere([] {
    const int T = THREADS;
    std::vector<int> perm(static_cast<std::size_t>(T));
    for (int i = 0; i < T; ++i) perm[static_cast<std::size_t>(i)] = (i + 1) % T;
    auto P = shared_values(perm);
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{40}}) {
      const std::size_t row = n * static_cast<std::size_t>(T);
      for (const char* fam : {"broadcast", "scatter", "gather", "gather_all", "exchange", "permute"}) {
        const std::string f = fam;
        const bool rowed = f != "broadcast" && f != "permute";
        const std::size_t B = rowed ? row : n;
        const bool has_rooted = f == "broadcast" || f == "scatter" || f == "gather";
        for (int form = 0; form < 4; ++form) {  // 0 shared, 1 priv, 2 rooted, 3 rooted priv
          if (form >= 2 && !has_rooted) continue;
          areas a = make_areas(B, 1);
          const bool priv = form % 2 == 1;
          const int root = form >= 2 ? T - 1 : 0;
          void* pb = a.ps.data();
          const upc_flag_t fl = next_flags();
          if (f == "broadcast") {
            if (form == 0) upc_all_broadcast_in_place(a.s, n, fl);
            if (form == 1) upc_all_broadcast_in_place_priv(pb, n, fl);
            if (form == 2) upc_all_broadcast_rooted_in_place(a.s, n, root, fl);
            if (form == 3) upc_all_broadcast_rooted_in_place_priv(pb, n, root, fl);
          } else if (f == "scatter") {
            if (form == 0) upc_all_scatter_in_place(a.s, n, fl);
            if (form == 1) upc_all_scatter_in_place_priv(pb, n, fl);
            if (form == 2) upc_all_scatter_rooted_in_place(a.s, n, root, fl);
            if (form == 3) upc_all_scatter_rooted_in_place_priv(pb, n, root, fl);
          } else if (f == "gather") {
            if (form == 0) upc_all_gather_in_place(a.s, n, fl);
            if (form == 1) upc_all_gather_in_place_priv(pb, n, fl);
            if (form == 2) upc_all_gather_rooted_in_place(a.s, n, root, fl);
            if (form == 3) upc_all_gather_rooted_in_place_priv(pb, n, root, fl);
          } else if (f == "gather_all") {
            if (form == 0) upc_all_gather_all_in_place(a.s, n, fl);
            if (form == 1) upc_all_gather_all_in_place_priv(pb, n, fl);
          } else if (f == "exchange") {
            if (form == 0) upc_all_exchange_in_place(a.s, n, fl);
            if (form == 1) upc_all_exchange_in_place_priv(pb, n, fl);
          } else {
            if (form == 0) upc_all_permute_in_place(a.s, P, n, fl);
            if (form == 1) upc_all_permute_in_place_priv(pb, P, n, fl);
          }
          upc_barrier;
          a.verify(in_place_model(f, priv ? PS : S, n, root, perm));
          release(a);
        }
      }
    }
    upc_barrier;
    upc_all_free(P);
  });
}

// ---- every untyped function, called through the generated invokers -------------------

namespace X = upc::ext;


struct entry {
  const char* name;
  X::family fam;
  unsigned var;
  const char* params;  // "dst,src,ddisp,..."
  void (*invoke)(const args&);
  bool takes(const std::string& p) const { return ("," + std::string(params) + ",").find("," + p + ",") != std::string::npos; }
};
#define UPCEMU_ENTRY(fn, fam, var, names, ...) entry{#fn, fam, var, names, [](const args& a) { fn(__VA_ARGS__); }},
const entry entries[] = {UPCEMU_EXT_INVOKERS(UPCEMU_ENTRY)};
#undef UPCEMU_ENTRY

bool has(const entry& e, unsigned v) { return (e.var & v) != 0; }

// Where the ends of an entry are: private (PS/PD) or shared (S/D).
ends ends_of(const entry& e) {
  if (has(e, X::variant::priv)) return priv_;
  if (has(e, X::variant::get)) return get_;
  if (has(e, X::variant::put)) return put_;
  return shared_;
}

// The logical arguments of a vector-variant call, in elements of `ts` bytes;
// blocks of K elements in every area.
struct v_spec {
  int T, K, ts = 4, root = 0, src_at = 0, dst_at = 0, count = 0;
  std::vector<int> phase_d, phase_s, n, perm, merge_at;
  std::vector<std::vector<int>> nx;  // exchange: nx[i][j] elements from i to j
  struct vchunk { int st, sp, dt, dp, n; };
  std::vector<vchunk> chunks;
};

v_spec make_spec(std::mt19937& rng, int T) {
  v_spec s;
  s.T = T;
  s.K = 3 * T + 4;
  auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  s.root = r(0, T - 1);
  s.src_at = r(0, 2);
  s.dst_at = r(0, 2);
  s.count = r(1, 3);
  for (int t = 0; t < T; ++t) {
    s.phase_d.push_back(r(0, 2));
    s.phase_s.push_back(r(0, 2));
    s.n.push_back(r(0, 2));  // zero counts included
    s.merge_at.push_back(r(0, 3));
    s.perm.push_back(t);
  }
  std::shuffle(s.perm.begin(), s.perm.end(), rng);
  s.nx.assign(static_cast<std::size_t>(T), std::vector<int>(static_cast<std::size_t>(T)));
  for (auto& row : s.nx)
    for (int& v : row) v = r(0, 3);
  // vector_copy: distinct destination slots of 3 elements
  std::vector<std::pair<int, int>> slots;
  for (int t = 0; t < T; ++t)
    for (int k = 0; k < T; ++k) slots.push_back({t, k * 3});
  std::shuffle(slots.begin(), slots.end(), rng);
  const int nchunks = r(0, static_cast<int>(slots.size()));
  for (int c = 0; c < nchunks; ++c)
    s.chunks.push_back({r(0, T - 1), r(0, s.K - 3), slots[static_cast<std::size_t>(c)].first, slots[static_cast<std::size_t>(c)].second, r(1, 3)});
  return s;
}

std::vector<copy_op> v_model(const entry& e, const v_spec& s) {
  const ends en = ends_of(e);
  const bool rooted = has(e, X::variant::rooted);
  const std::size_t ts = static_cast<std::size_t>(s.ts);
  std::vector<copy_op> v;
  auto add = [&](int st, int sp, int dt, int dp, int n) {
    if (n > 0) v.push_back({en.src, st, static_cast<std::size_t>(sp) * ts, en.dst, dt, static_cast<std::size_t>(dp) * ts, static_cast<std::size_t>(n) * ts});
  };
  const int T = s.T;
  // the root of a single source or destination area
  const int src_root = en.src == PS ? (rooted ? s.root : 0) : s.root;
  const int dst_root = en.dst == PD ? (rooted ? s.root : 0) : s.root;
  switch (e.fam) {
    case X::family::broadcast:
      for (int t = 0; t < T; ++t) add(src_root, s.src_at, t, s.phase_d[static_cast<std::size_t>(t)], s.count);
      break;
    case X::family::scatter: {
      int at = s.src_at;
      for (int t = 0; t < T; ++t) {
        add(src_root, at, t, s.phase_d[static_cast<std::size_t>(t)], s.n[static_cast<std::size_t>(t)]);
        at += s.n[static_cast<std::size_t>(t)];
      }
      break;
    }
    case X::family::gather: {
      int at = s.dst_at;
      for (int t = 0; t < T; ++t) {
        add(t, s.phase_s[static_cast<std::size_t>(t)], dst_root, at, s.n[static_cast<std::size_t>(t)]);
        at += s.n[static_cast<std::size_t>(t)];
      }
      break;
    }
    case X::family::gather_all:
      for (int j = 0; j < T; ++j) {
        int at = s.phase_d[static_cast<std::size_t>(j)];
        for (int i = 0; i < T; ++i) {
          add(i, s.phase_s[static_cast<std::size_t>(i)], j, at, s.n[static_cast<std::size_t>(i)]);
          at += s.n[static_cast<std::size_t>(i)];
        }
      }
      break;
    case X::family::exchange:
      for (int j = 0; j < T; ++j) {
        int at = s.merge_at[static_cast<std::size_t>(j)];
        for (int i = 0; i < T; ++i) {
          const int k = s.nx[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
          if (has(e, X::variant::merge)) {
            add(i, j * 3, j, at, k);
            at += k;
          } else {
            add(i, j * 3, j, i * 3, k);
          }
        }
      }
      break;
    case X::family::permute:
      for (int i = 0; i < T; ++i)
        add(i, s.phase_s[static_cast<std::size_t>(i)], s.perm[static_cast<std::size_t>(i)], s.phase_s[static_cast<std::size_t>(i)],
            s.n[static_cast<std::size_t>(i)]);
      break;
    case X::family::vector_copy:
      for (const auto& c : s.chunks) add(c.st, c.sp, c.dt, c.dp, c.n);
      break;
    default: break;
  }
  return v;
}

// The argument arrays and scalars of entry e for spec s (indexes or phases, elements or bytes).
struct v_call {
  args a;
  std::vector<int> priv_ddisp, priv_sdisp, priv_exchange;
  std::vector<size_t> priv_counts;
  std::vector<upc::sptr<void>> allocated;
};

template <class T>
upc::sptr<T, 1, upc::relaxed> shared_of(v_call& c, const std::vector<T>& v) {
  auto p = shared_values(v);
  c.allocated.push_back(upc::sptr<void>(p));
  return p;
}

void prepare(v_call& c, const entry& e, const v_spec& s, areas& ar) {
  const bool raw = has(e, X::variant::raw), local = has(e, X::variant::local), rooted = has(e, X::variant::rooted);
  const int unit = raw ? s.ts : 1;  // array values: elements, or bytes for _raw
  const int T = s.T, K = s.K;
  // A private end without its block size takes displacements as offsets in the buffer.
  const bool dst_phase_only = !local && ends_of(e).dst == PD && !e.takes("dst_blk") && !e.takes("dst_blk_raw");
  const bool src_phase_only = !local && ends_of(e).src == PS && !e.takes("src_blk") && !e.takes("src_blk_raw");
  auto index_of = [&](int thread, int phase, bool phase_only) { return (local || phase_only ? phase : thread * K + phase) * unit; };
  auto index = [&](int thread, int phase) { return index_of(thread, phase, false); };
  auto dindex = [&](int thread, int phase) { return index_of(thread, phase, dst_phase_only); };
  auto sindex = [&](int thread, int phase) { return index_of(thread, phase, src_phase_only); };
  args& a = c.a;
  a.typesize = static_cast<size_t>(s.ts);
  a.dst_blk = static_cast<size_t>(K * unit);
  a.src_blk = static_cast<size_t>(K * unit);
  a.root = s.root;
  a.flags = next_flags();
  const std::size_t ts = static_cast<std::size_t>(s.ts);
  // single areas: non-rooted shared ones start at the root's block, rooted ones at thread 0's
  auto single = [&](upc::sptr<void> base, int at) {
    upc::sptr<char> p(base);
    if (!rooted) p = p + s.root;
    return upc::sptr<void>(upc::sptr<char, upc::indefinite>(upc::sptr<void>(p)) + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(at) * ts));
  };
  a.src_shared = (e.fam == X::family::broadcast || e.fam == X::family::scatter) ? single(ar.s, s.src_at) : upc::sptr<const void>(ar.s);
  a.dst_shared = e.fam == X::family::gather ? single(ar.d, s.dst_at) : ar.d;
  a.src_private = ar.ps.data() + ((e.fam == X::family::broadcast || e.fam == X::family::scatter) ? static_cast<std::size_t>(s.src_at) * ts : 0);
  a.dst_private = ar.pd.data() + (e.fam == X::family::gather ? static_cast<std::size_t>(s.dst_at) * ts : 0);
  std::vector<int> dd, sd, ex, dp;
  std::vector<size_t> cn;
  for (int t = 0; t < T; ++t) {
    dd.push_back(dindex(t, s.phase_d[static_cast<std::size_t>(t)]));
    sd.push_back(sindex(t, s.phase_s[static_cast<std::size_t>(t)]));
    cn.push_back(static_cast<size_t>(s.n[static_cast<std::size_t>(t)] * unit));
    dp.push_back(dindex(t, s.merge_at[static_cast<std::size_t>(t)]));
  }
  a.count = static_cast<size_t>(s.count * unit);
  switch (e.fam) {
    case X::family::exchange:
      cn.clear();
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) {
          ex.push_back(index(i, j * 3));  // src and dst positions alike (both ends' blocks known here)
          cn.push_back(static_cast<size_t>(s.nx[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] * unit));
        }
      break;
    case X::family::permute: dp = sd; break;
    case X::family::vector_copy:
      sd.clear(); dd.clear(); cn.clear();
      for (const auto& ch : s.chunks) {
        sd.push_back((ch.st * K + ch.sp) * unit);
        dd.push_back((ch.dt * K + ch.dp) * unit);
        cn.push_back(static_cast<size_t>(ch.n * unit));
      }
      a.nchunks = static_cast<int>(s.chunks.size());
      break;
    default: break;
  }
  auto sizes = [](const std::vector<int>& v) { return std::vector<size_t>(v.begin(), v.end()); };
  a.ddisp_shared_int = shared_of(c, dd);
  a.sdisp_shared_int = shared_of(c, sd);
  a.exchange_shared_int = shared_of(c, ex);
  a.disp_shared_int = shared_of(c, dp);
  a.perm_shared_int = shared_of(c, s.perm);
  a.ddisp_shared_size = shared_of(c, sizes(dd));
  a.sdisp_shared_size = shared_of(c, sizes(sd));
  a.exchange_shared_size = shared_of(c, sizes(ex));
  a.disp_shared_size = shared_of(c, sizes(dp));
  a.counts_shared_size = shared_of(c, cn);
  c.priv_ddisp = dd;
  c.priv_sdisp = sd;
  c.priv_exchange = ex;
  c.priv_counts = cn;
  a.ddisp_private_int = c.priv_ddisp.data();
  a.sdisp_private_int = c.priv_sdisp.data();
  a.exchange_private_int = c.priv_exchange.data();
  a.counts_private_size = c.priv_counts.data();
  a.ddisp_scalar = dd[static_cast<std::size_t>(MYTHREAD)];
}

TEST_CASE("extended collectives: every vector-variant function and vector_copy, against the model (A.2)") {
  everywhere([] {
    const int T = THREADS;
    std::mt19937 rng(static_cast<unsigned>(1234 + T));
    int ran = 0;
    for (const entry& e : entries) {
      if (!(has(e, X::variant::v) || e.fam == X::family::vector_copy) || has(e, X::variant::team)) continue;
      for (int round = 0; round < rounds; ++round) {
        const v_spec s = make_spec(rng, T);  // the same on every thread: same seed, same draws
        areas ar = make_areas(static_cast<std::size_t>(s.K * s.ts), static_cast<std::size_t>(s.K * s.ts));
        v_call c;
        prepare(c, e, s, ar);
        e.invoke(c.a);
        SPMD_CHECK(std::string(upc::coll::last_algorithm()) == g_algorithm);
        upc_barrier;
        ar.verify(v_model(e, s));
        upc_barrier;
        for (auto& p : c.allocated) upc_all_free(p);
        release(ar);
        ++ran;
      }
    }
    SPMD_CHECK_EQ(ran, rounds * 112);
  });
}

// ---- team-based (A.3) and the team interface (Listing 3.9) ------------------------

std::vector<copy_op> team_model(const entry& e, const std::vector<int>& mem, std::size_t n, int root_thread,
                                const std::vector<int>& perm) {
  const ends en = ends_of(e);
  const int P = static_cast<int>(mem.size()), T = THREADS;
  const bool allthr = has(e, X::variant::allthr);
  const std::size_t piece = (e.fam == X::family::broadcast || e.fam == X::family::permute) ? n : n / static_cast<std::size_t>(allthr ? T : P);
  auto slot = [&](int m) { return static_cast<std::size_t>(allthr ? mem[static_cast<std::size_t>(m)] : m) * piece; };
  const int src_root = en.src == PS ? mem[0] : root_thread, dst_root = en.dst == PD ? mem[0] : root_thread;
  std::vector<copy_op> v;
  auto add = [&](int st, std::size_t so, int dt, std::size_t d) { v.push_back({en.src, st, so, en.dst, dt, d, piece}); };
  for (int m = 0; m < P; ++m) {
    const int th = mem[static_cast<std::size_t>(m)];
    switch (e.fam) {
      case X::family::broadcast: add(src_root, 0, th, 0); break;
      case X::family::scatter: add(src_root, slot(m), th, 0); break;
      case X::family::gather: add(th, 0, dst_root, slot(m)); break;
      case X::family::gather_all:
        for (int u = 0; u < P; ++u) add(th, 0, mem[static_cast<std::size_t>(u)], slot(m));
        break;
      case X::family::exchange:
        for (int u = 0; u < P; ++u) add(th, slot(u), mem[static_cast<std::size_t>(u)], slot(m));
        break;
      case X::family::permute:
        if (allthr) add(th, 0, perm[static_cast<std::size_t>(th)], 0);
        else add(th, 0, mem[static_cast<std::size_t>(perm[static_cast<std::size_t>(m)])], 0);
        break;
      default: break;
    }
  }
  return v;
}

TEST_CASE("extended collectives: every team-based data movement, on teams of several shapes (A.3)") {
  everywhere([] {
    const int T = THREADS;
    // every thread; the even threads; all but thread 0; thread T-1 alone
    std::vector<std::vector<int>> shapes(4);
    for (int t = 0; t < T; ++t) {
      shapes[0].push_back(t);
      if (t % 2 == 0) shapes[1].push_back(t);
      if (t != 0 || T == 1) shapes[2].push_back(t);
    }
    shapes[3].push_back(T - 1);
    int ran = 0;
    for (const std::vector<int>& mem : shapes) {
      team tm;
      init(&tm);
      if (MYTHREAD == 0)
        for (int th : mem) insert(th, tm);
      upc_barrier;
      const int P = static_cast<int>(mem.size());
      const bool member = std::find(mem.begin(), mem.end(), MYTHREAD) != mem.end();
      SPMD_CHECK_EQ(numThreads(tm), P);
      SPMD_CHECK_EQ(isThreadInTeam(MYTHREAD, tm), member ? 1 : 0);
      SPMD_CHECK_EQ(getTeamID(MYTHREAD, tm), member ? static_cast<int>(std::find(mem.begin(), mem.end(), MYTHREAD) - mem.begin()) : -1);
      for (int m = 0; m < P; ++m) SPMD_CHECK_EQ(getThreadID(m, tm), mem[static_cast<std::size_t>(m)]);
      SPMD_CHECK_EQ(getThreadID(P, tm), -1);
      const std::size_t n = static_cast<std::size_t>(P * T) * 3;
      // perm over team ids (a rotation) and, for _allthr, over the members' threads
      std::vector<int> perm_ids(static_cast<std::size_t>(T), 0), perm_threads(static_cast<std::size_t>(T), 0);
      for (int m = 0; m < P; ++m) {
        perm_ids[static_cast<std::size_t>(m)] = (m + 1) % P;
        perm_threads[static_cast<std::size_t>(mem[static_cast<std::size_t>(m)])] = mem[static_cast<std::size_t>((m + 1) % P)];
      }
      auto ids = shared_values(perm_ids), ths = shared_values(perm_threads);
      for (const entry& e : entries) {
        if (!has(e, X::variant::team)) continue;
        areas ar = make_areas(n * static_cast<std::size_t>(T), n * static_cast<std::size_t>(T));
        const int root_thread = mem[static_cast<std::size_t>(P - 1)];
        args a;
        a.t = tm;
        a.count = n;
        a.flags = next_flags();
        a.src_shared = (e.fam == X::family::broadcast || e.fam == X::family::scatter)
                           ? upc::sptr<const void>(upc::sptr<char>(ar.s) + root_thread) : upc::sptr<const void>(ar.s);
        a.dst_shared = e.fam == X::family::gather ? upc::sptr<void>(upc::sptr<char>(ar.d) + root_thread) : ar.d;
        a.src_private = ar.ps.data();
        a.dst_private = ar.pd.data();
        a.perm_shared_int = has(e, X::variant::allthr) ? ths : ids;
        if (member) e.invoke(a);
        upc_barrier;
        ar.verify(team_model(e, mem, n, root_thread, has(e, X::variant::allthr) ? perm_threads : perm_ids));
        release(ar);
        ++ran;
      }
      if (member) teamBarrier(tm);
      // team allocation: a shared array of the members, written by each, read by all
      if (member) {
        upc::sptr<int> arr(allocate(P, sizeof(int), tm));
        arr[getTeamID(MYTHREAD, tm)] = 100 + MYTHREAD;
        teamBarrier(tm);
        for (int m = 0; m < P; ++m) SPMD_CHECK_EQ(static_cast<int>(arr[m]), 100 + mem[static_cast<std::size_t>(m)]);
        upc_lock_t* l = allocateLock(tm);
        upc_lock(l);
        arr[0] = arr[0] + 1;
        upc_unlock(l);
        teamBarrier(tm);
        SPMD_CHECK_EQ(static_cast<int>(arr[0]), 100 + mem[0] + P);
        deallocateLock(l, tm);
        deallocate(upc::sptr<void>(arr), tm);
      }
      upc_barrier;
      upc_all_free(upc::sptr<void>(ids));
      upc_all_free(upc::sptr<void>(ths));
    }
    SPMD_CHECK_EQ(ran, 4 * 44);
  });
}

TEST_CASE("extended collectives: large chunks staged in segments (priv and in-place exchange)") {
  everywhere([] {
    const int T = THREADS;
    const std::size_t n = 300000;  // more than two staging segments of 128 KiB
    std::vector<int> perm(static_cast<std::size_t>(T));
    for (int i = 0; i < T; ++i) perm[static_cast<std::size_t>(i)] = (i + 1) % T;
    {
      areas a = make_areas(n, n);
      upc_all_broadcast_priv(a.pd.data(), a.ps.data(), n, next_flags());
      upc_barrier;
      a.verify(standard_model("broadcast", priv_, n, 0, perm));
      release(a);
    }
    {
      areas a = make_areas(n, 1);
      upc_all_broadcast_rooted_in_place_priv(a.ps.data(), n, T - 1, next_flags());
      upc_barrier;
      a.verify(in_place_model("broadcast", PS, n, T - 1, perm));
      release(a);
    }
    const std::size_t piece = n / static_cast<std::size_t>(T);
    for (int side : {S, PS}) {
      areas a = make_areas(piece * static_cast<std::size_t>(T), 1);
      if (side == S) upc_all_exchange_in_place(a.s, piece, next_flags());
      else upc_all_exchange_in_place_priv(a.ps.data(), piece, next_flags());
      upc_barrier;
      a.verify(in_place_model("exchange", side, piece, 0, perm));
      release(a);
    }
  }, {1, 2, 3, 5});
}

}  // namespace

// ---- the names -------------------------------------------------------------------------

TEST_CASE("extended collectives: the library defines exactly the 643 functions of Appendix A") {
  std::ifstream f(UPCEMU_SOURCE_ROOT "/tests/data/thesis-extended-collectives.txt");
  REQUIRE(f.good());
  std::set<std::string> listed;
  for (std::string line; std::getline(f, line);)
    if (!line.empty() && line[0] != '#') listed.insert(line);
  CHECK(listed.size() == 643);
  std::set<std::string> defined;
  std::vector<std::string> twice;
#define UPCEMU_NAME(fn)                                                       \
  {                                                                           \
    const void* address = reinterpret_cast<const void*>(&fn);                 \
    CHECK(address != nullptr);                                                \
    if (!defined.insert(#fn).second) twice.push_back(#fn);                    \
  }
  UPCEMU_EXT_FUNCTIONS(UPCEMU_NAME)
#undef UPCEMU_NAME
  CHECK(twice.empty());
  std::vector<std::string> missing, extra;
  std::set_difference(listed.begin(), listed.end(), defined.begin(), defined.end(), std::back_inserter(missing));
  std::set_difference(defined.begin(), defined.end(), listed.begin(), listed.end(), std::back_inserter(extra));
  INFO("missing: ", missing.size(), " extra: ", extra.size());
  CHECK(missing.empty());
  CHECK(extra.empty());
}
