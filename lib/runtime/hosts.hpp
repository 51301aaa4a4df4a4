// An mpi run spread over several hosts: which host holds each thread's
// partition. Every rank maps the whole segment at one address; the partitions
// of its own host are the host's shared memory, the others are a cache kept by
// dsm.cpp, and what must be atomic there goes to the owner through
// remote_ops.hpp (host_words.hpp for flags and counters, barrier_hosts.hpp for
// the barriers). Everything here is idle (several_hosts() false) on one host.
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
