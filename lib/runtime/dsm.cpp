#include "dsm.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <vector>

#include "copy_bytes.hpp"
#include "hosts.hpp"
#include "remote_ops.hpp"

namespace upc::detail {

bool g_several_hosts = false;
host_map g_host_map;

thread_local bool tl_no_cache = false;

namespace {
constexpr std::size_t page = 4096;
// Pages fetched at once when the next ones are not cached either: a copy
// reads on, and one request per page would pay a round trip each.
constexpr std::size_t readahead_pages = 16;

enum : std::uint8_t { absent = 0, clean = 1, dirty = 2 };

char* g_first = nullptr;  // partition 0
std::size_t g_cache_partition_bytes = 0;
int g_cache_threads = 0;
std::uint8_t* g_state = nullptr;  // per page of the partitions
char* g_twins = nullptr;          // a twin per page, at the same offset (reserved, touched on write)
std::size_t g_pages = 0;
// Pages not absent, in the order cached; their indices.
std::uint32_t* g_cached = nullptr;
std::size_t g_cached_count = 0;

void* reserve(std::size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

int owner_of_page(std::size_t index) { return static_cast<int>(index * page / g_cache_partition_bytes); }
char* page_at(std::size_t index) { return g_first + index * page; }

// Every other host's partition, as runs of consecutive threads.
template <class F>
void for_each_remote_range(F f) {
  for (int t = 0; t < g_cache_threads;) {
    if (on_my_host(t)) { ++t; continue; }
    int u = t;
    while (u + 1 < g_cache_threads && !on_my_host(u + 1)) ++u;
    f(g_first + static_cast<std::size_t>(t) * g_cache_partition_bytes, static_cast<std::size_t>(u - t + 1) * g_cache_partition_bytes);
    t = u + 1;
  }
}
}  // namespace

int partition_owner(const void* address) noexcept {
  const char* a = static_cast<const char*>(address);
  if (!g_first || a < g_first || a >= g_first + static_cast<std::size_t>(g_cache_threads) * g_cache_partition_bytes) return -1;
  return static_cast<int>(static_cast<std::size_t>(a - g_first) / g_cache_partition_bytes);
}

bool remote_address(const void* address) noexcept {
  if (!g_several_hosts) return false;
  const int t = partition_owner(address);
  return t >= 0 && !on_my_host(t);
}

void dsm_start(char* partitions, std::size_t partition_bytes, int threads) {
  g_first = partitions;
  g_cache_partition_bytes = partition_bytes;
  g_cache_threads = threads;
  g_pages = partition_bytes / page * static_cast<std::size_t>(threads);
  g_state = static_cast<std::uint8_t*>(reserve(g_pages));
  g_cached = static_cast<std::uint32_t*>(reserve(g_pages * sizeof(std::uint32_t)));
  g_twins = static_cast<char*>(reserve(g_pages * page));
  g_cached_count = 0;
  for_each_remote_range([](char* at, std::size_t bytes) {
    ::mmap(at, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  });
}

void dsm_stop() noexcept {
  if (g_state) ::munmap(g_state, g_pages);
  if (g_cached) ::munmap(g_cached, g_pages * sizeof(std::uint32_t));
  if (g_twins) ::munmap(g_twins, g_pages * page);
  g_state = nullptr;
  g_cached = nullptr;
  g_twins = nullptr;
  g_first = nullptr;
  g_cached_count = 0;
}

// Runs in the SIGSEGV handler of the faulting thread (the UPC thread: the only
// one that touches other hosts' partitions), outside any MPI call of its own.
bool dsm_fault(void* address) noexcept {
  if (!g_state || !remote_address(address)) return false;
  if (tl_no_cache) {
    // The server thread serves its own host's memory only: a request for
    // another host's reached the wrong rank. Reported as the crash it is.
    const char msg[] = "upcemu: a request to this rank's server named another host's memory (page cache)\n";
    (void)!::write(2, msg, sizeof msg - 1);
    return false;
  }
  const std::size_t index = static_cast<std::size_t>(static_cast<char*>(address) - g_first) / page;
  char* p = page_at(index);
  if (g_state[index] == clean) {  // a write to a cached page: keep its twin first
    std::memcpy(g_twins + index * page, p, page);
    ::mprotect(p, page, PROT_READ | PROT_WRITE);
    g_state[index] = dirty;
    return true;
  }
  if (g_state[index] == dirty) return false;  // writable already: a real crash
  // Absent: fetch it and the absent pages after it in the same partition.
  const int owner = owner_of_page(index);
  std::size_t n = 1;
  while (n < readahead_pages && index + n < g_pages && owner_of_page(index + n) == owner && g_state[index + n] == absent)
    ++n;
  ::mprotect(p, n * page, PROT_READ | PROT_WRITE);
  remote_read(owner, p, p, n * page);
  ::mprotect(p, n * page, PROT_READ);
  if (g_cached_count + n > g_pages) {  // forgotten pages' entries: drop them
    std::size_t kept = 0;
    for (std::size_t k = 0; k < g_cached_count; ++k)
      if (g_state[g_cached[k]] != absent) g_cached[kept++] = g_cached[k];
    g_cached_count = kept;
  }
  for (std::size_t i = 0; i < n; ++i) {
    g_state[index + i] = clean;
    g_cached[g_cached_count++] = static_cast<std::uint32_t>(index + i);
  }
  return true;
}

bool copy_across_hosts(void* dst, const void* src, std::size_t n) {
  const bool from_remote = remote_address(src) && remote_address(static_cast<const char*>(src) + n - 1);
  const bool to_remote = remote_address(dst) && remote_address(static_cast<char*>(dst) + n - 1);
  if (from_remote == to_remote) return false;  // both here, or both away: through the cache
  const int owner = partition_owner(from_remote ? src : dst);
  if (partition_owner(from_remote ? static_cast<const char*>(src) + n - 1 : static_cast<char*>(dst) + n - 1) != owner)
    return false;  // spans partitions: page by page
  dsm_release();  // our own writes reach the owner first
  // One request per 16 MiB: its pieces stream (remote_ops.hpp); the bound
  // keeps the requests MPI holds at once to a few hundred.
  constexpr std::size_t chunk = 16u << 20;
  for (std::size_t done = 0; done < n; done += chunk) {
    const std::size_t len = std::min(chunk, n - done);
    if (from_remote) remote_read(owner, static_cast<const char*>(src) + done, static_cast<char*>(dst) + done, len);
    else remote_write(owner, static_cast<char*>(dst) + done, static_cast<const char*>(src) + done, len);
  }
  if (from_remote) return true;
  dsm_forget(dst, n);
  return true;
}

void dsm_release() {
  if (!g_state) return;
  // Per owner, one message of runs {address, bytes, bytes...}.
  std::vector<std::vector<char>> out(static_cast<std::size_t>(g_cache_threads));
  bool any = false;
  for (std::size_t k = 0; k < g_cached_count; ++k) {
    const std::size_t index = g_cached[k];
    if (g_state[index] != dirty) continue;
    any = true;
    const char* p = page_at(index);
    const char* twin = g_twins + index * page;
    std::vector<char>& msg = out[static_cast<std::size_t>(owner_of_page(index))];
    if (msg.empty()) {
      remote_request r{remote_op::write_runs};
      msg.resize(sizeof r);
      std::memcpy(msg.data(), &r, sizeof r);
    }
    for (std::size_t i = 0; i < page;) {
      if (p[i] == twin[i]) { ++i; continue; }
      // Changed bytes only, never a gap between them: an unchanged byte here
      // may be another host's to write (elements of one byte, interleaved
      // among threads), and our copy of it may be old.
      std::size_t j = i + 1;
      while (j < page && p[j] != twin[j]) ++j;
      const std::uint64_t a = reinterpret_cast<std::uintptr_t>(p + i), n = j - i;
      const std::size_t at = msg.size();
      msg.resize(at + 16 + n);
      std::memcpy(msg.data() + at, &a, 8);
      std::memcpy(msg.data() + at + 8, &n, 8);
      std::memcpy(msg.data() + at + 16, p + i, n);
      i = j;
    }
    ::mprotect(const_cast<char*>(p), page, PROT_READ);
    ::madvise(g_twins + index * page, page, MADV_DONTNEED);
    g_state[index] = clean;
  }
  if (!any) return;
  for (int t = 0; t < g_cache_threads; ++t)
    if (out[static_cast<std::size_t>(t)].size() > sizeof(remote_request))
      remote_write_runs(t, out[static_cast<std::size_t>(t)].data(), out[static_cast<std::size_t>(t)].size());
}

void dsm_forget(const void* address, std::size_t bytes) {
  if (!g_state || bytes == 0) return;
  const std::size_t first = static_cast<std::size_t>(static_cast<const char*>(address) - g_first) / page;
  const std::size_t last = static_cast<std::size_t>(static_cast<const char*>(address) + bytes - 1 - g_first) / page;
  for (std::size_t i = first; i <= last && i < g_pages; ++i) {
    if (g_state[i] == absent) continue;
    char* p = page_at(i);
    ::madvise(p, page, MADV_DONTNEED);
    ::mprotect(p, page, PROT_NONE);
    g_state[i] = absent;  // its entry in g_cached stays, harmlessly, until compacted
  }
}

void strict_sync() {
  dsm_release();
  dsm_acquire();
}

void dsm_acquire() {
  dsm_release();  // nothing written may be forgotten
  if (!g_state || g_cached_count == 0) return;
  for (std::size_t k = 0; k < g_cached_count; ++k) g_state[g_cached[k]] = absent;
  g_cached_count = 0;
  for_each_remote_range([](char* at, std::size_t bytes) {
    ::madvise(at, bytes, MADV_DONTNEED);
    ::mprotect(at, bytes, PROT_NONE);
  });
}

}  // namespace upc::detail
