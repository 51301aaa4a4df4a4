#include "validate.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

#include "../runtime/control.hpp"
#include "../runtime/heap_index.hpp"
#include "request.hpp"
#include "team.hpp"
#include "upc/error.hpp"

namespace upc::coll {

using namespace upc::detail;

namespace {

std::string str(std::uint64_t v) { return std::to_string(v); }

// The object found for the previous area, if symmetric and the same call's:
// it answers for every thread without a new lookup.
thread_local std::optional<allocation> tl_last_object;
thread_local std::uint64_t tl_last_object_generation = 0;  // the heap's generation when it was found
thread_local const void* tl_last_object_run = nullptr;

}  // namespace

std::string area_fault::describe(const area& a) {
  std::string s = a.arg;
  if (a.block >= 0) s += " block " + std::to_string(a.block);
  return s + " (bytes [" + str(a.lo) + ", " + str(a.hi) + "))";
}

std::string area_fault::message() const {
  const std::uint64_t bytes = a.hi - a.lo;
  const std::string where = " at offset " + str(a.lo) + " of thread " + std::to_string(a.thread);
  switch (kind) {
    case outside_heap:
      return std::string(a.arg) + ": " + str(bytes) + " bytes" + where + " run past the end of its shared heap (" +
             str(g_partition_bytes) + " bytes per thread)";
    case outside_objects:
      return std::string(a.arg) + ": the " + str(bytes) + " bytes" + where +
             " are not inside any live shared object (freed, or never allocated)";
    case past_object:
      return std::string(a.arg) + ": " + str(bytes) + " bytes" + where + " run past the end of the object it points into, " +
             object + " (" + str(room) + " bytes of it from there on that thread)";
    case overlap:
      return std::string(a.arg) + " and " + b.arg + " overlap on thread " + std::to_string(a.thread) + ": " + describe(a) +
             " is read and " + describe(b) + " written, sharing bytes [" + str(std::max(a.lo, b.lo)) + ", " +
             str(std::min(a.hi, b.hi)) + ") of its shared heap";
    case none: break;
  }
  return "";
}

namespace {
// Areas found inside one object stay so until something is freed (the heap's
// generation moves): a loop of collectives on the same buffers looks once.
struct placed {
  const void* run = nullptr;
  std::uint64_t generation = 0, lo = 0, hi = 0;
  int thread = -1;
};
constexpr int placed_kept = 8;
thread_local placed tl_placed[placed_kept];
thread_local int tl_next_placed = 0;
}  // namespace

area_fault check_placement(const area& a, bool objects) {
  area_fault f;
  f.a = a;
  if (a.lo > g_partition_bytes || a.hi > g_partition_bytes || a.hi < a.lo) {
    f.kind = area_fault::outside_heap;
    return f;
  }
  if (!objects || a.hi == a.lo) return f;
  const std::uint64_t generation = control().heap_generation.load(std::memory_order_acquire);
  for (const placed& p : tl_placed)
    if (p.thread == a.thread && p.lo <= a.lo && a.hi <= p.hi && p.generation == generation && p.run == g_control) return f;
  const shared_address at{a.lo, static_cast<std::uint32_t>(a.thread), 0};
  const allocation* object = nullptr;
  // The object found last serves the next area of the same call, and of later
  // calls while nothing has been freed (a free may reuse its bytes for another).
  if (tl_last_object && (tl_last_object_generation != generation || tl_last_object_run != g_control)) tl_last_object.reset();
  if (tl_last_object && tl_last_object->symmetric && tl_last_object->bytes_from(at) > 0) {
    object = &*tl_last_object;
  } else {
    tl_last_object = find_allocation(at.thread, a.lo);
    tl_last_object_generation = generation;
    tl_last_object_run = g_control;
    object = tl_last_object ? &*tl_last_object : nullptr;
  }
  if (!object) {
    f.kind = area_fault::outside_objects;
    return f;
  }
  const std::uint64_t room = object->bytes_from(at);
  if (room < a.hi - a.lo) {
    f.kind = area_fault::past_object;
    f.object = object->describe();
    f.room = room;
    return f;
  }
  // Remember the whole stretch of the object from here: later areas inside it need no lookup.
  tl_placed[tl_next_placed] = placed{g_control, generation, a.lo, a.lo + room, a.thread};
  tl_next_placed = (tl_next_placed + 1) % placed_kept;
  return f;
}

area_fault first_overlap(std::vector<area>& areas) {
  // Two areas (most calls: one read, one written) need no sort.
  if (areas.size() == 2) {
    const area &x = areas[0], &y = areas[1];
    if (x.thread == y.thread && x.write != y.write && x.lo < y.hi && y.lo < x.hi) {
      area_fault f;
      f.kind = area_fault::overlap;
      f.a = x.write ? y : x;
      f.b = x.write ? x : y;
      return f;
    }
    return {};
  }
  std::sort(areas.begin(), areas.end(), [](const area& x, const area& y) { return std::tie(x.thread, x.lo) < std::tie(y.thread, y.lo); });
  // Per thread, the area of each kind that reaches furthest among those started
  // so far: a new area overlaps some area of the other kind exactly when it
  // starts before that one ends.
  const area* reach[2] = {nullptr, nullptr};  // [0]: reads, [1]: writes
  int thread = -1;
  for (const area& x : areas) {
    if (x.thread != thread) {
      reach[0] = reach[1] = nullptr;
      thread = x.thread;
    }
    const area* other = reach[x.write ? 0 : 1];
    if (other && other->hi > x.lo) {
      area_fault f;
      f.kind = area_fault::overlap;
      f.a = x.write ? *other : x;
      f.b = x.write ? x : *other;
      return f;
    }
    const area*& mine = reach[x.write ? 1 : 0];
    if (!mine || x.hi > mine->hi) mine = &x;
  }
  return {};
}

area_fault check_areas(std::vector<area>& areas, bool objects) {
  tl_last_object.reset();
  for (const area& a : areas)
    if (area_fault f = check_placement(a, objects)) return f;
  if (areas.size() < 2) return {};
  return first_overlap(areas);
}

// ---- owner-executor requests ------------------------------------------------

namespace {

void add(std::vector<area>& out, int thread, std::uint64_t lo, std::uint64_t bytes, bool write, const char* arg) {
  if (bytes) out.push_back(area{thread, lo, lo + bytes, write, arg, -1});
}

std::uint64_t offset_of(const char* p, int thread) {
  return static_cast<std::uint64_t>(p - (g_partitions + static_cast<std::uint64_t>(thread) * g_partition_bytes));
}

// A blocked endpoint's block of `thread`, `bytes` of it.
void add_block(std::vector<area>& out, const endpoint& e, int thread, std::uint64_t bytes, bool write, const char* arg) {
  add(out, thread, offset_of(e.block_of(thread), thread), bytes, write, arg);
}

// A single area's pieces of every member (one range, or one per member by thread).
void add_pieces(std::vector<area>& out, const endpoint& e, const team& t, std::uint64_t n, bool write, const char* arg) {
  const int owner = static_cast<int>(e.base.thread);
  if (!e.by_thread) {
    add(out, owner, e.base.offset, n * static_cast<std::uint64_t>(t.size()), write, arg);
    return;
  }
  for (int r = 0; r < t.size(); ++r)
    add(out, owner, offset_of(e.piece(r, t.thread_of(r), n), owner), n, write, arg);
}

// Every member thread's run of a blocked array.
void add_array(std::vector<area>& out, const blocked_array& a, const team& t, bool write, const char* arg) {
  for (int r = 0; r < t.size(); ++r) {
    const int thr = t.thread_of(r);
    const std::uint64_t count = a.count_on(thr);
    if (count) add(out, thr, offset_of(a.local(thr, a.first_local(thr)), thr), count * a.elem, write, arg);
  }
}

// What identifies a request's areas (validate_areas remembers the last few).
struct areas_key {
  const void* run;
  std::uint64_t generation;
  const team* members;
  collective kind;
  int root;
  std::size_t nbytes;
  shared_address src, dst, in, out, result, args;
  std::size_t src_block, dst_block, elem, blk, nelems;
  bool src_by_thread, dst_by_thread;
  bool operator==(const areas_key&) const = default;
};

areas_key key_of(const request& rq, const team& t) {
  return areas_key{g_control,      control().heap_generation.load(std::memory_order_acquire),
                   &t,             rq.kind,
                   rq.root,        rq.nbytes,
                   rq.src.base,    rq.dst.base,
                   rq.in.base,     rq.out.base,
                   rq.result,      rq.args_at,    rq.src.block,
                   rq.dst.block,   rq.in.elem,
                   rq.in.blk,      rq.in.n,
                   rq.src.by_thread, rq.dst.by_thread};
}

constexpr int remembered = 8;
thread_local areas_key tl_good[remembered];
thread_local int tl_next_good = 0;

}  // namespace

void areas_of(const request& rq, const team& t, std::vector<area>& out) {
  const std::uint64_t n = rq.nbytes, P = static_cast<std::uint64_t>(t.size());
  auto each_member = [&](auto&& f) {
    for (int r = 0; r < t.size(); ++r) f(t.thread_of(r));
  };
  switch (rq.kind) {
    case collective::broadcast:
      add(out, static_cast<int>(rq.src.base.thread), rq.src.base.offset, n, false, "src");
      each_member([&](int thr) { add_block(out, rq.dst, thr, n, true, "dst"); });
      break;
    case collective::scatter:
      add_pieces(out, rq.src, t, n, false, "src");
      each_member([&](int thr) { add_block(out, rq.dst, thr, n, true, "dst"); });
      break;
    case collective::gather:
      each_member([&](int thr) { add_block(out, rq.src, thr, n, false, "src"); });
      add_pieces(out, rq.dst, t, n, true, "dst");
      break;
    case collective::gather_all:
      each_member([&](int thr) {
        add_block(out, rq.src, thr, n, false, "src");
        add_block(out, rq.dst, thr, n * P, true, "dst");
      });
      break;
    case collective::exchange:
      each_member([&](int thr) {
        add_block(out, rq.src, thr, n * P, false, "src");
        add_block(out, rq.dst, thr, n * P, true, "dst");
      });
      break;
    case collective::permute:
      each_member([&](int thr) {
        add_block(out, rq.src, thr, n, false, "src");
        add_block(out, rq.dst, thr, n, true, "dst");
      });
      // perm is shared int[THREADS] with block size 1 from perm
      for (int i = 0; i < rq.src.layout_threads; ++i) {
        const shared_address e = layout::advance(rq.args_at, i, sizeof(int), 1, rq.src.layout_threads);
        add(out, static_cast<int>(e.thread), e.offset, sizeof(int), false, "perm");
      }
      break;
    case collective::reduce:
      add_array(out, rq.in, t, false, "src");
      add(out, static_cast<int>(rq.result.thread), rq.result.offset, rq.red.size, true, "dst");
      break;
    case collective::allreduce:
      add_array(out, rq.in, t, false, "src");
      each_member([&](int thr) { add_block(out, rq.dst, thr, rq.red.size, true, "dst"); });
      break;
    case collective::prefix_reduce:
      add_array(out, rq.in, t, false, "src");
      add_array(out, rq.out, t, true, "dst");
      break;
    case collective::sort: add_array(out, rq.in, t, true, "A"); break;
    default: break;
  }
}

namespace {

// chunks: every shared chunk inside the heap and one object; no two chunks
// write the same byte; out of place, no chunk reads a byte another writes.
// The front-end names its arguments as `src` and `dst` and numbers the chunks
// in the order it listed them.
void validate_chunks(const request& rq) {
  thread_local std::vector<area> areas;
  areas.clear();
  const std::vector<chunk>& chunks = *rq.chunks;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const chunk& c = chunks[i];
    if (!c.bytes) continue;
    if (!c.src.is_private && !(rq.in_place && c.src == c.dst))
      areas.push_back(area{c.src.thread, c.src.offset, c.src.offset + c.bytes, false, "src", static_cast<int>(i)});
    if (!c.dst.is_private && !(rq.dst_owner_only && c.dst.thread != tl_mythread))
      areas.push_back(area{c.dst.thread, c.dst.offset, c.dst.offset + c.bytes, true, "dst", static_cast<int>(i)});
  }
  auto refuse = [&](const std::string& m) { throw upc::error(rq.function, m, tl_mythread); };
  for (const area& a : areas)
    if (const area_fault f = check_placement(a)) refuse(f.message() + " (chunk " + std::to_string(a.block) + ")");
  // Two writes of one byte: sort the writes by thread and start.
  thread_local std::vector<area> writes;
  writes.clear();
  for (const area& a : areas)
    if (a.write) writes.push_back(a);
  std::sort(writes.begin(), writes.end(), [](const area& a, const area& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.lo < b.lo;
  });
  for (std::size_t i = 1; i < writes.size(); ++i)
    if (writes[i].thread == writes[i - 1].thread && writes[i].lo < writes[i - 1].hi) {
      const area& a = writes[i - 1];
      const area& b = writes[i];
      refuse("dst: chunks " + std::to_string(std::min(a.block, b.block)) + " and " + std::to_string(std::max(a.block, b.block)) +
             " write the same bytes on thread " + std::to_string(a.thread) + " (offsets [" + std::to_string(b.lo) + ", " +
             std::to_string(std::min(a.hi, b.hi)) + ")): destination ranges must not overlap");
    }
  if (rq.in_place || rq.stage_sources || areas.size() < 2) return;
  if (const area_fault f = first_overlap(areas))
    refuse(f.message() + " (chunks " + std::to_string(f.a.block) + " and " + std::to_string(f.b.block) +
           "; the source and the destination must be distinct)");
}

}  // namespace

void validate_areas(const request& rq, const team& t) {
  if (rq.chunks) return validate_chunks(rq);
  const areas_key key = key_of(rq, t);
  thread_local int last_good = 0;
  if (tl_good[last_good] == key) return;  // a loop of one call: the last one found good
  for (int i = 0; i < remembered; ++i)
    if (tl_good[i] == key) {
      last_good = i;
      return;
    }
  thread_local std::vector<area> areas;
  areas.clear();
  areas_of(rq, t, areas);
  // A broadcast in place reads the root's own block of dst (the extended
  // collectives): placement only, the one overlap is the root's copy onto itself.
  if (rq.in_place && rq.kind == collective::broadcast) {
    for (const area& a : areas)
      if (const area_fault f = check_placement(a)) throw upc::error(rq.function, f.message(), tl_mythread);
  } else if (const area_fault f = check_areas(areas)) {
    std::string m = f.message();
    if (f.kind == area_fault::overlap) m += " (the UPC collectives require distinct areas)";
    throw upc::error(rq.function, m, tl_mythread);
  }
  last_good = tl_next_good;
  tl_good[tl_next_good] = key;
  tl_next_good = (tl_next_good + 1) % remembered;
}

}  // namespace upc::coll
