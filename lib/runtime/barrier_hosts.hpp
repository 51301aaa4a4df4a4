// The barriers of a run spread over hosts (barrier_hosts.cpp): MPI's
// non-blocking collectives on a communicator of their own (upc_barrier: one
// MPI_Iallreduce that also carries the notify ids), waited for patiently
// (patient_poll.hpp), with the page cache released before and acquired after.
#pragma once
#include <cstdint>
#include <optional>

namespace upc::detail {

// upc_notify (its id from this thread's slot, set before) / upc_wait (`wait_id`
// as given): the notify ids of every thread must agree, and a wait id with
// them (notify ids that differ are reported by every thread).
void hosts_notify();
void hosts_wait(std::optional<int> notify_id, std::optional<int> wait_id, const char* function, const char* file,
                unsigned line);
// The runtime's world barrier: compares the call fingerprints of all threads
// and brings thread 0's heap state (sym_top, the collective results) to every
// host's control block.
void hosts_world_barrier(const char* function, std::uint64_t call_hash);
// The split form for the executor's polling: arrive, then passed() until true.
void hosts_world_arrive();
bool hosts_world_passed();
// A UPC thread returned from main: every host's control block learns it, so
// that waits there can say their barrier will never complete.
void hosts_thread_finished(int thread);

}  // namespace upc::detail
