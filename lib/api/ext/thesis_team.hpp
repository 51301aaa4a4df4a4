// The thesis's teams (include/teamutil.h) under the engine's one team type:
// who the members of a team handle are, and the engine team they share.
#pragma once
#include "families.hpp"

namespace upc::ext {

// The members of the call's team, in team-id order, with the engine team
// (made by the members on first use). Fails when the handle is not a team or
// the calling thread is not a member.
members_view thesis_members(const call& c);

// The engine team of thesis team `t` (made by the members on first use), for
// the bridge to <upccoll.h> teams (lib/api/team_bridge.cpp). Fails as
// thesis_members does.
coll::team& thesis_engine_team(const ::team& t, const char* function);

}  // namespace upc::ext
