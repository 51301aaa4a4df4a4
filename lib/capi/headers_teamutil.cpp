// The C side of upcc's <teamutil.h> (tools/upcc/include/teamutil.h, docs/upcc.md
// "Library headers"): the thesis's team interface, as upcemu_team_* C symbols
// (the UPC header's __asm__ labels) over the C++ runtime's functions.
#include "capi/headers_team.hpp"
#include "capi/lock_address.hpp"

namespace {
upcemu_sptr to_c(upc::sptr<void> p) {
  const upc::shared_address& a = p.address();
  return upcemu_sptr{a.offset, a.thread, a.phase};
}
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(upc::shared_address{p.offset, p.thread, p.phase}); }
}  // namespace

extern "C" {
void upcemu_team_init(upcc_c_team* t) {
  team cpp = upcc_team_to_cpp(*t);
  init(&cpp);
  *t = upcc_team_to_c(cpp);
}
int upcemu_team_numThreads(upcc_c_team t) { return numThreads(upcc_team_to_cpp(t)); }
int upcemu_team_getNumThreads(upcc_c_team t) { return getNumThreads(upcc_team_to_cpp(t)); }
void upcemu_team_insert(int thread, upcc_c_team t) { insert(thread, upcc_team_to_cpp(t)); }
void upcemu_team_teamBarrier(upcc_c_team t) { teamBarrier(upcc_team_to_cpp(t)); }
int upcemu_team_isThreadInTeam(int thread, upcc_c_team t) { return isThreadInTeam(thread, upcc_team_to_cpp(t)); }
int upcemu_team_getTeamID(int thread, upcc_c_team t) { return getTeamID(thread, upcc_team_to_cpp(t)); }
int upcemu_team_getThreadID(int team_id, upcc_c_team t) { return getThreadID(team_id, upcc_team_to_cpp(t)); }
upcemu_sptr upcemu_team_allocate(int numblocks, int blksize, upcc_c_team t) {
  return to_c(allocate(numblocks, blksize, upcc_team_to_cpp(t)));
}
upcemu_sptr upcemu_team_allocateLock(upcc_c_team t) {
  return upc::detail::lock_sptr(allocateLock(upcc_team_to_cpp(t)));
}
void upcemu_team_deallocate(upcemu_sptr p, upcc_c_team t) { deallocate(vptr(p), upcc_team_to_cpp(t)); }
void upcemu_team_deallocateLock(upcemu_sptr l, upcc_c_team t) {
  deallocateLock(upc::detail::lock_of(l), upcc_team_to_cpp(t));
}
upccoll_return_t upcemu_upccoll_team_from_teamutil(upcc_c_team t, upccoll_team_t* newteam) {
  return upccoll_team_from_teamutil(upcc_team_to_cpp(t), newteam);
}
}  // extern "C"
