// The one team type of the engine (lib/coll/team.hpp, issue 9): membership and
// rank <-> thread maps, the node view over upcrun --nodes, a barrier of the team
// only, scratch grown on a sub-team, a split that fails on one member failing on
// every member alike, and release freeing what the team held.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "../../lib/coll/team.hpp"
#include "../../lib/runtime/heap_index.hpp"
#include "../support/spmd.hpp"
#include "upc_castable.h"

namespace coll = upc::coll;

TEST_CASE("team: the world team's maps and node view follow upcrun --nodes") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(7, b)) continue;
    upc::launch_options o = spmd::options(7, b);
    o.nodes = 3;
    upc::run_result r = upc::run(o, [] {
      coll::team& w = coll::team::world();
      SPMD_CHECK_EQ(w.size(), THREADS);
      SPMD_CHECK_EQ(w.rank(), MYTHREAD);
      SPMD_CHECK(w.is_world());
      SPMD_CHECK_EQ(w.node_count(), 3);
      int members = 0;
      for (int n = 0; n < w.node_count(); ++n) {
        const std::vector<int>& ranks = w.ranks_on_node(n);
        members += static_cast<int>(ranks.size());
        SPMD_CHECK_EQ(w.leader_of(n), ranks.front());
        for (int r : ranks) {
          SPMD_CHECK_EQ(w.node_of(r), n);
          SPMD_CHECK_EQ(upc::node_of(w.thread_of(r)), n);  // the world's nodes are the run's
        }
      }
      SPMD_CHECK_EQ(members, THREADS);
    });
    INFO(spmd::name(b), " ", r.error);
    CHECK(r.ok());
  }
}

TEST_CASE("team: a split's members, ranked by key, with their nodes, barrier and scratch") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(8, b)) continue;
    upc::launch_options o = spmd::options(8, b);
    o.nodes = 4;  // threads 0-1, 2-3, 4-5, 6-7
    upc::run_result r = upc::run(o, [] {
      // Odd threads, ranked by descending thread: ranks 0..3 = threads 7, 5, 3, 1.
      std::unique_ptr<coll::team> odd;
      const coll::status st =
          coll::team::split(coll::team::world(), MYTHREAD % 2 == 1, 0, -MYTHREAD, coll::status::ok, odd, "test split");
      SPMD_CHECK(st == coll::status::ok);
      SPMD_CHECK_EQ(odd != nullptr, MYTHREAD % 2 == 1);
      if (odd) {
        SPMD_CHECK_EQ(odd->size(), 4);
        SPMD_CHECK_EQ(odd->thread_of(odd->rank()), MYTHREAD);
        SPMD_CHECK_EQ(odd->thread_of(0), 7);
        SPMD_CHECK_EQ(odd->rank_of(1), 3);
        SPMD_CHECK_EQ(odd->rank_of(2), -1);
        SPMD_CHECK(!odd->is_world());
        // One member per node; nodes in the order of their lowest rank.
        SPMD_CHECK_EQ(odd->node_count(), 4);
        SPMD_CHECK_EQ(odd->node_of(0), 0);
        SPMD_CHECK_EQ(odd->leader_of(3), 3);
        // Scratch: every member's, reachable by every member, grown collectively.
        odd->ensure_scratch(100, "test scratch");
        SPMD_CHECK(odd->scratch_bytes() >= 100);
        char* mine = odd->scratch(odd->rank());
        mine[0] = static_cast<char>(MYTHREAD);
        odd->barrier("test barrier");
        for (int rk = 0; rk < odd->size(); ++rk) SPMD_CHECK_EQ(int(odd->scratch(rk)[0]), odd->thread_of(rk));
        odd->barrier("test barrier");
        odd->ensure_scratch(5000, "test scratch");  // grown: contents go, everyone sees the new areas
        SPMD_CHECK(odd->scratch_bytes() >= 5000);
        odd->scratch(odd->rank())[4999] = 1;
        odd->barrier("test barrier");
        for (int rk = 0; rk < odd->size(); ++rk) SPMD_CHECK_EQ(int(odd->scratch(rk)[4999]), 1);
        odd->release("test release");
      }
      upc_barrier;
    });
    INFO(spmd::name(b), " ", r.error);
    CHECK(r.ok());
  }
}

TEST_CASE("team: a split that fails on one member fails on every member with its status; none joins") {
  spmd::run_everywhere(
      [] {
        std::unique_ptr<coll::team> t;
        const coll::status mine = MYTHREAD == THREADS - 1 ? coll::status::bad_rank : coll::status::ok;
        const coll::status st = coll::team::split(coll::team::world(), true, 0, MYTHREAD, mine, t, "test split");
        SPMD_CHECK(st == coll::status::bad_rank);
        SPMD_CHECK(t == nullptr);
        // The world team is still usable, and a split after it works.
        const coll::status again = coll::team::split(coll::team::world(), true, MYTHREAD % 2, MYTHREAD, coll::status::ok, t,
                                                     "test split");
        SPMD_CHECK(again == coll::status::ok);
        SPMD_CHECK(t != nullptr);
        t->release("test release");
      },
      {2, 3, 5});
}

TEST_CASE("team: release frees every member's block; ids are never reused") {
  spmd::run_everywhere(
      [] {
        const upc::detail::heap_extents before = upc::detail::heap_extent(MYTHREAD);
        std::uint64_t last_id = 0;
        for (int round = 0; round < 5; ++round) {
          std::unique_ptr<coll::team> t;
          coll::team::split(coll::team::world(), true, 0, MYTHREAD, coll::status::ok, t, "test split");
          SPMD_CHECK(t->id() > last_id);
          last_id = t->id();
          t->ensure_scratch(1000, "test scratch");
          t->release("test release");
        }
        upc_barrier;
        const upc::detail::heap_extents after = upc::detail::heap_extent(MYTHREAD);
        SPMD_CHECK_EQ(after.local, before.local);  // the teams' blocks and scratch went back
      },
      {1, 3, 4});
}
