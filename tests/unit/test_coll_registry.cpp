// The registry and the automatic policy as data (issue 9): every policy row
// names a registered algorithm of its collective, every selectable collective
// ends with an unconditional row, selection follows the rows, and a row's
// declared restrictions are enforced with a message that says which.
#include <doctest/doctest.h>

#include <climits>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "../../lib/coll/registry.hpp"
#include "../../lib/coll/request.hpp"
#include "upc/coll.hpp"
#include "upc/error.hpp"

using namespace upc::coll;

namespace {

std::string message_of(const selection& s) {
  try {
    (void)select(s);
  } catch (const upc::error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("registry: the policy rows name registered algorithms and end unconditionally") {
  for (const kind_info& k : kinds) {
    if (!(k.traits & trait::selectable)) continue;
    INFO(k.name);
    std::set<std::string> names;
    for (const algorithm_entry& e : registry())
      if (e.kind == k.id) {
        names.insert(e.name);
        // One executor per row, the collective's.
        CHECK((e.build != nullptr) == (k.exec == executor::owner));
        CHECK((e.tasks != nullptr) == (k.exec == executor::tasks));
      }
    CHECK(!names.empty());
    const policy_row* last = nullptr;
    for (const policy_row& r : policy())
      if (r.kind == k.id) {
        CHECK(names.count(r.algorithm) == 1);
        last = &r;
      }
    REQUIRE(last != nullptr);
    CHECK(last->lo == 0);
    CHECK(last->hi == SIZE_MAX);
    CHECK(last->min_threads == 1);
    CHECK(last->max_threads == INT_MAX);
    CHECK(last->min_nodes == 1);
    CHECK(!policy_text(k.id).empty());
  }
}

TEST_CASE("registry: selection follows the policy rows") {
  auto pick = [](collective c, std::size_t size, int threads) {
    return std::string(select(selection{c, "test", size, threads, 0, 0}).name);
  };
  CHECK(pick(collective::broadcast, 4096, 16) == "push");
  CHECK(pick(collective::broadcast, 4097, 16) == "pull");
  CHECK(pick(collective::broadcast, 8, 15) == "pull");
  CHECK(pick(collective::gather_all, 4096, 8) == "pull");
  CHECK(pick(collective::gather_all, 4097, 8) == "push");
  CHECK(pick(collective::prefix_reduce, 256 * 1024, 2) == "binomial");
  CHECK(pick(collective::prefix_reduce, 256 * 1024, 3) == "flat");
  CHECK(pick(collective::member_allreduce, 4096, 4) == "redundant");
  CHECK(pick(collective::member_allreduce, 4097, 4) == "chunked");
  CHECK(policy_text(collective::exchange) ==
        "mpi when the team spans several hosts; pairwise when the team spans >= 2 nodes and size > 2 KiB; multicore when the team "
        "spans several nodes; pull when size <= 4 KiB, else pairwise");
  CHECK(policy_text(collective::permute) == "pull");
  CHECK(policy_text(collective::gather) ==
        "mpi when the team spans several hosts; binomial_flat when the team spans >= 8 nodes and size <= 4 KiB; multicore when the "
        "team spans several nodes; push");
  CHECK(policy_text(collective::member_broadcast) == "mpi when the team spans several hosts, else pull");
  // a team over several nodes: the node-aware row where the collective has one
  auto pick_nodes = [](collective c, std::size_t size, int threads, int nodes) {
    selection s{c, "test", size, threads, 0, 0};
    s.nodes = nodes;
    return std::string(select(s).name);
  };
  CHECK(pick_nodes(collective::broadcast, 4096, 16, 2) == "multicore");
  CHECK(pick_nodes(collective::gather_all, 64, 8, 4) == "multicore");
  CHECK(pick_nodes(collective::broadcast, 4096, 16, 1) == "push");
  CHECK(pick_nodes(collective::exchange, 64, 8, 2) == "multicore");
  CHECK(pick_nodes(collective::exchange, 2049, 8, 2) == "pairwise");
  CHECK(pick_nodes(collective::permute, 64, 8, 2) == "pull");  // no multicore row
  // the node rows (min_nodes): the binomial tree over node roots on many nodes
  CHECK(pick_nodes(collective::broadcast, 64 * 1024, 16, 8) == "binomial_flat");
  CHECK(pick_nodes(collective::broadcast, 64 * 1024 - 1, 16, 8) == "multicore");
  CHECK(pick_nodes(collective::broadcast, 1 << 20, 16, 4) == "binomial_flat");
  CHECK(pick_nodes(collective::broadcast, (1 << 20) - 1, 16, 7) == "multicore");
  CHECK(pick_nodes(collective::gather, 4096, 16, 8) == "binomial_flat");
  CHECK(pick_nodes(collective::gather, 4097, 16, 8) == "multicore");
  CHECK(pick_nodes(collective::reduce, 8, 16, 8) == "binomial_flat");
  CHECK(pick_nodes(collective::scatter, 1 << 20, 16, 16) == "multicore");
  CHECK(pick_nodes(collective::prefix_reduce, 8, 8, 2) == "multicore");
  // a team over several hosts (the hosts are its nodes too): MPI's own
  // collective where the mpi family serves the call, else as on nodes
  auto pick_hosts = [](collective c, std::size_t size, int nodes, unsigned features) {
    selection s{c, "test", size, 4, 0, features};
    s.nodes = nodes;
    s.across_hosts = true;
    return std::string(select(s).name);
  };
  for (collective c : {collective::broadcast, collective::scatter, collective::gather, collective::gather_all, collective::exchange}) {
    CHECK(pick_hosts(c, 8, 2, 0) == "mpi");
    CHECK(pick_hosts(c, 1 << 20, 1, 0) == "mpi");
  }
  CHECK(pick_hosts(collective::exchange, 64, 2, feature::off_mpi) == "multicore");
  CHECK(pick_hosts(collective::exchange, 4096, 1, feature::off_mpi) == "pull");
  CHECK(pick_hosts(collective::reduce, 64, 2, 0) == "multicore");  // no mpi row: reductions keep their bits
  CHECK(pick_hosts(collective::permute, 64, 2, 0) == "pull");
  CHECK(pick_hosts(collective::member_exchange, 64, 1, 0) == "mpi");
  CHECK(pick_hosts(collective::member_exchange, 64, 1, feature::off_mpi) == "by_destination");
  CHECK(pick_nodes(collective::exchange, 64, 8, 2) == "multicore");  // nodes without hosts: no mpi
  // chunk lists: only a broadcast's list (one source run) takes the tree
  auto pick_list = [](std::size_t size, int nodes, bool one_run) {
    selection s{collective::chunks, "test", size, 16, 0, 0};
    s.nodes = nodes;
    s.one_run = one_run;
    return std::string(select(s).name);
  };
  CHECK(pick_list(1 << 20, 4, true) == "binomial_flat");
  CHECK(pick_list(1 << 20, 4, false) == "multicore");
  CHECK(pick_list(64 * 1024, 4, true) == "multicore");
  CHECK(pick_list(64 * 1024, 16, true) == "binomial_flat");
  CHECK(pick_list(1 << 20, 1, true) == "pull");
  CHECK(policy_text(collective::reduce) ==
        "binomial_flat when the team spans >= 8 nodes; multicore when the team spans several nodes; flat");
}

TEST_CASE("registry: a chunk list is one run when every chunk between threads reads the same bytes") {
  std::vector<chunk> list = {{{0, 0, true}, {0, 0, true}, 8}, {{0, 0, true}, {0, 1, true}, 8}, {{0, 0, true}, {0, 2, true}, 8}};
  request rq;
  rq.chunks = &list;
  CHECK(rq.one_run());  // the chunk within thread 0 does not count
  list.push_back({{8, 0, true}, {0, 3, true}, 8});
  CHECK(!rq.one_run());  // a scatter's list
  list = {{{0, 1, false}, {0, 1, false}, 8}};
  CHECK(!rq.one_run());  // nothing between threads
}

TEST_CASE("registry: flag bits choose their row, and a row's restrictions are enforced") {
  CHECK(std::string(select(selection{collective::broadcast, "f", 8, 4, UPC_PUSH, 0}).name) == "push");
  CHECK(message_of(selection{collective::reduce, "upc_all_reduceI", 8, 4, UPC_PULL, 0})
            .find("UPC_PULL has no algorithm for reduce yet") != std::string::npos);
  // The owner-executor algorithms serve shared, out-of-place, prefix calls only.
  const std::string m = message_of(selection{collective::broadcast, "upc_all_broadcast_priv", 8, 4, 0, feature::private_src});
  CHECK(m.find("upc_all_broadcast_priv") != std::string::npos);
  CHECK(m.find("cannot run this call: it does not serve private src") != std::string::npos);
  CHECK(m.find("valid algorithms for broadcast: pull, push, binomial") != std::string::npos);
  CHECK(message_of(selection{collective::prefix_reduce, "f", 8, 4, 0, feature::suffix}).find("suffix scans") !=
        std::string::npos);
  // A forced choice is never replaced by another.
  force_algorithm("scatter", "binomial");
  CHECK(message_of(selection{collective::scatter, "f", 8, 4, 0, feature::in_place}).find("'binomial' cannot run") !=
        std::string::npos);
  reset_algorithms();
}

TEST_CASE("registry: docs/algorithms.md shows the policy and restrictions the registry has") {
  std::ifstream f(UPCEMU_SOURCE_ROOT "/docs/algorithms.md");
  REQUIRE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  const std::string doc = text.str();
  const std::string begin = "<!-- BEGIN upcrun --list-algorithms -->\n```\n", end = "```\n<!-- END upcrun --list-algorithms -->";
  const std::size_t a = doc.find(begin), b = doc.find(end);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  const std::string shown = doc.substr(a + begin.size(), b - a - begin.size());
  CHECK_MESSAGE(shown == describe_algorithms(),
                "docs/algorithms.md is out of date: run tools/update_algorithm_list.py (it pastes `upcrun --list-algorithms` between the markers)");
}
