// An mpi run spread over several hosts: which host holds each thread's
// partition. Every rank maps the whole segment at one address; the partitions
// of its own host are the host's shared memory, the others are a cache kept by
// dsm.cpp, and what must be atomic there goes to the owner through
// remote_ops.hpp. Everything here is idle (several_hosts() false) on one host.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "upc/runtime.hpp"

namespace upc::detail {

struct host_map {
  int hosts = 1;
  int my_host = 0;
  std::vector<int> host_of;  // per thread (= rank)
};

extern host_map g_host_map;  // g_several_hosts is in upc/runtime.hpp

inline bool several_hosts() noexcept { return g_several_hosts; }
inline bool on_my_host(int thread) noexcept {
  return !g_several_hosts || g_host_map.host_of[static_cast<std::size_t>(thread)] == g_host_map.my_host;
}
// The thread whose partition holds `address`, or -1 outside the partitions.
int partition_owner(const void* address) noexcept;
// True for an address in another host's partition.
bool remote_address(const void* address) noexcept;

}  // namespace upc::detail

#include <optional>

namespace upc::detail {

// The barriers of a run spread over hosts (barrier_hosts.cpp): MPI_Ibarrier on
// a communicator of their own, waited for politely, with the page cache
// released before and acquired after.
// upc_notify / upc_wait: `id` as given; a mismatch is reported by every thread.
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

#include <atomic>

namespace upc::detail {

// Flags and counters that may live on another host (the engine's, a team's
// barrier): read, add to and publish through the owner when they do, with the
// page cache released before a publish and acquired after a flag is seen.
std::uint32_t remote_load_word(const std::atomic<std::uint32_t>& w);
std::uint32_t remote_fetch_add_word(std::atomic<std::uint32_t>& w, std::uint32_t v);
void remote_publish_word(std::atomic<std::uint32_t>& w, std::uint32_t v);

inline std::uint32_t load_word(const std::atomic<std::uint32_t>& w) {
  return several_hosts() ? remote_load_word(w) : w.load(std::memory_order_acquire);
}
inline std::uint32_t fetch_add_word(std::atomic<std::uint32_t>& w, std::uint32_t v) {
  return several_hosts() ? remote_fetch_add_word(w, v) : w.fetch_add(v, std::memory_order_acq_rel);
}
// Sleeps a little between polls of words on other hosts (no futex reaches
// across hosts): `round` counts the polls so far.
void polite_pause(int round);

}  // namespace upc::detail
