/* The virtual node topology of a run (docs/topology.md): upcrun --nodes,
 * --threads-per-node and --node-map place the UPC threads on emulated nodes of
 * a cluster. <upc.h> includes this header, so Berkeley UPC programs that call
 * bupc_thread_distance compile unchanged.
 *
 *   upcemu_nodes()                 how many nodes (1 unless upcrun says otherwise)
 *   upcemu_node_of(t)              the node of thread t
 *   upcemu_node_threads(n, out, m) the threads of node n, in increasing order,
 *                                  into out[0..m); returns how many there are
 *   upcemu_node_root(n)            node n's first thread (its root, seed 001)
 *   bupc_thread_distance(x, y)     BUPC_THREADS_SAME for x == y, VERYNEAR on the
 *                                  same node, VERYFAR between nodes (every
 *                                  emulated node is a separate host) */
#pragma once
#include <cstddef>

#define BUPC_THREADS_SAME 0
#define BUPC_THREADS_VERYNEAR 100
#define BUPC_THREADS_NEAR 200
#define BUPC_THREADS_FAR 300
#define BUPC_THREADS_VERYFAR 400

int upcemu_nodes(void);
int upcemu_node_of(int thread);
int upcemu_node_threads(int node, int* out, int max);
int upcemu_node_root(int node);
unsigned int bupc_thread_distance(int threadX, int threadY);
