/* The team interface of seed 003 (Teijeiro's thesis, Listing 3.9), which its
 * team-based collectives (<upc_collective_ext.h>, the _team functions) take.
 *
 * A team here is the engine's one team type (the same as a upccoll_team_t
 * underneath); this handle names it. The functions keep the thesis's names,
 * so they are in the global namespace: include this header only where that is
 * what you want (docs/extended-collectives.md, "Teams").
 *
 *   init(&t)              collective over all THREADS: makes an empty team
 *   insert(thread, t)     adds a thread (any thread may call it); make every
 *                         insert before the team's first use, and separate
 *                         them from it by a barrier
 *   numThreads(t), getNumThreads(t)   the members
 *   isThreadInTeam(thread, t), getTeamID(thread, t), getThreadID(tid, t)
 *                         membership; team ids follow thread order (-1: none)
 *   teamBarrier(t)        a barrier of the members (members only)
 *   allocate(numblocks, blksize, t)   upc_all_alloc among the members
 *   allocateLock(t)       upc_all_lock_alloc among the members
 *   deallocate(p, t), deallocateLock(l, t)   frees them (members, collectively)
 *
 * Extension, the bridge to <upccoll.h> (docs/teams-and-collectives-2.md,
 * "Teams of the thesis"):
 *   upccoll_team_from_teamutil(t, &newteam)   collective over t's members (after
 *                         upccoll_initialize): a <upccoll.h> team of the same
 *                         members, rank = team id; free it with upccoll_team_free
 */
#pragma once
#include <cstddef>

#include "upc.h"
#include "upccoll_types.h"

struct team {
  upc::sptr<void> content;      /* the team's shared record, made by init */
  unsigned long serial = 0;     /* which init made it (the same on every thread) */
};

void init(team* t);
int numThreads(team t);
int getNumThreads(team t);
void insert(int thread, team t);
void teamBarrier(team t);
int isThreadInTeam(int threadID, team t);
int getTeamID(int threadID, team t);
int getThreadID(int teamID, team t);
upc::sptr<void> allocate(int numblocks, int blksize, team t);
upc_lock_t* allocateLock(team t);
void deallocate(upc::sptr<void> pointer, team t);
void deallocateLock(upc_lock_t* pointer, team t);
upccoll_return_t upccoll_team_from_teamutil(team t, upccoll_team_t* newteam);
