// Collective calls: every thread must make the same collective calls, in the
// same order, with the same single-valued arguments. Each call is recorded in
// the caller's slot (function, the user's source location, up to three
// arguments that must agree); wherever the call synchronises anyway (a world
// barrier, waiting for a peer to enter) the records are compared, so a
// mismatch stops the run with both calls named, at almost no cost and without
// --check. The call in progress is also what a waiting thread reports: "thread
// 1 is waiting in upc_all_broadcast at prog.cpp:12".
#pragma once
#include <cstdint>
#include <initializer_list>
#include <source_location>

#include "call_site.hpp"
#include "control.hpp"

namespace upc::detail {

struct collective_arg {
  const char* name;      // as the report names it: "nbytes", "root (the thread of src)"
  std::uint64_t value;
};

// The user's call this thread is in (function null when none).
struct current_call {
  const char* function = nullptr;
  const char* file = nullptr;
  std::uint32_t line = 0;
  std::uint32_t seq = 0;       // this thread's call number
  bool matched = false;        // compared with thread 0's after a world barrier
  // A fingerprint of (number, function, arguments), published where peers read
  // anyway (the world barrier's line, a rank's "entered" flag): equal
  // fingerprints need no look at the records.
  std::uint64_t hash = 0;
};
const current_call& this_call() noexcept;

// Enters a collective call for its whole extent. Refuses non-UPC threads and
// calls between upc_notify and upc_wait; records the call. A call made inside
// another (an allocation inside a collective) is part of the outer one.
class collective_call {
 public:
  collective_call(const char* function, const std::source_location& where,
                  std::initializer_list<collective_arg> args = {})
      : collective_call(function, file_of(where), line_of(where), args) {}
  collective_call(const char* function, const char* file, std::uint32_t line,
                  std::initializer_list<collective_arg> args = {});
  ~collective_call();
  collective_call(const collective_call&) = delete;
  collective_call& operator=(const collective_call&) = delete;

 private:
  bool outer_;
};

// Compares this thread's call with thread `thread`'s call of the same number,
// when that record is there to read (never waits). Fails on a mismatch.
void match_call_with(int thread);
// The same, given the fingerprint `thread` published: nothing to read when it
// equals ours.
void match_call_with(int thread, std::uint64_t their_hash);
// The same after a world barrier, against thread 0, once per call; also finds
// threads that reached the barrier in an earlier call than this one.
// `thread0_hash` is the fingerprint thread 0 left at the barrier.
void match_after_world_barrier(std::uint64_t thread0_hash);

// Called by a UPC thread that has ended (returned from main or called exit),
// once it is marked finished: fails when another thread has made a collective
// call that this one never made (a UPC_IN_NOSYNC | UPC_OUT_NOSYNC call, which
// waits for no one, is found only here or when it starts).
void check_calls_at_end();

}  // namespace upc::detail
