// The one table of the collectives the engine runs (issue 9): every name, trait
// and count comes from these rows, for the registry, both executors, the
// front-ends, the test models and the benchmarks.
//
// A kind is what a collective computes and which executor runs it, never which
// library asked for it: the front-ends (lib/api/) map their functions onto
// kinds. Two executors exist (docs/algorithms.md §1):
//   owner   every rank runs its own steps (the UPC-style collectives: blocking,
//           single-valued shared-array arguments);
//   tasks   the collective is split into tasks any member may run once their
//           inputs are posted (the Collectives 2.0 ordering rules forbid a
//           member's completion to wait for another member's steps).
// A kind is named by what it computes, as MPICH names bcast and ibcast over
// one algorithm family: the task kinds carry the non-blocking trait and the
// name of the owner kind that computes the same, with an i (broadcast and
// ibroadcast, gather_all and igather_all). The name is what users type to
// choose an algorithm (UPCEMU_COLL, upcrun --coll, upc::coll::force_algorithm)
// and what --list-algorithms prints; the names the task kinds had before
// (upc/detail/former_collective_names.hpp) are still accepted.
//
// Traits:
//   rooted      one member is the root (its post/argument names it)
//   reduction   combines elements with an operation
//   vector      per-member counts and displacements (the v-variants)
//   tail        its posts use the second half of the post record (counts, op)
//   to_all      every member gets the (whole) result
//   args_after_in  reads shared argument arrays (perm) that may be read only
//               after the IN synchronisation
//   selectable  has algorithm rows (split has none)
//   nonblocking a member's part completes without waiting for the other
//               members' later steps: the task executor's selectable kinds
//               (set by the table, not written in its rows)
#pragma once
#include <cstdint>
#include <string_view>

#include "upc/detail/former_collective_names.hpp"

namespace upc::coll {

enum class executor : std::uint8_t { owner, tasks };

namespace trait {
constexpr unsigned rooted = 1u << 0, reduction = 1u << 1, vector = 1u << 2, tail = 1u << 3, to_all = 1u << 4,
                   args_after_in = 1u << 5, selectable = 1u << 6, nonblocking = 1u << 7;
}  // namespace trait

// id, selection name, executor, traits
#define UPCEMU_COLLECTIVE_KINDS(X)                                                                                 \
  X(broadcast, "broadcast", owner, trait::rooted | trait::selectable)                                              \
  X(scatter, "scatter", owner, trait::rooted | trait::selectable)                                                  \
  X(gather, "gather", owner, trait::rooted | trait::selectable)                                                    \
  X(gather_all, "gather_all", owner, trait::to_all | trait::selectable)                                            \
  X(exchange, "exchange", owner, trait::selectable)                                                                \
  X(permute, "permute", owner, trait::args_after_in | trait::selectable)                                           \
  X(reduce, "reduce", owner, trait::rooted | trait::reduction | trait::selectable)                                 \
  X(prefix_reduce, "prefix_reduce", owner, trait::reduction | trait::selectable)                                   \
  X(sort, "sort", owner, trait::selectable)                                                                        \
  X(allreduce, "allreduce", owner, trait::reduction | trait::to_all | trait::selectable)                           \
  X(chunks, "vector_copy", owner, trait::vector | trait::args_after_in | trait::selectable)                        \
  X(exchange_in_place, "exchange_in_place", owner, trait::selectable)                                              \
  X(barrier, "ibarrier", tasks, trait::selectable)                                                                 \
  X(member_broadcast, "ibroadcast", tasks, trait::rooted | trait::selectable)                                      \
  X(member_scatter, "iscatter", tasks, trait::rooted | trait::selectable)                                          \
  X(member_scatterv, "iscatterv", tasks, trait::rooted | trait::vector | trait::tail | trait::selectable)          \
  X(member_gather, "igather", tasks, trait::rooted | trait::selectable)                                            \
  X(member_gatherv, "igatherv", tasks, trait::rooted | trait::vector | trait::tail | trait::selectable)            \
  X(member_gather_all, "igather_all", tasks, trait::to_all | trait::selectable)                                    \
  X(member_gather_allv, "igather_allv", tasks, trait::to_all | trait::vector | trait::tail | trait::selectable)    \
  X(member_exchange, "iexchange", tasks, trait::tail | trait::selectable)                                          \
  X(member_exchangev, "iexchangev", tasks, trait::vector | trait::tail | trait::selectable)                        \
  X(member_reduce, "ireduce", tasks, trait::rooted | trait::reduction | trait::tail | trait::selectable)           \
  X(member_allreduce, "iallreduce", tasks, trait::reduction | trait::to_all | trait::tail | trait::selectable)     \
  X(member_reduce_scatter, "ireduce_scatter", tasks, trait::reduction | trait::tail | trait::selectable)           \
  X(member_exclusive_scan, "iscan_exclusive", tasks, trait::reduction | trait::tail | trait::selectable)           \
  X(member_inclusive_scan, "iscan_inclusive", tasks, trait::reduction | trait::tail | trait::selectable)           \
  X(team_split, "team_split", tasks, 0u)

enum class collective : std::uint8_t {
#define UPCEMU_KIND_ID(id, name, exec, traits) id,
  UPCEMU_COLLECTIVE_KINDS(UPCEMU_KIND_ID)
#undef UPCEMU_KIND_ID
};

struct kind_info {
  collective id;
  const char* name;
  executor exec;
  unsigned traits;
};

inline constexpr kind_info kinds[] = {
// The task executor's selectable kinds are the non-blocking ones.
#define UPCEMU_KIND_ROW(id, name, exec, traits)                                                                 \
  {collective::id, name, executor::exec,                                                                        \
   (traits) | (executor::exec == executor::tasks && ((traits) & trait::selectable) ? trait::nonblocking : 0u)},
    UPCEMU_COLLECTIVE_KINDS(UPCEMU_KIND_ROW)
#undef UPCEMU_KIND_ROW
};
inline constexpr int collective_count = static_cast<int>(sizeof kinds / sizeof kinds[0]);

constexpr const kind_info& info(collective c) noexcept { return kinds[static_cast<int>(c)]; }
constexpr const char* name_of(collective c) noexcept { return info(c).name; }
constexpr bool has(collective c, unsigned t) noexcept { return (info(c).traits & t) != 0; }
constexpr bool is_rooted(collective c) noexcept { return has(c, trait::rooted); }
constexpr bool is_reduction(collective c) noexcept { return has(c, trait::reduction); }
constexpr bool is_vector(collective c) noexcept { return has(c, trait::vector); }
constexpr bool uses_tail(collective c) noexcept { return has(c, trait::tail); }
constexpr bool is_selectable(collective c) noexcept { return has(c, trait::selectable); }
constexpr bool is_nonblocking(collective c) noexcept { return has(c, trait::nonblocking); }
constexpr executor executor_of(collective c) noexcept { return info(c).exec; }

// The kind with that selection name, or with that former name; false when
// there is none.
constexpr bool parse_collective(std::string_view name, collective& out) noexcept {
  for (const detail::former_name& f : detail::former_collective_names)
    if (name == f.former) name = f.name;
  for (const kind_info& k : kinds)
    if (name == k.name && (k.traits & trait::selectable)) {
      out = k.id;
      return true;
    }
  return false;
}

static_assert([] {
  for (int i = 0; i < collective_count; ++i)
    if (static_cast<int>(kinds[i].id) != i) return false;
  return true;
}(), "the kinds table is in enum order");

static_assert([] {
  for (const detail::former_name& f : detail::former_collective_names) {
    collective c{};
    if (!parse_collective(f.name, c) || !is_nonblocking(c)) return false;
  }
  return true;
}(), "every former name names a non-blocking kind");

}  // namespace upc::coll
