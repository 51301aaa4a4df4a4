// The thesis's teams (include/teamutil.h) under the engine's one team type:
// who the members of a team handle are, and the engine team they share.
#pragma once
#include "families.hpp"

namespace upc::ext {

// The members of the call's team, in team-id order, with the engine team
// (made by the members on first use). Fails when the handle is not a team or
// the calling thread is not a member.
members_view thesis_members(const call& c);

}  // namespace upc::ext
