// The cases of the <upccoll.h> conformance harness (upccoll_harness.hpp): what
// one call is (collective, types, count, sync flags, completion, team, root,
// garbage and in-place arguments, seed), how it reads as text, the model's call
// for each team of a case (tests/support/upccoll_model.hpp), the windows' bytes
// before the call, and the matrix of cases each run gets.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../support/upccoll_model.hpp"
#include "upccoll.h"
#include "conformance_hashing.hpp"
#include "upccoll_inputs.hpp"

namespace uconf {

namespace M = upccoll_model;
using M::collective;

// ---------------------------------------------------------------------------
// Sync flags

// The 16 combinations of {none, NOSYNC, MYSYNC, ALLSYNC} for IN and OUT.
inline const std::vector<upccoll_flag_t>& sync_flag_values() {
  static const std::vector<upccoll_flag_t> v = [] {
    std::vector<upccoll_flag_t> r;
    for (upccoll_flag_t in : {0, UPC_IN_NOSYNC, UPC_IN_MYSYNC, UPC_IN_ALLSYNC})
      for (upccoll_flag_t out : {0, UPC_OUT_NOSYNC, UPC_OUT_MYSYNC, UPC_OUT_ALLSYNC}) r.push_back(in | out);
    return r;
  }();
  return v;
}

inline std::string flags_name(upccoll_flag_t f) {
  std::string s;
  auto add = [&](upccoll_flag_t bit, const char* n) {
    if (!(f & bit)) return;
    if (!s.empty()) s += '|';
    s += n;
  };
  add(UPC_IN_NOSYNC, "UPC_IN_NOSYNC");
  add(UPC_IN_MYSYNC, "UPC_IN_MYSYNC");
  add(UPC_IN_ALLSYNC, "UPC_IN_ALLSYNC");
  add(UPC_OUT_NOSYNC, "UPC_OUT_NOSYNC");
  add(UPC_OUT_MYSYNC, "UPC_OUT_MYSYNC");
  add(UPC_OUT_ALLSYNC, "UPC_OUT_ALLSYNC");
  add(UPC_ASYNC_FENCE, "UPC_ASYNC_FENCE");
  return s.empty() ? "0" : s;
}

inline bool in_nosync(upccoll_flag_t f) { return (f & UPC_IN_NOSYNC) != 0; }
inline bool out_nosync(upccoll_flag_t f) { return (f & UPC_OUT_NOSYNC) != 0; }
inline bool out_allsync(upccoll_flag_t f) { return (f & UPC_OUT_ALLSYNC) != 0; }

// ---------------------------------------------------------------------------
// Teams: a world team, or `levels` nested splits with colors and keys from a seed

struct team_plan {
  int levels = 0;
  std::vector<std::vector<int>> color, key;  // [level][world thread]
  std::vector<std::vector<int>> members;     // [world thread]: the final team, by rank
  std::vector<int> rank;                     // [world thread]: rank in the final team
};

inline team_plan make_team_plan(std::uint32_t seed, int levels, int T) {
  team_plan p;
  p.levels = levels;
  std::vector<std::vector<int>> groups = {{}};
  for (int t = 0; t < T; ++t) groups[0].push_back(t);
  for (int L = 0; L < levels; ++L) {
    p.color.emplace_back(T, 0);
    p.key.emplace_back(T, 0);
    std::vector<std::vector<int>> next;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const std::vector<int>& grp = groups[g];
      const int ncolors = 1 + static_cast<int>(h4(seed, L, g, 1) % std::min<std::size_t>(3, grp.size()));
      std::vector<std::vector<int>> byc(ncolors);
      for (int t : grp) byc[h4(seed, L, t, 2) % ncolors].push_back(t);
      for (int c = 0; c < ncolors; ++c) {
        std::vector<int>& cls = byc[c];
        if (cls.empty()) continue;
        std::vector<int> keys(cls.size());
        for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>(i);
        for (std::size_t i = keys.size(); i > 1; --i) std::swap(keys[i - 1], keys[h4(seed, L, cls[i - 1], 3) % i]);
        std::vector<int> team(cls.size());
        for (std::size_t i = 0; i < cls.size(); ++i) {
          p.color[L][cls[i]] = 1000 * c + 17 * L + 3;  // colors: any ints, not 0..k-1
          p.key[L][cls[i]] = keys[i];
          team[keys[i]] = cls[i];
        }
        next.push_back(team);
      }
    }
    groups = next;
  }
  p.members.assign(T, {});
  p.rank.assign(T, 0);
  for (const std::vector<int>& g : groups)
    for (std::size_t r = 0; r < g.size(); ++r) {
      p.members[g[r]] = g;
      p.rank[g[r]] = static_cast<int>(r);
    }
  return p;
}

// ---------------------------------------------------------------------------
// Cases

enum class completion { blocking, wait, test, fence };
inline const char* completion_name(completion c) {
  switch (c) {
    case completion::blocking: return "blocking";
    case completion::wait: return "handle+wait";
    case completion::test: return "handle+test";
    case completion::fence: return "UPC_ASYNC_FENCE+fence";
  }
  return "?";
}

struct ucase {
  collective kind = collective::barrier;
  upccoll_dtype_t sendtype = UPC_BYTE, recvtype = UPC_BYTE;  // reductions: dt = sendtype
  upccoll_op_t op = UPC_ADD;                                 // or a user op marker
  std::size_t count = 1;  // elements of sendtype (the base of the v variants' irregular counts)
  int root_pick = 0;      // 0: last rank, 1: middle, 2: rank 0, 3: any
  upccoll_flag_t flags = 0;  // sync flags (completion adds UPC_ASYNC_FENCE)
  completion how = completion::blocking;
  int team_levels = 0;  // 0: UPC_TEAM_ALL; 1: a split; 2: a split of a split
  bool garbage = false;  // non-roots pass NULL / garbage where the collective ignores arguments
  int late = -1;         // this world thread enters after a sleep
  bool in_place = false;  // UPCCOLL_IN_PLACE where the collective takes it (the model's call::in_place)
  std::uint32_t seed = 1;
};

// The collectives with an in-place form (all but the barrier).
inline bool has_in_place(collective k) { return k != collective::barrier; }

inline std::string describe(const ucase& c) {
  std::ostringstream s;
  s << M::name(c.kind);
  if (M::is_reduction(c.kind)) {
    s << " dt=" << M::type_name(c.sendtype) << " op=" << op_text(c.op);
  } else if (c.kind != collective::barrier) {
    s << " sendtype=" << M::type_name(c.sendtype) << " recvtype=" << M::type_name(c.recvtype);
  }
  s << " count=" << c.count << " flags=" << flags_name(c.flags) << " " << completion_name(c.how)
    << " team=" << (c.team_levels == 0 ? "UPC_TEAM_ALL" : c.team_levels == 1 ? "split" : "split of a split")
    << " root_pick=" << c.root_pick << (c.garbage ? " garbage-on-non-roots" : "")
    << (c.late >= 0 ? " late thread " + std::to_string(c.late) : std::string()) << (c.in_place ? " UPCCOLL_IN_PLACE" : "")
    << " seed=" << c.seed;
  return s.str();
}

inline std::size_t irregular(std::uint32_t seed, std::uint64_t a, std::uint64_t b, std::size_t base) {
  if (base == 0) return 0;
  const std::uint64_t h = h4(seed, a, b, 0x1e6);
  if (h % 4 == 0) return 0;
  return 1 + static_cast<std::size_t>((h >> 8) % (2 * base));
}

// Displacements for counts k[0..n-1]: blocks laid out in a random order of the
// ranks, with gaps (so neither monotonic nor dense).
inline std::vector<std::size_t> layout(const std::vector<std::size_t>& k, std::uint64_t salt) {
  const std::size_t n = k.size();
  std::vector<std::size_t> order(n), d(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[hash3(salt, i, 5) % i]);
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n; ++i) {
    pos += hash3(salt, i, 6) % 3;
    d[order[i]] = pos;
    pos += k[order[i]];
  }
  return d;
}

inline int root_of(const ucase& c, int n) {
  switch (c.root_pick) {
    case 0: return n - 1;
    case 1: return n / 2;
    case 2: return 0;
    default: return static_cast<int>(hash3(c.seed, n, 0x2007) % static_cast<std::uint64_t>(n));
  }
}

// The model's call for a team of n ranks (`team_salt` tells the teams of one case
// apart, so that they get different irregular counts).
inline M::call make_call(const ucase& c, int n, std::uint64_t team_salt) {
  M::call cl;
  cl.kind = c.kind;
  cl.size = n;
  cl.root = M::is_rooted(c.kind) ? root_of(c, n) : 0;
  cl.in_place = c.in_place;
  const std::uint32_t s = static_cast<std::uint32_t>(hash3(c.seed, team_salt, 0x5a17));
  if (c.kind == collective::barrier) return cl;
  if (M::is_reduction(c.kind)) {
    cl.red.dt = c.sendtype;
    cl.red.op = c.op;
    cl.red.fn = user_function(c.op);
    cl.count = c.count;
    if (c.kind == collective::reduce_scatter) {
      const std::size_t base = c.count == 0 ? 0 : std::max<std::size_t>(1, c.count / static_cast<std::size_t>(n));
      for (int t = 0; t < n; ++t) cl.recvcounts.push_back(irregular(s, t, 1, base));
    }
    return cl;
  }
  const std::size_t ss = M::size_of(c.sendtype), rs = M::size_of(c.recvtype);
  auto conv = [&](std::size_t k) { return k * ss / rs; };  // send elements -> receive elements
  cl.ranks.assign(n, {});
  for (M::rank_args& a : cl.ranks) {
    a.sendtype = c.sendtype;
    a.recvtype = c.recvtype;
  }
  switch (c.kind) {
    case collective::bcast:
    case collective::scatter:
    case collective::gather:
    case collective::allgather:
    case collective::alltoall:
      for (M::rank_args& a : cl.ranks) {
        a.sendcount = c.count;
        a.recvcount = conv(c.count);
      }
      break;
    case collective::scatterv: {
      M::rank_args& root = cl.ranks[cl.root];
      for (int t = 0; t < n; ++t) root.sendcnts.push_back(irregular(s, t, 2, c.count));
      root.sdispls = layout(root.sendcnts, hash3(s, 3, 0));
      for (int t = 0; t < n; ++t) cl.ranks[t].recvcount = conv(root.sendcnts[t]);
      break;
    }
    case collective::gatherv:
    case collective::allgatherv: {
      std::vector<std::size_t> k;
      for (int t = 0; t < n; ++t) {
        cl.ranks[t].sendcount = irregular(s, t, 4, c.count);
        k.push_back(conv(cl.ranks[t].sendcount));
      }
      const std::vector<std::size_t> d = layout(k, hash3(s, 5, 0));
      for (int t = 0; t < n; ++t)
        if (c.kind == collective::allgatherv || t == cl.root) {
          cl.ranks[t].recvcnts = k;
          cl.ranks[t].rdispls = d;
        }
      break;
    }
    case collective::alltoallv:
      for (int t = 0; t < n; ++t) {
        M::rank_args& a = cl.ranks[t];
        // in place, t sends its receive block r to r: the counts are symmetric
        for (int r = 0; r < n; ++r)
          a.sendcnts.push_back(c.in_place ? irregular(s, std::min(t, r) * 1000 + std::max(t, r), 7, c.count)
                                          : irregular(s, t * 1000 + r, 7, c.count));
        a.sdispls = layout(a.sendcnts, hash3(s, 8, t));
      }
      for (int r = 0; r < n; ++r) {
        M::rank_args& a = cl.ranks[r];
        for (int t = 0; t < n; ++t) a.recvcnts.push_back(conv(cl.ranks[t].sendcnts[r]));
        a.rdispls = layout(a.recvcnts, hash3(s, 9, r));
      }
      break;
    default: break;
  }
  return cl;
}

// Bytes before the pointer and after the extent of each window.
constexpr std::size_t guard = 24;
inline std::size_t skew_of(const ucase& c, int t, int which) {
  const std::uint64_t h = h4(c.seed, t, which, 0x5e);
  const bool byte_typed = c.sendtype == UPC_BYTE && (M::is_reduction(c.kind) || c.recvtype == UPC_BYTE);
  return byte_typed ? h % 13 : 16 * (h % 3);  // typed buffers stay aligned to their type
}

// Bytes of thread t's send window that hold its data: its send buffer, or in
// place the input it holds in its receive window (made in the send window, as
// if sent from there, and copied over before the call).
inline std::size_t data_extent(const M::call& cl, int rank) {
  return std::max(M::send_extent(cl, rank), M::in_place_input(cl, rank).n);
}

// A case prepared for one THREADS count: teams and every team's call.
struct prepared {
  ucase c;
  team_plan plan;
  std::vector<M::call> call_of;  // [world thread]: the call of its team
  std::vector<std::size_t> send_skew, recv_skew, send_win, recv_win;  // [world thread]
};

inline prepared prepare(const ucase& c, int T) {
  prepared p;
  p.c = c;
  p.plan = make_team_plan(c.seed, c.team_levels, T);
  for (int t = 0; t < T; ++t) {
    const std::vector<int>& mem = p.plan.members[t];
    p.call_of.push_back(make_call(c, static_cast<int>(mem.size()), static_cast<std::uint64_t>(mem[0])));
    const int r = p.plan.rank[t];
    p.send_skew.push_back(skew_of(c, t, 0));
    p.recv_skew.push_back(skew_of(c, t, 1));
    p.send_win.push_back(p.send_skew[t] + data_extent(p.call_of[t], r) + guard);
    p.recv_win.push_back(p.recv_skew[t] + M::recv_extent(p.call_of[t], r) + guard);
  }
  return p;
}

// Bytes [from, from+n) of world thread t's send window before the call.
inline void send_window_bytes(const prepared& p, int t, std::size_t from, std::size_t n, std::uint8_t* out) {
  fill_pattern<send_word>(out, n, t, p.c.seed, from);
  if (!M::is_reduction(p.c.kind)) return;
  const std::size_t E = M::size_of(p.c.sendtype), lo = p.send_skew[t];
  const std::size_t hi = lo + data_extent(p.call_of[t], p.plan.rank[t]);
  const std::size_t a = std::max(from, lo), b = std::min(from + n, hi);
  std::vector<std::uint8_t> item(E);
  for (std::size_t x = a; x < b;) {
    const std::size_t k = (x - lo) / E, in = (x - lo) % E;
    make_item(p.c.sendtype, p.c.op, p.c.seed, t, k, item.data());
    const std::size_t m = std::min(E - in, b - x);
    std::memcpy(out + (x - from), item.data() + in, m);
    x += m;
  }
}

// In place: thread t's input, from its send window, where the call reads it in
// its receive window.
inline void place_input(const prepared& p, int t, std::uint8_t* recv_window) {
  const M::span in = M::in_place_input(p.call_of[t], p.plan.rank[t]);
  if (in.n) send_window_bytes(p, t, p.send_skew[t], in.n, recv_window + p.recv_skew[t] + in.at);
}

inline std::vector<std::uint8_t> recv_window_before(const prepared& p, int t) {
  std::vector<std::uint8_t> v(p.recv_win[t]);
  fill_pattern<recv_word>(v.data(), v.size(), t, p.c.seed, 0);
  place_input(p, t, v.data());
  return v;
}

// ---------------------------------------------------------------------------
// The matrix

enum class level { quick, full };

constexpr std::size_t count_bytes[] = {0, 1, 13, 1021, 16384 + 3};

// (sendtype, recvtype) pairs of data movement: the receiving type's size divides
// the sending type's, so the byte counts of both sides can agree.
inline const std::vector<std::pair<upccoll_dtype_t, upccoll_dtype_t>>& movement_types() {
  static const std::vector<std::pair<upccoll_dtype_t, upccoll_dtype_t>> v = {
      {UPC_BYTE, UPC_BYTE},       {UPC_INT, UPC_INT},           {UPC_DOUBLE, UPC_DOUBLE},
      {UPC_LONGDOUBLE, UPC_LONGDOUBLE}, {UPC_DBLCPLX, UPC_DBLCPLX}, {UPC_DOUBLE_INT, UPC_DOUBLE_INT},
      {UPC_INT, UPC_BYTE},        {UPC_DOUBLE, UPC_2INT},       {UPC_LONGDOUBLE, UPC_DBLCPLX},
      {UPC_SHORT_INT, UPC_UINT}};
  return v;
}

// (dt, op) of the reductions: every type, every op at least once, the user ops.
inline const std::vector<std::pair<upccoll_dtype_t, upccoll_op_t>>& reduction_types() {
  static const std::vector<std::pair<upccoll_dtype_t, upccoll_op_t>> v = {
      {UPC_INT, UPC_ADD},           {UPC_DOUBLE, UPC_ADD},          {UPC_LONGDOUBLE, UPC_ADD},
      {UPC_DBLCPLX, UPC_MULT},      {UPC_DOUBLE_INT, UPC_MINLOC},   {UPC_BYTE, UPC_XOR},
      {UPC_2INT, op_affine},        {UPC_DBLCPLX, op_matrix},       {UPC_DOUBLE, op_dsum},
      {UPC_CHAR, UPC_ADD},          {UPC_UCHAR, UPC_MAX},           {UPC_SHORT, UPC_MULT},
      {UPC_USHORT, UPC_MULT},       {UPC_UINT, UPC_AND},            {UPC_LONG, UPC_MIN},
      {UPC_ULONG, UPC_OR},          {UPC_LONGLONG, UPC_LOGAND},     {UPC_ULONGLONG, UPC_MULT},
      {UPC_FLOAT, UPC_ADD},         {UPC_DOUBLE, UPC_MULT},         {UPC_LONGDOUBLE, UPC_MAX},
      {UPC_FLOAT, UPC_LOGOR},       {UPC_CPLX, UPC_ADD},            {UPC_LONGDBLCPLX, UPC_ADD},
      {UPC_FLOAT_INT, UPC_MAXLOC},  {UPC_LONG_INT, UPC_MINLOC},     {UPC_2INT, UPC_MAXLOC},
      {UPC_SHORT_INT, UPC_MINLOC},  {UPC_LONG_DOUBLE_INT, UPC_MAXLOC}, {UPC_SHORT, UPC_LOGOR},
      {UPC_UINT, UPC_LOGXOR},       {UPC_DOUBLE, UPC_LOGXOR}};
  return v;
}

using conformance::sample;
using conformance::seed_of;

// The cases of one collective for one (algorithm, backend, THREADS) run: every
// count × every type (pair) of the collective, with the sync flags, the
// completion, the team, the root, garbage arguments, a late thread and (a third
// of the cases) UPCCOLL_IN_PLACE cycling through their values. quick keeps `quick_keep` of them, and one of the
// biggest count at THREADS <= 8.
inline std::vector<ucase> matrix(collective k, int T, level lv, std::uint64_t salt, std::size_t quick_keep = 16) {
  std::vector<ucase> all, big;
  const std::vector<upccoll_flag_t>& flags = sync_flag_values();
  const std::size_t ntypes = k == collective::barrier ? 1 : M::is_reduction(k) ? reduction_types().size() : movement_types().size();
  // data movement is cheap: each (count, type) three times, with other flags,
  // completions, teams and roots
  const int reps = M::is_reduction(k) || k == collective::barrier ? 1 : 3;
  std::size_t i = 0;
  for (int rep = 0; rep < reps; ++rep)
  for (std::size_t cb : count_bytes)
    for (std::size_t ty = 0; ty < ntypes; ++ty, ++i) {
      if (k == collective::barrier) continue;
      ucase c;
      c.kind = k;
      if (M::is_reduction(k)) {
        c.sendtype = c.recvtype = reduction_types()[ty].first;
        c.op = reduction_types()[ty].second;
      } else if (k != collective::barrier) {
        c.sendtype = movement_types()[ty].first;
        c.recvtype = movement_types()[ty].second;
      }
      const std::size_t E = M::size_of(c.sendtype);
      c.count = cb == 0 ? 0 : std::max<std::size_t>(1, cb / E);
      c.seed = seed_of(salt, i);
      const std::uint64_t h = hash3(salt, i, 0xF1A9);
      c.flags = flags[(i * 7 + h % 3) % flags.size()];
      c.how = static_cast<completion>((i + h / 3) % 4);
      c.team_levels = static_cast<int>((i / 2 + h / 11) % 3);
      if (T == 1) c.team_levels = std::min(c.team_levels, 1);
      c.root_pick = static_cast<int>((i + h / 5) % 4);
      c.garbage = ((h >> 20) & 1) != 0;
      c.late = (h >> 24) % 5 == 0 ? static_cast<int>((h >> 28) % static_cast<std::uint64_t>(T)) : -1;
      c.in_place = has_in_place(k) && (h >> 40) % 3 == 0;
      (cb > 4096 ? big : all).push_back(c);
    }
  if (k == collective::barrier) {  // barriers: every flag × completion × team level
    all.clear();
    for (std::size_t f = 0; f < flags.size(); ++f)
      for (int how = 0; how < 4; ++how) {
        ucase c;
        c.kind = k;
        c.flags = flags[f];
        c.how = static_cast<completion>(how);
        c.team_levels = static_cast<int>((f + how) % 3);
        c.seed = seed_of(salt, 1000 + f * 4 + how);
        c.late = (f + how) % 3 == 0 ? static_cast<int>(c.seed % static_cast<std::uint32_t>(T)) : -1;
        all.push_back(c);
      }
  }
  if (lv == level::full) {
    all.insert(all.end(), big.begin(), big.end());
    return all;
  }
  std::vector<ucase> v = sample(all, quick_keep, salt);
  if (!big.empty() && T <= 8) {
    const std::vector<ucase> b = sample(big, 1, salt + 1);
    v.insert(v.end(), b.begin(), b.end());
  }
  return v;
}

}  // namespace uconf
