/* <teamutil.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): the team interface of seed 003 (Teijeiro's thesis, Listing 3.9)
 * that the _team extended collectives take, in UPC syntax. Semantics: the C++
 * header include/teamutil.h and docs/extended-collectives.md ("Teams").
 *
 *   init(&t)                 collective: makes an empty team
 *   insert(thread, t)        adds a thread (before the team's first use, then a barrier)
 *   numThreads(t), getNumThreads(t), isThreadInTeam(thread, t),
 *   getTeamID(thread, t), getThreadID(teamID, t), teamBarrier(t)
 *   allocate(numblocks, blksize, t), allocateLock(t), deallocate(p, t),
 *   deallocateLock(l, t)     collective among the members
 *
 * The functions keep the thesis's names in the program; their C symbols are
 * upcemu_team_* (__asm__ labels), so a program's own `init` or `insert` in
 * another file does not collide with the library's. */
#ifndef UPCC_TEAMUTIL_H
#define UPCC_TEAMUTIL_H
#include <upc.h>

struct team {
  shared void *content;   /* the team's shared record, made by init */
  unsigned long serial;   /* which init made it (the same on every thread) */
};
typedef struct team team;

void init(team *t) __asm__("upcemu_team_init");
int numThreads(team t) __asm__("upcemu_team_numThreads");
int getNumThreads(team t) __asm__("upcemu_team_getNumThreads");
void insert(int thread, team t) __asm__("upcemu_team_insert");
void teamBarrier(team t) __asm__("upcemu_team_teamBarrier");
int isThreadInTeam(int threadID, team t) __asm__("upcemu_team_isThreadInTeam");
int getTeamID(int threadID, team t) __asm__("upcemu_team_getTeamID");
int getThreadID(int teamID, team t) __asm__("upcemu_team_getThreadID");
shared void *allocate(int numblocks, int blksize, team t) __asm__("upcemu_team_allocate");
upc_lock_t *allocateLock(team t) __asm__("upcemu_team_allocateLock");
/* (upcc does not translate the parameters of a prototype with an __asm__ label
 * yet: a pointer-to-shared parameter goes through an inline function.) */
void upcemu_team_deallocate(shared void *pointer, team t);
static inline void deallocate(shared void *pointer, team t) { upcemu_team_deallocate(pointer, t); }
void deallocateLock(upc_lock_t *pointer, team t) __asm__("upcemu_team_deallocateLock");
#endif
