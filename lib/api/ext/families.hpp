// The families of the extended collectives, one row each (as lib/coll/kinds.hpp
// is for the engine's kinds): the engine kind a family computes (its name and
// traits) and the functions that build it, each in the family's own file
// (broadcast.cpp … prefix_reduce.cpp; builders.hpp declares them). run.cpp
// checks a call and hands it to movement.cpp (data movement as chunk lists) or
// reductions.cpp (the computational families), which call the row's builders.
// `members_view` is who takes part: the world, or the members of a thesis team
// (thesis_team.cpp), rank order = thread order.
#pragma once
#include <vector>

#include "../../coll/engine.hpp"
#include "call.hpp"

namespace upc::ext {

struct members_view {
  std::vector<int> threads;            // rank -> thread
  coll::team* engine_team = nullptr;   // nullptr: the world team
  int root = 0;                        // the root's rank (fixed-size rooted forms)
};

struct chunk_builder;    // chunk_builder.hpp
struct v_chunk_builder;  // chunk_builder.hpp
struct reduction;        // reduction.hpp

struct family_info {
  family id;
  coll::collective kind;  // what it computes: its name and traits (lib/coll/kinds.hpp)
  // Data movement, the chunks of each form (nullptr: the family has none).
  void (*fixed)(chunk_builder&);     // fixed-size forms: in place, rooted in place, get/put/priv
  void (*team)(chunk_builder&);      // team-based forms (A.3)
  void (*vector)(v_chunk_builder&);  // v-variants, vector_copy
  // Reductions: the results from the pieces (nullptr: not computational).
  void (*results)(reduction&);
};

// The row of `f` (families.cpp).
const family_info& info_of(family f) noexcept;
inline bool computational(family f) noexcept { return coll::is_reduction(info_of(f).kind); }

// The two halves behind upc::ext::run.
void run_movement(call& c, const members_view& m);   // movement.cpp
void run_reduction(call& c, const members_view& m);  // reductions.cpp

// The call's single-valued scalars for --check (count, block sizes, typesize,
// root, nchunks, op, blk_size), into `out`; returns how many (arguments.cpp).
int single_valued_scalars(const call& c, coll::request::named_value (&out)[8]);

}  // namespace upc::ext
