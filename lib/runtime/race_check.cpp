// The race detector (race_check.hpp, docs/races.md).
//
// One anonymous shared mapping, made by the launcher before any worker starts
// (so forked workers share it, like the segment), holds:
//   - a table of synchronisation objects, each with the join (element-wise
//     maximum) of the clocks of the threads that released it: locks, strict
//     locations, semaphores, and each barrier (the world's, a team's, the
//     collectives') once per parity of its phase, which every thread releases at
//     its arrival (notify) and acquires once the phase is complete;
//   - the sites (file:line or return address) accesses were made at, interned
//     into 16-bit numbers;
//   - the shadow: for every byte of the partitions, the epoch (clock, thread,
//     site) of its last write and of a last read, 16 bytes.
// Each thread's own vector clock is private (only sync objects carry clocks
// between threads). An epoch happens before the current thread's present when
// its clock is at most the current thread's clock entry for its thread.
//
// This file is the detector's state alone: it calls nothing of the runtime
// (race_report.cpp turns a conflict into the user's report), so the runtime's
// hooks can call it from anywhere without a circle.
//
// Shadow entries are updated under striped spin locks (one per 16-byte granule
// modulo the stripe count): two threads that touch the same byte see each
// other's epoch, whatever the order.
#include "race_check.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "upc/runtime.hpp"

namespace upc::detail {

bool g_races = false;

namespace {
constexpr std::uint32_t max_sites = 1u << 16;  // site 0: unknown
constexpr std::uint32_t sync_slots = 1u << 14;
constexpr std::uint32_t stripe_count = 1u << 16;
constexpr unsigned granule_shift = 4;

struct site_entry {
  std::atomic<std::uint32_t> used;
  std::uint32_t line;
  const char* file;
  const void* pc;
};

struct shadow_cell {
  std::uint64_t write;  // epoch: clock << 32 | thread << 16 | site; 0: none
  std::uint64_t read;
};

struct region_header {
  int threads;
  std::atomic<std::uint32_t> site_lock;
  std::atomic<std::uint32_t> sync_full;  // a sync object did not fit: its clocks go to the overflow slot
  std::atomic<std::uint32_t> stripes[stripe_count];
};

struct region {
  void* base = nullptr;
  std::size_t bytes = 0;
  int threads = 0;
  region_header* header = nullptr;
  std::atomic<std::uintptr_t>* sync_keys = nullptr;      // [sync_slots]
  std::atomic<std::uint32_t>* sync_clocks = nullptr;     // [sync_slots + 1][threads], the last for overflow
  site_entry* sites = nullptr;                           // [max_sites]
  shadow_cell* shadow = nullptr;                         // one per partition byte
  char* partitions = nullptr;
  std::uint64_t segment_bytes = 0;
};
region g_region;

// This thread's clock: an entry per thread; its own entry counts its epochs.
thread_local std::vector<std::uint32_t> tl_clock;
thread_local int tl_me = -1;
thread_local const void* tl_pending_acquire = nullptr;  // a strict read's location, acquired at the next hook

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

std::uint32_t clock_of(std::uint64_t epoch) { return static_cast<std::uint32_t>(epoch >> 32); }
int thread_of(std::uint64_t epoch) { return static_cast<int>((epoch >> 16) & 0xffff); }
std::uint32_t site_of(std::uint64_t epoch) { return static_cast<std::uint32_t>(epoch & 0xffff); }
bool happened_before(std::uint64_t epoch) { return clock_of(epoch) <= tl_clock[static_cast<std::size_t>(thread_of(epoch))]; }

void lock_word(std::atomic<std::uint32_t>& w) noexcept {
  for (int spins = 0; w.exchange(1, std::memory_order_acquire) != 0; ++spins)
    if (spins > 64) sched_yield();
}
void unlock_word(std::atomic<std::uint32_t>& w) noexcept { w.store(0, std::memory_order_release); }

void join_into(std::atomic<std::uint32_t>* clocks) noexcept {
  for (int t = 0; t < g_region.threads; ++t) {
    const std::uint32_t mine = tl_clock[static_cast<std::size_t>(t)];
    std::uint32_t seen = clocks[t].load(std::memory_order_relaxed);
    while (seen < mine && !clocks[t].compare_exchange_weak(seen, mine, std::memory_order_release)) {
    }
  }
}
void join_from(const std::atomic<std::uint32_t>* clocks) noexcept {
  for (int t = 0; t < g_region.threads; ++t)
    tl_clock[static_cast<std::size_t>(t)] =
        std::max(tl_clock[static_cast<std::size_t>(t)], clocks[t].load(std::memory_order_acquire));
}
void next_epoch() noexcept { ++tl_clock[static_cast<std::size_t>(tl_me)]; }

// The clocks of the sync object at `key`; created on first release. Full table:
// every further object shares one slot (more order than there is: a race may be
// missed, none invented).
std::atomic<std::uint32_t>* sync_clocks(const void* key, bool create) noexcept {
  const auto k = reinterpret_cast<std::uintptr_t>(key);
  std::uint32_t i = static_cast<std::uint32_t>((k >> 3) * 0x9E3779B97F4A7C15ULL >> 50) & (sync_slots - 1);
  for (std::uint32_t probes = 0; probes < sync_slots; ++probes, i = (i + 1) & (sync_slots - 1)) {
    std::uintptr_t seen = g_region.sync_keys[i].load(std::memory_order_acquire);
    if (seen == k) return g_region.sync_clocks + static_cast<std::size_t>(i) * g_region.threads;
    if (seen == 0) {
      if (!create) return nullptr;
      if (g_region.sync_keys[i].compare_exchange_strong(seen, k, std::memory_order_acq_rel) || seen == k)
        return g_region.sync_clocks + static_cast<std::size_t>(i) * g_region.threads;
    }
  }
  g_region.header->sync_full.store(1, std::memory_order_relaxed);
  return g_region.sync_clocks + static_cast<std::size_t>(sync_slots) * g_region.threads;
}

void release(const void* key) noexcept {
  join_into(sync_clocks(key, true));
  next_epoch();
}
void acquire(const void* key) noexcept {
  if (const auto* clocks = sync_clocks(key, false)) join_from(clocks);
}
void apply_pending_acquire() noexcept {
  if (!tl_pending_acquire) return;
  const void* key = tl_pending_acquire;
  tl_pending_acquire = nullptr;
  acquire(key);
}

// ---- sites ----
struct site_cache_entry {
  const char* file = nullptr;
  std::uint32_t line = 0;
  const void* pc = nullptr;
  std::uint32_t id = 0;
};
thread_local site_cache_entry tl_site_cache[1024];

std::uint32_t intern_site(const access_site& s) noexcept {
  const std::uint64_t h = (reinterpret_cast<std::uintptr_t>(s.file) * 31 + s.line) * 0x9E3779B97F4A7C15ULL ^
                          reinterpret_cast<std::uintptr_t>(s.pc) * 0xC2B2AE3D27D4EB4FULL;
  site_cache_entry& c = tl_site_cache[(h >> 40) & 1023];
  if (c.id && c.file == s.file && c.line == s.line && c.pc == s.pc) return c.id;
  region_header& hd = *g_region.header;
  std::uint32_t i = static_cast<std::uint32_t>(h >> 48) | 1;
  lock_word(hd.site_lock);
  std::uint32_t found = 0;
  for (std::uint32_t probes = 0; probes < max_sites - 1; ++probes) {
    site_entry& e = g_region.sites[i];
    if (!e.used.load(std::memory_order_relaxed)) {
      e.file = s.file;
      e.line = s.line;
      e.pc = s.pc;
      e.used.store(1, std::memory_order_release);
      found = i;
      break;
    }
    if (e.file == s.file && e.line == s.line && e.pc == s.pc) {
      found = i;
      break;
    }
    i = (i + 1) & (max_sites - 1);
    if (i == 0) i = 1;
  }
  unlock_word(hd.site_lock);
  c = {s.file, s.line, s.pc, found};
  return found;
}

access_site site_entry_of(std::uint32_t id) noexcept {
  if (id == 0) return {};
  const site_entry& e = g_region.sites[id];
  return {e.file, e.line, e.pc};
}

// Checks and records one access of `bytes` at p (inside the partitions); the
// first byte that races is returned, the rest of the access left unrecorded.
std::optional<race_conflict> check_range(const char* p, std::size_t bytes, bool rd, bool wr, std::uint32_t site) {
  const std::uint64_t first = static_cast<std::uint64_t>(p - g_region.partitions);
  const std::uint64_t mine = (static_cast<std::uint64_t>(tl_clock[static_cast<std::size_t>(tl_me)]) << 32) |
                             (static_cast<std::uint64_t>(tl_me) << 16) | site;
  std::uint64_t i = first;
  const std::uint64_t end = first + bytes;
  while (i < end) {
    const std::uint64_t granule_end = std::min(end, ((i >> granule_shift) + 1) << granule_shift);
    std::atomic<std::uint32_t>& stripe = g_region.header->stripes[(i >> granule_shift) & (stripe_count - 1)];
    lock_word(stripe);
    for (; i < granule_end; ++i) {
      shadow_cell& c = g_region.shadow[i];
      std::uint64_t conflict = 0;
      bool conflict_write = false;
      if (c.write && !happened_before(c.write)) {
        conflict = c.write;
        conflict_write = true;
      } else if (wr && c.read && !happened_before(c.read)) {
        conflict = c.read;
      }
      if (conflict) {
        unlock_word(stripe);
        return race_conflict{g_region.partitions + i, tl_me, wr, site_entry_of(site),
                             thread_of(conflict), conflict_write, site_entry_of(site_of(conflict))};
      }
      if (wr) c.write = mine;
      if (rd && (c.read == 0 || happened_before(c.read))) c.read = mine;
    }
    unlock_word(stripe);
  }
  return std::nullopt;
}
}  // namespace

std::string race_setup(int threads, char* partitions, std::uint64_t segment_bytes) {
  region r;
  r.threads = threads;
  r.partitions = partitions;
  r.segment_bytes = segment_bytes;
  const std::size_t T = static_cast<std::size_t>(threads);
  std::size_t at = round_up(sizeof(region_header), 64);
  const std::size_t keys_at = at;
  at = round_up(at + sync_slots * sizeof(std::uintptr_t), 64);
  const std::size_t clocks_at = at;
  at = round_up(at + (sync_slots + 1) * T * sizeof(std::uint32_t), 64);
  const std::size_t sites_at = at;
  at = round_up(at + max_sites * sizeof(site_entry), 4096);
  const std::size_t shadow_at = at;
  if (segment_bytes > (std::uint64_t{1} << 44) / sizeof(shadow_cell))
    return "--check=races keeps 16 bytes per shared byte: " + std::to_string(segment_bytes) +
           " bytes of partitions are too many; give a smaller --heap";
  r.bytes = at + segment_bytes * sizeof(shadow_cell);
  void* m = ::mmap(nullptr, r.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return "--check=races could not reserve " + std::to_string(r.bytes >> 20) +
           " MiB for its shadow memory (16 bytes per shared byte): " + std::strerror(errno) + "; give a smaller --heap";
  r.base = m;
  char* b = static_cast<char*>(m);
  r.header = new (b) region_header{};
  r.header->threads = threads;
  r.sync_keys = reinterpret_cast<std::atomic<std::uintptr_t>*>(b + keys_at);
  r.sync_clocks = reinterpret_cast<std::atomic<std::uint32_t>*>(b + clocks_at);
  r.sites = reinterpret_cast<site_entry*>(b + sites_at);
  r.shadow = reinterpret_cast<shadow_cell*>(b + shadow_at);
  g_region = r;
  return {};
}

void race_teardown() noexcept {
  if (g_region.base) ::munmap(g_region.base, g_region.bytes);
  g_region = region{};
}

void race_forget(const void* p, std::size_t bytes) noexcept {
  if (!g_region.base) return;
  const char* c = static_cast<const char*>(p);
  if (c < g_region.partitions || static_cast<std::uint64_t>(c - g_region.partitions) + bytes > g_region.segment_bytes) return;
  std::memset(static_cast<void*>(g_region.shadow + (c - g_region.partitions)), 0, bytes * sizeof(shadow_cell));
}

void race_thread_started(int thread) noexcept {
  tl_me = thread;
  tl_clock.assign(static_cast<std::size_t>(g_region.threads), 0);
  tl_clock[static_cast<std::size_t>(thread)] = 1;
  tl_pending_acquire = nullptr;
  for (auto& e : tl_site_cache) e = {};  // sites of an earlier run of this process are gone
}

std::optional<race_conflict> race_check_access(const void* p, std::size_t bytes, unsigned kind,
                                               const access_site& site) {
  if (tl_me < 0 || !g_region.base || bytes == 0) return std::nullopt;
  const char* c = static_cast<const char*>(p);
  if (c < g_region.partitions || static_cast<std::uint64_t>(c - g_region.partitions) + bytes > g_region.segment_bytes)
    return std::nullopt;  // outside the partitions: the bounds check reports it
  apply_pending_acquire();
  if (kind & access_strict) {
    // A strict access synchronises: a write releases the location (before the
    // store, so a reader that sees the value sees the clocks), a read acquires
    // it at this thread's next hook (after the load). Neither is a data access.
    if (kind & access_write) release(p);
    if (kind & access_read) tl_pending_acquire = p;
    return std::nullopt;
  }
  return check_range(c, bytes, (kind & access_read) != 0, (kind & access_write) != 0, intern_site(site));
}

void race_release(const void* key) noexcept {
  if (tl_me < 0 || !g_region.base) return;
  apply_pending_acquire();
  release(key);
}
void race_acquire(const void* key) noexcept {
  if (tl_me < 0 || !g_region.base) return;
  acquire(key);
}

}  // namespace upc::detail
