// The collectives as the race check sees them (--check=races, docs/races.md):
// what a call reads and writes, and what its sync flags order, at the level of
// the UPC 1.3 specification (§7.3.1), not of the algorithm that runs. Which
// thread's code happens to copy a byte, the scratch buffers, the barriers and
// flags inside the call: none of that is the program's, so it runs in a quiet
// scope (race_check.hpp) and the model below speaks for it.
//
// A call's bytes with affinity to thread O are read and written by agent(O),
// an actor of its own, whose clock for the call is what the IN flag guarantees
// to precede them:
//   IN_ALLSYNC  every member's entry (the members exchange their entry clocks
//               through a barrier, which the call has anyway)
//   IN_MYSYNC   O's own entry
//   IN_NOSYNC   what O knows to precede every member's entry: the clock of the
//               last barrier of the team (or of the world) O completed, or of
//               the team's last IN_ALLSYNC collective (race_floor)
// and what follows them is what joins the agent's clock:
//   OUT_ALLSYNC every member, at its return (through a barrier the call has anyway)
//   OUT_MYSYNC  O, at its return
//   OUT_NOSYNC  nobody at the return; the arrival at O's next barrier carries
//               it, so everything after that barrier is ordered after the call
// The accesses are noted at the call's place in the program (the line of the
// collective), by the thread O itself.
//
// Blocking calls: a front-end opens a race_call for the user's call (composed
// calls, such as a reduction made of several data movements, open one around
// the whole); submit() opens one when none is open, and gives the open one the
// areas of each request it runs. Non-blocking calls of <upccoll.h>: tasks.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "../runtime/race_check.hpp"
#include "validate.hpp"
#include "upc_types.h"

namespace upc::coll {

class team;
struct request;

// The UPC 1.3 meaning of a flags argument of the upc_all_* families: a missing
// part is ALLSYNC.
enum class in_sync : unsigned char { all, mine, none };
enum class out_sync : unsigned char { all, mine, none };
in_sync in_sync_of(upc_flag_t flags) noexcept;
out_sync out_sync_of(upc_flag_t flags) noexcept;

// The place of the user's call: its file:line (translated UPC source or the C++
// caller's std::source_location, as the call's record has it) and its name.
detail::access_site call_site_of(const char* function) noexcept;

// One blocking collective call of this member, from its entry to its return.
// Inert when the race check is off or another race_call is open on this thread
// (the outer one is the user's call).
class race_call {
 public:
  // `site`: the call's place when the front-end knows it better than the
  // call's record (call_site_of) does. Off, the call costs a branch.
  race_call(team& t, upc_flag_t flags, const char* function, const detail::access_site* site = nullptr) {
    if (detail::g_races) begin(t, flags, function, site);
  }
  ~race_call() {
    if (s_) end();
  }
  race_call(const race_call&) = delete;
  race_call& operator=(const race_call&) = delete;

  bool active() const noexcept { return s_ != nullptr; }
  // The call reads (or writes) these bytes; those on this thread are its
  // agent's, noted when the call finishes. Every member notes its own.
  void note(const area& a);
  void note(const std::vector<area>& areas);
  // The end of the call's data movement (before it returns; every member calls
  // it): its agent's accesses, then its OUT synchronisation. A call left by an
  // exception never finishes: it moved nothing the race check holds it to.
  void finish() {
    if (s_) finish_active();
  }

  // The call open on this thread, if any.
  static race_call* open() noexcept;

 private:
  struct state;
  void begin(team& t, upc_flag_t flags, const char* function, const detail::access_site* site);
  void end() noexcept;
  void finish_active();
  state* s_ = nullptr;  // only while active (end() deletes it)
};

// ---- the task executor's collectives (non-blocking: <upccoll.h>) ----
// A member's buffers (all with affinity to it) are its agent's. Flags are the
// task executor's normalised ones: IN and OUT each ALLSYNC or MYSYNC (its
// NOSYNC is MYSYNC). A member's call is complete to the race check when it is
// waited on (upccoll_wait, upccoll_waitall, a successful upccoll_testall, the
// fence of a fence-completed one, a blocking call's return, a team's free and
// the library's end): not at its start, nor at a successful upccoll_test.
//   IN_MYSYNC   agent(O) noted at O's start, after O's start
//   IN_ALLSYNC  after every member's start: noted when O's call completes
//               (every member has started by then); with OUT_ALLSYNC too, at
//               O's start, after O's start only (the others' calls may
//               complete first: a limit, docs/races.md)
//   OUT_MYSYNC  O's completion follows agent(O)'s accesses
//   OUT_ALLSYNC O's completion follows every member's agent
// The members meet through clocks kept under keys of the team and the call's
// slot (the executor's 32; a member more than 32 calls behind reads more order
// than there is, never less).
struct race_task {
  bool active = false, completed = false;
  bool barrier = false, out_all = false, note_at_completion = false;
  std::uint64_t key_in = 0, key_out = 0;
  detail::race_clock clock;  // the agent's, or (note_at_completion) this member's entry
  std::vector<area> areas;   // note_at_completion: this member's bytes
  detail::access_site site;
};
// At the start of this member's call, before it posts (on the UPC thread).
// `is_barrier`: a barrier (orders like one: completion follows every start).
void race_task_start(race_task& r, const team& t, std::uint32_t seq, bool is_barrier, int flags,
                     const std::vector<area>* areas, const detail::access_site& site);
// When the call completes for this member (on the UPC thread).
void race_task_complete(race_task& r);

// Every area an owner-executor request reads and writes, for the open call:
// areas_of, or its chunk list's shared places.
void note_request(race_call& call, const request& rq, const team& t);

}  // namespace upc::coll
