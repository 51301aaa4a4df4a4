// The shared heap. Every partition holds two heaps that grow towards each other:
//
//   offset 0                    sym_top        local_floor[t]        partition end
//   | symmetric heap  ------>   |     free     |   <------ local heap of t   |
//
// The symmetric heap gives the same offset in every partition (upc_all_alloc,
// upc_global_alloc, namespace-scope arrays); its chunk headers live in partition 0.
// Each thread's local heap (upc_alloc) keeps its headers in its own partition.
// Chunks carry a 64-byte header; free chunks merge with their neighbours, and a free
// chunk touching the boundary (sym_top, local_floor) is given back to the middle.
//
// Placement, the same in both heaps seen from their own end: address-ordered first
// fit from the end away from the boundary (the symmetric heap takes the lowest hole
// that fits, a local heap the highest), carving the chunk from the hole's far end,
// so the remainder stays on the boundary side, where it can merge with the free
// middle and be given back. A local heap that took the hole nearest the boundary
// stranded free space far from it and ran out with most of the heap free (issue 8.1).
//
// One process-shared mutex guards both heaps: allocation is not a hot path.
#include "heap_index.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>
#include <string_view>

#include "call_site.hpp"
#include "collective_call.hpp"
#include "control.hpp"
#include "dsm.hpp"
#include "host_words.hpp"
#include "hosts.hpp"
#include "remote_ops.hpp"
#include "launch_replay.hpp"
#include "race_check.hpp"
#include "single_valued.hpp"
#include "world_barrier.hpp"
#include "run_serial.hpp"
#include "upc/alloc.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/sync.hpp"

namespace upc::detail {

namespace {
constexpr std::uint64_t header_bytes = 64;
constexpr std::uint64_t used_magic = 0x55534544'75706365ULL;
constexpr std::uint64_t free_magic = 0x46524545'75706365ULL;
constexpr std::uint64_t dead_magic = 0x44454144'75706365ULL;

struct chunk_header {
  std::uint64_t magic;
  std::uint64_t size;       // bytes, header included, multiple of 64
  std::uint64_t link;       // free: header offset of the next free chunk (no_chunk: last);
                            // used: the key of a block-scope static object, else 0
  std::uint64_t requested;  // bytes per thread the object needs
  std::uint32_t kind;       // allocation_kind
  std::uint32_t line;       // declared objects: the line of the declaration
  std::uint64_t info[3];    // declared: type, file, count; upc_all/global_alloc: nblocks, nbytes;
                            // runtime: the allocating function
};
static_assert(sizeof(chunk_header) == header_bytes);

// One heap: its free list runs from the hole farthest from the boundary to the
// nearest one (ascending addresses for the symmetric heap, descending for a local heap).
struct heap_ref {
  char* mem;  // partition holding the headers
  std::uint64_t& free_head;
  bool grows_up;  // symmetric: true; local: false
  chunk_header& at(std::uint64_t off) const { return *reinterpret_cast<chunk_header*>(mem + off); }
  // `a` comes before `b` in the free list: it is farther from the boundary.
  bool farther(std::uint64_t a, std::uint64_t b) const { return grows_up ? a < b : a > b; }
};

std::uint64_t round_up64(std::uint64_t x) { return x > ~std::uint64_t{63} ? ~std::uint64_t{63} : (x + 63) & ~std::uint64_t{63}; }

std::string human(std::uint64_t b) {
  constexpr std::uint64_t KiB = 1ULL << 10, MiB = 1ULL << 20, GiB = 1ULL << 30;
  auto in = [&](std::uint64_t unit, const char* name) {
    std::string digits = std::to_string(b / unit);
    if (b % unit) digits += "." + std::to_string(b % unit * 10 / unit);  // one decimal, truncated
    return digits + " " + name;
  };
  if (b >= GiB) return in(GiB, "GiB");
  if (b >= MiB) return in(MiB, "MiB");
  if (b >= KiB) return in(KiB, "KiB");
  return std::to_string(b) + (b == 1 ? " byte" : " bytes");
}

// Across hosts each host's control block has its own threads' heap state: a
// UPC thread reads another host's thread's local floor from that host, the
// symmetric heap's top from thread 0's (remote_ops.hpp). The launcher's
// allocations (before the servers run; only thread 0's heap is used then) and
// one host read the fields themselves.
std::uint64_t floor_of(int t) {
  control_block& c = control();
  if (several_hosts() && tl_mythread >= 0 && !on_my_host(t)) return remote_atomic(t, remote_op::load64, &c.slots[t].local_floor, 0);
  return c.slots[t].local_floor;
}
std::uint64_t sym_top_now() {
  control_block& c = control();
  if (several_hosts() && tl_mythread >= 0 && !on_my_host(0)) return remote_atomic(0, remote_op::load64, &c.sym_top, 0);
  return c.sym_top;
}

std::uint64_t min_local_floor() {
  control_block& c = control();
  std::uint64_t m = c.partition_bytes;
  for (int t = 0; t < c.threads; ++t) m = std::min(m, floor_of(t));
  return m;
}

// First fit in list order; carves `need` bytes from the far end of the hole and
// leaves the rest, on the boundary side, in the list. Returns the header offset of
// the new chunk or no_chunk.
std::uint64_t take_free(heap_ref h, std::uint64_t need) {
  std::uint64_t prev = no_chunk, cur = h.free_head;
  while (cur != no_chunk) {
    chunk_header& c = h.at(cur);
    if (c.size >= need) {
      if (c.size - need < 2 * header_bytes) {  // too little left to be worth a chunk: take it all
        if (prev == no_chunk) h.free_head = c.link;
        else h.at(prev).link = c.link;
        return cur;
      }
      if (!h.grows_up) {  // the far end is the high end: the hole keeps its header
        c.size -= need;
        h.at(cur + c.size).size = need;
        return cur + c.size;
      }
      const std::uint64_t rest = cur + need;
      h.at(rest) = chunk_header{free_magic, c.size - need, c.link, 0, 0, 0, {}};
      if (prev == no_chunk) h.free_head = rest;
      else h.at(prev).link = rest;
      c.size = need;
      return cur;
    }
    prev = cur;
    cur = c.link;
  }
  return no_chunk;
}

// Merges free chunk `a` with the one after it in the list when they touch; `before`
// is a's predecessor (no_chunk: a is the head). Returns the chunk now in a's place.
std::uint64_t merge_with_next(heap_ref h, std::uint64_t before, std::uint64_t a) {
  const std::uint64_t b = h.at(a).link;
  if (b == no_chunk) return a;
  const std::uint64_t low = std::min(a, b), high = std::max(a, b);
  if (low + h.at(low).size != high) return a;
  const std::uint64_t after = h.at(b).link;
  h.at(low).size += h.at(high).size;
  h.at(low).link = after;
  h.at(high).magic = dead_magic;
  if (before == no_chunk) h.free_head = low;
  else h.at(before).link = low;
  return low;
}

// Puts a chunk back in the list, merged with the free chunks it touches; returns the
// header offset of the free chunk that now holds it.
std::uint64_t insert_free(heap_ref h, std::uint64_t off) {
  h.at(off).magic = free_magic;
  std::uint64_t before_prev = no_chunk, prev = no_chunk, cur = h.free_head;
  while (cur != no_chunk && h.farther(cur, off)) {
    before_prev = prev;
    prev = cur;
    cur = h.at(cur).link;
  }
  h.at(off).link = cur;
  if (prev == no_chunk) h.free_head = off;
  else h.at(prev).link = off;
  std::uint64_t holder = merge_with_next(h, prev, off);
  if (prev != no_chunk) {
    const std::uint64_t p = merge_with_next(h, before_prev, prev);
    if (h.at(holder).magic == dead_magic) holder = p;  // merged with prev: the lower one survives
  }
  return holder;
}

void remove_free(heap_ref h, std::uint64_t off) {
  std::uint64_t prev = no_chunk, cur = h.free_head;
  while (cur != no_chunk && cur != off) { prev = cur; cur = h.at(cur).link; }
  if (cur == no_chunk) return;
  if (prev == no_chunk) h.free_head = h.at(cur).link;
  else h.at(prev).link = h.at(cur).link;
  h.at(cur).magic = dead_magic;
}

heap_ref symmetric_heap() { return {g_partitions, control().sym_free_head, true}; }
heap_ref local_heap(int t) { return {g_partitions + t * g_partition_bytes, control().slots[t].local_free_head, false}; }

[[noreturn]] void exhausted(const char* function, std::uint64_t bytes, const std::string& where) {
  control_block& c = control();
  std::uint64_t used_sym = c.sym_top;
  fail(function, "out of shared memory: cannot allocate " + human(bytes) + " " + where + "; each thread has a " +
                     human(c.partition_bytes) + " heap, of which the symmetric part uses " + human(used_sym) +
                     " (start the program with a larger --heap / UPCEMU_HEAP)");
}

std::string on_thread(int thread) { return "on thread " + std::to_string(thread); }

void label_chunk(chunk_header& ch, std::uint64_t requested, const char* function, const allocation_label& label) {
  ch.magic = used_magic;
  ch.link = 0;
  ch.requested = requested;
  ch.kind = static_cast<std::uint32_t>(label.kind);
  ch.line = label.line;
  switch (label.kind) {
    case allocation_kind::declared:
      ch.info[0] = reinterpret_cast<std::uint64_t>(label.type);
      ch.info[1] = reinterpret_cast<std::uint64_t>(label.file);
      ch.info[2] = label.count;
      break;
    case allocation_kind::all_alloc:
    case allocation_kind::global_alloc:
      ch.info[0] = label.nblocks;
      ch.info[1] = label.nbytes;
      ch.info[2] = 0;
      break;
    default:
      ch.info[0] = reinterpret_cast<std::uint64_t>(function);
      ch.info[1] = ch.info[2] = 0;
  }
}

// The allocations proper; the caller holds the allocation mutex.
std::uint64_t symmetric_alloc_locked(std::size_t bytes_per_thread, const char* function, const allocation_label& label) {
  control_block& c = control();
  if (bytes_per_thread > c.partition_bytes) exhausted(function, bytes_per_thread, "per thread");
  const std::uint64_t need = round_up64(std::max<std::uint64_t>(bytes_per_thread, 1)) + header_bytes;
  heap_ref h = symmetric_heap();
  std::uint64_t off = take_free(h, need);
  if (off == no_chunk) {
    if (need > min_local_floor() - c.sym_top) exhausted(function, bytes_per_thread, "per thread");
    off = c.sym_top;
    c.sym_top += need;
    h.at(off).size = need;
  }
  label_chunk(h.at(off), bytes_per_thread, function, label);
  if (g_races)  // new memory: what the threads did to the bytes' earlier object is forgotten
    for (int t = 0; t < c.threads; ++t) race_forget(g_partitions + t * g_partition_bytes + off, need);
  return off + header_bytes;
}

std::uint64_t local_alloc_locked(int thread, std::size_t bytes, const char* function, const allocation_label& label) {
  control_block& c = control();
  if (bytes > c.partition_bytes) exhausted(function, bytes, on_thread(thread));
  const std::uint64_t need = round_up64(std::max<std::uint64_t>(bytes, 1)) + header_bytes;
  heap_ref h = local_heap(thread);
  std::uint64_t off = take_free(h, need);
  if (off == no_chunk) {
    std::uint64_t& floor = c.slots[thread].local_floor;
    if (need > floor - c.sym_top) exhausted(function, bytes, on_thread(thread));
    floor -= need;
    off = floor;
    h.at(off).size = need;
  }
  label_chunk(h.at(off), bytes, function, label);
  if (g_races) race_forget(g_partitions + static_cast<std::uint64_t>(thread) * g_partition_bytes + off, need);
  return off + header_bytes;
}

std::string pointer_text(const shared_address& a) {
  return "pointer (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) + ")";
}

// What any free can check without the heap's lock: the pointer names a real place.
void check_pointer_range(const shared_address& a, const char* function) {
  const control_block& c = control();
  if (a.thread >= static_cast<std::uint32_t>(c.threads))
    fail(function, pointer_text(a) + " names thread " + std::to_string(a.thread) + ", but THREADS is " +
                       std::to_string(c.threads) + ": it is not a pointer-to-shared returned by an allocation");
  if (a.offset >= c.partition_bytes)
    fail(function, pointer_text(a) + " is outside the shared heap (" + std::to_string(c.partition_bytes) +
                       " bytes per thread): it is not a pointer-to-shared returned by an allocation");
}
}  // namespace

// The launcher's allocations on the mpi backend (launch_replay.hpp): rank 0
// makes them and records the offsets; the other ranks, whose objects must hold
// the same offsets, take them from the record instead of allocating again.
namespace {
enum class launch_mode { normal, record, replay };
launch_mode g_launch_mode = launch_mode::normal;
std::vector<std::uint64_t> g_launch_log;
std::size_t g_replay_next = 0;

std::uint64_t replayed(const char* function) {
  if (g_replay_next >= g_launch_log.size())
    fail(function, "this rank allocated more shared objects before the start than rank 0 did: the program's "
                   "namespace-scope shared objects must be the same in every rank");
  return g_launch_log[g_replay_next++];
}
std::uint64_t logged(std::uint64_t offset) {
  if (g_launch_mode == launch_mode::record) g_launch_log.push_back(offset);
  return offset;
}
}  // namespace

void record_launch_allocations() {
  g_launch_mode = launch_mode::record;
  g_launch_log.clear();
}
std::vector<std::uint64_t> take_launch_allocations() {
  g_launch_mode = launch_mode::normal;
  return std::move(g_launch_log);
}
void replay_launch_allocations(std::vector<std::uint64_t> offsets) {
  g_launch_mode = launch_mode::replay;
  g_launch_log = std::move(offsets);
  g_replay_next = 0;
}
bool replaying_launch() noexcept { return g_launch_mode == launch_mode::replay; }
bool finish_launch_replay() {
  const bool all_used = g_replay_next == g_launch_log.size();
  g_launch_mode = launch_mode::normal;
  g_launch_log.clear();
  return all_used;
}

std::uint64_t symmetric_alloc(std::size_t bytes_per_thread, const char* function, const allocation_label& label) {
  if (g_launch_mode == launch_mode::replay) return replayed(function);
  std::lock_guard<futex_mutex> guard(control().alloc_mutex);
  return logged(symmetric_alloc_locked(bytes_per_thread, function, label));
}

std::uint64_t local_alloc(int thread, std::size_t bytes, const char* function, const allocation_label& label) {
  if (thread < 0 || thread >= control().threads)
    fail(function, "no local heap for thread " + std::to_string(thread) + " (THREADS is " +
                       std::to_string(control().threads) + ")");
  if (g_launch_mode == launch_mode::replay) return replayed(function);
  std::lock_guard<futex_mutex> guard(control().alloc_mutex);
  return logged(local_alloc_locked(thread, bytes, function, label));
}

namespace {
void free_chunk(const shared_address& a, const char* function, bool declared_ok);

// A free (or upc_global_alloc) done by the server of the host that keeps the
// heap, for a thread of another host (remote_ops.hpp). Reply {0}, or {1}
// when the heap there refused it (its words are in the caller's message).
struct free_request {
  std::uint64_t offset;
  std::uint32_t thread, declared_ok;
};
void free_here(void*, const void* argument, std::size_t, void* reply) {
  free_request r;
  std::memcpy(&r, argument, sizeof r);
  std::uint64_t out[2] = {0, 0};
  try {
    free_chunk(shared_address{r.offset, r.thread, 0}, "upc_free", r.declared_ok != 0);
  } catch (const lock_busy&) {
    out[0] = 2;  // ask again
  } catch (...) {
    out[0] = 1;
  }
  std::memcpy(reply, out, sizeof out);
}
const int g_free_here = register_remote_function(free_here);

void free_at_home(int home, const shared_address& a, const char* function, bool declared_ok) {
  dsm_release();  // what this thread wrote there is home before the memory is given back
  free_request r{a.offset, a.thread, declared_ok ? 1u : 0u};
  std::uint64_t reply[2];
  for (int round = 0;; ++round) {  // its host's heap may be busy
    remote_invoke(home, g_free_here, nullptr, &r, sizeof r, reply);
    if (reply[0] != 2) break;
    polite_pause(round);
  }
  if (reply[0])
    fail(function, "the pointer (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                       ") is not the start of an allocation that may be freed (checked on thread " +
                       std::to_string(home) + "'s host, which keeps that heap)");
}

void free_chunk(const shared_address& a, const char* function, bool declared_ok) {
  control_block& c = control();
  if (a == shared_address{}) return;  // freeing the null pointer does nothing
  check_pointer_range(a, function);
  // Across hosts each host keeps its own heap state: the free is done on the
  // host where the chunk's heap lives (thread 0's for the symmetric heap).
  if (several_hosts() && tl_mythread >= 0) {
    const int home = a.offset < sym_top_now() ? 0 : static_cast<int>(a.thread);
    if (!on_my_host(home)) return free_at_home(home, a, function, declared_ok);
  }
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  const bool symmetric = a.offset < c.sym_top;
  if (symmetric && a.thread != 0)
    fail(function, pointer_text(a) +
                       " is not the start of a shared allocation: pass the pointer upc_all_alloc/upc_global_alloc returned");
  const std::uint64_t lo = symmetric ? 0 : c.slots[a.thread].local_floor;
  const std::uint64_t hi = symmetric ? c.sym_top : c.partition_bytes;
  heap_ref h = symmetric ? symmetric_heap() : local_heap(static_cast<int>(a.thread));
  const std::uint64_t off = a.offset - header_bytes;
  if (a.offset < lo + header_bytes || a.offset >= hi || (a.offset & 63) != 0)
    fail(function, pointer_text(a) + " does not point to a live shared allocation (was it already freed?)");
  chunk_header& ch = h.at(off);
  if (ch.magic == free_magic || ch.magic == dead_magic) fail(function, pointer_text(a) + " was already freed");
  if (ch.magic != used_magic) fail(function, pointer_text(a) + " is not the start of a shared allocation");
  if (static_cast<allocation_kind>(ch.kind) == allocation_kind::declared && !declared_ok)
    fail(function, pointer_text(a) +
                       " points to a declared shared array or scalar, not to memory from upc_alloc, "
                       "upc_global_alloc or upc_all_alloc");
  const std::uint64_t holder = insert_free(h, off);
  // Give back a free chunk that touches the boundary between the two heaps.
  const std::uint64_t holder_size = h.at(holder).size;
  if (symmetric) {
    if (holder + holder_size == c.sym_top) {
      remove_free(h, holder);
      c.sym_top = holder;
    }
  } else {
    std::uint64_t& floor = c.slots[a.thread].local_floor;
    if (holder == floor) {
      remove_free(h, holder);
      floor += holder_size;
    }
  }
  c.heap_generation.fetch_add(1, std::memory_order_release);  // lookups cached before the free are stale
}
}  // namespace

void heap_free(const shared_address& a, const char* function) { free_chunk(a, function, false); }

// ---- block-scope static objects ---------------------------------------------

namespace {
struct count_mismatch {
  std::uint64_t theirs;  // the element count the object was made with
};
// Across hosts, a static made but not yet zeroed everywhere carries this key
// (keys are addresses, below 2^63): others who find it wait.
constexpr std::uint64_t pending_bit = 1ULL << 63;
struct still_pending {};
// The used chunk of `h` in [from, to) whose key is `key`, as a payload offset, or 0.
std::uint64_t find_keyed(heap_ref h, std::uint64_t from, std::uint64_t to, std::uint64_t key) {
  for (std::uint64_t cur = from; cur < to;) {
    const chunk_header& ch = h.at(cur);
    if (ch.size < header_bytes || ch.size > to - cur) return 0;  // a damaged header: stop looking
    if (ch.magic == used_magic && ch.link == key) return cur + header_bytes;
    cur += ch.size;
  }
  return 0;
}
}  // namespace

namespace {
// Finds or makes the object on this host's heap: `fresh` says it was made now.
// Only partitions on this host are zeroed here (the server thread of a run
// spread over hosts must not touch the page cache); the caller zeroes the rest.
std::uint64_t find_or_make_static(std::uint64_t key, std::size_t bytes_per_thread, bool symmetric, const char* function,
                                  const allocation_label& label, bool& fresh) {
  control_block& c = control();
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  heap_ref h = symmetric ? symmetric_heap() : local_heap(0);
  auto find = [&](std::uint64_t k) {
    return symmetric ? find_keyed(h, 0, c.sym_top, k) : find_keyed(h, c.slots[0].local_floor, c.partition_bytes, k);
  };
  if (several_hosts() && find(key | pending_bit)) throw still_pending{};
  const std::uint64_t found = find(key);
  if (found) {
    const chunk_header& ch = h.at(found - header_bytes);
    if (ch.info[2] != label.count) throw count_mismatch{ch.info[2]};
    return found;
  }
  const std::uint64_t off = symmetric ? symmetric_alloc_locked(bytes_per_thread, function, label)
                                      : local_alloc_locked(0, bytes_per_thread, function, label);
  h.at(off - header_bytes).link = several_hosts() ? key | pending_bit : key;
  const std::size_t zero_bytes = std::max<std::size_t>(bytes_per_thread, 1);
  for (int t = 0; t < (symmetric ? c.threads : 1); ++t)
    if (on_my_host(t)) std::memset(g_partitions + t * g_partition_bytes + off, 0, zero_bytes);
  fresh = true;
  return off;
}

// The maker has zeroed the other hosts' parts: the object may be found now.
void finish_static(std::uint64_t key, bool symmetric) {
  control_block& c = control();
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  heap_ref h = symmetric ? symmetric_heap() : local_heap(0);
  const std::uint64_t off = symmetric ? find_keyed(h, 0, c.sym_top, key | pending_bit)
                                      : find_keyed(h, c.slots[0].local_floor, c.partition_bytes, key | pending_bit);
  if (off) h.at(off - header_bytes).link = key;
}

// Across hosts, block-scope statics live in thread 0's heap: its server finds
// or makes them (remote_ops.hpp). Reply: {offset, 0 found / 1 made}, or
// {their count, 2} on a count mismatch, {0, 3} when the heap is full.
struct static_request {
  std::uint64_t key, bytes, count, line;
  const declared_type* type;
  const char* file;
  std::uint32_t symmetric;
  std::uint32_t finish;  // 1: finish_static
};
void static_here(void*, const void* argument, std::size_t, void* reply) {
  static_request r;
  std::memcpy(&r, argument, sizeof r);
  allocation_label label;
  label.kind = allocation_kind::declared;
  label.type = r.type;
  label.file = r.file;
  label.line = static_cast<std::uint32_t>(r.line);
  label.count = r.count;
  std::uint64_t out[2] = {0, 0};
  try {
    if (r.finish) {
      finish_static(r.key, r.symmetric != 0);
    } else {
      bool fresh = false;
      out[0] = find_or_make_static(r.key, r.bytes, r.symmetric != 0, "shared_array", label, fresh);
      out[1] = fresh ? 1 : 0;
    }
  } catch (const still_pending&) {
    out[1] = 4;
  } catch (const lock_busy&) {
    out[1] = 4;  // ask again, as for a pending one
  } catch (const count_mismatch& m) {
    out[0] = m.theirs;
    out[1] = 2;
  } catch (...) {
    out[1] = 3;
  }
  std::memcpy(reply, out, sizeof out);
}
const int g_static_here = register_remote_function(static_here);
}  // namespace

std::uint64_t static_alloc_once(std::uint64_t key, std::size_t bytes_per_thread, bool symmetric,
                                const std::string& initial, const char* function, const allocation_label& label) {
  std::uint64_t off = 0;
  bool fresh = false;
  if (several_hosts() && !on_my_host(0)) {
    static_request r{key, bytes_per_thread, label.count, label.line, label.type, label.file, symmetric, 0};
    std::uint64_t reply[2];
    for (int round = 0;; ++round) {  // another thread may be making it
      remote_invoke(0, g_static_here, nullptr, &r, sizeof r, reply);
      if (reply[1] != 4) break;
      polite_pause(round);
    }
    if (reply[1] == 2)
      fail(function, "the element count must be the same on every thread: this thread's size expression gave " +
                         std::to_string(label.count) + ", another thread's gave " + std::to_string(reply[0]));
    if (reply[1] == 3) {
      std::lock_guard<futex_mutex> guard(control().alloc_mutex);
      exhausted(function, bytes_per_thread, "per thread");
    }
    off = reply[0];
    fresh = reply[1] == 1;
  } else {
    try {
      for (int round = 0;; ++round) {  // another thread may be making it (across hosts)
        try {
          off = find_or_make_static(key, bytes_per_thread, symmetric, function, label, fresh);
          break;
        } catch (const still_pending&) {
          polite_pause(round);
        }
      }
    } catch (const count_mismatch& m) {
      fail(function, "the element count must be the same on every thread: this thread's size expression gave " +
                         std::to_string(label.count) + ", another thread's gave " + std::to_string(m.theirs));
    }
  }
  if (!fresh) return off;
  // Made now: the partitions on other hosts (through the page cache, sent home
  // at once) and the initial value.
  // Thread 0's host zeroed its own partitions; the others' go through the page
  // cache, then the object is announced.
  const std::size_t zero_bytes = std::max<std::size_t>(bytes_per_thread, 1);
  const auto made_there = [](int t) { return g_host_map.host_of[static_cast<std::size_t>(t)] == g_host_map.host_of[0]; };
  if (several_hosts())
    for (int t = 0; t < (symmetric ? g_threads : 1); ++t)
      if (!made_there(t)) std::memset(g_partitions + t * g_partition_bytes + off, 0, zero_bytes);
  if (!initial.empty()) std::memcpy(g_partitions + off, initial.data(), initial.size());
  if (several_hosts()) {
    dsm_release();
    if (on_my_host(0)) {
      finish_static(key, symmetric);
    } else {
      static_request r{key, 0, 0, 0, nullptr, nullptr, symmetric, 1};
      std::uint64_t reply[2];
      for (int round = 0;; ++round) {  // thread 0's heap may be busy: then again
        remote_invoke(0, g_static_here, nullptr, &r, sizeof r, reply);
        if (reply[1] != 4) break;
        polite_pause(round);
      }
    }
  }
  return off;
}

// ---- the lookup service (heap_index.hpp) --------------------------------------

namespace {
allocation describe_chunk(const chunk_header& ch, std::uint64_t off, bool symmetric, std::uint32_t thread) {
  allocation a;
  a.kind = static_cast<allocation_kind>(ch.kind);
  a.symmetric = symmetric;
  a.thread = symmetric ? 0 : thread;
  a.start = off + header_bytes;
  a.end = off + ch.size;
  a.requested = ch.requested;
  switch (a.kind) {
    case allocation_kind::declared:
      a.type = reinterpret_cast<const declared_type*>(ch.info[0]);
      a.file = reinterpret_cast<const char*>(ch.info[1]);
      a.count = ch.info[2];
      a.line = ch.line;
      a.function = a.type ? a.type->family : "shared_array";
      break;
    case allocation_kind::all_alloc:
    case allocation_kind::global_alloc:
      a.nblocks = ch.info[0];
      a.nbytes = ch.info[1];
      a.function = a.kind == allocation_kind::all_alloc ? "upc_all_alloc" : "upc_global_alloc";
      break;
    case allocation_kind::local_alloc:
      a.function = "upc_alloc";
      break;
    default:
      a.function = reinterpret_cast<const char*>(ch.info[0]);
  }
  return a;
}

std::optional<allocation> lookup_locked(std::uint32_t thread, std::uint64_t offset) {
  control_block& c = control();
  const std::uint64_t sym_top = sym_top_now(), floor = floor_of(static_cast<int>(thread));
  const bool symmetric = offset < sym_top;
  if (!symmetric && offset < floor) return std::nullopt;  // the free middle
  heap_ref h = symmetric ? symmetric_heap() : local_heap(static_cast<int>(thread));
  const std::uint64_t to = symmetric ? sym_top : c.partition_bytes;
  for (std::uint64_t cur = symmetric ? 0 : floor; cur < to;) {
    const chunk_header& ch = h.at(cur);
    if (ch.size < header_bytes || ch.size > to - cur) return std::nullopt;  // a damaged header
    if (offset < cur + ch.size) {
      if (ch.magic != used_magic) return std::nullopt;
      return describe_chunk(ch, cur, symmetric, thread);
    }
    cur += ch.size;
  }
  return std::nullopt;
}

// The thread's last answers, valid while no allocation has been freed since.
struct cached_answer {
  std::uint64_t run = 0, generation = 0;
  allocation a;
};
constexpr int cache_entries = 8;
thread_local cached_answer tl_answers[cache_entries];
thread_local int tl_next_answer = 0;
}  // namespace

std::optional<allocation> find_allocation(std::uint32_t thread, std::uint64_t offset) {
  control_block& c = control();
  if (thread >= static_cast<std::uint32_t>(c.threads) || offset >= c.partition_bytes) return std::nullopt;
  const std::uint64_t run = run_serial();
  const std::uint64_t generation = c.heap_generation.load(std::memory_order_acquire);
  for (const cached_answer& e : tl_answers) {
    if (e.run != run || e.generation != generation) continue;
    const std::uint64_t chunk = e.a.start - header_bytes;
    if ((e.a.symmetric || e.a.thread == thread) && offset >= chunk && offset < e.a.end) return e.a;
  }
  std::optional<allocation> found;
  std::uint64_t seen_generation;
  {
    std::lock_guard<futex_mutex> guard(c.alloc_mutex);
    found = lookup_locked(thread, offset);
    seen_generation = c.heap_generation.load(std::memory_order_relaxed);
  }
  if (found) {
    tl_answers[tl_next_answer] = cached_answer{run, seen_generation, *found};
    tl_next_answer = (tl_next_answer + 1) % cache_entries;
  }
  return found;
}

heap_extents heap_extent(int thread) {
  control_block& c = control();
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  const bool known = thread >= 0 && thread < c.threads;
  return heap_extents{sym_top_now(), known ? c.partition_bytes - floor_of(thread) : 0};
}

std::uint64_t allocation::affinity_bytes(std::uint32_t t) const noexcept {
  const int T = g_threads;
  if (!symmetric) return t == thread ? requested : 0;
  switch (kind) {
    case allocation_kind::declared: {
      if (!type) return requested;
      std::uint64_t total = 0, block_bytes = 0;
      if (__builtin_mul_overflow(count, type->elem_size, &total) ||
          __builtin_mul_overflow(type->block, type->elem_size, &block_bytes))
        return requested;
      return std::min<std::uint64_t>(requested, layout::affinity_size(total, block_bytes, static_cast<int>(t), T));
    }
    case allocation_kind::all_alloc:
    case allocation_kind::global_alloc: {
      std::uint64_t total = 0;
      if (__builtin_mul_overflow(nblocks, nbytes, &total)) return requested;
      return std::min<std::uint64_t>(requested, layout::affinity_size(total, nbytes, static_cast<int>(t), T));
    }
    default:
      return requested;  // runtime storage: all of it on every thread
  }
}

bool allocation::contains(const shared_address& a, std::uint64_t bytes) const noexcept {
  return bytes_from(a) >= std::max<std::uint64_t>(bytes, 1);
}

std::uint64_t allocation::bytes_from(const shared_address& a) const noexcept {
  if (!symmetric && a.thread != thread) return 0;
  if (a.offset < start) return 0;
  const std::uint64_t mine = affinity_bytes(a.thread);
  const std::uint64_t into = a.offset - start;
  return into < mine ? mine - into : 0;
}

std::string allocation::describe() const {
  switch (kind) {
    case allocation_kind::declared: {
      std::string s = "the " + (type ? declared_type_name(*type) : std::string("shared object"));
      if (!type || type->family != std::string_view("shared"))
        s += " of " + std::to_string(count) + (count == 1 ? " element" : " elements");
      if (file) s += " declared at " + std::string(file) + ":" + std::to_string(line);
      return s;
    }
    case allocation_kind::all_alloc:
    case allocation_kind::global_alloc:
      return std::string("the space of ") + function + "(nblocks " + std::to_string(nblocks) + ", nbytes " +
             std::to_string(nbytes) + ")";
    case allocation_kind::local_alloc:
      return "the " + std::to_string(requested) + " bytes of upc_alloc on thread " + std::to_string(thread);
    default:
      return std::string("the runtime's storage for ") + (function ? function : "an internal object");
  }
}

// ---- collective allocation ------------------------------------------------

namespace {
constexpr std::uint64_t alloc_failed = ~0ULL;
}  // namespace

std::uint64_t collective_symmetric_alloc(std::size_t bytes_per_thread, const char* function, const allocation_label& label) {
  return collective_symmetric_alloc(bytes_per_thread, function, label, single_valued(function));
}

std::uint64_t collective_symmetric_alloc(std::size_t bytes_per_thread, const char* function, const allocation_label& label,
                                         const single_valued& checked) {
  thread_slot& me = my_slot();
  const std::uint32_t seq = me.collective_seq++;
  single_valued args = checked;
  if (check_enabled()) args.add("argument size", bytes_per_thread);
  args.publish(seq);
  std::string failure;
  if (tl_mythread == 0) {
    std::uint64_t off = alloc_failed;
    try {
      off = symmetric_alloc(bytes_per_thread, function, label);
    } catch (const upc::error& e) {
      failure = e.message();
    }
    control().collective_result[seq & 1].store(off, std::memory_order_relaxed);
  }
  world_barrier(function);
  args.verify(seq);
  std::uint64_t off = control().collective_result[seq & 1].load(std::memory_order_relaxed);
  if (off == alloc_failed) {
    if (!failure.empty()) fail(function, failure);
    // symmetric_alloc fails only for lack of space: every thread says so, the same way.
    std::lock_guard<futex_mutex> guard(control().alloc_mutex);
    exhausted(function, bytes_per_thread, "per thread");
  }
  return off;
}

namespace {
void collective_free_chunk(const shared_address& a, const char* function, bool declared_ok) {
  if (a != shared_address{}) check_pointer_range(a, function);  // every thread reports a pointer that cannot be freed
  thread_slot& me = my_slot();
  const std::uint32_t seq = me.collective_seq++;
  single_valued args(function);
  if (check_enabled()) args.add("argument ptr (its address)", a.offset).add("argument ptr (its thread)", a.thread);
  args.publish(seq);
  world_barrier(function);
  args.verify(seq);
  if (tl_mythread == 0) free_chunk(a, function, declared_ok);
}
}  // namespace

void collective_free(const shared_address& a, const char* function) { collective_free_chunk(a, function, false); }

void collective_free_declared_object(const shared_address& a, const char* function) {
  collective_free_chunk(a, function, true);
}

}  // namespace upc::detail

namespace upc {

using namespace detail;

namespace {
// A size argument above PTRDIFF_MAX is almost always a negative number converted to size_t.
void check_size_argument(const char* function, const char* name, std::size_t v) {
  if (v > static_cast<std::size_t>(PTRDIFF_MAX))
    fail(function, std::string(name) + " " + std::to_string(v) +
                       " is too large (is it a negative number converted to size_t?)");
}

std::size_t per_thread_bytes(std::size_t nblocks, std::size_t nbytes, const char* function) {
  check_size_argument(function, "nblocks", nblocks);
  check_size_argument(function, "nbytes", nbytes);
  std::size_t total = 0;
  if (__builtin_mul_overflow(nblocks, nbytes, &total))
    fail(function, "nblocks * nbytes overflows (nblocks " + std::to_string(nblocks) + ", nbytes " + std::to_string(nbytes) + ")");
  const std::size_t T = static_cast<std::size_t>(threads());
  const std::size_t rows = nblocks / T + (nblocks % T != 0);  // ceil without overflow
  return rows * nbytes;                                       // at most nblocks * nbytes
}
}  // namespace

sptr<void> all_alloc(std::size_t nblocks, std::size_t nbytes, const std::source_location& where) {
  collective_call call("upc_all_alloc", where, {{"nblocks", nblocks}, {"nbytes", nbytes}});
  const std::size_t bytes = per_thread_bytes(nblocks, nbytes, "upc_all_alloc");
  single_valued args("upc_all_alloc");
  if (check_enabled()) args.add("argument nblocks", nblocks).add("argument nbytes", nbytes);
  allocation_label label;
  label.kind = allocation_kind::all_alloc;
  label.nblocks = nblocks;
  label.nbytes = nbytes;
  std::uint64_t off = collective_symmetric_alloc(bytes, "upc_all_alloc", label, args);
  if (nblocks == 0 || nbytes == 0) {
    // Nothing to allocate: give the chunk back once everybody has read the result.
    world_barrier("upc_all_alloc");
    if (mythread() == 0) heap_free(shared_address{off, 0, 0}, "upc_all_alloc");
    return sptr<void>();
  }
  return sptr<void>(shared_address{off, 0, 0});
}

namespace {
// upc_global_alloc for a thread of another host (remote_ops.hpp): {offset, 0}
// or {0, 1} when the heap is full.
void global_alloc_here(void*, const void* argument, std::size_t, void* reply) {
  std::uint64_t r[3];
  std::memcpy(r, argument, sizeof r);
  allocation_label label;
  label.kind = allocation_kind::global_alloc;
  label.nblocks = r[1];
  label.nbytes = r[2];
  std::uint64_t out[2] = {0, 0};
  try {
    out[0] = symmetric_alloc(r[0], "upc_global_alloc", label);
  } catch (const lock_busy&) {
    out[1] = 2;  // ask again
  } catch (...) {
    out[1] = 1;
  }
  std::memcpy(reply, out, sizeof out);
}
const int g_global_alloc_here = register_remote_function(global_alloc_here);
}  // namespace

sptr<void> global_alloc(std::size_t nblocks, std::size_t nbytes, const std::source_location& where) {
  enter_runtime("upc_global_alloc", where);
  const std::size_t bytes = per_thread_bytes(nblocks, nbytes, "upc_global_alloc");
  if (nblocks == 0 || nbytes == 0) return sptr<void>();
  allocation_label label;
  label.kind = allocation_kind::global_alloc;
  label.nblocks = nblocks;
  label.nbytes = nbytes;
  // Across hosts the symmetric heap's state is on thread 0's host: its server allocates.
  if (several_hosts() && !on_my_host(0)) {
    const std::uint64_t request[3] = {bytes, nblocks, nbytes};
    std::uint64_t reply[2];
    for (int round = 0;; ++round) {  // thread 0's heap may be busy
      remote_invoke(0, g_global_alloc_here, nullptr, request, sizeof request, reply);
      if (reply[1] != 2) break;
      polite_pause(round);
    }
    if (reply[1]) {
      std::lock_guard<futex_mutex> guard(control().alloc_mutex);
      exhausted("upc_global_alloc", bytes, "per thread");
    }
    return sptr<void>(shared_address{reply[0], 0, 0});
  }
  return sptr<void>(shared_address{symmetric_alloc(bytes, "upc_global_alloc", label), 0, 0});
}

namespace {
sptr<void> alloc_local(std::size_t nbytes, const char* function) {
  check_size_argument(function, "nbytes", nbytes);
  if (nbytes == 0) return sptr<void>();
  const int me = mythread();
  allocation_label label;
  label.kind = allocation_kind::local_alloc;
  return sptr<void>(shared_address{detail::local_alloc(me, nbytes, function, label), static_cast<std::uint32_t>(me), 0});
}
}  // namespace

sptr<void> alloc(std::size_t nbytes, const std::source_location& where) {
  enter_runtime("upc_alloc", where);
  return alloc_local(nbytes, "upc_alloc");
}

sptr<void> local_alloc(std::size_t nblocks, std::size_t nbytes, const std::source_location& where) {
  enter_runtime("upc_local_alloc", where);
  check_size_argument("upc_local_alloc", "nblocks", nblocks);
  check_size_argument("upc_local_alloc", "nbytes", nbytes);
  std::size_t total = 0;
  if (__builtin_mul_overflow(nblocks, nbytes, &total))
    fail("upc_local_alloc", "nblocks * nbytes overflows (nblocks " + std::to_string(nblocks) + ", nbytes " +
                                std::to_string(nbytes) + ")");
  return alloc_local(total, "upc_local_alloc");
}

void free(sptr<void> p, const std::source_location& where) {
  enter_runtime("upc_free", where);
  heap_free(p.address(), "upc_free");
}

void all_free(sptr<void> p, const std::source_location& where) {
  collective_call call("upc_all_free", where, {{"ptr (thread)", p.address().thread}, {"ptr (address)", p.address().offset}});
  collective_free(p.address(), "upc_all_free");
}

}  // namespace upc
