// <upccoll.h>: initialisation, teams, types and ops (upccoll_library.cpp);
// what another file of the front-end calls of it: the split that makes a team
// (upccoll_team_from_teamutil in team_bridge.cpp uses it too).
#pragma once
#include "upccoll_state.hpp"

namespace upccoll_front {

// Collective over `parent`: the new team of the members that join with the
// same color, ordered by key then parent rank, registered as a handle of this
// thread in *newteam (UPCCOLL_TEAM_NULL when this member does not join). `v`:
// this member's own failure, if any (posted, so every member returns it).
upccoll_return_t split_team(const char* fn, upc::coll::team& parent, bool join, int color, int key,
                            upccoll_team_t* newteam, verdict v);

}  // namespace upccoll_front
