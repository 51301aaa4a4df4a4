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

// The entry points of the five movements that share one signature
// (broadcast, scatter, gather, gather_all, exchange) under a prefix:
// upc_all_ (upc_collective.cpp) and xupc_all_ (xupc/movement.cpp), each
// passing its own name for the reports.
#define UPCEMU_STANDARD_MOVEMENT(prefix, op)                                                                    \
  void prefix##op(upc::sptr<void> dst, upc::sptr<const void> src, size_t nbytes, upc_flag_t flags,              \
                  const std::source_location& where) {                                                          \
    upc::coll::standard::op(#prefix #op, dst, src, nbytes, flags, where);                                        \
  }
#define UPCEMU_STANDARD_MOVEMENTS(prefix)                                                                       \
  UPCEMU_STANDARD_MOVEMENT(prefix, broadcast)                                                                   \
  UPCEMU_STANDARD_MOVEMENT(prefix, scatter)                                                                     \
  UPCEMU_STANDARD_MOVEMENT(prefix, gather)                                                                      \
  UPCEMU_STANDARD_MOVEMENT(prefix, gather_all)                                                                  \
  UPCEMU_STANDARD_MOVEMENT(prefix, exchange)
