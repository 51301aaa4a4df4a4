#include "topology.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "upc_topology.h"

namespace upc::detail {

node_map g_node_map;

namespace {
int g_nodes = 1;
}  // namespace

void set_node_map(node_map m) {
  g_nodes = static_cast<int>(m.threads_of_node.size());
  g_node_map = std::move(m);
}

namespace {

[[noreturn]] void refuse(const std::string& why) { throw error("upcrun", why, -1); }

std::string str(long long v) { return std::to_string(v); }

node_map from_assignment(int threads, int nodes, const std::vector<int>& node_of, const std::string& how) {
  node_map m;
  m.node_of_thread = node_of;
  m.threads_of_node.assign(static_cast<std::size_t>(nodes), {});
  for (int t = 0; t < threads; ++t) m.threads_of_node[static_cast<std::size_t>(node_of[static_cast<std::size_t>(t)])].push_back(t);
  std::size_t lo = m.threads_of_node.front().size(), hi = lo;
  for (const auto& v : m.threads_of_node) {
    lo = std::min(lo, v.size());
    hi = std::max(hi, v.size());
  }
  m.description = str(nodes) + (nodes == 1 ? " node" : " nodes") + " x " +
                  (lo == hi ? str(static_cast<long long>(lo)) : str(static_cast<long long>(lo)) + "-" + str(static_cast<long long>(hi))) +
                  (hi == 1 ? " thread" : " threads") + " (" + how + ")";
  return m;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) refuse("--node-map: cannot read the node map file '" + path + "' (give 'block', 'cyclic' or a readable file)");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

node_map parse_node_map(int threads, const std::string& text, const std::string& name) {
  std::vector<int> node_of(static_cast<std::size_t>(threads), -1);
  std::istringstream lines(text);
  std::string line;
  int node = 0, line_no = 0;
  while (std::getline(lines, line)) {
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    for (char& ch : line)
      if (ch == ',' || ch == '\t' || ch == '\r') ch = ' ';
    std::istringstream words(line);
    std::string w;
    bool any = false;
    while (words >> w) {
      const std::string where = "--node-map " + name + " line " + str(line_no) + ": ";
      long long lo = 0, hi = 0;
      std::size_t used = 0;
      try {
        const std::size_t dash = w.find('-', 1);
        lo = std::stoll(w.substr(0, dash), &used);
        if (used != (dash == std::string::npos ? w.size() : dash)) throw std::invalid_argument(w);
        hi = lo;
        if (dash != std::string::npos) {
          const std::string rest = w.substr(dash + 1);
          hi = std::stoll(rest, &used);
          if (used != rest.size()) throw std::invalid_argument(w);
        }
      } catch (const std::exception&) {
        refuse(where + "'" + w + "' is not a thread number or a range such as 0-3");
      }
      if (lo < 0 || hi >= threads || lo > hi)
        refuse(where + "'" + w + "' names threads outside 0.." + str(threads - 1) + " (THREADS is " + str(threads) + ")");
      for (long long t = lo; t <= hi; ++t) {
        int& slot = node_of[static_cast<std::size_t>(t)];
        if (slot >= 0)
          refuse(where + "thread " + str(t) + " is named twice (already on node " + str(slot) + ")");
        slot = node;
      }
      any = true;
    }
    if (any) ++node;
  }
  for (int t = 0; t < threads; ++t)
    if (node_of[static_cast<std::size_t>(t)] < 0)
      refuse("--node-map " + name + ": thread " + str(t) + " is on no node (every thread 0.." + str(threads - 1) + " must be named once)");
  return from_assignment(threads, node, node_of, "map " + name);
}

node_map hosts_node_map(const std::vector<int>& host_of) {
  const int hosts = host_of.empty() ? 1 : *std::max_element(host_of.begin(), host_of.end()) + 1;
  return from_assignment(static_cast<int>(host_of.size()), hosts, host_of, "hosts");
}

node_map make_node_map(int threads, int nodes, int per_node, const std::string& map) {
  const std::string how = map.empty() ? "block" : map;
  if (nodes < 0 || nodes > threads)
    refuse("--nodes must be between 1 and THREADS (" + str(threads) + "), got " + str(nodes));
  if (per_node < 0 || per_node > threads)
    refuse("--threads-per-node must be between 1 and THREADS (" + str(threads) + "), got " + str(per_node));
  if (how != "block" && how != "cyclic") {
    node_map m = parse_node_map(threads, read_file(map), "'" + map + "'");
    const int n = static_cast<int>(m.threads_of_node.size());
    if (nodes && nodes != n)
      refuse("--nodes " + str(nodes) + " disagrees with --node-map '" + map + "', which has " + str(n) + " nodes");
    if (per_node)
      for (int k = 0; k < n; ++k)
        if (static_cast<int>(m.threads_of_node[static_cast<std::size_t>(k)].size()) != per_node)
          refuse("--threads-per-node " + str(per_node) + " disagrees with --node-map '" + map + "': node " + str(k) + " has " +
                 str(static_cast<long long>(m.threads_of_node[static_cast<std::size_t>(k)].size())) + " threads");
    return m;
  }
  if (per_node) {
    if (threads % per_node != 0)
      refuse("--threads-per-node " + str(per_node) + " does not divide THREADS (" + str(threads) +
             "): every node must hold the same number of threads (or give --nodes alone, or a --node-map file)");
    if (nodes && nodes * per_node != threads)
      refuse("--nodes " + str(nodes) + " x --threads-per-node " + str(per_node) + " is " + str(static_cast<long long>(nodes) * per_node) +
             " threads, but THREADS is " + str(threads));
    nodes = threads / per_node;
  }
  if (nodes == 0) nodes = 1;
  std::vector<int> node_of(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t)
    node_of[static_cast<std::size_t>(t)] =
        how == "cyclic" ? t % nodes : static_cast<int>(static_cast<long long>(t) * nodes / threads);  // balanced blocks
  return from_assignment(threads, nodes, node_of, how);
}

}  // namespace upc::detail

// <upc_topology.h>
namespace {
void check_thread(const char* function, const char* arg, int t) {
  (void)upc::mythread();  // only a UPC thread may ask
  if (t < 0 || t >= upc::threads())
    upc::detail::fail(function, std::string(arg) + " is " + std::to_string(t) + ", not a thread (THREADS is " +
                                    std::to_string(upc::threads()) + ", so 0 to " + std::to_string(upc::threads() - 1) + ")");
}
void check_node(const char* function, int n) {
  (void)upc::mythread();
  if (n < 0 || n >= upc::nodes())
    upc::detail::fail(function, "node is " + std::to_string(n) + ", not a node (there are " + std::to_string(upc::nodes()) +
                                    ", so 0 to " + std::to_string(upc::nodes() - 1) + ")");
}
}  // namespace

int upcemu_nodes(void) {
  (void)upc::mythread();
  return upc::nodes();
}
int upcemu_node_of(int thread) {
  check_thread("upcemu_node_of", "thread", thread);
  return upc::node_of(thread);
}
int upcemu_node_threads(int node, int* out, int max) {
  check_node("upcemu_node_threads", node);
  const std::vector<int>& v = upc::node_threads(node);
  if (max < 0) upc::detail::fail("upcemu_node_threads", "max is " + std::to_string(max) + ", negative");
  if (max > 0 && !out) upc::detail::fail("upcemu_node_threads", "out is a null pointer, and max is " + std::to_string(max));
  for (int i = 0; i < max && i < static_cast<int>(v.size()); ++i) out[i] = v[static_cast<std::size_t>(i)];
  return static_cast<int>(v.size());
}
int upcemu_node_root(int node) {
  check_node("upcemu_node_root", node);
  return upc::node_root(node);
}
unsigned int bupc_thread_distance(int threadX, int threadY) {
  check_thread("bupc_thread_distance", "threadX", threadX);
  check_thread("bupc_thread_distance", "threadY", threadY);
  if (threadX == threadY) return BUPC_THREADS_SAME;
  return upc::node_of(threadX) == upc::node_of(threadY) ? BUPC_THREADS_VERYNEAR : BUPC_THREADS_VERYFAR;
}

namespace upc {

using detail::g_node_map;

int nodes() noexcept { return detail::g_nodes; }
int node_of(int thread) noexcept {
  const auto& m = g_node_map.node_of_thread;
  if (thread < 0 || static_cast<std::size_t>(thread) >= m.size()) return 0;
  return m[static_cast<std::size_t>(thread)];
}
const std::vector<int>& node_threads(int node) {
  using detail::g_nodes;
  if (node < 0 || node >= g_nodes)
    detail::fail("upc::node_threads", "node " + std::to_string(node) + " is not a node: there are " + std::to_string(g_nodes) +
                                          " (0 to " + std::to_string(g_nodes - 1) + ")");
  return g_node_map.threads_of_node[static_cast<std::size_t>(node)];
}
const std::string& topology_description() noexcept { return g_node_map.description; }

}  // namespace upc
