// The normalised request every owner-executor collective reduces to (DESIGN.md
// §3.2): a team, explicit endpoints, an optional reduction, and the sync flags.
// Front-ends validate the user's arguments and fill this in; algorithms read
// it to build plans and never do layout arithmetic of their own: each endpoint
// says where a member's bytes are.
//
// Layouts keep the THREADS of the array they describe: a standard shared
// array used by a sub-team still has THREADS blocks per row, and a member's
// block is the one with affinity to its thread (issue 9).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "blocks.hpp"
#include "element_ops.hpp"
#include "kinds.hpp"
#include "upc/layout.hpp"
#include "upc_types.h"

namespace upc::coll {

class team;

// One side of a data-movement collective, in shared memory.
//   single area   one thread's `shared [] char[...]` from base (a root's
//                 source or destination): the piece of team rank r is at
//                 r × piece bytes, or at thread_of(r) × piece bytes when
//                 by_thread is set
//   blocked area  `shared [block] char[block × layout_threads]` from base
//                 (phase ignored): every thread has one block, and a member's
//                 piece (or row of pieces) is the block of its thread
struct endpoint {
  shared_address base{};
  std::size_t block = 0;      // blocked: bytes of one thread's block (a row for gather_all / exchange)
  int layout_threads = 0;     // blocked: THREADS of the area's layout
  bool by_thread = false;     // single area: pieces indexed by thread, not by team rank

  char* area() const noexcept { return raw(base); }
  char* block_of(int thread) const noexcept { return block_on_thread(base, block, thread, layout_threads); }
  // The single area's piece of `n` bytes for team rank `rank` on thread `thread`.
  char* piece(int rank, int thread, std::size_t n) const noexcept {
    return area() + static_cast<std::size_t>(by_thread ? thread : rank) * n;
  }
};

// Owner-only private endpoints (the thesis's get/put/priv collectives) and
// in-place requests are described here for the front-ends that make them;
// algorithms that cannot serve them say so in their registry row.
enum class memory : std::uint8_t { shared, private_owner };

// The general data movement (kind `chunks`, the extended collectives of seed
// 003): a list of byte runs, each from one place to another. A place is bytes
// in one thread's partition (shared) or in one thread's private memory
// (private: reachable by that thread only, so a private byte is read or written
// by its owner and nothing else; the offset counts from that thread's private
// base of the side, request::src_private / dst_private). Every member holds the
// whole list, in the same order (the front-end derives it from single-valued
// arguments, after the IN synchronisation when they are shared arrays).
struct place {
  std::uint64_t offset = 0;  // shared: offset in the thread's partition; private: from the side's private base
  std::int32_t thread = 0;
  bool is_private = false;
  friend bool operator==(const place&, const place&) = default;
};
struct chunk {
  place src, dst;
  std::uint64_t bytes = 0;
  friend bool operator==(const chunk&, const chunk&) = default;
};

struct request {
  collective kind{};
  const char* function = "";       // the API name, for messages ("upc_all_broadcast")
  team* members = nullptr;         // nullptr: the world team
  int root = -1;                   // rooted collectives: the root's team rank
  // data movement
  endpoint src, dst;
  std::size_t nbytes = 0;          // bytes of one piece
  const int* perm = nullptr;       // permute: perm[thread] = the thread receiving thread's block
  // Shared argument arrays (permute's perm) may be read only after the IN
  // synchronisation: the engine synchronises, then calls read_args, which
  // reads and checks the array at args_at and completes the request.
  shared_address args_at{};
  void (*read_args)(request& rq, const team& t) = nullptr;
  memory src_memory = memory::shared, dst_memory = memory::shared;
  bool in_place = false;
  // chunks: the list, this member's private bases, and whether a chunk may
  // write bytes another chunk reads (in-place exchange, permute): then every
  // shared source is first copied aside by its owner (staged) and read from there.
  const std::vector<chunk>* chunks = nullptr;
  char* src_private = nullptr;
  char* dst_private = nullptr;
  bool stage_sources = false;
  // chunks: a shared destination on another member is known to its owner only
  // (gather_all_v_privparam: each thread passes its own ddisp): the owner copies
  // those chunks (private sources are staged for it), and each member checks its own.
  bool dst_owner_only = false;
  // More single-valued arguments than the engine's own (the extended
  // collectives' counts, block sizes, typesize, root), compared under --check
  // by name: {"argument typesize", 4}.
  struct named_value {
    const char* name;
    std::uint64_t value;
  };
  const named_value* extra_single_valued = nullptr;
  int extra_single_valued_count = 0;
  // reductions and sort: the arrays (in: the source, out: prefix_reduce's
  // result; sort sorts `in`), and for reduce / allreduce the root's result
  blocked_array in{}, out{};
  shared_address result{};         // reduce: the element the result goes to (allreduce: element 0 of dst)
  element_op red;                  // the bound operation; red.size is the element size (sort: only that)
  bool suffix = false;             // prefix_reduce: from the end (xupc's suffix reduce)
  bool to_all = false;             // every member gets the result (allreduce)
  std::uint64_t op_arg = 0;        // the op as the caller passed it (single-valued checks)
  const void* func = nullptr;      // the caller's function, if any (single-valued checks)
  int (*sort_cmp)(const void*, const void*, const void* ctx) = nullptr;
  const void* sort_ctx = nullptr;
  upc_flag_t flags = 0;

  std::size_t nelems() const noexcept { return in.n; }
  std::size_t blk_size() const noexcept { return in.blk; }
  // chunks: whether every chunk between two threads reads the same source
  // bytes (a broadcast's list), which the node policy rows tell apart.
  bool one_run() const noexcept {
    if (!chunks) return false;
    const chunk* first = nullptr;
    for (const chunk& c : *chunks) {
      if (c.src.thread == c.dst.thread) continue;
      if (!first) first = &c;
      else if (!(c.src == first->src) || c.bytes != first->bytes) return false;
    }
    return first != nullptr;
  }
  // Bytes per member, for size-ranged algorithm rules (UPCEMU_COLL ...:lo-hi).
  std::size_t size_for_selection() const noexcept {
    if (chunks && !chunks->empty()) return static_cast<std::size_t>(chunks->front().bytes);
    return nbytes ? nbytes : in.n * red.size;
  }
};

}  // namespace upc::coll
