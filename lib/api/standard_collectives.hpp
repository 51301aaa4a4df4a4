// The standard data-movement collectives under a caller-given name: the UPC
// names (upc_all_*) and xupc's (<xupc_collective.h>, seed 001) are the same
// calls, and every report names the one the program wrote.
#pragma once
#include <cstddef>
#include <source_location>

#include "upc/sptr.hpp"
#include "upc_types.h"

namespace upc::coll::standard {

void broadcast(const char* fn, sptr<void> dst, sptr<const void> src, std::size_t nbytes, upc_flag_t flags,
               const std::source_location& where);
void scatter(const char* fn, sptr<void> dst, sptr<const void> src, std::size_t nbytes, upc_flag_t flags,
             const std::source_location& where);
void gather(const char* fn, sptr<void> dst, sptr<const void> src, std::size_t nbytes, upc_flag_t flags,
            const std::source_location& where);
void gather_all(const char* fn, sptr<void> dst, sptr<const void> src, std::size_t nbytes, upc_flag_t flags,
                const std::source_location& where);
void exchange(const char* fn, sptr<void> dst, sptr<const void> src, std::size_t nbytes, upc_flag_t flags,
              const std::source_location& where);
void permute(const char* fn, sptr<void> dst, sptr<const void> src, sptr<const int> perm, std::size_t nbytes, upc_flag_t flags,
             const std::source_location& where);

}  // namespace upc::coll::standard
