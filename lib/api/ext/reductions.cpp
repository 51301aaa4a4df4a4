// The computational families' entry (run_reduction): the operation checked,
// the source read as pieces (a standard-shaped array, or the chunks of a
// vector variant), then the family's results (reduction.hpp for the three
// steps; reduce.cpp, allreduce.cpp, prefix_reduce.cpp).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "../../coll/engine.hpp"
#include "../collective_checks.hpp"
#include "arguments.hpp"
#include "reduction.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "number_text.hpp"

namespace upc::ext {

using detail::fail;

namespace {


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

// The standard-shaped forms: nelems elements of src (blk_size a block), in
// pieces: per member in rank order when the op commutes (not prefix), else
// per block.
void read_array(reduction& r) {
  call& c = r.c;
  const bool in_place = c.is(variant::in_place);
  const std::size_t nelems = c.count.value_or(0);
  if (!c.count.has_value() || nelems == 0) fail(c.function, "nelems must be > 0");
  coll::check_reduction_extent(c.function, nelems, c.blk_size, r.E);
  if (c.src.is_private) {
    r.src = private_elements(c.src.priv, r.E, c.blk_size, nelems);
  } else {
    coll::check_shared_pointer(c.function, in_place ? "buffer" : "src", c.src.shared);
    coll::check_reduction_phase(c.function, in_place ? "buffer" : "src", c.src.shared, c.blk_size);
    r.src = shared_elements(c.src.shared, r.E, c.blk_size, nelems);
  }
  const bool per_thread = c.fam != family::prefix_reduce && r.op.commutative;
  r.pieces = array_pieces(r.src, r.member, r.m.threads, per_thread);
  if (per_thread) {  // rank order: only members' partials, the members' order
    std::vector<piece> kept;
    for (const piece& p : r.pieces)
      if (r.member[static_cast<std::size_t>(p.owner)]) kept.push_back(p);
    r.pieces.swap(kept);
  }
  r.nelems = nelems;
}

// A vector variant's chunks: sdisp[j] (index from src's start) and nelems[j];
// prefix: ddisp[j] too.
struct chunk_list {
  std::size_t K = 0;
  bool cyclic = false;  // nchunks x UPC_EXTCOLLS_VV_CHUNKS: chunk j is thread j % THREADS's (§3.2.2)
  std::vector<std::uint64_t> first, count;
  std::uint64_t longest = 0;  // the length of an array that holds every chunk
};

// The chunks' arguments, checked and read after the IN synchronisation (it is
// met here, and the call goes on without one).
chunk_list read_chunk_list(reduction& r) {
  call& c = r.c;
  constexpr int vv_chunks = 65536;  // UPC_EXTCOLLS_VV_CHUNKS (<upc_collective_ext.h>)
  chunk_list l;
  int nchunks = c.nchunks.value_or(0);
  if (nchunks < 0) fail(c.function, "nchunks is " + str(nchunks) + ", negative");
  if (nchunks >= vv_chunks && nchunks % vv_chunks == 0) {
    nchunks /= vv_chunks;
    l.cyclic = true;
  }
  l.K = static_cast<std::size_t>(nchunks);
  check_arg_array(c, c.sdisp, l.K);
  check_arg_array(c, c.counts, l.K);
  if (c.fam == family::prefix_reduce) check_arg_array(c, c.ddisp, l.K);
  // shared argument arrays are read after the IN synchronisation
  coll::team& t = r.m.engine_team ? *r.m.engine_team : coll::team::world();
  if (!(c.flags & UPC_IN_NOSYNC)) t.barrier(c.function);
  c.flags = (c.flags & ~(UPC_IN_ALLSYNC | UPC_IN_MYSYNC)) | UPC_IN_NOSYNC;
  if (!c.src.is_private) coll::check_shared_pointer(c.function, "src", c.src.shared);
  constexpr std::uint64_t max_block = std::uint64_t{1} << 32;
  const std::size_t src_blk = c.src_blk.value_or(0);
  if (src_blk > max_block) fail(c.function, "src_blk " + str(static_cast<long long>(src_blk)) + " is larger than UPC_MAX_BLOCK_SIZE");
  l.first.resize(l.K);
  l.count.resize(l.K);
  for (std::size_t j = 0; j < l.K; ++j) {
    const long long d = c.sdisp.at(j), n = c.counts.at(j);
    if (d < 0) fail(c.function, "sdisp[" + str(static_cast<long long>(j)) + "] = " + str(d) + " is negative");
    if (n < 0 || static_cast<unsigned long long>(n) > (1ull << 40))
      fail(c.function, "nelems[" + str(static_cast<long long>(j)) + "] = " + str(n) + " is not a count of elements");
    l.first[j] = static_cast<std::uint64_t>(d);
    l.count[j] = static_cast<std::uint64_t>(n);
    l.longest = std::max(l.longest, l.first[j] + l.count[j]);
  }
  coll::check_reduction_extent(c.function, std::max<std::uint64_t>(l.longest, 1), src_blk, r.E, "src_blk");
  return l;
}

// prefix: no two chunks may write the same destination element.
void check_destinations_apart(const call& c, const chunk_list& l) {
  std::vector<std::pair<std::uint64_t, std::size_t>> starts;  // (ddisp, chunk)
  for (std::size_t j = 0; j < l.K; ++j)
    if (l.count[j]) starts.push_back({static_cast<std::uint64_t>(c.ddisp.at(j)), j});
  std::sort(starts.begin(), starts.end());
  for (std::size_t i = 1; i < starts.size(); ++i) {
    const std::size_t a = starts[i - 1].second, b = starts[i].second;
    if (starts[i - 1].first + l.count[a] > starts[i].first)
      fail(c.function, "ddisp: chunks " + str(static_cast<long long>(std::min(a, b))) + " and " +
                           str(static_cast<long long>(std::max(a, b))) + " write the same destination elements (ddisp[" +
                           str(static_cast<long long>(a)) + "] = " + str(static_cast<long long>(starts[i - 1].first)) + ", " +
                           str(static_cast<long long>(l.count[a])) + " elements; ddisp[" + str(static_cast<long long>(b)) +
                           "] = " + str(static_cast<long long>(starts[i].first)) + "): destination ranges must not overlap");
  }
}

// The vector variants: each chunk in pieces, a piece where it crosses a block.
void read_chunks(reduction& r) {
  call& c = r.c;
  const bool prefix = c.fam == family::prefix_reduce;
  const chunk_list l = read_chunk_list(r);
  const std::size_t src_blk = c.src_blk.value_or(0);
  r.src = c.src.is_private ? private_elements(c.src.priv, r.E, src_blk, l.longest)
                           : shared_elements(shared_address{c.src.shared.offset, c.src.shared.thread, 0}, r.E, src_blk, l.longest);
  const std::vector<int>& threads = r.m.threads;
  for (std::size_t j = 0; j < l.K; ++j) {
    const long long dd = prefix ? c.ddisp.at(j) : 0;
    if (dd < 0) fail(c.function, "ddisp[" + str(static_cast<long long>(j)) + "] = " + str(dd) + " is negative");
    for (std::uint64_t k = 0; k < l.count[j];) {
      const std::uint64_t v = r.src.a.v0() + l.first[j] + k;
      const std::uint64_t run = r.src.a.blk ? std::min<std::uint64_t>(l.count[j] - k, r.src.a.blk - v % r.src.a.blk) : l.count[j] - k;
      const int owner = r.src.owner(v);
      if (l.cyclic && owner != threads[j % threads.size()])
        fail(c.function, "nchunks asks for the cyclic order (UPC_EXTCOLLS_VV_CHUNKS), but chunk " + str(static_cast<long long>(j)) +
                             " has elements of thread " + str(owner) + ", not of thread " +
                             str(static_cast<long long>(j % threads.size())));
      r.pieces.push_back(piece{owner, r.src.at(v), run, static_cast<std::uint64_t>(dd) + k});
      k += run;
    }
  }
  if (r.pieces.empty()) fail(c.function, "the chunks hold no element: nothing to reduce");
  if (prefix) check_destinations_apart(c, l);
  r.nelems = static_cast<std::size_t>(l.longest);
}

// Something to reduce, and this thread's private elements where it owns some.
void check_pieces(const reduction& r) {
  const call& c = r.c;
  if (r.pieces.empty() && c.fam != family::prefix_reduce)
    fail(c.function, "no element of src has affinity to a member of the team: there is nothing to reduce");
  if (c.src.is_private && !c.src.priv)
    for (const piece& q : r.pieces)
      if (q.owner == r.me)
        fail(c.function, std::string(c.is(variant::in_place) ? "buffer" : "src") +
                             " is a null pointer, and this thread's private elements are read");
}

}  // namespace

void run_reduction(call& c, const members_view& mv) {
  coll::check_reduction_op(c.function, c.op, c.type, c.func);
  reduction r(c, mv);
  if (c.is(variant::v)) {
    read_chunks(r);
  } else {
    read_array(r);
  }
  check_pieces(r);
  // --check=races: the source elements this thread holds are read by the call
  // (its results by the data movements that write them, and prefix_reduce.cpp)
  if (coll::race_call* races = coll::race_call::open(); races && !c.src.is_private)
    for (const piece& q : r.pieces)
      if (q.owner == r.me) races->note(coll::area{q.owner, q.src.offset, q.src.offset + q.n * r.E, false, "src", -1});
  info_of(c.fam).results(r);
}

}  // namespace upc::ext
