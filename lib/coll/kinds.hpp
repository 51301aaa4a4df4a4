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
// The name is what users type to choose an algorithm (UPCEMU_COLL,
// upcrun --coll, upc::coll::force_algorithm) and what --list-algorithms prints;
// the names of the task kinds keep the spelling users have always typed.
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
#pragma once
#include <cstdint>
#include <string_view>

namespace upc::coll {

enum class executor : std::uint8_t { owner, tasks };

namespace trait {
constexpr unsigned rooted = 1u << 0, reduction = 1u << 1, vector = 1u << 2, tail = 1u << 3, to_all = 1u << 4,
                   args_after_in = 1u << 5, selectable = 1u << 6;
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
  X(chunks, "vector_copy", owner, trait::vector | trait::args_after_in | trait::selectable)                         \
  X(exchange_in_place, "exchange_in_place", owner, trait::selectable)                                              \
  X(barrier, "upccoll_barrier", tasks, trait::selectable)                                                          \
  X(member_broadcast, "upccoll_bcast", tasks, trait::rooted | trait::selectable)                                   \
  X(member_scatter, "upccoll_scatter", tasks, trait::rooted | trait::selectable)                                   \
  X(member_scatterv, "upccoll_scatterv", tasks, trait::rooted | trait::vector | trait::tail | trait::selectable)   \
  X(member_gather, "upccoll_gather", tasks, trait::rooted | trait::selectable)                                     \
  X(member_gatherv, "upccoll_gatherv", tasks, trait::rooted | trait::vector | trait::tail | trait::selectable)     \
  X(member_gather_all, "upccoll_allgather", tasks, trait::to_all | trait::selectable)                              \
  X(member_gather_allv, "upccoll_allgatherv", tasks, trait::to_all | trait::vector | trait::tail | trait::selectable) \
  X(member_exchange, "upccoll_alltoall", tasks, trait::tail | trait::selectable)                                   \
  X(member_exchangev, "upccoll_alltoallv", tasks, trait::vector | trait::tail | trait::selectable)                 \
  X(member_reduce, "upccoll_reduce", tasks, trait::rooted | trait::reduction | trait::tail | trait::selectable)    \
  X(member_allreduce, "upccoll_allreduce", tasks,                                                                  \
    trait::reduction | trait::to_all | trait::tail | trait::selectable)                                            \
  X(member_reduce_scatter, "upccoll_reduce_scatter", tasks, trait::reduction | trait::tail | trait::selectable)    \
  X(member_exclusive_scan, "upccoll_scan", tasks, trait::reduction | trait::tail | trait::selectable)              \
  X(member_inclusive_scan, "upccoll_scan_inclusive", tasks, trait::reduction | trait::tail | trait::selectable)    \
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
#define UPCEMU_KIND_ROW(id, name, exec, traits) {collective::id, name, executor::exec, traits},
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
constexpr executor executor_of(collective c) noexcept { return info(c).exec; }

// The kind with that selection name; false when there is none.
constexpr bool parse_collective(std::string_view name, collective& out) noexcept {
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

}  // namespace upc::coll
