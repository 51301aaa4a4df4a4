#include "plan_cache.hpp"

#include <cstring>

#include "../runtime/control.hpp"

namespace upc::coll {

namespace {
bool same_endpoint(const endpoint& a, const endpoint& b) {
  return a.base == b.base && a.block == b.block && a.layout_threads == b.layout_threads && a.by_thread == b.by_thread;
}
bool same_array(const blocked_array& a, const blocked_array& b) {
  return a.base == b.base && a.elem == b.elem && a.blk == b.blk && a.n == b.n && a.threads == b.threads;
}
}  // namespace

bool plan_cache::key::same(const key& o) const {
  // The fields that tell calls apart most often first.
  return src.base == o.src.base && dst.base == o.dst.base && nbytes == o.nbytes && in.base == o.in.base &&
         kind == o.kind && root == o.root && scratch == o.scratch && heap == o.heap && rules == o.rules &&
         same_endpoint(src, o.src) && same_endpoint(dst, o.dst) && same_array(in, o.in) && same_array(out, o.out) &&
         result == o.result && type == o.type && op == o.op && fn == o.fn && commutative == o.commutative &&
         to_all == o.to_all && suffix == o.suffix && flags == o.flags && perm == o.perm;
}

bool plan_cache::key::same_chunks(const request& rq, std::uint32_t r, std::uint64_t h, std::size_t s) const {
  return kind == rq.kind && !chunks.empty() == !rq.chunks->empty() && rules == r && heap == h && scratch == s && flags == rq.flags &&
         src_private == rq.src_private && dst_private == rq.dst_private && stage_sources == rq.stage_sources &&
         dst_owner_only == rq.dst_owner_only && in_place == rq.in_place && chunks == *rq.chunks;
}

plan_cache::key plan_cache::key_of(const request& rq, const team& t) {
  key k;
  k.rules = rules_generation();
  k.heap = detail::control().heap_generation.load(std::memory_order_acquire);
  k.kind = rq.kind;
  k.root = rq.root;
  k.nbytes = rq.nbytes;
  k.scratch = t.scratch_bytes();
  k.src = rq.src;
  k.dst = rq.dst;
  k.in = rq.in;
  k.out = rq.out;
  k.result = rq.result;
  k.type = rq.red.type;
  k.op = rq.red.op;
  k.fn = rq.red.fn;
  k.commutative = rq.red.commutative;
  k.to_all = rq.to_all;
  k.suffix = rq.suffix;
  k.flags = rq.flags;
  if (rq.perm) k.perm.assign(rq.perm, rq.perm + rq.src.layout_threads);
  if (rq.chunks) {
    k.chunks = *rq.chunks;
    k.src_private = rq.src_private;
    k.dst_private = rq.dst_private;
    k.stage_sources = rq.stage_sources;
    k.dst_owner_only = rq.dst_owner_only;
    k.in_place = rq.in_place;
  }
  return k;
}

plan_cache::found plan_cache::find(const request& rq, const team& t) {
  if (rq.chunks) {
    const std::uint32_t rules = rules_generation();
    const std::uint64_t heap = detail::control().heap_generation.load(std::memory_order_acquire);
    for (int j = 0; j < kept; ++j) {
      const int i = (last_ + j) % kept;  // the last plan used first
      if (entries_[i].valid && entries_[i].k.same_chunks(rq, rules, heap, t.scratch_bytes())) {
        last_ = i;
        return {&entries_[i].p, entries_[i].algorithm};
      }
    }
    return {nullptr, nullptr};
  }
  if (rq.kind == collective::sort || rq.in_place || rq.src_memory != memory::shared || rq.dst_memory != memory::shared)
    return {nullptr, nullptr};
  const key k = key_of(rq, t);
  // The last plan used first: a loop of one call hits it at once.
  if (entries_[last_].valid && entries_[last_].k.same(k)) return {&entries_[last_].p, entries_[last_].algorithm};
  for (int i = 0; i < kept; ++i)
    if (entries_[i].valid && entries_[i].k.same(k)) {
      last_ = i;
      return {&entries_[i].p, entries_[i].algorithm};
    }
  return {nullptr, nullptr};
}

plan& plan_cache::build(const request& rq, const algorithm_entry& e, team& t) {
  if (rq.kind == collective::sort) {
    scratch_plan_.clear();
    e.build(rq, t, scratch_plan_);
    return scratch_plan_;
  }
  key k = key_of(rq, t);
  last_ = next_;
  entry& slot = entries_[next_];
  next_ = (next_ + 1) % kept;
  slot.valid = false;
  slot.p.clear();
  e.build(rq, t, slot.p);
  // The build may have grown the scratch: key the plan by the scratch it points into.
  k.scratch = t.scratch_bytes();
  slot.k = std::move(k);
  slot.algorithm = &e;
  slot.valid = true;
  return slot.p;
}

}  // namespace upc::coll
