// The virtual node topology (issue 11): how --nodes, --threads-per-node and
// --node-map place threads, what they refuse, and what programs can ask.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "../../lib/runtime/topology.hpp"
#include "../support/spmd.hpp"
#include "upc.h"
#include "upc_castable.h"

using upc::detail::make_node_map;
using upc::detail::node_map;
using upc::detail::parse_node_map;

namespace {

std::string refusal(int threads, int nodes, int per_node, const std::string& map) {
  try {
    make_node_map(threads, nodes, per_node, map);
  } catch (const upc::error& e) {
    return e.message();
  }
  return "";
}

std::string parse_refusal(int threads, const std::string& text) {
  try {
    parse_node_map(threads, text, "'m'");
  } catch (const upc::error& e) {
    return e.message();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("topology: block, cyclic and threads-per-node placements") {
  const node_map one = make_node_map(5, 0, 0, "");
  CHECK(one.node_of_thread == std::vector<int>{0, 0, 0, 0, 0});
  CHECK(one.description == "1 node x 5 threads (block)");

  const node_map block = make_node_map(7, 3, 0, "block");  // balanced: 3, 2, 2
  CHECK(block.node_of_thread == std::vector<int>{0, 0, 0, 1, 1, 2, 2});
  CHECK(block.threads_of_node[1] == std::vector<int>{3, 4});
  CHECK(block.description == "3 nodes x 2-3 threads (block)");

  const node_map cyclic = make_node_map(7, 3, 0, "cyclic");
  CHECK(cyclic.node_of_thread == std::vector<int>{0, 1, 2, 0, 1, 2, 0});
  CHECK(cyclic.threads_of_node[0] == std::vector<int>{0, 3, 6});

  const node_map per = make_node_map(16, 0, 4, "");
  CHECK(per.threads_of_node.size() == 4);
  for (int t = 0; t < 16; ++t) CHECK(per.node_of_thread[static_cast<std::size_t>(t)] == t / 4);
  CHECK(per.description == "4 nodes x 4 threads (block)");

  const node_map per_cyclic = make_node_map(8, 2, 4, "cyclic");
  CHECK(per_cyclic.node_of_thread == std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1});

  const node_map every = make_node_map(4, 4, 0, "");
  CHECK(every.node_of_thread == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("topology: options that do not fit THREADS or each other are refused with the reason") {
  CHECK(has(refusal(4, 5, 0, ""), "--nodes must be between 1 and THREADS (4), got 5"));
  CHECK(has(refusal(6, 0, 4, ""), "--threads-per-node 4 does not divide THREADS (6)"));
  CHECK(has(refusal(8, 3, 4, ""), "--nodes 3 x --threads-per-node 4 is 12 threads, but THREADS is 8"));
  CHECK(has(refusal(4, 0, 9, ""), "--threads-per-node must be between 1 and THREADS (4), got 9"));
  CHECK(has(refusal(4, 0, 0, "/nonexistent/map"), "cannot read the node map file '/nonexistent/map'"));
}

TEST_CASE("topology: a node map file lists each node's threads, every thread once") {
  const node_map m = parse_node_map(6, "# two nodes\n0 2 4-5\n\n1,3   # the rest\n", "'m'");
  CHECK(m.threads_of_node.size() == 2);
  CHECK(m.node_of_thread == std::vector<int>{0, 1, 0, 1, 0, 0});
  CHECK(m.threads_of_node[0] == std::vector<int>{0, 2, 4, 5});
  CHECK(m.description == "2 nodes x 2-4 threads (map 'm')");

  CHECK(has(parse_refusal(4, "0 1\n1 2 3\n"), "line 2: thread 1 is named twice (already on node 0)"));
  CHECK(has(parse_refusal(4, "0 1\n3\n"), "thread 2 is on no node"));
  CHECK(has(parse_refusal(4, "0-1\n2-9\n"), "line 2: '2-9' names threads outside 0..3 (THREADS is 4)"));
  CHECK(has(parse_refusal(4, "0 1\nnode 2 3\n"), "line 2: 'node' is not a thread number or a range such as 0-3"));
  CHECK(has(parse_refusal(4, "0 1 2 3-\n"), "'3-' is not a thread number"));

  // the file through make_node_map, and its agreement with --nodes / --threads-per-node
  const std::string path = spmd::tmp_path("topology.map");
  {
    std::ofstream f(path);
    f << "0 3\n1 2\n";
  }
  CHECK(make_node_map(4, 0, 0, path).node_of_thread == std::vector<int>{0, 1, 1, 0});
  CHECK(make_node_map(4, 2, 2, path).threads_of_node.size() == 2);
  CHECK(has(refusal(4, 3, 0, path), "--nodes 3 disagrees with --node-map '" + path + "', which has 2 nodes"));
  CHECK(has(refusal(4, 0, 1, path), "--threads-per-node 1 disagrees with --node-map '" + path + "': node 0 has 2 threads"));
  std::remove(path.c_str());
}

TEST_CASE("topology: programs ask for nodes, node threads, roots and bupc_thread_distance") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(6, b)) continue;
    upc::launch_options o = spmd::options(6, b);
    o.nodes = 2;
    o.node_map = "cyclic";  // {0, 2, 4} {1, 3, 5}
    upc::run_result r = upc::run(o, [] {
      SPMD_CHECK_EQ(upcemu_nodes(), 2);
      SPMD_CHECK_EQ(upcemu_node_of(MYTHREAD), MYTHREAD % 2);
      int out[8] = {};
      SPMD_CHECK_EQ(upcemu_node_threads(1, out, 8), 3);
      SPMD_CHECK(out[0] == 1 && out[1] == 3 && out[2] == 5);
      SPMD_CHECK_EQ(upcemu_node_threads(0, nullptr, 0), 3);
      SPMD_CHECK_EQ(upcemu_node_root(1), 1);
      SPMD_CHECK_EQ(upc::node_root(0), 0);
      for (int t = 0; t < THREADS; ++t) {
        const unsigned d = bupc_thread_distance(MYTHREAD, t);
        const unsigned want = t == MYTHREAD ? BUPC_THREADS_SAME : t % 2 == MYTHREAD % 2 ? BUPC_THREADS_VERYNEAR : BUPC_THREADS_VERYFAR;
        SPMD_CHECK_EQ(d, want);
      }
      SPMD_CHECK(upc::topology_description() == "2 nodes x 3 threads (cyclic)");
    });
    INFO(r.error);
    CHECK(r.ok());
  }
}

TEST_CASE("topology: across emulated nodes nothing is castable, as on a cluster") {
  if (spmd::skip_run(4, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(4, upc::backend_kind::threads);
  o.threads_per_node = 2;  // {0, 1} {2, 3}
  upc::run_result r = upc::run(o, [] {
    upc::sptr<int> a = upc::sptr<int>(upc_all_alloc(THREADS, sizeof(int)));
    for (int t = 0; t < THREADS; ++t) {
      const bool same_node = t / 2 == MYTHREAD / 2;
      void* p = upc_cast(a + t);
      SPMD_CHECK((p != nullptr) == same_node);
      SPMD_CHECK((bupc_thread_distance(MYTHREAD, t) <= BUPC_THREADS_VERYNEAR) == same_node);
      const upc_thread_info_t info = upc_thread_info(static_cast<size_t>(t));
      SPMD_CHECK((info.guaranteedCastable == UPC_CASTABLE_ALL) == same_node);
    }
    upc_barrier;
    if (MYTHREAD == 0) upc_free(a);
  });
  INFO(r.error);
  CHECK(r.ok());
}

TEST_CASE("topology: bad thread and node arguments name the function and the argument") {
  if (spmd::skip_run(2, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(2, upc::backend_kind::threads);
  o.quiet = true;
  upc::run_result r = upc::run(o, [] { (void)bupc_thread_distance(0, 5); });
  CHECK(r.failed);
  CHECK(has(r.error, "bupc_thread_distance: threadY is 5, not a thread (THREADS is 2, so 0 to 1)"));
  r = upc::run(o, [] { (void)upcemu_node_root(1); });
  CHECK(r.failed);
  CHECK(has(r.error, "upcemu_node_root: node is 1, not a node (there are 1, so 0 to 0)"));
}
