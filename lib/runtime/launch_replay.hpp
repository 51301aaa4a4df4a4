// The launcher's shared allocations (namespace-scope objects, the world team)
// made once and adopted by every rank of the mpi backend: rank 0 allocates in
// the node's segment and records the offsets; the other ranks run the same
// allocation code, which takes each offset from the record, so every process's
// objects point at the same places without allocating twice.
#pragma once
#include <cstdint>
#include <vector>

namespace upc::detail {
void record_launch_allocations();
std::vector<std::uint64_t> take_launch_allocations();  // ends recording
void replay_launch_allocations(std::vector<std::uint64_t> offsets);
bool finish_launch_replay();  // ends replaying; false when offsets were left over
// True while this rank adopts rank 0's allocations: their initial values are
// rank 0's to write (already in the segment, or, for another host's
// partitions, on their way home from rank 0's page cache).
bool replaying_launch() noexcept;
}  // namespace upc::detail
