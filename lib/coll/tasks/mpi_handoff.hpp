// The task executor's `mpi` rows (issue 15): on the mpi backend, a
// <upccoll.h> broadcast, scatter, gather, allgather or alltoall handed to
// MPI's non-blocking collective of the same meaning (MPI_Ibcast, MPI_Iscatter,
// MPI_Igather, MPI_Iallgather, MPI_Ialltoall) on the team's communicators, one
// MPI_BYTE piece per member, run by the rank's job thread
// (lib/runtime/mpi_jobs.hpp).
//
// What stays the engine's: every member still posts, so that the posts'
// agreement check names the first difference as on every other row, handles,
// fences and sync flags work as they do for tasks. Task r stands for member
// r's part and is marked done by r's job thread when MPI says so:
//   - MYSYNC: a member is done when its own part is;
//   - ALLSYNC in: nothing moves before MPI's agreement stage ended, which needs
//     every member's call;
//   - ALLSYNC out: an MPI_Ibarrier once this member's data is in;
// so a member is done when its job is, and reads nobody's post or task word
// unless the agreement failed (then the posts say why, as on the task rows).
// Every member's call starts its agreement stage at once, and the job thread
// finishes it whatever the UPC thread does meanwhile (seed 000's Figure 1).
#pragma once
#include <string>

#include "../team.hpp"
#include "operation.hpp"

namespace upc::coll::tasks::handoff {

// Whether t's collectives can go to MPI: an mpi run whose MPI gives
// MPI_THREAD_MULTIPLE, and t the world team or one made by split_team (engine.hpp).
bool possible(team& t);

// Whether t's members are on several hosts (the mpi rows are the automatic choice there).
bool spans_hosts(team& t);

// A team just split from another, on the mpi backend: its communicators
// (collective over its members); `function` names the split in a failure.
void team_made(team& t, const char* function);

// After start(): hands this member's part of op to the rank's job thread.
// `dec` is the mpi decomposition op uses, or would use had its call not failed
// (a failed call takes part in the agreement, which then fails everywhere).
void submit(operation& op, const decomposition& dec);

// Whether op's MPI part is over (then clean() and failure() may be asked).
bool finished(const operation& op);
bool finished_job(const detail::mpi_job& j);

// Whether it ended as it should: every member agreed, MPI raised no error and
// this member's own call had not failed. Then nothing else needs looking at:
// every member posted before its agreement stage could end, and their keys
// were this member's.
bool clean(const operation& op);

// How op's MPI part ended: ok; an MPI error; or arguments that disagreed where
// the posts showed no difference (a member's own send and receive sizes
// differ: bad_count).
failure outcome(const operation& op);

// What op's MPI part brought into this member's receive buffer, for
// --report=traffic and the network model (copies MPI made are not seen by
// the copy paths). Once, when op completes cleanly.
void note_traffic(const operation& op);

// A round of the rank's jobs (from the UPC thread, while it waits).
bool poll();

}  // namespace upc::coll::tasks::handoff
