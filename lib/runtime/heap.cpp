// The shared heap. Every partition holds two heaps that grow towards each other:
//
//   offset 0                    sym_top        local_floor[t]        partition end
//   | symmetric heap  ------>   |     free     |   <------ local heap of t   |
//
// The symmetric heap gives the same offset in every partition (upc_all_alloc,
// upc_global_alloc, namespace-scope arrays); its chunk headers live in partition 0.
// Each thread's local heap (upc_alloc) keeps its headers in its own partition.
// Chunks carry a 64-byte header; free chunks form an address-ordered list and merge
// with their neighbours; a free chunk touching the boundary gives the space back.
// One process-shared mutex guards both heaps: allocation is not a hot path.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

#include "call_site.hpp"
#include "collective_call.hpp"
#include "control.hpp"
#include "world_barrier.hpp"
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
  std::uint64_t next_free;  // header offset of the next free chunk, or no_chunk
  std::uint64_t requested;  // payload bytes asked for (diagnostics)
  std::uint64_t declared;   // 1: storage of a declared shared array/scalar, not for upc_free
};

struct heap_ref {
  char* mem;                // partition holding the headers
  std::uint64_t& free_head;
  bool grows_up;            // symmetric: true; local: false
  chunk_header& at(std::uint64_t off) const { return *reinterpret_cast<chunk_header*>(mem + off); }
};

std::uint64_t round_up64(std::uint64_t x) { return (x + 63) & ~std::uint64_t{63}; }

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

std::uint64_t min_local_floor() {
  control_block& c = control();
  std::uint64_t m = c.partition_bytes;
  for (int t = 0; t < c.threads; ++t) m = std::min(m, c.slots[t].local_floor);
  return m;
}

// First fit in the free list; splits off the remainder. Returns the header offset or no_chunk.
std::uint64_t take_free(heap_ref h, std::uint64_t need) {
  std::uint64_t prev = no_chunk, cur = h.free_head;
  while (cur != no_chunk) {
    chunk_header& c = h.at(cur);
    if (c.size >= need) {
      std::uint64_t next = c.next_free;
      if (c.size - need >= 2 * header_bytes) {
        std::uint64_t rest = cur + need;
        h.at(rest) = chunk_header{free_magic, c.size - need, next, 0, 0};
        next = rest;
        c.size = need;
      }
      if (prev == no_chunk) h.free_head = next;
      else h.at(prev).next_free = next;
      return cur;
    }
    prev = cur;
    cur = c.next_free;
  }
  return no_chunk;
}

void insert_free(heap_ref h, std::uint64_t off) {
  chunk_header& c = h.at(off);
  c.magic = free_magic;
  std::uint64_t prev = no_chunk, cur = h.free_head;
  while (cur != no_chunk && cur < off) { prev = cur; cur = h.at(cur).next_free; }
  c.next_free = cur;
  if (prev == no_chunk) h.free_head = off;
  else h.at(prev).next_free = off;
  if (cur != no_chunk && off + c.size == cur) {  // merge with the next chunk
    c.size += h.at(cur).size;
    c.next_free = h.at(cur).next_free;
    h.at(cur).magic = dead_magic;
  }
  if (prev != no_chunk && prev + h.at(prev).size == off) {  // merge into the previous one
    h.at(prev).size += c.size;
    h.at(prev).next_free = c.next_free;
    c.magic = dead_magic;
  }
}

void remove_free(heap_ref h, std::uint64_t off) {
  std::uint64_t prev = no_chunk, cur = h.free_head;
  while (cur != no_chunk && cur != off) { prev = cur; cur = h.at(cur).next_free; }
  if (cur == no_chunk) return;
  if (prev == no_chunk) h.free_head = h.at(cur).next_free;
  else h.at(prev).next_free = h.at(cur).next_free;
  h.at(cur).magic = dead_magic;
}

heap_ref symmetric_heap() { return {g_partitions, control().sym_free_head, true}; }
heap_ref local_heap(int t) { return {g_partitions + t * g_partition_bytes, control().slots[t].local_free_head, false}; }

[[noreturn]] void exhausted(const char* function, std::uint64_t bytes, const char* where) {
  control_block& c = control();
  std::uint64_t used_sym = c.sym_top;
  fail(function, "out of shared memory: cannot allocate " + human(bytes) + " " + where + "; each thread has a " +
                     human(c.partition_bytes) + " heap, of which the symmetric part uses " + human(used_sym) +
                     " (start the program with a larger --heap / UPCEMU_HEAP)");
}
}  // namespace

std::uint64_t symmetric_alloc(std::size_t bytes_per_thread, const char* function) {
  control_block& c = control();
  std::uint64_t need = round_up64(std::max<std::uint64_t>(bytes_per_thread, 1)) + header_bytes;
  if (bytes_per_thread > c.partition_bytes) exhausted(function, bytes_per_thread, "per thread");
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  heap_ref h = symmetric_heap();
  std::uint64_t off = take_free(h, need);
  if (off == no_chunk) {
    if (c.sym_top + need > min_local_floor()) exhausted(function, bytes_per_thread, "per thread");
    off = c.sym_top;
    c.sym_top += need;
    h.at(off) = chunk_header{0, need, no_chunk, 0, 0};
  }
  chunk_header& ch = h.at(off);
  ch.magic = used_magic;
  ch.next_free = no_chunk;
  ch.requested = bytes_per_thread;
  ch.declared = 0;
  return off + header_bytes;
}

std::uint64_t local_alloc(int thread, std::size_t bytes, const char* function) {
  control_block& c = control();
  std::uint64_t need = round_up64(std::max<std::uint64_t>(bytes, 1)) + header_bytes;
  if (bytes > c.partition_bytes) exhausted(function, bytes, ("on thread " + std::to_string(thread)).c_str());
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  heap_ref h = local_heap(thread);
  std::uint64_t off = take_free(h, need);
  if (off == no_chunk) {
    std::uint64_t& floor = c.slots[thread].local_floor;
    if (floor < need || floor - need < c.sym_top) exhausted(function, bytes, ("on thread " + std::to_string(thread)).c_str());
    floor -= need;
    off = floor;
    h.at(off) = chunk_header{0, need, no_chunk, 0, 0};
  }
  chunk_header& ch = h.at(off);
  ch.magic = used_magic;
  ch.next_free = no_chunk;
  ch.requested = bytes;
  ch.declared = 0;
  return off + header_bytes;
}

namespace {
void free_chunk(const shared_address& a, const char* function, bool declared_ok) {
  control_block& c = control();
  if (a == shared_address{}) return;  // freeing the null pointer does nothing
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  const bool symmetric = a.offset < c.sym_top;
  if (symmetric && a.thread != 0)
    fail(function, "pointer (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                       ") is not the start of a shared allocation: pass the pointer upc_all_alloc/upc_global_alloc returned");
  const std::uint64_t lo = symmetric ? 0 : c.slots[a.thread].local_floor;
  const std::uint64_t hi = symmetric ? c.sym_top : c.partition_bytes;
  heap_ref h = symmetric ? symmetric_heap() : local_heap(static_cast<int>(a.thread));
  const std::uint64_t off = a.offset - header_bytes;
  if (a.offset < lo + header_bytes || a.offset >= hi || (a.offset & 63) != 0)
    fail(function, "pointer (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                       ") does not point to a live shared allocation (was it already freed?)");
  chunk_header& ch = h.at(off);
  if (ch.magic == free_magic || ch.magic == dead_magic)
    fail(function, "pointer (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                       ") was already freed");
  if (ch.magic != used_magic)
    fail(function, "pointer (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                       ") is not the start of a shared allocation");
  if (ch.declared && !declared_ok)
    fail(function, "pointer (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                       ") points to a declared shared array or scalar, not to memory from upc_alloc, "
                       "upc_global_alloc or upc_all_alloc");
  insert_free(h, off);
  // Give back a free chunk that touches the boundary between the two heaps.
  if (symmetric) {
    for (std::uint64_t cur = h.free_head; cur != no_chunk; cur = h.at(cur).next_free)
      if (cur + h.at(cur).size == c.sym_top) { c.sym_top = cur; remove_free(h, cur); break; }
  } else {
    std::uint64_t& floor = c.slots[a.thread].local_floor;
    if (h.free_head == floor) {
      std::uint64_t first = h.free_head;
      floor = first + h.at(first).size;
      remove_free(h, first);
    }
  }
}
}  // namespace

void heap_free(const shared_address& a, const char* function) { free_chunk(a, function, false); }

// Declared shared objects (shared_array, shared<T>) mark their chunk so that
// upc_free/upc_all_free refuse it; only the object itself gives it back.
void mark_declared_object(const shared_address& a) {
  control_block& c = control();
  std::lock_guard<futex_mutex> guard(c.alloc_mutex);
  const bool symmetric = a.offset < c.sym_top;
  heap_ref h = symmetric ? symmetric_heap() : local_heap(static_cast<int>(a.thread));
  h.at(a.offset - header_bytes).declared = 1;
}

// ---- collective allocation ------------------------------------------------

namespace {
[[noreturn]] void fail_not_single_valued(const char* function, const char* arg, std::uint64_t mine, std::uint64_t zeros) {
  fail(function, std::string("argument ") + arg + " must be single-valued (the same on every thread): this thread passed " +
                     std::to_string(mine) + ", thread 0 passed " + std::to_string(zeros));
}

// Under --check, compares each thread's value with thread 0's (two barriers' worth
// of ordering come from the caller's barrier).
void publish_check(std::uint32_t seq, int index, std::uint64_t v) {
  if (check_enabled()) my_slot().check_args[seq & 1][index].store(v, std::memory_order_relaxed);
}
void verify_check(const char* function, const char* arg, std::uint32_t seq, int index, std::uint64_t v) {
  if (!check_enabled()) return;
  std::uint64_t zeros = control().slots[0].check_args[seq & 1][index].load(std::memory_order_relaxed);
  if (zeros != v) fail_not_single_valued(function, arg, v, zeros);
}
constexpr std::uint64_t alloc_failed = ~0ULL;
}  // namespace

std::uint64_t collective_symmetric_alloc(std::size_t bytes_per_thread, const char* function) {
  thread_slot& me = my_slot();
  const std::uint32_t seq = me.collective_seq++;
  publish_check(seq, 0, bytes_per_thread);
  std::string failure;
  if (tl_mythread == 0) {
    std::uint64_t off = alloc_failed;
    try {
      off = symmetric_alloc(bytes_per_thread, function);
    } catch (const upc::error& e) {
      failure = e.message();
    }
    control().collective_result[seq & 1].store(off, std::memory_order_relaxed);
  }
  world_barrier(function);
  verify_check(function, "size", seq, 0, bytes_per_thread);
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
  thread_slot& me = my_slot();
  const std::uint32_t seq = me.collective_seq++;
  publish_check(seq, 0, a.offset);
  publish_check(seq, 1, a.thread);
  world_barrier(function);
  verify_check(function, "ptr", seq, 0, a.offset);
  verify_check(function, "ptr", seq, 1, a.thread);
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
std::size_t per_thread_bytes(std::size_t nblocks, std::size_t nbytes, const char* function) {
  if (nbytes != 0 && nblocks > SIZE_MAX / nbytes)
    fail(function, "nblocks * nbytes overflows (nblocks " + std::to_string(nblocks) + ", nbytes " + std::to_string(nbytes) + ")");
  const std::size_t T = static_cast<std::size_t>(threads());
  const std::size_t rows = nblocks / T + (nblocks % T != 0);  // ceil without overflow
  return rows * nbytes;
}
}  // namespace

sptr<void> all_alloc(std::size_t nblocks, std::size_t nbytes, const std::source_location& where) {
  collective_call call("upc_all_alloc", where, {{"nblocks", nblocks}, {"nbytes", nbytes}});
  const std::size_t bytes = per_thread_bytes(nblocks, nbytes, "upc_all_alloc");
  if (check_enabled()) {
    thread_slot& me = my_slot();
    me.check_args[me.collective_seq & 1][1].store(nblocks);
    me.check_args[me.collective_seq & 1][2].store(nbytes);
  }
  const std::uint32_t seq = my_slot().collective_seq;
  std::uint64_t off = collective_symmetric_alloc(bytes, "upc_all_alloc");
  verify_check("upc_all_alloc", "nblocks", seq, 1, nblocks);
  verify_check("upc_all_alloc", "nbytes", seq, 2, nbytes);
  if (nblocks == 0 || nbytes == 0) {
    // Nothing to allocate: give the chunk back once everybody has read the result.
    world_barrier("upc_all_alloc");
    if (mythread() == 0) heap_free(shared_address{off, 0, 0}, "upc_all_alloc");
    return sptr<void>();
  }
  return sptr<void>(shared_address{off, 0, 0});
}

sptr<void> global_alloc(std::size_t nblocks, std::size_t nbytes, const std::source_location& where) {
  enter_runtime("upc_global_alloc", where);
  if (nblocks == 0 || nbytes == 0) return sptr<void>();
  return sptr<void>(shared_address{symmetric_alloc(per_thread_bytes(nblocks, nbytes, "upc_global_alloc"), "upc_global_alloc"), 0, 0});
}

sptr<void> alloc(std::size_t nbytes, const std::source_location& where) {
  enter_runtime("upc_alloc", where);
  if (nbytes == 0) return sptr<void>();
  const int me = mythread();
  return sptr<void>(shared_address{local_alloc(me, nbytes, "upc_alloc"), static_cast<std::uint32_t>(me), 0});
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
