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
#include <vector>

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
  // A collective's data movement (race_agent_scope): the function called at
  // file:line, whose copying the access stands for; nullptr for the program's own.
  const char* collective = nullptr;
  // A non-blocking transfer (nb.cpp): the function that started it at
  // file:line, whose bytes may move until its sync; nullptr otherwise.
  const char* transfer = nullptr;
};

// Two accesses that race: this thread's (now) and an earlier one.
// A side made by a collective's data movement (site.collective set) names as
// its thread the one whose data it is (the agent's owner, below).
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
// A barrier phase as a sync object; `team`: the team whose barrier it is (its
// identity, the address of its first member's block), nullptr for the world's
// barriers (upc_barrier, the collectives' world barrier). Besides ordering, a
// barrier's arrival carries the data movement of the thread's earlier
// UPC_OUT_NOSYNC collectives, and its completion is what the thread knows to
// precede every member's next collective (race_floor).
struct race_barrier {
  const void* key;
  const void* team;
  operator const void*() const noexcept { return key; }  // as a plain sync object
};
inline race_barrier race_barrier_key(const void* generation_word, std::uint32_t phase,
                                     const void* team = nullptr) noexcept {
  return race_barrier{static_cast<const char*>(generation_word) + (phase & 1), team};
}
void race_release(race_barrier b) noexcept;
void race_acquire(race_barrier b) noexcept;
void race_thread_started(int thread) noexcept;           // a UPC thread begins (its clock starts at 1)

// Memory handed out again by the shared heap: earlier accesses to its bytes
// belonged to an object that no longer exists.
void race_forget(const void* p, std::size_t bytes) noexcept;

// ---- collectives (lib/coll/race_model.hpp, docs/races.md) ----
// A collective's reads and writes of the data with affinity to thread O are made
// by agent(O), an actor of its own (vector clock entry THREADS + O), not by the
// thread whose code happens to move the bytes: the sync flags say when they may
// happen, so agent(O)'s clock for a call is what the flags guarantee to precede
// them, and what comes after them is what joins the agent's clock.
using race_clock = std::vector<std::uint32_t>;  // one entry per thread, then one per agent

// While a quiet scope is open on a thread, its shared accesses and
// synchronisation are not the program's (a collective's own copies, flags and
// barriers): the collective's model speaks for them. Nested scopes nest.
class race_quiet_scope {
 public:
  race_quiet_scope() noexcept;
  ~race_quiet_scope();
  race_quiet_scope(const race_quiet_scope&) = delete;
  race_quiet_scope& operator=(const race_quiet_scope&) = delete;
};
// For the next barrier this thread passes inside a quiet scope: its arrival
// joins `publish` into the barrier's object (instead of nothing), and its
// completion copies the object's clock into `capture` (without joining it into
// this thread's clock). Either may be null.
void race_barrier_exchange(const race_clock* publish, race_clock* capture) noexcept;

race_clock race_clock_now() noexcept;         // this thread's clock
void race_tick() noexcept;                    // a new epoch of this thread
void race_join(const race_clock& c) noexcept; // everything c knows happens before this thread's present
// UPC_OUT_NOSYNC: the collective's accesses are ordered before what follows this
// thread's next barrier (its arrival carries them), and before nothing earlier.
void race_defer_to_barrier(const race_clock& c) noexcept;
race_clock race_deferred() noexcept;          // what the next barrier arrival would carry besides the clock
void race_clear_deferred() noexcept;
// What this thread knows to precede every member's entry into its next
// collective on `team` (nullptr: the world): the clock of the last barrier of
// that team or of the world it completed, and of the last collective on the
// team that waited for everyone's entry. race_set_floor records the latter.
race_clock race_floor(const void* team) noexcept;
void race_set_floor(const void* team, const race_clock& c) noexcept;
void race_forget_team(const void* team) noexcept;  // a team released: its floor goes

int race_threads() noexcept;                            // THREADS of the detector's run (0: off)
std::uint32_t race_next_agent_epoch(int owner) noexcept; // agent(owner)'s next epoch
// Accesses noted while open (note_shared_access) are agent(owner)'s, with clock
// `clock` (its entry THREADS + owner is the access's epoch), even in a quiet scope.
class race_agent_scope {
 public:
  race_agent_scope(int owner, race_clock& clock) noexcept;
  ~race_agent_scope();
  race_agent_scope(const race_agent_scope&) = delete;
  race_agent_scope& operator=(const race_agent_scope&) = delete;

 private:
  int saved_me_;
  race_clock& clock_;
};
// A clock kept under a key of the detector's own (not an address of the
// program): joined into by race_publish, read by race_read (zeros when never
// published). `key` is any number; distinct numbers, distinct objects.
void race_publish(std::uint64_t key, const race_clock& c) noexcept;
race_clock race_read(std::uint64_t key) noexcept;

// Sets the detector up for a run (the launcher, before the threads start);
// the shadow memory is reserved here, lazily backed. "" or why it cannot.
std::string race_setup(int threads, char* partitions, std::uint64_t segment_bytes);
void race_teardown() noexcept;

}  // namespace upc::detail
