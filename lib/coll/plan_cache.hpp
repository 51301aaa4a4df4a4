// The plans of a team member's last few owner-executor calls, kept for the
// next identical call (issue 9: plans are data, so they can be reused): a loop
// of the same collective on the same buffers builds its plan once. A plan is
// found by everything its builder reads: the request's endpoints, sizes,
// reduction and flags, permute's perm, the team's scratch (a grown scratch
// moves what plans point into), and what decided the algorithm (the rules'
// generation). It is also found only while the heap is as it was when the
// request was validated (nothing freed since), so a hit skips the validator,
// the selection and the builder. Sort is never kept (its comparison context
// changes with every call).
#pragma once
#include <cstdint>
#include <vector>

#include "plan.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "team.hpp"

namespace upc::coll {

class plan_cache final : public team_attachment {
 public:
  static plan_cache& of(team& t) { return t.attached<plan_cache>(); }

  // The kept plan of a request validated before, and its algorithm; nullptr
  // when there is none.
  struct found {
    plan* p;
    const algorithm_entry* algorithm;
  };
  found find(const request& rq, const team& t);
  // The plan of `rq` with algorithm `e` on `t`, built now (and kept).
  plan& build(const request& rq, const algorithm_entry& e, team& t);

 private:
  struct key {
    std::uint32_t rules = 0;
    std::uint64_t heap = 0;
    collective kind{};
    int root = 0;
    std::size_t nbytes = 0, scratch = 0;
    endpoint src, dst;
    blocked_array in{}, out{};
    shared_address result{};
    elem_type type{};
    elem_op op{};
    const void* fn = nullptr;
    bool commutative = true, to_all = false, suffix = false;
    upc_flag_t flags = 0;
    std::vector<int> perm;
    // chunks (the general data movement): the list and this member's private bases
    std::vector<chunk> chunks;
    const char* src_private = nullptr;
    const char* dst_private = nullptr;
    bool stage_sources = false, dst_owner_only = false, in_place = false;
    bool same(const key& o) const;
    bool same_chunks(const request& rq, std::uint32_t rules, std::uint64_t heap, std::size_t scratch) const;
  };
  static key key_of(const request& rq, const team& t);

  static constexpr int kept = 4;
  struct entry {
    key k;
    plan p;
    const algorithm_entry* algorithm = nullptr;
    bool valid = false;
  };
  entry entries_[kept];
  int next_ = 0;
  int last_ = 0;  // the entry used last
  plan scratch_plan_;  // calls that are not kept
};

}  // namespace upc::coll
