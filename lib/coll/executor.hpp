// Runs the calling rank's plan to completion, with the sync flags as policies:
//   IN_ALLSYNC   team barrier before any data is touched
//   IN_MYSYNC    wait until every rank in plan.touches has entered this collective
//   OUT_ALLSYNC  team barrier at the end
//   OUT_MYSYNC   tell each touched rank we are done with its data, and wait until
//                every rank in plan.touchers is done with ours
//   NOSYNC       nothing
// A missing IN or OUT part means ALLSYNC (UPC 1.3).
#pragma once
#include "plan.hpp"
#include "request.hpp"
#include "team.hpp"

namespace upc::coll {
void execute(const request& rq, team& t, plan& p);
}
