// The computational families' shared state and steps (reduction.hpp).
#include "reduction.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "../../coll/engine.hpp"
#include "../collective_checks.hpp"
#include "arguments.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "number_text.hpp"

namespace upc::ext {

using detail::fail;

namespace {


// The destination of a reduce (one element) as a place.
place shared_place(const shared_address& a) { return place{a.offset, static_cast<std::int32_t>(a.thread), false}; }

}  // namespace

char* elements::address(const place& p) const noexcept {
  return p.is_private ? mine + p.offset : detail::raw_address(shared_address{p.offset, static_cast<std::uint32_t>(p.thread), 0});
}

elements shared_elements(const shared_address& base, std::size_t elem, std::size_t blk, std::size_t n) {
  return elements{coll::blocked_array{base, elem, blk, n, threads()}, false, nullptr};
}
elements private_elements(char* mine, std::size_t elem, std::size_t blk, std::size_t n) {
  return elements{coll::blocked_array{shared_address{0, 0, 0}, elem, blk, n, threads()}, true, mine};
}

reduction::reduction(call& call, const members_view& members)
    : c(call),
      m(members),
      op(coll::bind(call.type, coll::element_op_of(call.op), call.func, 0, call.op != UPC_NONCOMM_FUNC)),
      E(call.type_size) {
  member.assign(static_cast<std::size_t>(threads()), 0);
  for (int t : m.threads) member[static_cast<std::size_t>(t)] = 1;
  me = detail::tl_mythread;
  for (std::size_t i = 0; i < m.threads.size(); ++i)
    if (m.threads[i] == me) my_rank = static_cast<int>(i);
}

upc_flag_t reduction::second_in() const {
  const upc_flag_t in = c.flags & (UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC);
  return in & UPC_IN_ALLSYNC ? UPC_IN_NOSYNC : (in ? in : UPC_IN_NOSYNC);
}

void reduction::move(const std::vector<chunk>& list, char* from, char* to, upc_flag_t flags) const {
  coll::request rq{};
  rq.kind = coll::collective::chunks;
  rq.function = c.function;
  rq.members = m.engine_team;
  rq.flags = flags | (c.flags & (UPC_PULL | UPC_PUSH));
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

std::vector<char> reduction::totals(bool to_all, int root) const {
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
    if (c.suffix) {
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
  move(list, mine.data(), all.data(), (c.flags & (UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC)) | UPC_OUT_NOSYNC);
  // in piece order
  std::vector<char> ordered;
  if (to_all || me == root) {
    ordered.resize(pieces.size() * E);
    for (std::size_t p = 0; p < pieces.size(); ++p)
      std::memcpy(ordered.data() + p * E, all.data() + (owner_at[static_cast<std::size_t>(pieces[p].owner)] + slot[p]) * E, E);
  }
  return ordered;
}

bool reduction::fold_all(const std::vector<char>& ordered, char* out) const {
  if (pieces.empty()) return false;
  std::memcpy(out, ordered.data(), E);
  if (pieces.size() > 1) op.fold(out, ordered.data() + E, pieces.size() - 1);
  return true;
}

void reduction::right_fold(char* acc, const char* x, std::size_t n) const {
  std::vector<char> tmp(E);
  std::memcpy(acc, x + (n - 1) * E, E);
  for (std::size_t i = n - 1; i-- > 0;) {
    std::memcpy(tmp.data(), x + i * E, E);
    op.combine(tmp.data(), acc, 1);
    std::memcpy(acc, tmp.data(), E);
  }
}

void reduction::suffix_scan(char* to, const char* x, std::size_t n, const char* after) const {
  std::vector<char> acc(E), tmp(E);
  for (std::size_t i = n; i-- > 0;) {
    std::memcpy(tmp.data(), x + i * E, E);
    const char* right = i + 1 < n ? acc.data() : after;
    if (right) op.combine(tmp.data(), right, 1);
    std::memcpy(acc.data(), tmp.data(), E);
    std::memcpy(to + i * E, acc.data(), E);
  }
}

reduce_target reduction::target() const {
  const bool in_place = c.is(variant::in_place);
  if (in_place) {
    // the reduction's result: element 0 of buffer, or the root's first element (rooted)
    std::uint64_t first = 0;
    if (c.root.has_value()) {
      check_root(c, static_cast<int>(m.threads.size()));
      const int root = *c.root;
      if (!c.src.is_private && c.src.shared.thread != 0)
        fail(c.function, "buffer has affinity to thread " + str(c.src.shared.thread) + "; the rooted forms take the array's start (thread 0)");
      if (c.blk_size == 0 && root != 0)
        fail(c.function, "root is " + str(root) + ", but with blk_size 0 every element is on buffer's thread");
      first = static_cast<std::uint64_t>(root) * c.blk_size;
      if (first >= nelems)
        fail(c.function, "root " + str(root) + " owns no element of the array (its first would be element " +
                             str(static_cast<long long>(first)) + ", nelems is " + str(static_cast<long long>(nelems)) + ")");
    }
    const place p = src.at(src.a.v0() + first);
    return reduce_target{p.thread, p, c.src.is_private};
  }
  if (c.dst.is_private) return reduce_target{m.threads.front(), place{0, m.threads.front(), true}, true};
  coll::check_shared_pointer(c.function, "dst", c.dst.shared);
  return reduce_target{static_cast<int>(c.dst.shared.thread), shared_place(c.dst.shared), false};
}

char* reduction::private_destination() const {
  return c.dst.is_private ? c.dst.priv : (c.is(variant::in_place) && c.src.is_private ? c.src.priv : nullptr);
}

bool reduction::private_dst_missing() const { return c.dst.is_private && !c.dst.priv && !c.is(variant::in_place); }

void reduction::fail_private_dst() const {
  fail(c.function, "dst is a null pointer, and this thread's private result is written");
}

}  // namespace upc::ext
