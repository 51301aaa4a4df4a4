// The computational families of the extended collectives (seed 003, A.1.7,
// A.2.8, A.3.7, A.4): reduce, allreduce and prefix reduce in their in-place,
// vector-variant, team-based and get/put/priv forms, for the eleven types.
//
// Every form is the same three steps over an ordered list of pieces (runs of
// elements that one thread owns, in the order the result combines them):
//   1. each member folds its own pieces (its elements are its own: shared in
//      its partition or private to it) into one total per piece;
//   2. the totals travel through the engine's general data movement
//      (request::chunks): to the root (reduce) or to every member;
//   3. the root (reduce), every member (allreduce) or each piece's owner
//      (prefix) combines them in piece order and the results travel to their
//      destinations, again as chunks, with the caller's OUT synchronisation.
// The pieces fix the expression, so results are the same bits on every
// backend, THREADS count and algorithm, and the standard-shaped forms give the
// bits of upc_all_reduce / upc_all_prefix_reduce (docs/collectives.md,
// determinism): commutative reductions fold each thread's elements in index
// order and the per-thread partials in rank order; UPC_NONCOMM_FUNC and prefix
// reductions work block by block; the vector variants chunk by chunk, a chunk
// split where it crosses a block.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "../../coll/blocks.hpp"
#include "../../coll/request.hpp"
#include "../../coll/submit.hpp"
#include "../../coll/team.hpp"
#include "../collective_checks.hpp"
#include "call.hpp"
#include "families.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc::ext {

using coll::chunk;
using coll::place;
using detail::fail;

namespace {

std::string str(long long v) { return std::to_string(v); }

// An array of the call's elements: shared `shared [blk] TYPE[n]` from a
// pointer (its thread and phase respected, as the standard reductions do), or
// private (the same layout from thread 0, phase 0; each thread's buffer holds
// its own elements in local order).
struct elements {
  coll::blocked_array a{};
  bool is_private = false;
  char* mine = nullptr;  // this thread's private buffer

  int owner(std::uint64_t v) const noexcept {
    return a.blk ? a.owner_of_block(v / a.blk) : static_cast<int>(a.base.thread);
  }
  place at(std::uint64_t v) const noexcept {
    const int t = owner(v);
    const std::uint64_t li = a.local_index(v);
    if (is_private) return place{(li - a.first_local(t)) * a.elem, t, true};
    return place{(a.blk ? a.row_start() : a.base.offset) + li * a.elem, t, false};
  }
  // A machine address of one of my places.
  char* address(const place& p) const noexcept {
    return p.is_private ? mine + p.offset : detail::raw_address(shared_address{p.offset, static_cast<std::uint32_t>(p.thread), 0});
  }
};

elements shared_elements(const shared_address& base, std::size_t elem, std::size_t blk, std::size_t n) {
  return elements{coll::blocked_array{base, elem, blk, n, threads()}, false, nullptr};
}
elements private_elements(char* mine, std::size_t elem, std::size_t blk, std::size_t n) {
  return elements{coll::blocked_array{shared_address{0, 0, 0}, elem, blk, n, threads()}, true, mine};
}

struct piece {
  int owner;       // thread
  place src;       // its first element
  std::uint64_t n; // elements
  std::uint64_t to;  // prefix: the destination index of its first element (from dst's start)
};

// The pieces of a standard-shaped array: one per member thread (its elements,
// contiguous in its memory) when `per_thread`, else one per block; elements of
// non-members take no part.
std::vector<piece> array_pieces(const elements& e, const std::vector<char>& member, const std::vector<int>& rank_order,
                                bool per_thread) {
  std::vector<piece> v;
  const coll::blocked_array& a = e.a;
  if (per_thread || a.blk == 0) {
    for (int t : rank_order) {
      const std::uint64_t count = a.count_on(t);
      if (!count) continue;
      // the thread's first element in index order
      std::uint64_t first = a.v0();
      if (a.blk) {
        const std::uint64_t L = static_cast<std::uint64_t>(a.threads);
        const std::uint64_t b0 = a.first_block() + (static_cast<std::uint64_t>(t) + L - a.first_block() % L) % L;
        first = a.block_lo(b0);
      }
      v.push_back(piece{t, e.at(first), count, first - a.v0()});
    }
    return v;
  }
  for (std::uint64_t b = a.first_block(); b <= a.last_block(); ++b) {
    const std::uint64_t lo = a.block_lo(b), hi = a.block_hi(b);
    const int t = a.owner_of_block(b);
    if (!member[static_cast<std::size_t>(t)]) continue;
    v.push_back(piece{t, e.at(lo), hi - lo, lo - a.v0()});
  }
  return v;
}

coll::elem_op op_of(upc_op_t op) { return coll::element_op_of(op); }

struct reduction {
  call& c;
  const members_view& m;
  coll::element_op op;
  std::size_t E = 0;
  std::vector<char> member;   // by thread
  int me = 0, my_rank = -1;

  upc_flag_t in_flags() const { return c.flags & (UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC); }
  upc_flag_t out_flags() const { return c.flags & (UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC); }
  upc_flag_t algorithm_bits() const { return c.flags & (UPC_PULL | UPC_PUSH); }

  // One chunk collective on the call's members: `list` between this thread's
  // private `from` and `to` (either may be unused).
  void move(const std::vector<chunk>& list, char* from, char* to, upc_flag_t flags) {
    coll::request rq{};
    rq.kind = coll::collective::chunks;
    rq.function = c.function;
    rq.members = m.engine_team;
    rq.flags = flags | algorithm_bits();
    rq.src_private = from;
    rq.dst_private = to;
    rq.src_memory = from ? coll::memory::private_owner : coll::memory::shared;
    rq.dst_memory = to ? coll::memory::private_owner : coll::memory::shared;
    rq.chunks = &list;
    thread_local coll::request::named_value extras[8];
    rq.extra_single_valued_count = single_valued_scalars(c, extras);
    rq.extra_single_valued = extras;
    coll::submit(rq);
  }
  // The second movement keeps the caller's IN choice only where it still means
  // something: ALLSYNC was met by the first.
  upc_flag_t second_in() const { return in_flags() & UPC_IN_ALLSYNC ? UPC_IN_NOSYNC : (in_flags() ? in_flags() : UPC_IN_NOSYNC); }

  // Steps 1 and 2: my pieces' totals, then everyone's totals where they are
  // needed (`to_all`, or the member of thread `root`). Returns the totals in
  // piece order (empty where not gathered).
  std::vector<char> totals(const std::vector<piece>& pieces, const elements& src, bool to_all, int root, bool right = false) {
    // my totals, in piece order
    std::vector<std::size_t> slot(pieces.size());
    std::vector<std::size_t> per_owner(static_cast<std::size_t>(threads()), 0);
    for (std::size_t p = 0; p < pieces.size(); ++p) slot[p] = per_owner[static_cast<std::size_t>(pieces[p].owner)]++;
    std::vector<char> mine(std::max<std::size_t>(per_owner[static_cast<std::size_t>(me)], 1) * E);
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      const piece& q = pieces[p];
      if (q.owner != me) continue;
      const char* first = src.address(q.src);
      char* acc = mine.data() + slot[p] * E;
      if (right) {
        right_fold(acc, first, static_cast<std::size_t>(q.n));
        continue;
      }
      std::memcpy(acc, first, E);
      if (q.n > 1) op.fold(acc, first + E, static_cast<std::size_t>(q.n - 1));
    }
    // gathered: owner-major (each owner's totals contiguous)
    std::vector<std::size_t> owner_at(static_cast<std::size_t>(threads()), 0);
    std::size_t total = 0;
    for (int t = 0; t < threads(); ++t) {
      owner_at[static_cast<std::size_t>(t)] = total;
      total += per_owner[static_cast<std::size_t>(t)];
    }
    std::vector<char> all(std::max<std::size_t>(total, 1) * E);
    std::vector<chunk> list;
    for (int to_rank = 0; to_rank < static_cast<int>(m.threads.size()); ++to_rank) {
      const int to = m.threads[static_cast<std::size_t>(to_rank)];
      if (!to_all && to != root) continue;
      for (int from : m.threads)
        if (per_owner[static_cast<std::size_t>(from)])
          list.push_back(chunk{place{0, from, true}, place{owner_at[static_cast<std::size_t>(from)] * E, to, true},
                               per_owner[static_cast<std::size_t>(from)] * E});
    }
    move(list, mine.data(), all.data(), in_flags() | UPC_OUT_NOSYNC);
    // in piece order
    std::vector<char> ordered;
    if (to_all || me == root) {
      ordered.resize(pieces.size() * E);
      for (std::size_t p = 0; p < pieces.size(); ++p)
        std::memcpy(ordered.data() + p * E, all.data() + (owner_at[static_cast<std::size_t>(pieces[p].owner)] + slot[p]) * E, E);
    }
    return ordered;
  }

  // Suffix reductions, from the end: acc = x0 op (x1 op (… op x[n-1])), and
  // the scan to[i] = x[i] op to[i+1] (to[n-1] = x[n-1] op after, when given).
  // One element at a time through combine (dst = dst op src), so a
  // non-commutative function sees its operands in index order.
  void right_fold(char* acc, const char* x, std::size_t n) const {
    std::vector<char> tmp(E);
    std::memcpy(acc, x + (n - 1) * E, E);
    for (std::size_t i = n - 1; i-- > 0;) {
      std::memcpy(tmp.data(), x + i * E, E);
      op.combine(tmp.data(), acc, 1);
      std::memcpy(acc, tmp.data(), E);
    }
  }
  void suffix_scan(char* to, const char* x, std::size_t n, const char* after) const {
    std::vector<char> acc(E), tmp(E);
    for (std::size_t i = n; i-- > 0;) {
      std::memcpy(tmp.data(), x + i * E, E);
      const char* right = i + 1 < n ? acc.data() : after;
      if (right) op.combine(tmp.data(), right, 1);
      std::memcpy(acc.data(), tmp.data(), E);
      std::memcpy(to + i * E, acc.data(), E);
    }
  }

  // The fold of the totals in piece order (nothing when there are no pieces).
  bool fold_all(const std::vector<char>& ordered, std::size_t count, char* out) const {
    if (count == 0) return false;
    std::memcpy(out, ordered.data(), E);
    if (count > 1) op.fold(out, ordered.data() + E, count - 1);
    return true;
  }
};

}  // namespace

namespace {

void check_common(const call& c) {
  coll::check_reduction_op(c.function, c.op, c.type, c.func);
}

// The destination of a reduce (one element), of member m's allreduce element,
// as a place.
place shared_place(const shared_address& a) { return place{a.offset, static_cast<std::int32_t>(a.thread), false}; }

}  // namespace

void run_reduction(call& c, const members_view& mv) {
  check_common(c);
  reduction r{c, mv, coll::bind(c.type, op_of(c.op), c.func, 0, c.op != UPC_NONCOMM_FUNC), c.type_size, {}, 0, -1};
  r.member.assign(static_cast<std::size_t>(threads()), 0);
  for (int t : mv.threads) r.member[static_cast<std::size_t>(t)] = 1;
  r.me = detail::tl_mythread;
  for (std::size_t i = 0; i < mv.threads.size(); ++i)
    if (mv.threads[i] == r.me) r.my_rank = static_cast<int>(i);
  const std::size_t E = r.E;
  const bool in_place = c.is(variant::in_place), is_v = c.is(variant::v);
  const bool prefix = c.fam == family::prefix_reduce, to_all = c.fam == family::allreduce;
  constexpr int vv_chunks = 65536;  // UPC_EXTCOLLS_VV_CHUNKS (<upc_collective_ext.h>)

  // the source elements and the pieces
  elements src;
  std::vector<piece> pieces;
  std::size_t nelems = c.count;
  if (!is_v) {
    if (!c.has_count || nelems == 0) fail(c.function, "nelems must be > 0");
    coll::check_reduction_extent(c.function, nelems, c.blk_size, E);
    if (c.src.is_private) {
      src = private_elements(c.src.priv, E, c.blk_size, nelems);
    } else {
      coll::check_shared_pointer(c.function, in_place ? "buffer" : "src", c.src.shared);
      coll::check_reduction_phase(c.function, in_place ? "buffer" : "src", c.src.shared, c.blk_size);
      src = shared_elements(c.src.shared, E, c.blk_size, nelems);
    }
    const bool per_thread = !prefix && r.op.commutative;
    pieces = array_pieces(src, r.member, mv.threads, per_thread);
    if (per_thread) {  // rank order: only members' partials, the members' order
      std::vector<piece> kept;
      for (const piece& p : pieces)
        if (r.member[static_cast<std::size_t>(p.owner)]) kept.push_back(p);
      pieces.swap(kept);
    }
  } else {
    // the chunks: sdisp[j] (index from src's start), nelems[j]; prefix: ddisp[j]
    int nchunks = c.nchunks;
    bool cyclic = false;  // nchunks x UPC_EXTCOLLS_VV_CHUNKS: chunk j is thread j % THREADS's (§3.2.2)
    if (nchunks < 0) fail(c.function, "nchunks is " + str(nchunks) + ", negative");
    if (nchunks >= vv_chunks && nchunks % vv_chunks == 0) {
      nchunks /= vv_chunks;
      cyclic = true;
    }
    const std::size_t K = static_cast<std::size_t>(nchunks);
    check_arg_array(c, c.sdisp, K);
    check_arg_array(c, c.counts, K);
    if (prefix) check_arg_array(c, c.ddisp, K);
    // shared argument arrays are read after the IN synchronisation
    coll::team& t = mv.engine_team ? *mv.engine_team : coll::team::world();
    if (!(c.flags & UPC_IN_NOSYNC)) t.barrier(c.function);
    c.flags = (c.flags & ~(UPC_IN_ALLSYNC | UPC_IN_MYSYNC)) | UPC_IN_NOSYNC;
    if (c.src.is_private) {
    } else {
      coll::check_shared_pointer(c.function, "src", c.src.shared);
    }
    constexpr std::uint64_t max_block = std::uint64_t{1} << 32;
    if (c.src_blk > max_block) fail(c.function, "src_blk " + str(static_cast<long long>(c.src_blk)) + " is larger than UPC_MAX_BLOCK_SIZE");
    // an array long enough for every chunk (its length only bounds the arithmetic)
    std::uint64_t longest = 0;
    std::vector<std::uint64_t> first(K), count(K);
    for (std::size_t j = 0; j < K; ++j) {
      const long long d = c.sdisp.at(j), n = c.counts.at(j);
      if (d < 0) fail(c.function, "sdisp[" + str(static_cast<long long>(j)) + "] = " + str(d) + " is negative");
      if (n < 0 || static_cast<unsigned long long>(n) > (1ull << 40))
        fail(c.function, "nelems[" + str(static_cast<long long>(j)) + "] = " + str(n) + " is not a count of elements");
      first[j] = static_cast<std::uint64_t>(d);
      count[j] = static_cast<std::uint64_t>(n);
      longest = std::max(longest, first[j] + count[j]);
    }
    coll::check_reduction_extent(c.function, std::max<std::uint64_t>(longest, 1), c.src_blk, E, "src_blk");
    src = c.src.is_private ? private_elements(c.src.priv, E, c.src_blk, longest)
                           : shared_elements(shared_address{c.src.shared.offset, c.src.shared.thread, 0}, E, c.src_blk, longest);
    for (std::size_t j = 0; j < K; ++j) {
      const long long dd = prefix ? c.ddisp.at(j) : 0;
      if (dd < 0) fail(c.function, "ddisp[" + str(static_cast<long long>(j)) + "] = " + str(dd) + " is negative");
      for (std::uint64_t k = 0; k < count[j];) {
        const std::uint64_t v = src.a.v0() + first[j] + k;
        const std::uint64_t run = src.a.blk ? std::min<std::uint64_t>(count[j] - k, src.a.blk - v % src.a.blk) : count[j] - k;
        const int owner = src.owner(v);
        if (cyclic && owner != mv.threads[j % mv.threads.size()])
          fail(c.function, "nchunks asks for the cyclic order (UPC_EXTCOLLS_VV_CHUNKS), but chunk " + str(static_cast<long long>(j)) +
                               " has elements of thread " + str(owner) + ", not of thread " + str(static_cast<long long>(j % mv.threads.size())));
        pieces.push_back(piece{owner, src.at(v), run, static_cast<std::uint64_t>(dd) + k});
        k += run;
      }
    }
    if (pieces.empty()) fail(c.function, "the chunks hold no element: nothing to reduce");
    if (prefix) {  // no two chunks may write the same destination element
      std::vector<std::pair<std::uint64_t, std::size_t>> starts;  // (ddisp, chunk)
      for (std::size_t j = 0; j < K; ++j)
        if (count[j]) starts.push_back({static_cast<std::uint64_t>(c.ddisp.at(j)), j});
      std::sort(starts.begin(), starts.end());
      for (std::size_t i = 1; i < starts.size(); ++i) {
        const std::size_t a = starts[i - 1].second, b = starts[i].second;
        if (starts[i - 1].first + count[a] > starts[i].first)
          fail(c.function, "ddisp: chunks " + str(static_cast<long long>(std::min(a, b))) + " and " +
                               str(static_cast<long long>(std::max(a, b))) + " write the same destination elements (ddisp[" +
                               str(static_cast<long long>(a)) + "] = " + str(static_cast<long long>(starts[i - 1].first)) + ", " +
                               str(static_cast<long long>(count[a])) + " elements; ddisp[" + str(static_cast<long long>(b)) + "] = " +
                               str(static_cast<long long>(starts[i].first)) + "): destination ranges must not overlap");
      }
    }
    nelems = static_cast<std::size_t>(longest);
  }

  if (pieces.empty() && !prefix)
    fail(c.function, "no element of src has affinity to a member of the team: there is nothing to reduce");
  // a private source matters where its owner has elements
  if (c.src.is_private && !c.src.priv)
    for (const piece& q : pieces)
      if (q.owner == r.me)
        fail(c.function, std::string(in_place ? "buffer" : "src") + " is a null pointer, and this thread's private elements are read");

  // the root (reduce) and where results go
  int root_thread = mv.threads.front();
  place result_place{};
  bool result_private = false;
  if (!prefix) {
    if (in_place) {
      // the reduction's result: element 0 of buffer, or the root's first element (rooted)
      if (c.has_root) {
        if (c.root < 0 || c.root >= static_cast<int>(mv.threads.size()))
          fail(c.function, "root is " + str(c.root) + ", not a thread of 0.." + str(static_cast<long long>(mv.threads.size()) - 1));
        if (!c.src.is_private && c.src.shared.thread != 0)
          fail(c.function, "buffer has affinity to thread " + str(c.src.shared.thread) + "; the rooted forms take the array's start (thread 0)");
        if (c.blk_size == 0 && c.root != 0)
          fail(c.function, "root is " + str(c.root) + ", but with blk_size 0 every element is on buffer's thread");
        const std::uint64_t first = static_cast<std::uint64_t>(c.root) * c.blk_size;
        if (first >= nelems)
          fail(c.function, "root " + str(c.root) + " owns no element of the array (its first would be element " +
                               str(static_cast<long long>(first)) + ", nelems is " + str(static_cast<long long>(nelems)) + ")");
        const place p = src.at(src.a.v0() + first);
        root_thread = p.thread;
        result_place = p;
      } else {
        const place p = src.at(src.a.v0());
        root_thread = p.thread;
        result_place = p;
      }
      result_private = c.src.is_private;
    } else if (c.dst.is_private) {
      root_thread = mv.threads.front();
      result_place = place{0, root_thread, true};
      result_private = true;
    } else {
      coll::check_shared_pointer(c.function, "dst", c.dst.shared);
      root_thread = static_cast<int>(c.dst.shared.thread);
      result_place = shared_place(c.dst.shared);
    }
  }

  // steps 1 and 2
  const bool gather_everywhere = to_all || prefix;
  // a reduce to an element of a non-member: the first member folds and writes it
  const int folder = (to_all || prefix) ? -1 : (r.member[static_cast<std::size_t>(root_thread)] ? root_thread : mv.threads.front());
  // a private destination matters where a result is written
  if (c.dst.is_private && !c.dst.priv && !in_place) {
    bool written = to_all ? r.my_rank >= 0 : !prefix ? r.me == folder : false;
    for (const piece& q : pieces) written = written || (prefix && q.owner == r.me);
    if (written) fail(c.function, "dst is a null pointer, and this thread's private result is written");
  }
  const std::vector<char> ordered = r.totals(pieces, src, gather_everywhere, folder, c.suffix);

  // step 3
  std::vector<chunk> out;
  std::vector<char> result(std::max<std::size_t>(E, 1));
  char* dst_private = c.dst.is_private ? c.dst.priv : (in_place && c.src.is_private ? c.src.priv : nullptr);
  if (!prefix && !to_all) {
    if (r.me == folder && r.fold_all(ordered, pieces.size(), result.data()))
      out.push_back(chunk{place{0, folder, true}, result_place, E});
    r.move(out, result.data(), result_private ? dst_private : nullptr, r.second_in() | r.out_flags());
    return;
  }
  if (to_all) {
    const bool have = r.fold_all(ordered, pieces.size(), result.data());
    for (std::size_t k = 0; k < mv.threads.size() && have; ++k) {
      const int th = mv.threads[k];
      place d;
      if (in_place) {
        // buffer[i * blk_size] for each thread i (blk_size 0: buffer[0], written once)
        if (c.blk_size == 0 && k > 0) continue;
        d = c.src.is_private ? place{0, th, true} : src.at(src.a.v0() + (c.blk_size ? static_cast<std::uint64_t>(th) * c.blk_size : 0));
        if (!c.src.is_private && c.blk_size && static_cast<std::uint64_t>(th) * c.blk_size >= nelems) continue;
      } else if (c.dst.is_private) {
        d = place{0, th, true};
      } else {
        // dst + i as shared TYPE * (block size 1): member i's element
        const shared_address a = layout::advance(shared_address{c.dst.shared.offset, c.dst.shared.thread, 0},
                                                 static_cast<std::ptrdiff_t>(k), E, 1, threads());
        d = shared_place(a);
      }
      out.push_back(chunk{place{0, th, true}, d, E});
    }
    r.move(out, result.data(), dst_private, r.second_in() | r.out_flags());
    return;
  }
  // prefix: each owner scans its pieces with the fold of all earlier totals
  elements dst;
  if (in_place) {
    dst = src;
  } else if (c.dst.is_private) {
    if (is_v) {
      // as if dst were shared [dst_blk] TYPE from thread 0 (A.2.8)
      std::uint64_t longest = 0;
      for (const piece& q : pieces) longest = std::max(longest, q.to + q.n);
      dst = private_elements(c.dst.priv, E, c.dst_blk, longest);
    } else {
      dst = src;  // the same layout; each thread's buffer holds its own elements
      dst.is_private = true;
      dst.mine = c.dst.priv;
    }
  } else {
    coll::check_shared_pointer(c.function, "dst", c.dst.shared);
    if (is_v) {
      std::uint64_t longest = 0;
      for (const piece& q : pieces) longest = std::max(longest, q.to + q.n);
      dst = shared_elements(shared_address{c.dst.shared.offset, c.dst.shared.thread, 0}, E, c.dst_blk, longest);
    } else {
      coll::check_reduction_phase(c.function, "dst", c.dst.shared, c.blk_size);
      dst = shared_elements(c.dst.shared, E, c.blk_size, nelems);
    }
  }
  // Which pieces' results go straight into their owner's memory, and where
  // the others wait in their owner's staging buffer (the same arithmetic on
  // every member: the chunk list is the same everywhere).
  auto direct = [&](const piece& q) {
    const std::uint64_t v = dst.a.v0() + q.to;
    return dst.at(v).thread == q.owner && (dst.a.blk == 0 || v % dst.a.blk + q.n <= dst.a.blk);
  };
  std::vector<std::uint64_t> staged_at(pieces.size(), 0), staged_bytes(static_cast<std::size_t>(threads()), 0);
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const piece& q = pieces[p];
    if (direct(q)) continue;
    std::uint64_t& used = staged_bytes[static_cast<std::size_t>(q.owner)];
    staged_at[p] = used;
    for (std::uint64_t k = 0; k < q.n;) {
      const std::uint64_t v = dst.a.v0() + q.to + k;
      const std::uint64_t run = dst.a.blk ? std::min<std::uint64_t>(q.n - k, dst.a.blk - v % dst.a.blk) : q.n - k;
      out.push_back(chunk{place{used + k * E, q.owner, true}, dst.at(v), run * E});
      k += run;
    }
    used += q.n * E;
  }
  std::vector<char> running(E), staged(std::max<std::uint64_t>(staged_bytes[static_cast<std::size_t>(r.me)], 1));
  bool have_running = false;
  if (c.suffix) {
    // from the last piece back: each owner scans its piece from its end with
    // the fold of every later piece's total (S_p = T_p op S_{p+1})
    for (std::size_t p = pieces.size(); p-- > 0;) {
      const piece& q = pieces[p];
      if (q.owner == r.me) {
        char* to = direct(q) ? dst.address(dst.at(dst.a.v0() + q.to)) : staged.data() + staged_at[p];
        r.suffix_scan(to, src.address(q.src), static_cast<std::size_t>(q.n), have_running ? running.data() : nullptr);
      }
      std::vector<char> t(ordered.begin() + static_cast<std::ptrdiff_t>(p * E), ordered.begin() + static_cast<std::ptrdiff_t>((p + 1) * E));
      if (have_running) r.op.combine(t.data(), running.data(), 1);
      std::memcpy(running.data(), t.data(), E);
      have_running = true;
    }
    r.move(out, staged.data(), dst.is_private ? dst.mine : nullptr, r.second_in() | r.out_flags());
    return;
  }
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const piece& q = pieces[p];
    if (q.owner == r.me) {
      const char* in = src.address(q.src);
      const char* pre = have_running ? running.data() : nullptr;
      char* to = direct(q) ? dst.address(dst.at(dst.a.v0() + q.to)) : staged.data() + staged_at[p];
      r.op.scan(to, in, static_cast<std::size_t>(q.n), pre);
    }
    // the running total through this piece
    if (!have_running) {
      std::memcpy(running.data(), ordered.data() + p * E, E);
      have_running = true;
    } else {
      r.op.combine(running.data(), ordered.data() + p * E, 1);
    }
  }
  r.move(out, staged.data(), dst.is_private ? dst.mine : nullptr, r.second_in() | r.out_flags());
}

}  // namespace upc::ext
