// The engine's entry point for owner-executor requests (every front-end's
// blocking collectives): the checks every library gets, then the run.
//   1. under --check, the single-valued arguments of the request are compared
//      with the team's rank 0 (a team barrier: validate.cpp, single_valued_args)
//   2. the one validator checks every area the request touches (validate.hpp)
//   3. shared argument arrays (permute's perm, the v-variants' counts) are
//      read only after the IN synchronisation: the engine synchronises the
//      team first, then calls rq.read_args, and runs without IN sync
//   4. select, build (or reuse) the plan, execute (registry.hpp)
#pragma once
#include "../runtime/single_valued.hpp"
#include "request.hpp"

namespace upc::coll {

void submit(request& rq);

// The arguments of a request that must be the same on every member, named as
// the UPC collectives name them ("argument nbytes", "argument dst (thread)").
detail::single_valued single_valued_args(const request& rq);

}  // namespace upc::coll
