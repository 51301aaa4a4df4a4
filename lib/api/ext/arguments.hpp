// Checks of the call's arguments beyond its two ends that more than one
// family makes: the argument arrays (displacements, counts, perm), the root,
// an in-place buffer's root block. arguments.cpp also defines
// single_valued_scalars (families.hpp).
#pragma once
#include <cstddef>

#include "call.hpp"

namespace upc::ext {

// Every element of a shared argument array inside the heap and one object; a
// private one non-null (count 0: nothing to read, nothing checked; may_be_null:
// a null array means the default).
void check_arg_array(const call& c, const arg_array& a, std::size_t count, bool may_be_null = false);

// The root argument a rank of `members` members.
void check_root(const call& c, int members);

// An in-place broadcast, scatter or gather pointed at a non-zero thread's
// block of an array of one row: refused with the _rooted form to use instead.
void check_in_place_root_block(const call& c);

}  // namespace upc::ext
