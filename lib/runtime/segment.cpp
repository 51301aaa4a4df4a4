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

namespace {
void* g_base = nullptr;
std::size_t g_bytes = 0;
}  // namespace

void create_segment(const segment_geometry& g) {
  // MAP_NORESERVE: the heap is sparse, only touched pages use memory.
  void* base = ::mmap(nullptr, g.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    throw upc::error("upcrun",
                     "cannot map the shared segment of " + describe_bytes(g.total_bytes) + " (--heap " +
                         describe_bytes(g.partition_bytes) + " × THREADS " + std::to_string(g.threads) +
                         ", plus the control block): " + std::strerror(errno) + " (try a smaller --heap)",
                     -1);
  g_base = base;
  g_bytes = g.total_bytes;
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
  if (g_base) ::munmap(g_base, g_bytes);
  g_base = nullptr;
  g_bytes = 0;
  g_control = nullptr;
  g_partitions = nullptr;
}

}  // namespace upc::detail
