// A failed collective of the task executor as data (issue 28): the engine
// finds what went wrong and hands it over as a difference between two
// members' calls, or in its own words when it is nothing of the kind; the
// front-end that started the collective words it in its library's terms
// (front_end). Part of the engine's public header (../engine.hpp).
#pragma once
#include <cstdint>
#include <string>

#include "../status.hpp"

namespace upc::coll::tasks {

// Where two members' calls of one collective differ, as the engine's agreement
// check finds it (the first difference in a fixed order, the same on every
// member): which argument, this member's value, the other member's, and the
// other member's thread. The front-end names the argument and says the values
// in its own words.
struct difference {
  enum class field : std::uint8_t {
    none,
    failed_call,   // the other member's call failed before it could post
    kind,          // mine, theirs: the collectives (upc::coll::collective)
    sync_flags,    // the normalised UPC_IN_/OUT_ flags
    in_place,      // 1: in place (where every member or none must be)
    root,          // team ranks
    type,          // the element type as the caller passed it
    op,            // the operation (or its user function) differs: no values
    block_counts,  // reduce_scatter's counts differ: no values
    count,         // elements
    block_bytes,   // a sender and a receiver disagree: mine = bytes sent, theirs = bytes expected,
                   // thread = the sender, receiver = the receiver
    own_bytes,     // a member sends itself mine bytes but receives theirs (thread = that member)
  };
  field what = field::none;
  std::uint64_t mine = 0, theirs = 0;
  int thread = -1;
  int receiver = -1;
};

// What went wrong with a collective, as the engine found it: a difference
// between members' calls, or (diff.what == none) the engine's own words (an
// MPI error, a task that found its counts disagree).
struct failure {
  status code = status::failed;
  difference diff;
  std::string text;
};

// How a front-end of the task executor is named in what the engine does and
// says for it: static strings (wait reports and heap labels keep the pointer),
// and the function that words a failure under --check.
struct front_end {
  const char* settling;       // a thread completing what is in flight ("lib (completing what is in flight)")
  const char* staged_counts;  // the heap area of a v-variant's staged counts
  const char* staged_input;   // the heap area of a staged input
  void (*report)(const char* function, const failure& f, int seen_by_thread);
  // The failure in words (what `report` prints), for a report that ends the run.
  std::string (*words)(const failure& f);
};

}  // namespace upc::coll::tasks
