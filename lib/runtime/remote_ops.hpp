// Operations on another host's memory, done by a server thread of the rank
// that owns it (each rank runs one while its run spans hosts): reads and
// writes of bytes for the page cache (dsm.cpp), and atomic operations on words
// that must stay atomic against the owner host's own loads and stores (barrier
// and lock words, the engine's flags). The server does them with the same CPU
// atomics the owner's host uses, so both kinds of access agree.
#pragma once
#include <cstddef>
#include <atomic>
#include <cstdint>

namespace upc::detail {

enum class remote_op : std::uint32_t {
  read,          // reply: `bytes` bytes from `address`
  write_runs,    // payload: runs of {u64 address, u64 bytes, bytes...}; reply: u64 0
  write,         // the call's data: `bytes` bytes to `address`; reply: u64 0
  load32, store32, fetch_add32, compare_exchange32, exchange32,
  load64, store64, fetch_add64, compare_exchange64, exchange64,
  // store32, then wake the futex sleepers on the word (a flag others sleep on)
  store32_wake,
  // a lock word (lock.cpp): exchange with 0, waking a sleeper when it was 2
  release_lock32,
  // a registered function (remote_function) at the address: `value` says which,
  // the payload after the header is its argument; reply: 16 bytes
  invoke,
};

struct remote_request {
  remote_op op;
  std::uint32_t pad = 0;
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;    // read: how many
  std::uint64_t value = 0;    // atomics: the operand (new value)
  std::uint64_t expected = 0; // compare_exchange: the expected value
};

// Reads `bytes` at `address` of rank `owner`'s host into `out`.
void remote_read(int owner, const void* address, void* out, std::size_t bytes);
// Sends a write_runs payload (remote_request header first) and waits until applied.
void remote_write_runs(int owner, const void* payload, std::size_t bytes);
// Writes `bytes` of `data` at `address` of `owner`'s host (straight from
// `data`, received there straight into place) and waits until written.
void remote_write(int owner, void* address, const void* data, std::size_t bytes);
// An atomic operation on the word at `address` of `owner`'s host: the old value
// (compare_exchange: the value found; it succeeded when that equals `expected`).
std::uint64_t remote_atomic(int owner, remote_op op, const void* address, std::uint64_t value,
                            std::uint64_t expected = 0);
// The same, sent without waiting for it (store32_wake to every host's copy of a word).
void remote_post(int owner, remote_op op, const void* address, std::uint64_t value);

// An operation the owner's server runs on its own memory at `address` (an
// atomic of <upc_atomic.h>): writes at most 16 bytes of reply. Registered at
// static initialisation, so the number is the same in every rank.
using remote_function = void (*)(void* address, const void* argument, std::size_t bytes, void* reply);
int register_remote_function(remote_function f);
void remote_invoke(int owner, int function, const void* address, const void* argument, std::size_t bytes,
                   void* reply16);

// A rank's UPC thread and its main thread may each have a call out: the main
// thread sets channel 1 once, so that their replies never cross.
void set_remote_channel(int channel) noexcept;
// The job's report claim, a word of thread 0's host's control block: 0 when
// this rank claimed it first.
std::uint32_t remote_claim(std::atomic<std::uint32_t>& word);

// The server of this rank: started when a run spans hosts, stopped at its end.
void start_remote_server();
void stop_remote_server() noexcept;

}  // namespace upc::detail
