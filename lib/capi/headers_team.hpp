// The C layout of upcc's `team` (tools/upcc/include/teamutil.h: a
// pointer-to-shared and a serial) and its conversion to the C++ runtime's
// (include/teamutil.h), for the team wrappers and the generated
// <upc_collective_ext.h> wrappers (docs/upcc.md "Library headers").
#pragma once
#include "upcemu_c.h"
#include "teamutil.h"

extern "C" {
struct upcc_c_team {
  upcemu_sptr content;
  unsigned long serial;
};
}

inline team upcc_team_to_cpp(const upcc_c_team& t) {
  return team{upc::sptr<void>(upc::shared_address{t.content.offset, t.content.thread, t.content.phase}), t.serial};
}
inline upcc_c_team upcc_team_to_c(const team& t) {
  const upc::shared_address& a = t.content.address();
  return upcc_c_team{upcemu_sptr{a.offset, a.thread, a.phase}, t.serial};
}
