// Between the two team interfaces (issue 27.16): a thesis team (<teamutil.h>,
// seed 003) becomes a <upccoll.h> team (seed 000) with the same members in the
// same order. Both are the engine's one team type underneath, so the bridge is
// a split of the thesis team's engine team with one color and each member's
// team id as key: collective over the thesis team's members, like every call
// of a thesis team. The other way needs no function: init, then each member of
// the upccoll team inserts itself (docs/teams-and-collectives-2.md, "Teams of
// the thesis").
#include "ext/thesis_team.hpp"
#include "teamutil.h"
#include "upccoll_library.hpp"

using namespace upccoll_front;

upccoll_return_t upccoll_team_from_teamutil(team t, upccoll_team_t* newteam) {
  const char* fn = "upccoll_team_from_teamutil";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  upc::coll::team& members = upc::ext::thesis_engine_team(t, fn);  // stops the run when t is not ours
  return split_team(fn, members, true, 0, members.rank(), newteam, verdict{});
}
