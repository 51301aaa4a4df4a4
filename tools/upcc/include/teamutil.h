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
 *   upccoll_team_from_teamutil(t, &newteam)   (extension) collective among the
 *                            members: a <upccoll.h> team of the same members,
 *                            rank = team id (docs/teams-and-collectives-2.md)
 *
 * The functions keep the thesis's names in the program; their C symbols are
 * upcemu_team_* (__asm__ labels), so a program's own `init` or `insert` in
 * another file does not collide with the library's. */
#ifndef UPCC_TEAMUTIL_H
#define UPCC_TEAMUTIL_H
#include <upc.h>
#include <upccoll_types.h>

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
upccoll_return_t upccoll_team_from_teamutil(team t, upccoll_team_t *newteam) __asm__("upcemu_upccoll_team_from_teamutil");

/* Each call with the caller's file and line (upcemu_site_enter/leave), so that a
 * report (a bad argument, a mismatch between threads) names the UPC program's
 * line; as in <upc_collective.h>. A call that returns a value hands it through
 * upcemu_site_leave_<type>, which leaves the site once the call has returned. The
 * macro's own name is not expanded again: the call inside is the real function,
 * which also stays callable through its address. */
#ifndef UPCC_SITE_LEAVE_SPTR
#define UPCC_SITE_LEAVE_SPTR
static inline shared void * upcemu_site_leave_sptr(shared void * r) { upcemu_site_leave(); return r; }
#endif
#define init(...) (upcemu_site_enter(__FILE__, __LINE__), init(__VA_ARGS__), upcemu_site_leave())
#define numThreads(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(numThreads(__VA_ARGS__)))
#define getNumThreads(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(getNumThreads(__VA_ARGS__)))
#define insert(...) (upcemu_site_enter(__FILE__, __LINE__), insert(__VA_ARGS__), upcemu_site_leave())
#define teamBarrier(...) (upcemu_site_enter(__FILE__, __LINE__), teamBarrier(__VA_ARGS__), upcemu_site_leave())
#define isThreadInTeam(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(isThreadInTeam(__VA_ARGS__)))
#define getTeamID(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(getTeamID(__VA_ARGS__)))
#define getThreadID(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(getThreadID(__VA_ARGS__)))
#define allocate(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_sptr(allocate(__VA_ARGS__)))
#define allocateLock(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_ptr(allocateLock(__VA_ARGS__)))
#define deallocate(...) (upcemu_site_enter(__FILE__, __LINE__), deallocate(__VA_ARGS__), upcemu_site_leave())
#define deallocateLock(...) (upcemu_site_enter(__FILE__, __LINE__), deallocateLock(__VA_ARGS__), upcemu_site_leave())
#define upccoll_team_from_teamutil(...) (upcemu_site_enter(__FILE__, __LINE__), upcemu_site_leave_int(upccoll_team_from_teamutil(__VA_ARGS__)))
#endif
