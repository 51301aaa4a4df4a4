#include "segment.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <string>

#include "control.hpp"
#include "size_parse.hpp"
#include "upc/runtime.hpp"

namespace upc::detail {

char* g_partitions = nullptr;
std::uint64_t g_partition_bytes = 0;

namespace {
void* g_base = nullptr;
std::size_t g_bytes = 0;
std::size_t g_guard = 0;  // inaccessible bytes on each side of the segment (create_segment's)
}  // namespace

void create_segment(const segment_geometry& g) {
  // Inaccessible pages on both sides: a loop that runs past the last partition
  // (or before the first) faults at once, and the report says so
  // (describe_segment_address), instead of writing into whatever the kernel
  // happened to map next to the segment (another thread's stack, TLS).
  void* reserved = ::mmap(nullptr, g.total_bytes + 2 * segment_guard_bytes, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  // MAP_NORESERVE: the heap is sparse, only touched pages use memory.
  void* base = reserved == MAP_FAILED
                   ? MAP_FAILED
                   : ::mmap(static_cast<char*>(reserved) + segment_guard_bytes, g.total_bytes, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  if (base == MAP_FAILED) {
    if (reserved != MAP_FAILED) ::munmap(reserved, g.total_bytes + 2 * segment_guard_bytes);
    throw upc::error("upcrun",
                     "cannot map the shared segment of " + describe_bytes(g.total_bytes) + " (--heap " +
                         describe_bytes(g.partition_bytes) + " × THREADS " + std::to_string(g.threads) +
                         ", plus the control block): " + std::strerror(errno) + " (try a smaller --heap)",
                     -1);
  }
  g_base = base;
  g_bytes = g.total_bytes;
  g_guard = segment_guard_bytes;
  char* bytes = static_cast<char*>(base);
  g_control = new (bytes) control_block{};
  g_partitions = bytes + g.header_bytes;
  g_partition_bytes = g.partition_bytes;
}

bool map_segment_at(const segment_geometry& g, int fd, void* address, bool construct_control) {
  void* base = ::mmap(address, g.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                      fd, 0);
  if (base == MAP_FAILED) return false;
  if (base != address) {  // a kernel older than 4.17 takes the flag as a hint
    ::munmap(base, g.total_bytes);
    return false;
  }
  g_base = base;
  g_bytes = g.total_bytes;
  char* bytes = static_cast<char*>(base);
  g_control = construct_control ? new (bytes) control_block{} : reinterpret_cast<control_block*>(bytes);
  g_partitions = bytes + g.header_bytes;
  g_partition_bytes = g.partition_bytes;
  return true;
}

void destroy_segment() noexcept {
  if (g_base) ::munmap(static_cast<char*>(g_base) - g_guard, g_bytes + 2 * g_guard);
  g_base = nullptr;
  g_bytes = 0;
  g_guard = 0;
  g_control = nullptr;
  g_partitions = nullptr;
}

}  // namespace upc::detail
