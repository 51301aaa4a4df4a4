// The conformance harness of the UPC Collectives 2.0 API (include/upccoll.h):
// builds cases, runs each on the calling UPC threads and checks every byte of
// every rank's buffers against tests/support/upccoll_model.hpp.
//
// One case = one collective call on one team: the whole world, or the teams of a
// upccoll_team_split (colors and keys drawn from the case's seed), or of a split
// of those. Each thread owns a send window and a receive window (blocks of two
// upc_all_alloc areas, so every thread can read every other's), and passes
// pointers into them at a per-thread skew (the pointers are multi-valued).
// Windows hold a pattern of (thread, byte, seed) before the call; reductions'
// send buffers hold typed items chosen per (type, op) so that a wrong order of
// combination shows. The sync flags are honoured, not worked around:
//   IN_NOSYNC          data set up, then upc_barrier, then the call
//   otherwise          each thread sets up its own data and calls at once
//                      (a `late` thread does so after a sleep)
//   OUT_NOSYNC         upc_barrier after completion, then the checks
//   otherwise          the caller checks its windows as soon as the call is
//                      complete, then scribbles over its send window
//   OUT_ALLSYNC        ... and checks its next team rank's receive window at once
// Completion: blocking (handle NULL), a handle and upccoll_wait/_wait_status, a
// handle polled with upccoll_test, or UPC_ASYNC_FENCE and upccoll_fence. Ranks
// that a collective ignores arguments of (non-roots) pass NULL and garbage there
// in about half of the cases. In-place cases pass UPCCOLL_IN_PLACE where MPI's
// rules put it, with the input copied into the receive window first (and junk
// in the arguments it makes the collective ignore).
//
// The parts, each a header of its own:
//   tests/support/upccoll_model.hpp  the model: what the paper says a call does
//   upccoll_inputs.hpp   what each thread holds before a call (hashing, user
//                        ops, reduction items, window patterns)
//   upccoll_cases.hpp    the cases, the model's call for each team, the windows
//                        before the call, and the matrix
//   upccoll_checks.hpp   return codes (UC_EXPECT, UC_OK); windows against the model
//   upccoll_call.hpp     one call on one thread: team, data, arguments, start,
//                        completion
//   upccoll_drivers.hpp  runs of cases (in order, overlapped); the matrix over
//                        algorithms, backends and THREADS counts
#pragma once
#include "upccoll_call.hpp"
#include "upccoll_cases.hpp"
#include "upccoll_checks.hpp"
#include "upccoll_drivers.hpp"
#include "upccoll_inputs.hpp"
