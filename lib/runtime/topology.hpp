// The virtual node topology (issue 11): which emulated node each UPC thread is
// on. Built once per run from --nodes / --threads-per-node / --node-map (and
// their UPCEMU_* forms), before the threads start, so every thread and
// process sees the same map. One node, the default, is a plain shared-memory
// machine; more nodes make the runtime tell near from far (thread distances,
// castability, node-aware collectives, the traffic report).
#pragma once
#include <string>
#include <vector>

namespace upc::detail {

struct node_map {
  std::vector<int> node_of_thread;              // by thread
  std::vector<std::vector<int>> threads_of_node;  // by node, each in increasing thread order
  std::string description;                      // "4 nodes x 4 threads (block)", for reports
};

// nodes / per_node: 0 when not given. map: "" or "block" (consecutive threads
// together), "cyclic" (thread t on node t mod N), or a file naming each node's
// threads. Throws upc::error("upcrun", reason) when the options do not fit
// THREADS or each other.
node_map make_node_map(int threads, int nodes, int per_node, const std::string& map);

// The parser of a node map file's text (exposed for tests): one line per node,
// threads as numbers or ranges (0-3) separated by spaces or commas, '#'
// starting a comment; every thread 0..threads-1 exactly once.
node_map parse_node_map(int threads, const std::string& text, const std::string& name);

// The nodes of an mpi job spread over hosts: its hosts, thread t on host
// host_of[t] (hosts numbered from 0).
node_map hosts_node_map(const std::vector<int>& host_of);

extern node_map g_node_map;
// Makes `m` the current run's map (run(), before the threads start): what
// upc::nodes(), node_of(), node_threads() and topology_description() answer.
void set_node_map(node_map m);

}  // namespace upc::detail
