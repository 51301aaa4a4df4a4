// The conformance harness of the standard collectives: builds the case matrix from
// the algorithm registry, runs each case on the calling UPC threads and checks
// every byte of the areas it touches against tests/support/coll_model.hpp.
//
// One case = one collective call. Each thread fills its own partition of a source
// area (a pattern of thread, byte index and seed) and of a destination area
// (a different "poison" pattern), calls the collective with the case's sync flags,
// and checks its partition of both areas against the model: the destination bytes
// the spec defines, everything else (bytes before and after the destination, the
// source) untouched. The sync flags are honoured, not worked around:
//   IN_NOSYNC          data set up, then upc_barrier, then the call
//   IN_MYSYNC/ALLSYNC  each thread sets up its own data and calls at once
//                      (optionally after a delay: `late`)
//   OUT_NOSYNC         upc_barrier after the call, then the checks
//   OUT_MYSYNC         the caller checks its own partition as soon as it returns,
//                      then scribbles over its source (nobody may still read it)
//   OUT_ALLSYNC        as MYSYNC, and the caller also checks its right
//                      neighbour's destination at once
// and a barrier ends every case. A mismatch stops the run with the case, the
// algorithm, and the first mismatching bytes (thread, index, expected, actual).
//
// The parts, each a header of its own:
//   tests/support/coll_model.hpp  the model: what the specification says a call does
//   coll_inputs.hpp    what each thread holds before a call (patterns, elements)
//   coll_cases.hpp     the cases, as text, the bytes they touch, and their matrix
//   coll_checks.hpp    a partition against the model; the report of a mismatch
//   coll_drivers.hpp   one call as its sync flags say; the matrix over algorithms,
//                      backends, THREADS counts and topologies
#pragma once
#include "coll_cases.hpp"
#include "coll_checks.hpp"
#include "coll_drivers.hpp"
#include "coll_inputs.hpp"
