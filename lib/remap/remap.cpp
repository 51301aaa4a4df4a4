// The remap operator's gather and scatter (seed 004 §4.4, Figure 3) on the
// shared segment: an inspector that builds a schedule (the processor map,
// per-thread buckets of indices, counts), exchanged one-sidedly through each
// thread's own shared areas, and an executor that moves the data:
//
//   gather  (D := S#[M]):  I walk my part of the region in D, ask the owner of
//           S[M(i)] for it (its local offset in my point area); owners read my
//           requests, and put the values into my data area; I copy them into D
//           in walk order.
//   scatter (D#[M] := S):  I walk my part of the region in S, pack S[i] into my
//           data area bucket of D[M(i)]'s holders (every replica of a flooded
//           dimension), with D's local offsets beside them; each holder fetches
//           its buckets, in thread order, and assigns or combines.
//
// Every call starts and ends with a barrier (a collective statement, as in ZPL).
// Schedules are kept (§4.5.1 map saving) while the arrays, the region and the
// maps are unchanged: a map array's write version (summed over threads, the
// same on every thread after the entry barrier) is part of the key, so a write
// on any thread invalidates the schedule everywhere.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <memory>
#include <sstream>

#include "../runtime/static_objects.hpp"
#include "../runtime/traffic.hpp"
#include "srle.hpp"
#include "upc/error.hpp"
#include "upc/memops.hpp"
#include "upc/remap.hpp"
#include "upc/sync.hpp"

namespace upc::remap {

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string index_text(const point& i, int rank) {
  std::ostringstream s;
  s << '(';
  for (int d = 0; d < rank; ++d) s << (d ? ", " : "") << i[static_cast<std::size_t>(d)];
  s << ')';
  return s.str();
}

std::string map_name(const map& m, std::size_t k) {
  std::string s = "map " + std::to_string(k + 1);
  switch (m.k) {
    case map::kind::index_of: return s + " (Index" + std::to_string(m.dimension + 1) + ")";
    case map::kind::array: return s + " (array " + m.array.name + ")";
    case map::kind::expression: return s + " (an expression)";
  }
  return s;
}

// What identifies a schedule: the operation, the arrays, the region, the
// maps and, for map arrays, their write versions.
struct key {
  bool gather = true;
  bool compression = true, direct = true, dead_source = false, dead_destination = false, reuse = true;
  std::uint64_t dst = 0, src = 0;
  region over;
  std::vector<std::uint64_t> maps;  // per map: kind, dimension or identity, version
  friend bool operator==(const key&, const key&) = default;
};

// One thread's part of a schedule, and its shared areas: control (what it asks
// of each thread: count and offset), indices, data.
struct schedule {
  key k;
  // The processor map, kept per thread: my local offsets (gather: in D;
  // scatter: in S) of the elements that come from (go to) that thread, in
  // walk order, which is its bucket's order.
  std::vector<std::vector<std::uint64_t>> mine_for;
  std::vector<std::uint64_t> lcnt, loff;  // per thread: what I ask of it / send it, where in my areas
  std::vector<std::vector<std::uint64_t>> rind;  // per thread: its requests of me (gather: offsets in S; scatter: in D)
  std::vector<std::uint64_t> roff;              // per thread: where in its areas
  std::vector<sptr<void>> their_data;           // per thread: its data area
  sptr<void> control, indices, data;            // mine (upc::alloc in my partition)
  std::size_t elem = 0;
  double inspector_seconds = 0;
  // §4.5.3: once the inspector is done, both are kept run-length encoded,
  // per thread pair (a transpose's: a few runs each), and the vectors dropped.
  bool compressed = false;
  std::vector<srle> mine_c, rind_c;  // per thread
  // §4.5.5: where a bucket is a straight copy, no buffer in between.
  // my_direct[p]: my offsets for p's bucket are one ascending run from this
  // element — gather: of my D block (p puts it there; I skip unpacking it);
  // scatter: of my S block (p reads it there; I skip packing it);
  // their_direct[q]: the same, told by q;
  // from_direct[q]: q's offsets in my block are one run from this element —
  // gather: of my S block (I send straight from it); scatter: of my D block
  // (I get it straight there, assignment only). none: not straight.
  std::vector<std::uint64_t> my_direct, their_direct, from_direct;
  // §4.5.4 (gather): the caller said the source is dead after the remap and
  // my part of it holds everything I receive: the data buckets live there
  // (no data area); and, the destination dead before, I pack into it.
  bool receive_in_source = false;
  shared_address source_block{};  // my block of S, when receive_in_source
};
constexpr std::uint64_t none = ~std::uint64_t{0};

// The first of a contiguous ascending list of offsets, or none.
std::uint64_t straight(const std::vector<std::uint64_t>& v) {
  if (v.empty()) return none;
  for (std::size_t k = 1; k < v.size(); ++k)
    if (v[k] != v[0] + k) return none;
  return v[0];
}

// Thread q's requests of me (local offsets), in order, however kept.
template <class F>
void each_request(const schedule& s, int q, F&& f) {
  if (!s.compressed) {
    for (std::uint64_t off : s.rind[static_cast<std::size_t>(q)]) f(off);
    return;
  }
  s.rind_c[static_cast<std::size_t>(q)].for_each([&](const std::int64_t* t) { f(static_cast<std::uint64_t>(t[0])); });
}
std::size_t requests_of(const schedule& s, int q) {
  return s.compressed ? s.rind_c[static_cast<std::size_t>(q)].count() : s.rind[static_cast<std::size_t>(q)].size();
}

// Contiguous stretches of a raw list of offsets, in order: f(first, 1, count).
template <class F>
void each_run(const std::vector<std::uint64_t>& v, F&& f) {
  for (std::size_t k = 0; k < v.size();) {  // contiguous stretches as one run
    std::size_t j = k + 1;
    while (j < v.size() && v[j] == v[j - 1] + 1) ++j;
    f(static_cast<std::int64_t>(v[k]), std::int64_t{1}, static_cast<std::int64_t>(j - k));
    k = j;
  }
}

// Element copies of E bytes, inlined for the common sizes.
template <std::size_t E>
void copy_strided(char* to, std::ptrdiff_t to_step, const char* from, std::ptrdiff_t from_step, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k, to += to_step, from += from_step) std::memcpy(to, from, E);
}
void copy_elements(char* to, std::ptrdiff_t to_step, const char* from, std::ptrdiff_t from_step, std::int64_t n, std::size_t E) {
  if (n <= 0) return;
  if (static_cast<std::size_t>(to_step) == E && static_cast<std::size_t>(from_step) == E) {
    std::memcpy(to, from, static_cast<std::size_t>(n) * E);
    return;
  }
  switch (E) {
    case 4: return copy_strided<4>(to, to_step, from, from_step, n);
    case 8: return copy_strided<8>(to, to_step, from, from_step, n);
    case 16: return copy_strided<16>(to, to_step, from, from_step, n);
    default:
      for (std::int64_t k = 0; k < n; ++k, to += to_step, from += from_step) std::memcpy(to, from, E);
  }
}

// The elements of an encoded list as nested strided loops, the level with the
// smallest array stride innermost (a transpose's rows are then read or written
// along the array, and the bucket is the strided side: it is the smaller
// one): f(array offset, array stride, bucket position, bucket stride, count)
// per innermost loop. Positions are the elements' places in list order.
template <class F>
void each_loop(const srle& c, F&& f) {
  std::int64_t done = 0;  // list positions before this run
  for (std::size_t r = 0; r < c.runs(); ++r) {
    const srle_run run = c.run(r);
    const int L = run.levels();
    std::array<std::int64_t, srle_max_levels> stride{}, length{}, weight{}, at{};
    std::array<int, srle_max_levels> order{};
    std::int64_t w = 1;
    for (int l = 0; l < L; ++l) {
      const std::size_t u = static_cast<std::size_t>(l);
      stride[u] = run.stride(l)[0];
      length[u] = run.length(l);
      weight[u] = w;
      w *= length[u];
      order[u] = l;
    }
    // innermost: the level of more than one element with the smallest array
    // stride (the first level when none has more than one); the rest outside
    // it in their own order
    int inner = 0;
    for (int l = 0; l < L; ++l) {
      const std::size_t u = static_cast<std::size_t>(l), i = static_cast<std::size_t>(inner);
      if (length[u] > 1 && (length[i] == 1 || std::llabs(stride[u]) < std::llabs(stride[i]))) inner = l;
    }
    order[0] = inner;
    for (int l = 0, k = 1; l < L; ++l)
      if (l != inner) order[static_cast<std::size_t>(k++)] = l;
    const std::size_t in = static_cast<std::size_t>(inner);
    while (true) {
      std::int64_t off = run.start()[0], pos = done;
      for (int k = 1; k < L; ++k) {
        const std::size_t u = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
        off += at[u] * stride[u];
        pos += at[u] * weight[u];
      }
      f(off, stride[in], pos, weight[in], length[in]);
      int k = 1;
      for (; k < L; ++k) {
        const std::size_t u = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
        if (++at[u] < length[u]) break;
        at[u] = 0;
      }
      if (k >= L) break;
    }
    done += w;
  }
}

// buf[k] = base[offset k] (gathering a list's elements into a bucket), or the
// reverse (spreading a bucket over the list's elements), loop by loop.
void gather_list(char* buf, const char* base, const srle& offsets, std::size_t E) {
  if (!offsets.encoded()) {
    std::int64_t k = 0;
    offsets.for_each([&](const std::int64_t* t) { std::memcpy(buf + (k++) * static_cast<std::int64_t>(E), base + t[0] * static_cast<std::int64_t>(E), E); });
    return;
  }
  const std::int64_t e = static_cast<std::int64_t>(E);
  each_loop(offsets, [&](std::int64_t off, std::int64_t stride, std::int64_t pos, std::int64_t step, std::int64_t n) {
    copy_elements(buf + pos * e, static_cast<std::ptrdiff_t>(step * e), base + off * e, static_cast<std::ptrdiff_t>(stride * e), n, E);
  });
}
void spread_list(char* base, const char* buf, const srle& offsets, std::size_t E) {
  if (!offsets.encoded()) {
    std::int64_t k = 0;
    offsets.for_each([&](const std::int64_t* t) { std::memcpy(base + t[0] * static_cast<std::int64_t>(E), buf + (k++) * static_cast<std::int64_t>(E), E); });
    return;
  }
  const std::int64_t e = static_cast<std::int64_t>(E);
  each_loop(offsets, [&](std::int64_t off, std::int64_t stride, std::int64_t pos, std::int64_t step, std::int64_t n) {
    copy_elements(base + off * e, static_cast<std::ptrdiff_t>(stride * e), buf + pos * e, static_cast<std::ptrdiff_t>(step * e), n, E);
  });
}
void gather_list(char* buf, const char* base, const std::vector<std::uint64_t>& offsets, std::size_t E) {
  each_run(offsets, [&](std::int64_t first, std::int64_t stride, std::int64_t n) {
    copy_elements(buf, static_cast<std::ptrdiff_t>(E), base + first * static_cast<std::int64_t>(E),
                  static_cast<std::ptrdiff_t>(stride * static_cast<std::int64_t>(E)), n, E);
    buf += n * static_cast<std::int64_t>(E);
  });
}
void spread_list(char* base, const char* buf, const std::vector<std::uint64_t>& offsets, std::size_t E) {
  each_run(offsets, [&](std::int64_t first, std::int64_t stride, std::int64_t n) {
    copy_elements(base + first * static_cast<std::int64_t>(E), static_cast<std::ptrdiff_t>(stride * static_cast<std::int64_t>(E)),
                  buf, static_cast<std::ptrdiff_t>(E), n, E);
    buf += n * static_cast<std::int64_t>(E);
  });
}
// The same on a schedule's lists, however kept: `use` gets thread p's list of
// `plain`, or of `encoded` once the schedule is compressed.
template <class Use>
void with_list(const schedule& s, const std::vector<std::vector<std::uint64_t>>& plain, const std::vector<srle>& encoded, int p,
               Use&& use) {
  if (s.compressed) use(encoded[static_cast<std::size_t>(p)]);
  else use(plain[static_cast<std::size_t>(p)]);
}
void gather_mine(char* buf, const char* base, const schedule& s, int p, std::size_t E) {
  with_list(s, s.mine_for, s.mine_c, p, [&](const auto& l) { gather_list(buf, base, l, E); });
}
void spread_mine(char* base, const char* buf, const schedule& s, int p, std::size_t E) {
  with_list(s, s.mine_for, s.mine_c, p, [&](const auto& l) { spread_list(base, buf, l, E); });
}
void gather_requests(char* buf, const char* base, const schedule& s, int q, std::size_t E) {
  with_list(s, s.rind, s.rind_c, q, [&](const auto& l) { gather_list(buf, base, l, E); });
}
void spread_requests(char* base, const char* buf, const schedule& s, int q, std::size_t E) {
  with_list(s, s.rind, s.rind_c, q, [&](const auto& l) { spread_list(base, buf, l, E); });
}

// Encodes lists of offsets (levels: the rank of the array they index).
std::vector<srle> encode_all(std::vector<std::vector<std::uint64_t>>& lists, int levels) {
  std::vector<srle> out;
  for (std::vector<std::uint64_t>& l : lists) {
    srle_encoder enc(1, levels);
    for (std::uint64_t off : l) {
      const std::int64_t t = static_cast<std::int64_t>(off);
      enc.push(&t);
    }
    out.push_back(enc.finish());
    l = {};
  }
  return out;
}
void compress(schedule& s, int walk_levels, int request_levels) {
  s.mine_c = encode_all(s.mine_for, walk_levels);
  s.rind_c = encode_all(s.rind, request_levels);
  s.compressed = true;
}

// The directory through which threads find each other's control areas: one
// shared word per thread, allocated by the first remap of a run.
struct directory {
  sptr<void> words;
  bool ready = false;
  std::uint64_t run = 0;  // upc::detail::run_serial() when made: a cache of one run is never taken for another's
};
thread_local directory tl_directory;
thread_local std::vector<std::unique_ptr<schedule>> tl_saved;  // kept schedules, newest last
thread_local stats tl_stats;
constexpr std::size_t max_saved = 16;

std::uint64_t* word_on(const sptr<void>& base, int thread, std::size_t k = 0) {
  shared_address a = base.address();
  a.thread = static_cast<std::uint32_t>(thread);
  return reinterpret_cast<std::uint64_t*>(upc::detail::raw_address(a)) + k;
}
// The start of thread `thread`'s block of an array (phase 0).
shared_address block_start(const array_ref& a, int thread) {
  shared_address b = a.storage.address();
  b.thread = static_cast<std::uint32_t>(thread);
  b.phase = 0;
  return b;
}
char* bytes_on(const sptr<void>& base, int thread) {
  shared_address a = base.address();
  a.thread = static_cast<std::uint32_t>(thread);
  return upc::detail::raw_address(a);
}
sptr<void> at(const sptr<void>& base, std::uint64_t byte_offset) {
  shared_address a = base.address();
  a.offset += byte_offset;
  return sptr<void>(a);
}

// Where thread q's bucket of the exchange is on q's side: its data area, or
// (§4.5.5) one run of q's block of `arr` when q said so (a direct put).
sptr<void> bucket_of(const schedule& s, int q, const array_ref& arr, std::size_t E) {
  const std::size_t uq = static_cast<std::size_t>(q);
  if (s.their_direct[uq] == none) return at(s.their_data[uq], s.roff[uq] * E);
  ++tl_stats.direct_puts;
  return at(sptr<void>(block_start(arr, q)), s.their_direct[uq] * E);
}

key make_key(bool gather, const array_ref& dst, const array_ref& src, const region& over, const std::vector<map>& maps,
             const options& o, bool& cacheable) {
  key k{gather, o.compression, o.direct, o.dead_source, o.dead_destination, o.reuse, dst.id, src.id, over, {}};
  for (const map& m : maps) {
    k.maps.push_back(static_cast<std::uint64_t>(m.k));
    switch (m.k) {
      case map::kind::index_of: k.maps.push_back(static_cast<std::uint64_t>(m.dimension)); break;
      case map::kind::array:
        k.maps.push_back(m.array.id);
        k.maps.push_back(m.array.version->sum());
        cacheable = cacheable && m.array.tracked;  // untracked writes: never saved
        break;
      case map::kind::expression:
        k.maps.push_back(m.key);
        cacheable = cacheable && m.key != 0;
        break;
    }
  }
  return k;
}

// My indices of a blocked (UPC) layout within `over`, in index order.
template <class F>
void walk_cyclic(const layout& lay, const region& over, F&& f) {
  const std::uint64_t b = lay.cyclic_block(), T = static_cast<std::uint64_t>(lay.procs().size());
  const std::uint64_t n = static_cast<std::uint64_t>(lay.reg()[0].extent());
  const long lo = over[0].lo, hi = over[0].hi;
  for (std::uint64_t first = static_cast<std::uint64_t>(upc::mythread()) * b; first < n; first += b * T)
    for (std::uint64_t i = first; i < std::min(n, first + b); ++i)
      if (static_cast<long>(i) >= lo && static_cast<long>(i) <= hi) f(point{static_cast<long>(i), 0, 0, 0});
}

// My part of `over` in layout `lay`: the sub-block to walk (empty: nothing).
layout::block my_part(const layout& lay, const region& over) {
  layout::block b = lay.block_of(upc::mythread());
  if (b.empty) return b;
  for (int d = 0; d < over.rank(); ++d) {
    const std::size_t u = static_cast<std::size_t>(d);
    if (lay.reg()[d].flooded) continue;  // one stored point: the replica's
    b.lo[u] = std::max(b.lo[u], over[d].lo);
    b.hi[u] = std::min(b.hi[u], over[d].hi);
    if (b.hi[u] < b.lo[u]) b.empty = true;
  }
  return b;
}

void check_maps(const char* fn, const std::vector<map>& maps, int want, const char* of_what, const layout& aligned,
                const region& over) {
  if (static_cast<int>(maps.size()) != want)
    upc::detail::fail(fn, std::to_string(maps.size()) + " maps given; " + of_what + " has rank " + std::to_string(want) +
                              " and needs one map per dimension");
  for (std::size_t k = 0; k < maps.size(); ++k) {
    const map& m = maps[k];
    if (m.k == map::kind::index_of && m.dimension >= over.rank())
      upc::detail::fail(fn, map_name(m, k) + " names dimension " + std::to_string(m.dimension + 1) + " of a rank-" +
                                std::to_string(over.rank()) + " region " + over.text());
    if (m.k == map::kind::array && !(*m.array.lay == aligned))
      upc::detail::fail(fn, map_name(m, k) + " is over " + m.array.lay->reg().text() + " on a " + m.array.lay->procs().text() +
                                " grid; map arrays must have the layout of the array the region walks (" +
                                aligned.reg().text() + " on " + aligned.procs().text() + ")");
  }
}

point evaluate(const std::vector<map>& maps, const point& i, const layout& aligned) {
  point v{};
  for (std::size_t k = 0; k < maps.size(); ++k) {
    const map& m = maps[k];
    switch (m.k) {
      case map::kind::index_of: v[k] = i[static_cast<std::size_t>(m.dimension)]; break;
      case map::kind::expression: v[k] = m.f(i); break;
      case map::kind::array: {
        const int me = upc::mythread();
        long x;
        std::memcpy(&x, m.array.local_of(me) + aligned.local_offset(me, i) * sizeof(long), sizeof(long));
        v[k] = x;
        break;
      }
    }
  }
  return v;
}

[[noreturn]] void out_of_range(const char* fn, const std::vector<map>& maps, const point& v, const point& at, const region& target,
                               const region& over, const char* which) {
  std::size_t k = 0;
  while (k + 1 < maps.size() && v[k] >= target[static_cast<int>(k)].lo && v[k] <= target[static_cast<int>(k)].hi) ++k;
  upc::detail::fail(fn, map_name(maps[k], k) + " gives " + std::to_string(v[k]) + " at position " + index_text(at, over.rank()) +
                            ": the point " + index_text(v, target.rank()) + " is outside the " + which + " region " +
                            target.text());
}

// Lines 8-12 of Figure 3: counts and point buckets to the threads they concern.
void exchange(schedule& s, std::vector<std::vector<std::uint64_t>>& buckets, bool direct) {
  // (receive_in_source: decided by the caller from the totals, before this)
  const int T = upc::threads(), me = upc::mythread();
  s.lcnt.assign(static_cast<std::size_t>(T), 0);
  s.loff.assign(static_cast<std::size_t>(T), 0);
  std::uint64_t total = 0;
  for (int p = 0; p < T; ++p) {
    s.loff[static_cast<std::size_t>(p)] = total;
    s.lcnt[static_cast<std::size_t>(p)] = buckets[static_cast<std::size_t>(p)].size();
    total += s.lcnt[static_cast<std::size_t>(p)];
  }
  // control: per thread (count, offset), my index and data areas' addresses,
  // then per thread where its bucket may land directly (none: not straight)
  s.my_direct.assign(static_cast<std::size_t>(T), none);
  if (direct)
    for (int p = 0; p < T; ++p) s.my_direct[static_cast<std::size_t>(p)] = straight(s.mine_for[static_cast<std::size_t>(p)]);
  s.control = upc::alloc(static_cast<std::size_t>(3 * T + 4) * sizeof(std::uint64_t));
  s.indices = upc::alloc(static_cast<std::size_t>(std::max<std::uint64_t>(total, 1)) * sizeof(std::uint64_t));
  s.data = upc::alloc(s.receive_in_source ? 1 : static_cast<std::size_t>(std::max<std::uint64_t>(total, 1)) * s.elem);
  std::uint64_t* ctl = word_on(s.control, me);
  std::uint64_t* ind = word_on(s.indices, me);
  for (int p = 0; p < T; ++p) {
    ctl[2 * p] = s.lcnt[static_cast<std::size_t>(p)];
    ctl[2 * p + 1] = s.loff[static_cast<std::size_t>(p)];
    std::memcpy(ind + s.loff[static_cast<std::size_t>(p)], buckets[static_cast<std::size_t>(p)].data(),
                buckets[static_cast<std::size_t>(p)].size() * sizeof(std::uint64_t));
  }
  const shared_address ia = s.indices.address(), da = s.receive_in_source ? s.source_block : s.data.address();
  std::memcpy(ctl + 2 * T, &ia, sizeof ia);
  std::memcpy(ctl + 2 * T + 2, &da, sizeof da);
  for (int p = 0; p < T; ++p) ctl[2 * T + 4 + p] = s.my_direct[static_cast<std::size_t>(p)];
  *word_on(tl_directory.words, me) = s.control.address().offset;
  upc::barrier();
  // what every thread asks of me
  s.rind.assign(static_cast<std::size_t>(T), {});
  s.roff.assign(static_cast<std::size_t>(T), 0);
  s.their_data.assign(static_cast<std::size_t>(T), sptr<void>());
  s.their_direct.assign(static_cast<std::size_t>(T), none);
  s.from_direct.assign(static_cast<std::size_t>(T), none);
  for (int q = 0; q < T; ++q) {
    shared_address c{*word_on(tl_directory.words, q), static_cast<std::uint32_t>(q), 0};
    std::uint64_t theirs[2];
    upc::memget(theirs, sptr<void>(shared_address{c.offset + static_cast<std::uint64_t>(2 * me) * 8, c.thread, 0}), sizeof theirs);
    shared_address areas[2];
    upc::memget(areas, sptr<void>(shared_address{c.offset + static_cast<std::uint64_t>(2 * T) * 8, c.thread, 0}), sizeof areas);
    s.their_data[static_cast<std::size_t>(q)] = sptr<void>(areas[1]);
    s.roff[static_cast<std::size_t>(q)] = theirs[1];
    std::vector<std::uint64_t>& r = s.rind[static_cast<std::size_t>(q)];
    r.resize(theirs[0]);
    if (theirs[0]) upc::memget(r.data(), at(sptr<void>(areas[0]), theirs[1] * 8), theirs[0] * 8);
    if (direct) {
      upc::memget(&s.their_direct[static_cast<std::size_t>(q)],
                  sptr<void>(shared_address{c.offset + static_cast<std::uint64_t>(2 * T + 4 + me) * 8, c.thread, 0}), 8);
      s.from_direct[static_cast<std::size_t>(q)] = straight(r);
    }
  }
}

schedule* find_saved(const key& k) {
  for (auto& s : tl_saved)
    if (s->k == k) return s.get();
  return nullptr;
}

void release(schedule& s) {
  upc::free(s.control);
  upc::free(s.indices);
  upc::free(s.data);
}

// Keeps a schedule for later calls (every thread keeps and drops the same ones).
schedule* keep(std::unique_ptr<schedule> s) {
  while (tl_saved.size() >= max_saved) {
    release(*tl_saved.front());
    tl_saved.erase(tl_saved.begin());
  }
  tl_saved.push_back(std::move(s));
  return tl_saved.back().get();
}

void ensure_directory() {
  if (tl_directory.ready && tl_directory.run == upc::detail::run_serial()) return;
  tl_saved.clear();  // an earlier run's schedules: their shared memory went with it
  tl_directory.words = upc::all_alloc(static_cast<std::size_t>(upc::threads()), sizeof(std::uint64_t));
  tl_directory.ready = true;
  tl_directory.run = upc::detail::run_serial();
}

// Figure 5's parts of my schedule: the processor map (with my offsets along
// the walk), the indices (the requests I keep and my index area), the data
// buckets (my data area).
void account(const schedule& s, stats& st) {
  st.map_bytes = 0;
  for (const auto& m : s.mine_for) st.map_bytes += m.size() * 8;
  for (const srle& m : s.mine_c) st.map_bytes += m.size_in_ints() * 8;
  std::uint64_t total = 0;
  for (std::uint64_t c : s.lcnt) total += c;
  st.index_bytes = 0;  // (my index area is freed once the exchange is over)
  for (const auto& r : s.rind) st.index_bytes += r.size() * 8;
  for (const srle& r : s.rind_c) st.index_bytes += r.size_in_ints() * 8;
  st.bucket_bytes = s.receive_in_source ? 0 : total * s.elem;  // §4.5.4: in the dead source
  st.runs = 0;
  for (const srle& m : s.mine_c) st.runs += m.runs();
  for (const srle& r : s.rind_c) st.runs += r.runs();
  st.schedule_bytes = st.map_bytes + st.index_bytes + st.bucket_bytes;
}

// The index of `thread`'s local element `offset` in layout `lay` (for messages).
point index_at(const layout& lay, int thread, std::uint64_t offset) {
  if (const std::uint64_t cb = lay.cyclic_block()) {
    const std::uint64_t T = static_cast<std::uint64_t>(lay.procs().size());
    return point{static_cast<long>(((offset / cb) * T + static_cast<std::uint64_t>(thread)) * cb + offset % cb), 0, 0, 0};
  }
  const layout::block b = lay.block_of(thread);
  point i = b.lo;
  for (int d = lay.rank() - 1; d >= 0; --d) {
    const std::size_t u = static_cast<std::size_t>(d);
    if (lay.reg()[d].flooded) continue;
    const std::uint64_t n = static_cast<std::uint64_t>(b.hi[u] - b.lo[u] + 1);
    i[u] = b.lo[u] + static_cast<long>(offset % n);
    offset /= n;
  }
  return i;
}

// The schedule of this call: a kept one, or a fresh one from `inspect`.
template <class Inspect>
schedule* schedule_for(const key& k, bool saving, bool direct, std::size_t elem, std::unique_ptr<schedule>& owned,
                       Inspect&& inspect) {
  const double t0 = now();
  if (saving)
    if (schedule* s = find_saved(k)) {
      tl_stats.reused = true;
      return s;
    }
  auto fresh = std::make_unique<schedule>();
  fresh->k = k;
  fresh->elem = elem;
  std::vector<std::vector<std::uint64_t>> buckets(static_cast<std::size_t>(upc::threads()));
  fresh->mine_for.assign(buckets.size(), {});
  inspect(*fresh, buckets);
  exchange(*fresh, buckets, direct);
  fresh->inspector_seconds = now() - t0;
  tl_stats.inspector_seconds = fresh->inspector_seconds;
  if (saving) return keep(std::move(fresh));
  owned = std::move(fresh);
  return owned.get();
}

// What both operations do first: check the call (the region walks the
// destination of a gather, the source of a scatter; the maps index the other
// array), synchronise, and make the schedule's key.
key begin_call(bool gather, const array_ref& dst, const array_ref& src, const std::vector<map>& maps, const options& o,
               const char* fn, region& over, bool& saving) {
  const array_ref& walked = gather ? dst : src;
  const array_ref& indexed = gather ? src : dst;
  const char* walked_name = gather ? "destination" : "source";
  over = o.over ? *o.over : walked.lay->reg();
  if (over.rank() != walked.lay->rank())
    upc::detail::fail(fn, "the region " + over.text() + " and the " + walked_name + " " + walked.lay->reg().text() +
                              " differ in rank");
  if (dst.elem != src.elem) upc::detail::fail(fn, "the source and destination elements differ in size");
  check_maps(fn, maps, indexed.lay->rank(), gather ? "the source" : "the destination", *walked.lay, over);
  upc::barrier();
  ensure_directory();
  tl_stats = stats{};
  saving = o.map_saving;
  return make_key(gather, dst, src, over, maps, o, saving);
}

}  // namespace

const stats& last_stats() noexcept { return tl_stats; }

void forget_schedules() {
  for (auto& s : tl_saved) release(*s);
  tl_saved.clear();
}

// A remap between its start and its completion.
struct pending::state {
  bool gather = true;
  array_ref dst, src;
  combine c;
  schedule* s = nullptr;
  std::unique_ptr<schedule> owned;  // not saved: released when complete
  double t1 = 0;
};

pending::pending(std::unique_ptr<state> s) : s_(std::move(s)) {}
pending::pending(pending&&) noexcept = default;
pending& pending::operator=(pending&&) noexcept = default;
pending::~pending() {
  if (s_ && std::uncaught_exceptions() == 0) complete();
}

void pending::complete() {
  if (!s_) return;
  state& st = *s_;
  schedule& s = *st.s;
  const int me = upc::mythread(), T = upc::threads();
  const std::size_t E = st.dst.elem;
  upc::wait();  // everyone's part of the exchange is in (the start's notify)
  char* to = st.dst.local_of(me);
  if (st.gather) {  // lines 18-22: my data area into D, in walk order
    const char* area = s.receive_in_source ? upc::detail::raw_address(s.source_block) : bytes_on(s.data, me);
    for (int p = 0; p < T; ++p) {
      if (s.my_direct[static_cast<std::size_t>(p)] != none) continue;  // p put it in place (§4.5.5)
      spread_mine(to, area + s.loff[static_cast<std::size_t>(p)] * E, s, p, E);
    }
  } else {  // every thread's bucket for me, in thread order
    std::vector<char> buf;
    for (int q = 0; q < T; ++q) {
      const std::size_t n = requests_of(s, q);
      if (!n) continue;
      const std::size_t uq = static_cast<std::size_t>(q);
      // §4.5.5: q's elements for me are one run of its S block (it did not
      // pack them), and/or they land in one run of my D block (no buffer)
      const sptr<void> from = bucket_of(s, q, st.src, E);
      if (!st.c.apply && s.from_direct[uq] != none) {
        upc::memget(to + s.from_direct[uq] * E, from, n * E);
        continue;
      }
      buf.resize(n * E);
      upc::memget(buf.data(), from, buf.size());
      if (!st.c.apply) {
        spread_requests(to, buf.data(), s, q, E);
        continue;
      }
      std::size_t e = 0;
      each_request(s, q, [&](std::uint64_t where) {
        st.c.apply(to + where * E, buf.data() + e * E, st.c.ctx);
        ++e;
      });
    }
  }
  upc::barrier();
  // Others read my index area only in the exchange, before that barrier: a
  // kept schedule has no more use for it.
  upc::free(s.indices);
  s.indices = sptr<void>();
  const_cast<versions*>(st.dst.version)->bump();  // the operator wrote D
  tl_stats.executor_seconds = now() - st.t1;
  account(s, tl_stats);
  for (int p = 0; p < T; ++p) {
    tl_stats.sources += s.lcnt[static_cast<std::size_t>(p)] > 0;
    tl_stats.readers += requests_of(s, p) > 0;
  }
  tl_stats.compressed = s.compressed;
  if (st.owned) release(*st.owned);
  s_.reset();
}

pending gather_start(const array_ref& dst, const array_ref& src, const std::vector<map>& maps, const options& o, const char* fn) {
  bool saving = false;
  region over;
  const key k = begin_call(true, dst, src, maps, o, fn, over, saving);
  const int me = upc::mythread(), T = upc::threads();
  const std::size_t E = dst.elem;
  auto st = std::make_unique<pending::state>();
  st->gather = true;
  st->dst = dst;
  st->src = src;
  // (in place, D := D#[…], a direct put could overwrite what I still send;
  // with dead arrays reused, the blocks hold buckets)
  const bool reuse = o.reuse && (o.dead_source || o.dead_destination) && dst.id != src.id;
  st->s = schedule_for(k, saving, o.direct && dst.id != src.id && !reuse, E, st->owned, [&](schedule& fresh, std::vector<std::vector<std::uint64_t>>& buckets) {
    const layout& D = *dst.lay;
    const layout& S = *src.lay;
    std::uint64_t received = 0;
    auto visit = [&](const point& i) {  // lines 1-7
      const point v = evaluate(maps, i, D);
      if (!S.reg().contains(v)) out_of_range(fn, maps, v, i, S.reg(), over, "source");
      const int p = S.owner(v);
      fresh.mine_for[static_cast<std::size_t>(p)].push_back(D.local_offset(me, i));
      buckets[static_cast<std::size_t>(p)].push_back(S.local_offset(p, v));
      ++received;
    };
    if (D.cyclic_block()) walk_cyclic(D, over, visit);
    else walk_block(D, my_part(D, over), [&](const point& i, std::uint64_t) { visit(i); });
    if (reuse && o.dead_source && received <= S.local_elements(me)) {  // §4.5.4: my buckets in my dead S block
      fresh.receive_in_source = true;
      fresh.source_block = block_start(src, me);
    }
  });
  schedule& s = *st->s;
  if (!tl_stats.reused && o.compression) compress(s, over.rank(), src.lay->rank());
  st->t1 = now();
  // lines 13-17: what each thread asks of me, into its data area
  const char* from = src.local_of(me);
  std::vector<char> buf;
  bool someone_receives_in_source = false;
  if (reuse) {  // (the same on every thread: the options are single-valued)
    someone_receives_in_source = o.dead_source;
  }
  if (someone_receives_in_source) {
    // §4.5.4: receivers' buckets are in their S blocks, so every S block must
    // be read (packed) before anyone puts: pack everything (into my dead D
    // block when it is big enough), wait for all, then put.
    std::uint64_t out = 0;
    for (int q = 0; q < T; ++q) out += requests_of(s, q);
    char* pack = nullptr;
    if (o.dead_destination && out <= dst.lay->local_elements(me)) pack = dst.local_of(me);
    else {
      buf.resize(out * E);
      pack = buf.data();
    }
    std::vector<std::uint64_t> at_q(static_cast<std::size_t>(T), 0);
    std::uint64_t k = 0;
    for (int q = 0; q < T; ++q) {
      at_q[static_cast<std::size_t>(q)] = k;
      gather_requests(pack + k * E, from, s, q, E);
      k += requests_of(s, q);
    }
    upc::barrier();
    for (int q = 0; q < T; ++q) {
      const std::size_t n = requests_of(s, q);
      if (n) upc::memput(at(s.their_data[static_cast<std::size_t>(q)], s.roff[static_cast<std::size_t>(q)] * E),
                         pack + at_q[static_cast<std::size_t>(q)] * E, n * E);
    }
    tl_stats.reused_dead_arrays = true;
    upc::notify();
    return pending(std::move(st));
  }
  for (int q = 0; q < T; ++q) {
    const std::size_t n = requests_of(s, q);
    if (!n) continue;
    const std::size_t uq = static_cast<std::size_t>(q);
    // where it goes: straight into q's D block when q said so, else q's data area
    const sptr<void> to = bucket_of(s, q, dst, E);
    if (s.from_direct[uq] != none) {  // a straight run of my S block: no packing
      upc::memput(to, from + s.from_direct[uq] * E, n * E);
      continue;
    }
    // packed straight into q's area (one address space for the shared
    // segment), one transfer for the traffic report and the network model
    char* into = upc::detail::raw_address(to.address());
    gather_requests(into, from, s, q, E);
    if (upc::detail::traffic::g_active) upc::detail::traffic::copied(into, from, n * E, me, "", "upc::remap::gather");
  }
  upc::notify();
  return pending(std::move(st));
}

pending scatter_start(const array_ref& dst, const std::vector<map>& maps, const array_ref& src, const combine& c, const options& o,
                      const char* fn) {
  bool saving = false;
  region over;
  const key k = begin_call(false, dst, src, maps, o, fn, over, saving);
  const int me = upc::mythread(), T = upc::threads();
  const std::size_t E = dst.elem;
  const layout& D = *dst.lay;
  auto st = std::make_unique<pending::state>();
  st->gather = false;
  st->dst = dst;
  st->src = src;
  st->c = c;
  // (in place, D#[…] := D, a direct read could see what was already written)
  st->s = schedule_for(k, saving, o.direct && dst.id != src.id, E, st->owned,
                       [&](schedule& fresh, std::vector<std::vector<std::uint64_t>>& buckets) {
    const layout& S = *src.lay;
    auto visit = [&](const point& i) {
      const point v = evaluate(maps, i, S);
      if (!D.reg().contains(v)) out_of_range(fn, maps, v, i, D.reg(), over, "destination");
      for (int p : D.holders(v)) {  // every replica of a flooded dimension
        fresh.mine_for[static_cast<std::size_t>(p)].push_back(S.local_offset(me, i));
        buckets[static_cast<std::size_t>(p)].push_back(D.local_offset(p, v));
      }
    };
    if (S.cyclic_block()) walk_cyclic(S, over, visit);
    else walk_block(S, my_part(S, over), [&](const point& i, std::uint64_t) { visit(i); });
  });
  schedule& s = *st->s;
  if (c.error_on_collision && !c.apply && !tl_stats.reused) {  // before anything is written
    std::vector<char> hit(static_cast<std::size_t>(D.local_elements(me)), 0);
    for (int q = 0; q < T; ++q)
      for (std::uint64_t off : s.rind[static_cast<std::size_t>(q)]) {
        if (hit[off]) {
          const point i = index_at(D, me, off);
          upc::detail::fail(fn, "two elements of the source are scattered to " + index_text(i, D.rank()) +
                                    " of the destination (the second from thread " + std::to_string(q) +
                                    "), and the caller asked for collisions to be an error");
        }
        hit[off] = 1;
      }
  }
  if (!tl_stats.reused && o.compression) compress(s, over.rank(), D.rank());
  st->t1 = now();
  // lines 13-17: my elements into my data area, bucket by bucket
  char* area = bytes_on(s.data, me);
  const char* from = src.local_of(me);
  for (int p = 0; p < T; ++p)  // (a straight run of my S: p reads it there, §4.5.5)
    if (s.my_direct[static_cast<std::size_t>(p)] == none) gather_mine(area + s.loff[static_cast<std::size_t>(p)] * E, from, s, p, E);
  upc::notify();
  return pending(std::move(st));
}

void gather(const array_ref& dst, const array_ref& src, const std::vector<map>& maps, const options& o, const char* fn) {
  gather_start(dst, src, maps, o, fn).complete();
}
void scatter(const array_ref& dst, const std::vector<map>& maps, const array_ref& src, const combine& c, const options& o,
             const char* fn) {
  scatter_start(dst, maps, src, c, o, fn).complete();
}

}  // namespace upc::remap
