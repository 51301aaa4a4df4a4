// The data-movement families' entry (run_movement): the request every form
// shares, the forms that are a standard collective's layout, and the chunk
// list of the rest, built by the family's builders (the family table,
// families.hpp; one file per family; chunk_builder.hpp for the layouts).
#include <string>
#include <vector>

#include "../../coll/engine.hpp"
#include "call.hpp"
#include "chunk_builder.hpp"
#include "families.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc::ext {

namespace {

// ---- reading argument arrays after the IN synchronisation -----------------------

thread_local const call* tl_call = nullptr;
thread_local std::vector<int> tl_threads;  // rank -> thread
thread_local int tl_root = 0;
thread_local std::vector<chunk> tl_chunks;

// A null private buffer on a thread whose private bytes a chunk reads or writes.
void check_private_ends(const call& c, const std::vector<chunk>& chunks) {
  const int me = detail::tl_mythread;
  const bool in_place = c.is(variant::in_place);
  for (const chunk& k : chunks) {
    if (k.src.is_private && k.src.thread == me && !c.src.priv)
      detail::fail(c.function, std::string(in_place ? "buffer" : "src") + " is a null pointer, and this thread's private " +
                                   (in_place ? "buffer" : "source") + " is read");
    if (k.dst.is_private && k.dst.thread == me && !c.dst.priv)
      detail::fail(c.function, std::string(in_place ? "buffer" : "dst") + " is a null pointer, and this thread's private " +
                                   (in_place ? "buffer" : "destination") + " is written");
  }
}

// The forms that read argument arrays (v-variants, vector_copy, perm) build
// their chunks here, when the engine has met the IN synchronisation.
void build_after_in(coll::request& rq, const coll::team&) {
  const call& c = *tl_call;
  const family_info& f = info_of(c.fam);
  tl_chunks.clear();
  if (c.is(variant::v) || !f.fixed) {
    v_chunk_builder v(c, tl_threads, tl_chunks);
    f.vector(v);
  } else {
    chunk_builder b{c, tl_threads, tl_chunks, c.count.value_or(0), tl_root};
    (c.is(variant::team) ? f.team : f.fixed)(b);
  }
  check_private_ends(c, tl_chunks);
  rq.chunks = &tl_chunks;
}

// ---- team shapes that are standard collectives -----------------------------------

// The forms whose layout is a standard collective's run as it (issue 10: the
// existing algorithms serve the new families): a broadcast in place (shared)
// is upc_all_broadcast from the root's block onto every block; among the team
// forms with shared ends, a team
// broadcast is upc_all_broadcast on the team; scatter, gather, gather_all and
// exchange move nbytes / members per member (`_allthr`: nbytes / THREADS,
// pieces by thread number, for scatter and gather) inside blocks of nbytes
// (gather_all and exchange: rows of nbytes x THREADS). Makes `rq` that request
// and says so; the rest (private ends, permute, `_allthr` rows) stay chunk lists.
bool as_standard(const call& c, coll::request& rq, const members_view& view) {
  const std::uint64_t n = c.count.value_or(0);
  if (c.fam == family::broadcast && c.is(variant::in_place) && !c.src.is_private) {
    // a broadcast in place: upc_all_broadcast from the root's block onto every block
    const int T = threads();
    const coll::endpoint blocks{c.dst.shared, static_cast<std::size_t>(n), T, false};
    const place r = block_of(c.src.shared, n, view.threads[static_cast<std::size_t>(view.root)]);
    rq.kind = coll::collective::broadcast;
    rq.src = coll::endpoint{shared_address{r.offset, static_cast<std::uint32_t>(r.thread), 0}, 0, T, false};
    rq.dst = blocks;
    rq.nbytes = static_cast<std::size_t>(n);
    rq.root = view.root;
    rq.in_place = true;
    rq.chunks = nullptr;
    return true;
  }
  if (!c.is(variant::team) || c.src.is_private || c.dst.is_private || c.fam == family::permute) return false;
  const bool allthr = c.is(variant::allthr);
  const bool rows = c.fam == family::gather_all || c.fam == family::exchange;
  if (allthr && rows) return false;
  const int T = threads();
  rq.nbytes = static_cast<std::size_t>(team_piece(c, static_cast<int>(view.threads.size())));
  rq.root = view.root;
  rq.kind = info_of(c.fam).kind;
  // the root's single area: broadcast and scatter src, gather dst; every other end blocks of nbytes or rows
  const bool single_src = c.fam == family::broadcast || c.fam == family::scatter, single_dst = c.fam == family::gather;
  rq.src = single_src ? coll::endpoint{c.src.shared, 0, T, allthr} : coll::endpoint{c.src.shared, static_cast<std::size_t>(n), T, false};
  rq.dst = single_dst ? coll::endpoint{c.dst.shared, 0, T, allthr}
           : rows     ? coll::endpoint{c.dst.shared, static_cast<std::size_t>(n) * static_cast<std::size_t>(T), T, false}
                      : coll::endpoint{c.dst.shared, static_cast<std::size_t>(n), T, false};
  rq.chunks = nullptr;
  return true;
}

// The request every form starts from: chunks between the call's ends.
coll::request chunk_request(const call& c, const members_view& view) {
  coll::request rq{};
  rq.kind = coll::collective::chunks;
  rq.function = c.function;
  rq.members = view.engine_team;
  rq.flags = c.flags;
  rq.in_place = c.is(variant::in_place);
  rq.src_memory = c.src.is_private ? coll::memory::private_owner : coll::memory::shared;
  rq.dst_memory = c.dst.is_private ? coll::memory::private_owner : coll::memory::shared;
  rq.src_private = c.src.priv;
  rq.dst_private = c.dst.priv;
  rq.stage_sources = rq.in_place && (c.fam == family::exchange || c.fam == family::permute) && !c.src.is_private;
  rq.dst_owner_only = c.ddisp_scalar.has_value();
  if (!c.src.is_private) rq.src.base = c.src.shared;
  if (!c.dst.is_private) rq.dst.base = c.dst.shared;
  if (c.fam == family::exchange && rq.in_place && !c.src.is_private && !c.is(variant::team) && !c.is(variant::v)) {
    // its own kind: the thesis's pairwise algorithm (Figure 3.3) or the staged chunk list
    rq.kind = coll::collective::exchange_in_place;
    rq.nbytes = c.count.value_or(0);
    rq.dst = coll::endpoint{c.dst.shared, c.count.value_or(0) * static_cast<std::size_t>(threads()), threads(), false};
    rq.src = rq.dst;
  }
  thread_local coll::request::named_value extras[8];
  rq.extra_single_valued_count = single_valued_scalars(c, extras);
  rq.extra_single_valued = extras;
  return rq;
}

}  // namespace

void run_movement(call& c, const members_view& view) {
  tl_threads = view.threads;
  tl_root = view.root;
  tl_call = &c;
  coll::request rq = chunk_request(c, view);
  if (as_standard(c, rq, view)) {  // a standard collective on the team: its own kind and algorithms
    coll::submit(rq);
    return;
  }
  const family_info& f = info_of(c.fam);
  if (c.is(variant::v) || coll::has(f.kind, coll::trait::args_after_in)) {
    rq.read_args = build_after_in;
  } else {
    tl_chunks.clear();
    chunk_builder b{c, tl_threads, tl_chunks, c.count.value_or(0), view.root};
    (c.is(variant::team) ? f.team : f.fixed)(b);
    check_private_ends(c, tl_chunks);
    rq.chunks = &tl_chunks;
  }
  coll::submit(rq);
}

}  // namespace upc::ext
