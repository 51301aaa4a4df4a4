// The one shared mapping of a run: control block followed by THREADS partitions.
// An anonymous shared mapping (mmap MAP_SHARED | MAP_ANONYMOUS), made before any
// worker starts: every thread sees it, and every process forked afterwards shares
// it at the same address. It has no name, so nothing can be left in /dev/shm
// whatever ends the run (a crash, SIGKILL of any process, SIGINT during start-up):
// the memory goes away with the last process that maps it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace upc::detail {

struct segment_geometry {
  int threads;
  std::uint64_t partition_bytes;
  std::uint64_t header_bytes;
  std::uint64_t total_bytes;  // header + partitions, computed overflow-checked (segment_size.hpp)
};

// Inaccessible bytes create_segment leaves on each side of the segment.
constexpr std::size_t segment_guard_bytes = 65536;

// Maps the segment; sets g_control, g_partitions, g_partition_bytes. Throws
// upc::error (function "upcrun") when the mapping cannot be made.
void create_segment(const segment_geometry& g);
// The mpi backend's form: the segment is the file `fd` (a memfd made by the
// host's first rank), mapped at `address` in every rank of the host so that
// addresses inside it mean the same everywhere. Only the creator constructs
// the control block. False when the address range is already in use here.
bool map_segment_at(const segment_geometry& g, int fd, void* address, bool construct_control);
// Unmaps it (the launcher calls this once every worker has finished).
void destroy_segment() noexcept;

}  // namespace upc::detail
