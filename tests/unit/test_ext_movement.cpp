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
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "upc_collective_ext.h"
#include "upc/coll.hpp"

namespace {

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

// Runs `body` for both backends, THREADS 1..8 and pull and push.
void everywhere(const std::function<void()>& body, std::initializer_list<int> counts = {1, 2, 3, 4, 5, 7, 8}) {
  for (upc::backend_kind b : spmd::backends)
    for (int T : counts)
      for (const char* algo : {"pull", "push"}) {
        upc::launch_options o = spmd::options(T, b);
        const upc::run_result r = upc::run(o, [&] {
          upc::coll::force_algorithm("vector_copy", algo);
          body();
          upc::coll::reset_algorithms();
        });
        INFO("backend=", spmd::name(b), " THREADS=", T, " algorithm=", std::string(algo), " error: ", r.error);
        REQUIRE(r.ok());
      }
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
          const upc_flag_t fl = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
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
          // the shared single area of thread `root` is its block (offset 0 of the allocation)
          a.verify(standard_model(f, e, n, root, perm));
          release(a);
        }
      }
      upc_barrier;
      upc_all_free(P);
    }
  });
}

}  // namespace
