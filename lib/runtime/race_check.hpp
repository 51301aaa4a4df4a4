// Data-race detection (`--check=races`, issue 29): two accesses to the same
// shared byte by different UPC threads, at least one a write, that no UPC
// synchronisation orders. Happens-before is tracked with a vector clock per
// thread (the FastTrack scheme: each shared byte remembers the epoch, i.e.
// thread and clock, of its last write and of its last read); barriers, locks and
// strict accesses move clocks between threads. docs/races.md says what is
// modelled, what is not yet, and what it costs.
//
// The hooks below cost one predictable branch when the check is off.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "upc/layout.hpp"
#include "upc/runtime.hpp"

namespace upc::detail {


// Where an access is in the user's program: a source file and line (code
// translated by upcc, calls with std::source_location), or a return address
// resolved through the debug information when a report is printed (the C++
// API's element accesses, which have no source location to pass).
struct access_site {
  const char* file = nullptr;
  std::uint32_t line = 0;
  const void* pc = nullptr;
};

// Two accesses that race: this thread's (now) and an earlier one.
struct race_conflict {
  const char* byte;  // the first byte they share (local address in the segment)
  int thread;
  bool write;
  access_site site;
  int other_thread;
  bool other_write;
  access_site other_site;
};

// The detector (race_check.cpp): an access of `bytes` bytes at local address `p`
// inside the segment, by the calling UPC thread, checked against the earlier
// ones and recorded; the first conflict, if any. It calls nothing of the rest
// of the runtime.
std::optional<race_conflict> race_check_access(const void* p, std::size_t bytes, unsigned kind,
                                               const access_site& site);

// The runtime's side (race_report.cpp): the same, stopping the run with a report
// naming both accesses, the object and the element, when they race.
void note_shared_access(const void* p, std::size_t bytes, unsigned kind, const access_site& site);
// The same for the C++ API's element accesses (upc::shared_ref), whose place in
// the program is the return address (resolved only for a report).
void note_element_access(const shared_address& a, std::size_t bytes, unsigned kind);

// Synchronisation, as the runtime performs it (each called by the thread that
// synchronises, only when g_races), on an object named by an address in the
// segment: a release happens before every later acquire of the same object.
// A lock is released by upc_unlock (before the lock is free) and acquired by
// upc_lock and a successful upc_lock_attempt; a barrier phase (one object per
// parity of the phase: race_barrier_key) is released by each thread at its
// arrival and acquired once the phase is complete; a semaphore by its post and
// the wait or try that takes it.
void race_release(const void* key) noexcept;
void race_acquire(const void* key) noexcept;
inline const void* race_barrier_key(const void* generation_word, std::uint32_t phase) noexcept {
  return static_cast<const char*>(generation_word) + (phase & 1);
}
void race_thread_started(int thread) noexcept;           // a UPC thread begins (its clock starts at 1)

// Memory handed out again by the shared heap: earlier accesses to its bytes
// belonged to an object that no longer exists.
void race_forget(const void* p, std::size_t bytes) noexcept;

// Sets the detector up for a run (the launcher, before the threads start);
// the shadow memory is reserved here, lazily backed. "" or why it cannot.
std::string race_setup(int threads, char* partitions, std::uint64_t segment_bytes);
void race_teardown() noexcept;

}  // namespace upc::detail
