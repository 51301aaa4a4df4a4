// Argument checks shared by the UPC-style front-ends (<upc_collective.h> and
// the extended collectives): each names the function and the argument.
#pragma once
#include <string>

#include "upc/error.hpp"
#include "upc_types.h"

namespace upc::coll {

// Flags: known bits only, at most one IN and one OUT choice.
inline void check_sync_flags(const char* fn, upc_flag_t flags, const char* arg = "flags") {
  const upc_flag_t known = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC |
                           UPC_OUT_NOSYNC | UPC_PULL | UPC_PUSH | UPC_MULTICORE;
  const std::string a(arg);
  if (flags & ~known)
    detail::fail(fn, a + " has unknown bits " + std::to_string(flags & ~known) + " (" + a + " = " + std::to_string(flags) + ")");
  auto count = [](upc_flag_t f) { return f == 0 ? 0 : (f & (f - 1)) == 0 ? 1 : 2; };  // 0, 1 or "more"
  if (count(flags & (UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC)) > 1)
    detail::fail(fn, a + " combines more than one of UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC");
  if (count(flags & (UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC)) > 1)
    detail::fail(fn, a + " combines more than one of UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC");
}

}  // namespace upc::coll
