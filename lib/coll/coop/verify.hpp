// Comparing the members' posts of one collective: the arguments that must agree
// (collective, root, flags, type, count, op, and the byte counts each pair of
// members exchanges) are checked by every member against its own post once all
// have posted, so a mismatch is found, and reported, by everyone.
#pragma once
#include <string>

#include "operation.hpp"

namespace upc::coll::coop {

// A consistent copy of rank r's post of op; false when the slot has been reused
// (the collective is over for everyone: nothing left to check).
bool snapshot(const operation& op, int r, post_data& out);

// The arguments that must agree between post d of rank r and ours, checked as
// soon as a post is seen (before any task reads it): 0, or the error code with
// `why` set.
int compare_args(const operation& op, const post_data& mine, int r, const post_data& d, std::string& why);

// Once every member has posted: the byte counts each pair exchanges. Records the
// first disagreement as the collective's error.
void verify_posts(operation& op);

// A fingerprint of a count array (reduce_scatter's recvcounts, single-valued).
std::uint64_t fingerprint(const std::uint64_t* values, std::size_t n);

}  // namespace upc::coll::coop
