// Flags and counters that may live on another host (the engine's, a team's
// barrier, the heap's and locks' words) in an mpi run spread over hosts: read,
// added to and published through the owner when they do, with the page cache
// (dsm.hpp) released before a publish and acquired after a flag is seen. On one
// host each is the plain atomic operation. Above the page cache and the remote
// operations (remote_ops.hpp), which know nothing of it.
#pragma once
#include <atomic>
#include <cstdint>

#include "hosts.hpp"

namespace upc::detail {

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
