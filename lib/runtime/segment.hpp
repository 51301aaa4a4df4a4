// The one shared mapping of a run: control block followed by THREADS partitions.
// Created with Boost.Interprocess as a POSIX shared-memory object (exclusive, mode
// 0600), mapped, and unlinked at once, before any worker starts: the mapping lives
// on in every thread and forked process, and no name is left in /dev/shm whatever
// happens later (a crash, SIGKILL of any process, SIGINT).
#pragma once
#include <cstddef>
#include <cstdint>

namespace upc::detail {

struct segment_geometry {
  int threads;
  std::uint64_t partition_bytes;
  std::uint64_t header_bytes;
  std::uint64_t total_bytes() const { return header_bytes + partition_bytes * threads; }
};

// Creates, maps and unlinks the segment; sets g_control, g_partitions,
// g_partition_bytes. Throws upc::error (function "upcrun") on failure.
void create_segment(const segment_geometry& g);
// Unmaps it (the launcher calls this once every worker has finished).
void destroy_segment() noexcept;

}  // namespace upc::detail
