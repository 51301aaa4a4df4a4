// Eager completion, and the agreement check that follows it (issue 30).
//
// A member's part of a collective without UPC_IN_ALLSYNC / UPC_OUT_ALLSYNC is
// over once the tasks touching its buffers are done: the root of a small
// broadcast returns as soon as its bytes are in its slot, as an MPI eager send
// does (seed 000 §2.5: OUT_MYSYNC asks no more). Such a member may leave
// before every member has posted, so it has not compared every post with its
// own (agreement.hpp), and a disagreement can be found after it returned
// success. Nothing can tell it any more: the run ends with the report.
//
//   - A member leaving early marks its left word (words.hpp), then reads the
//     slot's error word; whoever records a disagreement reads the left words
//     after it: of the two orders one sees the other (a store, a fence, a load
//     on each side). A disagreement recorded after a member left ends the run.
//   - Before it reuses the slot (32 collectives later, or when the team is
//     freed or the library finalised), a member that left early with success
//     compares the posts still in the slot with its own. Of two members that
//     both left early, the first to reuse the slot finds the other's post
//     unchanged (the other cannot reuse it before seeing this one's post), so
//     every pair of posts is compared by someone.
//
// Under --check, --check=races, or across hosts every member waits for every
// post as before: every member returns the same code and the program goes on
// (docs/teams-and-collectives-2.md, "Errors").
#pragma once
#include "operation.hpp"

namespace upc::coll::tasks {

// The calling OS thread is a UPC thread's progress thread: a report that ends
// the run is recorded there (which stops every thread), not thrown.
void mark_progress_thread() noexcept;

// Whether op's member may complete before every member has posted.
bool may_leave_early(const operation& op);

// This member completes op before every member has posted: marks its left
// word. Call before reading the error word.
void note_left_early(const operation& op);

// After the disagreement f was recorded as op's failure (by this member, the
// first to record one): ends the run with the report when some member had
// completed op before it.
void end_run_if_someone_left(const operation& op, const failure& f);

// Once every member has posted the collective this member last started in
// `slot`, before the slot is reused: the late comparison of the posts with
// this member's own when it left that collective early with success. Ends the
// run on a disagreement.
void check_late(team_view& t, int slot);

}  // namespace upc::coll::tasks
