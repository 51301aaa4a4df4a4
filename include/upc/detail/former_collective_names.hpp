// The names the task executor's kinds had until issue 28, when they were named
// after the <upccoll.h> functions that start them. They are still accepted
// wherever a collective is chosen by name (UPCEMU_COLL, upcrun --coll,
// upc::coll::algorithms and force_algorithm), so that scripts and habits keep
// working; listings and messages use the kinds' own names (ibroadcast, ...).
// A frozen table: a kind named from now on has one name only.
#pragma once

namespace upc::detail {

struct former_name {
  const char* former;  // what users typed
  const char* name;    // the kind's name now
};

inline constexpr former_name former_collective_names[] = {
    {"upccoll_barrier", "ibarrier"},
    {"upccoll_bcast", "ibroadcast"},
    {"upccoll_scatter", "iscatter"},
    {"upccoll_scatterv", "iscatterv"},
    {"upccoll_gather", "igather"},
    {"upccoll_gatherv", "igatherv"},
    {"upccoll_allgather", "igather_all"},
    {"upccoll_allgatherv", "igather_allv"},
    {"upccoll_alltoall", "iexchange"},
    {"upccoll_alltoallv", "iexchangev"},
    {"upccoll_reduce", "ireduce"},
    {"upccoll_allreduce", "iallreduce"},
    {"upccoll_reduce_scatter", "ireduce_scatter"},
    {"upccoll_scan", "iscan_exclusive"},
    {"upccoll_scan_inclusive", "iscan_inclusive"},
};

}  // namespace upc::detail
