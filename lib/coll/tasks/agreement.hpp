// What the members of one collective must agree on, and the check that they
// do, folded into the reading of the posts every member does anyway (issue 9):
// each post carries an agreement key, a hash of the arguments that must be the
// same on every member (the collective, the sync flags, the in-place choice
// where it is all or nothing, the root, the type, the op, the count, the block
// size of the fixed-size collectives); a member compares each post's key with
// its own as it sees the post. Only when they differ are the fields compared,
// in a fixed order, to find the status and the words: every member finds the
// same first difference. The v-variants' counts differ by design and are
// compared pairwise once every post is in (verify_pairs).
#pragma once
#include <cstdint>
#include <string>

#include "../status.hpp"
#include "operation.hpp"

namespace upc::coll::tasks {

// The block bytes the fixed-size collectives agree on (0 for the others):
// what each member sends to, or receives from, every other.
std::uint64_t agreed_block(const post_data& p, bool at_root);

// The agreement key of a post (mine.key is set from it before posting).
std::uint64_t agreement_key(const post_data& p, bool at_root);

// A consistent copy of rank r's post of op; false when the slot has been
// reused (the collective is over for everyone: nothing left to check).
bool snapshot(const operation& op, int r, post_data& out);

// The first difference between rank r's post `d` and ours: ok, or the status
// with `why` set.
status compare_posts(const operation& op, int r, const post_data& d, std::string& why);

// Once every member has posted (v-variants): the byte counts each pair
// exchanges. Records the first disagreement as the collective's failure.
void verify_pairs(operation& op);

// A fingerprint of a count array (reduce_scatter's recvcounts, single-valued).
std::uint64_t fingerprint(const std::uint64_t* values, std::size_t n);

}  // namespace upc::coll::tasks
