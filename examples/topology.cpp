// A laptop run that behaves like a cluster (docs/topology.md): where each
// thread is, how far the others are, and what a broadcast sends between nodes.
//
//   upcrun -n 8 --nodes 2 ./topology                    # 2 nodes x 4 threads
//   upcrun -n 8 --nodes 2 --node-map cyclic ./topology  # thread t on node t % 2
//   upcrun -n 8 --nodes 2 --report=traffic ./topology   # and what crossed between them
//
// Checks its own answer: exit status 0 when the queries agree with each other
// and the broadcast arrived.
#include <cstdio>
#include <vector>

#include "upc.h"
#include "upc_collective.h"

int upc_main(int, char**) {
  int wrong = 0;
  const int me = MYTHREAD, node = upcemu_node_of(me);
  std::vector<int> mates(static_cast<std::size_t>(THREADS));
  const int on_my_node = upcemu_node_threads(node, mates.data(), THREADS);

  // Thread distances agree with the nodes: VERYNEAR on my node, VERYFAR off it.
  int near = 0;
  for (int t = 0; t < THREADS; ++t) {
    const unsigned d = bupc_thread_distance(me, t);
    if (d == BUPC_THREADS_VERYNEAR) ++near;
    const unsigned want = t == me ? BUPC_THREADS_SAME : upcemu_node_of(t) == node ? BUPC_THREADS_VERYNEAR : BUPC_THREADS_VERYFAR;
    if (d != want) ++wrong;
  }
  if (near != on_my_node - 1) ++wrong;

  if (me == 0) std::printf("%d threads on %d node(s)\n", THREADS, upcemu_nodes());
  upc_barrier;
  std::printf("thread %d: node %d (root %d), %d thread(s) on my node\n", me, node, upcemu_node_root(node), on_my_node);

  // A broadcast from thread 0: every thread off node 0 receives its copy across the network.
  const std::size_t n = 1 << 16;
  upc::sptr<char> src = upc::sptr<char>(upc_all_alloc(1, n));
  upc::sptr<char> dst = upc::sptr<char>(upc_all_alloc(THREADS, n));
  if (me == 0)
    for (std::size_t i = 0; i < n; ++i) src.local()[i] = static_cast<char>(i * 7);
  upc_all_broadcast(dst, src, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  const char* got = (upc::sptr<char>(dst) + me).local();  // my block (block size 1: element me is on thread me)
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != static_cast<char>(i * 7)) {
      ++wrong;
      break;
    }
  upc_barrier;
  if (me == 0) {
    upc_free(src);
    upc_free(dst);
  }
  if (wrong) std::printf("thread %d: %d check(s) failed\n", me, wrong);
  return wrong ? 1 : 0;
}
