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
//     site) of its last write and of a last read, 16 bytes;
//   - the epoch counters of the collectives' agents (race_check.hpp).
// Clocks have an entry per UPC thread and one per agent (THREADS + owner).
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
  const char* collective;
  const char* transfer;
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
  int width = 0;                                         // entries of a clock: threads, then their agents
  region_header* header = nullptr;
  std::atomic<std::uintptr_t>* sync_keys = nullptr;      // [sync_slots]
  std::atomic<std::uint32_t>* sync_clocks = nullptr;     // [sync_slots + 1][width], the last for overflow
  std::atomic<std::uint32_t>* agent_epochs = nullptr;    // [threads]: each agent's last epoch
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
// Collectives (race_check.hpp): quiet scopes open, an agent's accesses being
// noted, the next quiet barrier's exchange, the agents' clocks the next barrier
// arrival carries (UPC_OUT_NOSYNC), and the floors: per team (nullptr: the
// world), the clock of its last completed barrier or all-entered collective.
thread_local int tl_quiet = 0;
thread_local bool tl_agent = false;
thread_local const race_clock* tl_exchange_publish = nullptr;
thread_local race_clock* tl_exchange_capture = nullptr;
thread_local race_clock tl_deferred;
thread_local bool tl_has_deferred = false;
thread_local std::vector<std::pair<const void*, race_clock>> tl_floors;

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

void join_into(std::atomic<std::uint32_t>* clocks, const race_clock& from = tl_clock) noexcept {
  for (int t = 0; t < g_region.width; ++t) {
    const std::uint32_t mine = from[static_cast<std::size_t>(t)];
    std::uint32_t seen = clocks[t].load(std::memory_order_relaxed);
    while (seen < mine && !clocks[t].compare_exchange_weak(seen, mine, std::memory_order_release)) {
    }
  }
}
void join_from(const std::atomic<std::uint32_t>* clocks) noexcept {
  for (int t = 0; t < g_region.width; ++t)
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
    if (seen == k) return g_region.sync_clocks + static_cast<std::size_t>(i) * g_region.width;
    if (seen == 0) {
      if (!create) return nullptr;
      if (g_region.sync_keys[i].compare_exchange_strong(seen, k, std::memory_order_acq_rel) || seen == k)
        return g_region.sync_clocks + static_cast<std::size_t>(i) * g_region.width;
    }
  }
  g_region.header->sync_full.store(1, std::memory_order_relaxed);
  return g_region.sync_clocks + static_cast<std::size_t>(sync_slots) * g_region.width;
}

void copy_out(const std::atomic<std::uint32_t>* clocks, race_clock& out) noexcept {
  out.assign(static_cast<std::size_t>(g_region.width), 0);
  if (clocks)
    for (int t = 0; t < g_region.width; ++t) out[static_cast<std::size_t>(t)] = clocks[t].load(std::memory_order_acquire);
}

void join_vector(race_clock& into, const race_clock& from) noexcept {
  for (std::size_t t = 0; t < into.size() && t < from.size(); ++t) into[t] = std::max(into[t], from[t]);
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
  const char* collective = nullptr;
  const char* transfer = nullptr;
  std::uint32_t id = 0;
};
thread_local site_cache_entry tl_site_cache[1024];

template <class Entry>
bool same_site(const Entry& e, const access_site& s) noexcept {
  return e.file == s.file && e.line == s.line && e.pc == s.pc && e.collective == s.collective &&
         e.transfer == s.transfer;
}

std::uint32_t intern_site(const access_site& s) noexcept {
  const std::uint64_t h = (reinterpret_cast<std::uintptr_t>(s.file) * 31 + s.line) * 0x9E3779B97F4A7C15ULL ^
                          reinterpret_cast<std::uintptr_t>(s.pc) * 0xC2B2AE3D27D4EB4FULL ^
                          reinterpret_cast<std::uintptr_t>(s.collective) * 0x165667B19E3779F9ULL ^
                          reinterpret_cast<std::uintptr_t>(s.transfer) * 0x27D4EB2F165667C5ULL;
  site_cache_entry& c = tl_site_cache[(h >> 40) & 1023];
  if (c.id && same_site(c, s)) return c.id;
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
      e.collective = s.collective;
      e.transfer = s.transfer;
      e.used.store(1, std::memory_order_release);
      found = i;
      break;
    }
    if (same_site(e, s)) {
      found = i;
      break;
    }
    i = (i + 1) & (max_sites - 1);
    if (i == 0) i = 1;
  }
  unlock_word(hd.site_lock);
  c = {s.file, s.line, s.pc, s.collective, s.transfer, found};
  return found;
}

access_site site_entry_of(std::uint32_t id) noexcept {
  if (id == 0) return {};
  const site_entry& e = g_region.sites[id];
  return {e.file, e.line, e.pc, e.collective, e.transfer};
}

// An agent is named by the thread whose data it moves.
int shown_thread(int t) noexcept { return t >= g_region.threads ? t - g_region.threads : t; }

// Checks and records one access of `bytes` at p (inside the partitions); the
// first byte that races is returned, the rest of the access left unrecorded.
std::optional<race_conflict> check_range(const char* p, std::size_t bytes, bool rd, bool wr, std::uint32_t site) {
  const std::uint64_t first = static_cast<std::uint64_t>(p - g_region.partitions);
  const std::uint64_t mine = (static_cast<std::uint64_t>(tl_clock[static_cast<std::size_t>(tl_me)]) << 32) |
                             (static_cast<std::uint64_t>(tl_me) << 16) | site;
  std::uint64_t i = first;
  const std::uint64_t end = first + bytes;
  // A range's bytes mostly share their history (one earlier access wrote them
  // all): a cell equal to the one before gets the same verdict and the same
  // new value, without the clock comparisons.
  shadow_cell before{~std::uint64_t{0}, ~std::uint64_t{0}}, after{};
  while (i < end) {
    const std::uint64_t granule_end = std::min(end, ((i >> granule_shift) + 1) << granule_shift);
    std::atomic<std::uint32_t>& stripe = g_region.header->stripes[(i >> granule_shift) & (stripe_count - 1)];
    lock_word(stripe);
    for (; i < granule_end; ++i) {
      shadow_cell& c = g_region.shadow[i];
      if (c.write == before.write && c.read == before.read) {
        c = after;
        continue;
      }
      before = c;
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
        return race_conflict{g_region.partitions + i, shown_thread(tl_me), wr, site_entry_of(site),
                             shown_thread(thread_of(conflict)), conflict_write, site_entry_of(site_of(conflict))};
      }
      if (wr) c.write = mine;
      if (rd && (c.read == 0 || happened_before(c.read))) c.read = mine;
      after = c;
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
  r.width = 2 * threads;
  const std::size_t T = static_cast<std::size_t>(threads), W = static_cast<std::size_t>(r.width);
  std::size_t at = round_up(sizeof(region_header), 64);
  const std::size_t keys_at = at;
  at = round_up(at + sync_slots * sizeof(std::uintptr_t), 64);
  const std::size_t clocks_at = at;
  at = round_up(at + (sync_slots + 1) * W * sizeof(std::uint32_t), 64);
  const std::size_t agents_at = at;
  at = round_up(at + T * sizeof(std::uint32_t), 64);
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
  r.agent_epochs = reinterpret_cast<std::atomic<std::uint32_t>*>(b + agents_at);
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
  tl_clock.assign(static_cast<std::size_t>(g_region.width), 0);
  tl_clock[static_cast<std::size_t>(thread)] = 1;
  tl_pending_acquire = nullptr;
  tl_quiet = 0;
  tl_agent = false;
  tl_exchange_publish = nullptr;
  tl_exchange_capture = nullptr;
  tl_deferred.assign(static_cast<std::size_t>(g_region.width), 0);
  tl_has_deferred = false;
  tl_floors.clear();
  for (auto& e : tl_site_cache) e = {};  // sites of an earlier run of this process are gone
}

std::optional<race_conflict> race_check_access(const void* p, std::size_t bytes, unsigned kind,
                                               const access_site& site) {
  if (tl_me < 0 || !g_region.base || bytes == 0) return std::nullopt;
  const char* c = static_cast<const char*>(p);
  if (c < g_region.partitions || static_cast<std::uint64_t>(c - g_region.partitions) + bytes > g_region.segment_bytes)
    return std::nullopt;  // outside the partitions: the bounds check reports it
  if (tl_agent) return check_range(c, bytes, (kind & access_read) != 0, (kind & access_write) != 0, intern_site(site));
  if (tl_quiet) return std::nullopt;  // a collective's own copies: its model notes them as its agents'
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
  if (tl_me < 0 || !g_region.base || tl_quiet) return;
  apply_pending_acquire();
  release(key);
}
void race_acquire(const void* key) noexcept {
  if (tl_me < 0 || !g_region.base || tl_quiet) return;
  acquire(key);
}

// A barrier inside a collective (quiet) orders nothing by itself: the model
// may pass a clock through it (race_barrier_exchange). Outside, the arrival
// also carries the agents of the thread's UPC_OUT_NOSYNC collectives, and the
// completion is the team's new floor.
void race_release(race_barrier b) noexcept {
  if (tl_me < 0 || !g_region.base) return;
  if (tl_quiet) {
    if (tl_exchange_publish) join_into(sync_clocks(b.key, true), *tl_exchange_publish);
    tl_exchange_publish = nullptr;
    return;
  }
  apply_pending_acquire();
  std::atomic<std::uint32_t>* clocks = sync_clocks(b.key, true);
  if (tl_has_deferred) {
    join_into(clocks, tl_deferred);
    race_clear_deferred();
  }
  join_into(clocks);
  next_epoch();
}
void race_acquire(race_barrier b) noexcept {
  if (tl_me < 0 || !g_region.base) return;
  const std::atomic<std::uint32_t>* clocks = sync_clocks(b.key, false);
  if (tl_quiet) {
    if (tl_exchange_capture) copy_out(clocks, *tl_exchange_capture);
    tl_exchange_capture = nullptr;
    return;
  }
  if (!clocks) return;
  join_from(clocks);
  race_clock floor;
  copy_out(clocks, floor);
  race_set_floor(b.team, floor);
}

// ---- collectives ----

race_quiet_scope::race_quiet_scope() noexcept { ++tl_quiet; }
race_quiet_scope::~race_quiet_scope() { --tl_quiet; }

void race_barrier_exchange(const race_clock* publish, race_clock* capture) noexcept {
  tl_exchange_publish = publish;
  tl_exchange_capture = capture;
}

race_clock race_clock_now() noexcept { return tl_clock; }
void race_tick() noexcept {
  if (tl_me >= 0 && g_region.base) next_epoch();
}
void race_join(const race_clock& c) noexcept {
  if (tl_me < 0 || !g_region.base) return;
  join_vector(tl_clock, c);
}

void race_defer_to_barrier(const race_clock& c) noexcept {
  if (tl_me < 0 || !g_region.base) return;
  join_vector(tl_deferred, c);
  tl_has_deferred = true;
}
race_clock race_deferred() noexcept { return tl_deferred; }
void race_clear_deferred() noexcept {
  std::fill(tl_deferred.begin(), tl_deferred.end(), 0u);
  tl_has_deferred = false;
}

race_clock race_floor(const void* team) noexcept {
  race_clock f(static_cast<std::size_t>(g_region.width), 0);
  for (const auto& [t, c] : tl_floors)
    if (t == nullptr || t == team) join_vector(f, c);
  return f;
}
void race_set_floor(const void* team, const race_clock& c) noexcept {
  for (auto& [t, f] : tl_floors)
    if (t == team) {
      join_vector(f, c);  // floors only grow: each completion knows all the earlier ones did
      return;
    }
  tl_floors.emplace_back(team, c);
}
void race_forget_team(const void* team) noexcept {
  if (!team) return;
  for (std::size_t i = 0; i < tl_floors.size(); ++i)
    if (tl_floors[i].first == team) {
      tl_floors.erase(tl_floors.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
}

int race_threads() noexcept { return g_region.base ? g_region.threads : 0; }
std::uint32_t race_next_agent_epoch(int owner) noexcept {
  return g_region.agent_epochs[owner].fetch_add(1, std::memory_order_relaxed) + 1;
}

race_agent_scope::race_agent_scope(int owner, race_clock& clock) noexcept : saved_me_(tl_me), clock_(clock) {
  tl_me = g_region.threads + owner;
  tl_clock.swap(clock_);
  tl_agent = true;
}
race_agent_scope::~race_agent_scope() {
  tl_agent = false;
  tl_clock.swap(clock_);
  tl_me = saved_me_;
}

namespace {
// The detector's own keys live where no address of a program can: the top bit set.
const void* own_key(std::uint64_t key) noexcept {
  return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(key | (std::uint64_t{1} << 63)));
}
}  // namespace
void race_publish(std::uint64_t key, const race_clock& c) noexcept {
  if (!g_region.base) return;
  join_into(sync_clocks(own_key(key), true), c);
}
race_clock race_read(std::uint64_t key) noexcept {
  race_clock c;
  copy_out(g_region.base ? sync_clocks(own_key(key), false) : nullptr, c);
  return c;
}

}  // namespace upc::detail
