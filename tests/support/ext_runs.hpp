// What the tests of the extended collectives (tests/unit/test_ext_*.cpp) share:
// how many cases and THREADS counts (the opt-in 'full' suite defines
// UPCEMU_EXT_FULL for more), running a body on both backends × THREADS ×
// the two chunk algorithms, and the sync-flag combinations taken in turn.
#pragma once
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

#include "spmd.hpp"
#include "teamutil.h"
#include "upc/coll.hpp"

namespace ext_runs {

#ifdef UPCEMU_EXT_FULL
constexpr int rounds = 8;
#define UPCEMU_EXT_COUNTS {1, 2, 3, 4, 5, 7, 8, 16}
#else
constexpr int rounds = 2;
#define UPCEMU_EXT_COUNTS {1, 2, 3, 4, 5, 7, 8}
#endif

// The chunk algorithm of the run in progress ("pull", "push" or "staged").
inline const char* g_algorithm = "pull";

// Runs `body` for both backends, every THREADS count and pull and push (and the
// in-place exchange's pairwise and staged algorithms), and on the threads
// backend staged too (there pull and push read private sources directly; on
// the processes backend they stage them as `staged` does); then the
// node-aware rows (multicore, binomial_flat, binomial: chunks_node_aware.cpp)
// on emulated topologies that put their trees to work: 2 nodes of
// consecutive threads, 3 uneven nodes, 2 cyclic nodes.
struct chunk_run {
  const char* algorithm;
  int nodes;         // 1: the default topology
  const char* map;
};
inline const chunk_run chunk_runs[] = {{"pull", 1, "block"},          {"push", 1, "block"},
                                       {"staged", 1, "block"},        {"multicore", 2, "block"},
                                       {"binomial_flat", 3, "block"}, {"binomial", 2, "cyclic"}};

inline void everywhere(const std::function<void()>& body, std::initializer_list<int> counts = UPCEMU_EXT_COUNTS) {
  for (upc::backend_kind b : spmd::backends)
    for (int T : counts)
      for (const chunk_run& run : chunk_runs) {
        if (spmd::skip_run(T, b)) continue;
        const std::string_view algo = run.algorithm;
        if (b != upc::backend_kind::threads && algo == "staged") continue;
        g_algorithm = run.algorithm;
        upc::launch_options o = spmd::options(T, b);
        o.nodes = std::min(run.nodes, T);
        o.node_map = run.map;
        const upc::run_result r = upc::run(o, [&] {
          upc::coll::force_algorithm("vector_copy", run.algorithm);
          // the in-place exchange's own two algorithms, one per pass
          upc::coll::force_algorithm("exchange_in_place", algo == "pull" ? "pairwise" : "staged");
          // the team forms that run as standard collectives: their trees and rounds too
          const bool first = algo == "pull";
          upc::coll::force_algorithm("broadcast", first ? "binomial" : "push");
          upc::coll::force_algorithm("scatter", first ? "binomial" : "push");
          upc::coll::force_algorithm("gather", first ? "binomial" : "pull");
          upc::coll::force_algorithm("gather_all", first ? "ring" : "recursive_doubling");
          upc::coll::force_algorithm("exchange", first ? "pairwise" : "push");
          body();
          upc::coll::reset_algorithms();
        });
        INFO("backend=", spmd::name(b), " THREADS=", T, " algorithm=", std::string(algo), " nodes=", o.nodes,
             " map=", std::string(run.map), " error: ", r.error);
        REQUIRE(r.ok());
      }
}

// The nine IN x OUT sync-flag combinations, taken in turn by successive calls
// (the tests put a barrier before and after each call, so NOSYNC is legal).
inline upc_flag_t next_flags() {
  static thread_local unsigned k = 0;
  const upc_flag_t in[] = {UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC};
  const upc_flag_t out[] = {UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC};
  const upc_flag_t f = in[k % 3] | out[(k / 3) % 3];
  ++k;
  return f;
}

using IntArray = upc::sptr<int, 1, upc::relaxed>;
using SizeArray = upc::sptr<size_t, 1, upc::relaxed>;

// One argument set from which the generated invokers (extended_collectives_names.inc)
// take what each function has: every parameter of the 643 functions by meaning.
struct args {
  upc::sptr<void> dst_shared, buffer_shared;
  upc::sptr<const void> src_shared;
  void* dst_private = nullptr;
  void* buffer_private = nullptr;
  const void* src_private = nullptr;
  IntArray ddisp_shared_int, sdisp_shared_int, exchange_shared_int, disp_shared_int, perm_shared_int;
  SizeArray ddisp_shared_size, sdisp_shared_size, exchange_shared_size, disp_shared_size, counts_shared_size;
  int* ddisp_private_int = nullptr;
  int* sdisp_private_int = nullptr;
  int* exchange_private_int = nullptr;
  size_t* counts_private_size = nullptr;
  int ddisp_scalar = 0;
  size_t count = 0, dst_blk = 0, src_blk = 0, typesize = 1, blk_size = 0;
  int root = 0, nchunks = 0;
  upc_op_t op = UPC_ADD;
  const void* func = nullptr;
  team t{};
  upc_flag_t flags = 0;
};

}  // namespace ext_runs
