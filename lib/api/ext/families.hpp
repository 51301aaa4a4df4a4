// The two halves of the extended collectives behind upc::ext::run (run.cpp):
// data movement as chunk lists (movement.cpp) and the computational families
// (reductions.cpp). `members_view` is who takes part: the world, or the
// members of a thesis team (team.cpp), rank order = thread order.
#pragma once
#include <vector>

#include "../../coll/request.hpp"
#include "call.hpp"

namespace upc::coll {
class team;
}

namespace upc::ext {

struct members_view {
  std::vector<int> threads;            // rank -> thread
  coll::team* engine_team = nullptr;   // nullptr: the world team
  int root = 0;                        // the root's rank (fixed-size rooted forms)
};

void run_movement(call& c, const members_view& m);
// Every element of a shared argument array inside the heap and one object; a
// private one non-null (count 0: nothing to read, nothing checked).
void check_arg_array(const call& c, const arg_array& a, std::size_t count, bool may_be_null = false);
void run_reduction(call& c, const members_view& m);

// The call's single-valued scalars for --check (count, block sizes, typesize,
// root, nchunks, op, blk_size), into `out`; returns how many.
int single_valued_scalars(const call& c, coll::request::named_value (&out)[8]);

}  // namespace upc::ext
