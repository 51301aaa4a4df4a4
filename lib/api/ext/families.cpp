// The family table (families.hpp).
#include "families.hpp"

#include <cstddef>

#include "builders.hpp"

namespace upc::ext {

namespace {

using coll::collective;

constexpr family_info g_families[] = {
    {family::broadcast, collective::broadcast, broadcast_fixed, broadcast_team, broadcast_v, nullptr},
    {family::scatter, collective::scatter, scatter_fixed, scatter_team, scatter_v, nullptr},
    {family::gather, collective::gather, gather_fixed, gather_team, gather_v, nullptr},
    {family::gather_all, collective::gather_all, gather_all_fixed, gather_all_team, gather_all_v, nullptr},
    {family::exchange, collective::exchange, exchange_fixed, exchange_team, exchange_v, nullptr},
    {family::permute, collective::permute, permute_by_perm, permute_by_perm, permute_v, nullptr},
    {family::vector_copy, collective::chunks, nullptr, nullptr, vector_copy_v, nullptr},
    {family::reduce, collective::reduce, nullptr, nullptr, nullptr, reduce_results},
    {family::allreduce, collective::allreduce, nullptr, nullptr, nullptr, allreduce_results},
    {family::prefix_reduce, collective::prefix_reduce, nullptr, nullptr, nullptr, prefix_reduce_results},
};

// Row i is family i (a family's name is its kind's: coll::name_of(info_of(f).kind)).
static_assert([] {
  for (std::size_t i = 0; i < sizeof g_families / sizeof g_families[0]; ++i)
    if (static_cast<std::size_t>(g_families[i].id) != i) return false;
  return true;
}(), "the family table is in enum order");

}  // namespace

const family_info& info_of(family f) noexcept { return g_families[static_cast<std::size_t>(f)]; }

}  // namespace upc::ext
