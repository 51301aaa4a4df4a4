// The thesis's team interface (include/teamutil.h, seed 003 Listing 3.9) on
// the engine's one team type. A handle points to a record in shared memory
// (made by init, collectively): a membership word per thread, a word for
// allocate/allocateLock to hand their result to the members, and one slot per
// member for making the engine team. The engine team is made by the members
// alone on the team's first use (coll::team::from_members); the membership is
// frozen from then on.
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../../coll/engine.hpp"
#include "../../runtime/world_barrier.hpp"
#include "teamutil.h"
#include "thesis_team.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "../../runtime/control.hpp"

namespace upc::ext {
namespace {

struct record_header {
  std::atomic<std::uint32_t> frozen;  // 1 once the engine team exists
  std::uint32_t unused;
  std::uint64_t handed_offset;        // allocate / allocateLock: the result, from team id 0
  std::uint64_t handed_thread;
  std::uint64_t handed_lock;
};

std::size_t members_at() { return sizeof(record_header); }
std::size_t slots_at() { return (members_at() + 4 * static_cast<std::size_t>(threads()) + 15) & ~std::size_t{15}; }
std::size_t record_bytes() { return slots_at() + sizeof(coll::team::member_slot) * static_cast<std::size_t>(threads()); }

char* record_of(const ::team& t, const char* fn) {
  if (t.content.is_null() || t.serial == 0) detail::fail(fn, "t is not a team made by init()");
  return detail::raw_address(t.content.address());
}
record_header& header(char* r) { return *reinterpret_cast<record_header*>(r); }
std::atomic<std::uint32_t>& member_word(char* r, int thread) {
  return reinterpret_cast<std::atomic<std::uint32_t>*>(r + members_at())[thread];
}
coll::team::member_slot* slots(char* r) { return reinterpret_cast<coll::team::member_slot*>(r + slots_at()); }

std::vector<int> member_threads(char* r) {
  std::vector<int> v;
  for (int t = 0; t < threads(); ++t)
    if (member_word(r, t).load(std::memory_order_acquire)) v.push_back(t);
  return v;
}

std::string list(const std::vector<int>& v) {
  std::string s;
  for (int t : v) s += (s.empty() ? "" : ", ") + std::to_string(t);
  return s.empty() ? "none" : s;
}

void check_thread_arg(const char* fn, const char* arg, int thread) {
  if (thread < 0 || thread >= threads())
    detail::fail(fn, std::string(arg) + " is " + std::to_string(thread) + ", not a thread of 0.." + std::to_string(threads() - 1));
}

// This thread's engine teams, by the serial of the init that made them.
struct made_team {
  unsigned long serial;
  std::unique_ptr<coll::team> engine;
};
thread_local std::vector<made_team> tl_teams;
thread_local unsigned long tl_serial = 0;
thread_local const void* tl_run = nullptr;

void new_run_check() {
  if (tl_run != detail::g_control) {
    tl_teams.clear();
    tl_serial = 0;
    tl_run = detail::g_control;
  }
}

// The engine team of handle t; made by the members on first use.
coll::team& engine_team(const ::team& t, const std::vector<int>& members, const char* fn) {
  new_run_check();
  for (made_team& m : tl_teams)
    if (m.serial == t.serial) return *m.engine;
  char* r = record_of(t, fn);
  std::uint64_t view = 1469598103934665603ull;
  for (int th : members) view = (view ^ static_cast<std::uint64_t>(th + 1)) * 1099511628211ull;
  header(r).frozen.store(1, std::memory_order_release);
  tl_teams.push_back(made_team{t.serial, coll::team::from_members(members, slots(r), view, fn)});
  return *tl_teams.back().engine;
}

// The members, with a clear failure when the caller is not one of them.
std::vector<int> members_for_call(const ::team& t, const char* fn) {
  char* r = record_of(t, fn);
  std::vector<int> v = member_threads(r);
  bool in = false;
  for (int th : v) in = in || th == MYTHREAD;
  if (!in)
    detail::fail(fn, "thread " + std::to_string(MYTHREAD) + " is not a member of team t (members: " + list(v) +
                         "); only the members call a team's functions");
  return v;
}

int team_id_of(const std::vector<int>& v, int thread) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == thread) return static_cast<int>(i);
  return -1;
}

}  // namespace

coll::team& thesis_engine_team(const ::team& t, const char* function) {
  return engine_team(t, members_for_call(t, function), function);
}

members_view thesis_members(const call& c) {
  if (!c.thesis_team) detail::fail(c.function, "t is not a team");
  members_view m;
  m.threads = members_for_call(*c.thesis_team, c.function);
  m.engine_team = &engine_team(*c.thesis_team, m.threads, c.function);
  return m;
}

}  // namespace upc::ext

using namespace upc;
using namespace upc::ext;

void init(team* t) {
  const char* fn = "init";
  if (!t) detail::fail(fn, "t is a null pointer");
  new_run_check();
  upc::sptr<void> p = upc_all_alloc(1, record_bytes());
  if (MYTHREAD == 0) std::memset(detail::raw_address(p.address()), 0, record_bytes());
  detail::world_barrier(fn);
  t->content = p;
  t->serial = ++tl_serial;
}

int numThreads(team t) { return static_cast<int>(member_threads(record_of(t, "numThreads")).size()); }
int getNumThreads(team t) { return static_cast<int>(member_threads(record_of(t, "getNumThreads")).size()); }

void insert(int thread, team t) {
  const char* fn = "insert";
  char* r = record_of(t, fn);
  check_thread_arg(fn, "thread", thread);
  if (header(r).frozen.load(std::memory_order_acquire))
    detail::fail(fn, "team t is in use (a collective or barrier of it has run), so its members cannot change; "
                     "make a new team with init() instead");
  member_word(r, thread).store(1, std::memory_order_release);
}

int isThreadInTeam(int threadID, team t) {
  char* r = record_of(t, "isThreadInTeam");
  check_thread_arg("isThreadInTeam", "threadID", threadID);
  return member_word(r, threadID).load(std::memory_order_acquire) ? 1 : 0;
}

int getTeamID(int threadID, team t) {
  char* r = record_of(t, "getTeamID");
  check_thread_arg("getTeamID", "threadID", threadID);
  return team_id_of(member_threads(r), threadID);
}

int getThreadID(int teamID, team t) {
  const std::vector<int> v = member_threads(record_of(t, "getThreadID"));
  if (teamID < 0 || teamID >= static_cast<int>(v.size())) return -1;
  return v[static_cast<std::size_t>(teamID)];
}

void teamBarrier(team t) {
  const std::vector<int> v = members_for_call(t, "teamBarrier");
  engine_team(t, v, "teamBarrier").barrier("teamBarrier");
}

upc::sptr<void> allocate(int numblocks, int blksize, team t) {
  const char* fn = "allocate";
  const std::vector<int> v = members_for_call(t, fn);
  if (numblocks < 0) detail::fail(fn, "numblocks is " + std::to_string(numblocks) + ", negative");
  if (blksize < 0) detail::fail(fn, "blksize is " + std::to_string(blksize) + ", negative");
  coll::team& e = engine_team(t, v, fn);
  char* r = record_of(t, fn);
  if (e.rank() == 0) {
    const upc::sptr<void> p = upc_global_alloc(static_cast<size_t>(numblocks), static_cast<size_t>(blksize));
    header(r).handed_offset = p.address().offset;
    header(r).handed_thread = p.address().thread;
  }
  e.barrier(fn);
  const shared_address a{header(r).handed_offset, static_cast<std::uint32_t>(header(r).handed_thread), 0};
  e.barrier(fn);  // everyone has read it before the next allocate writes
  return upc::sptr<void>(a);
}

upc_lock_t* allocateLock(team t) {
  const char* fn = "allocateLock";
  const std::vector<int> v = members_for_call(t, fn);
  coll::team& e = engine_team(t, v, fn);
  char* r = record_of(t, fn);
  if (e.rank() == 0) header(r).handed_lock = reinterpret_cast<std::uintptr_t>(upc_global_lock_alloc());
  e.barrier(fn);
  upc_lock_t* l = reinterpret_cast<upc_lock_t*>(static_cast<std::uintptr_t>(header(r).handed_lock));
  e.barrier(fn);
  return l;
}

void deallocate(upc::sptr<void> pointer, team t) {
  const char* fn = "deallocate";
  const std::vector<int> v = members_for_call(t, fn);
  coll::team& e = engine_team(t, v, fn);
  e.barrier(fn);
  if (e.rank() == 0) upc_free(pointer);
}

void deallocateLock(upc_lock_t* pointer, team t) {
  const char* fn = "deallocateLock";
  const std::vector<int> v = members_for_call(t, fn);
  coll::team& e = engine_team(t, v, fn);
  e.barrier(fn);
  if (e.rank() == 0) upc_lock_free(pointer);
}
