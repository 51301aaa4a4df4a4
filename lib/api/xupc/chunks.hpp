// The one way xupc's front-ends move bytes they describe themselves: a chunk
// list (request::chunks, the engine's general data movement) between shared
// places and this thread's private buffers.
#pragma once
#include <vector>

#include "../../coll/engine.hpp"
#include "upc_types.h"

namespace upc::xupc {

inline void move_chunks(const char* fn, const std::vector<coll::chunk>& list, const char* src_private, char* dst_private,
                        upc_flag_t flags) {
  coll::request rq{};
  rq.kind = coll::collective::chunks;
  rq.function = fn;
  rq.flags = flags;
  rq.src_private = const_cast<char*>(src_private);  // read only: the request serves both directions
  rq.dst_private = dst_private;
  rq.src_memory = src_private ? coll::memory::private_owner : coll::memory::shared;
  rq.dst_memory = dst_private ? coll::memory::private_owner : coll::memory::shared;
  rq.chunks = &list;
  coll::submit(rq);
}

}  // namespace upc::xupc
