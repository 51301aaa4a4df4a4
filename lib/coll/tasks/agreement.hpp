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
// with `diff` set (the front-end words it).
status compare_posts(const operation& op, int r, const post_data& d, difference& diff);

// The v-variants' counts: what s sends to d must be what d expects from s,
// for every pair, and every member must come to the same verdict — also on a
// pair it is not part of. Each member posts its share of a balance: + h(s, d,
// n) for each block it sends (s = itself), - h(s, d, n) for each block it
// receives (d = itself), h a 64-bit hash. The shares of all members add up to
// 0 exactly when every pair agrees (but for a 2^-64 chance), so a member
// checks every pair by adding P numbers it reads with the posts anyway; only
// when the sum is not 0 are the counts compared, pair by pair in one fixed
// order, to find the first difference (the same on every member).
std::uint64_t pair_balance(const post_data& p, const std::uint64_t* meta, int me, int size);

// Once every member has posted (v-variants): checks the balance; the first
// disagreeing pair as the collective's failure (code ok when every pair agrees).
failure verify_pairs(const operation& op);

// A fingerprint of a count array (reduce_scatter's recvcounts, single-valued).
std::uint64_t fingerprint(const std::uint64_t* values, std::size_t n);

}  // namespace upc::coll::tasks
