// Race kind: split-phase misuse. Between upc_notify and upc_wait nothing is
// ordered: wrong reads the neighbour's element there; right reads it after
// upc_wait.
#include "mode.hpp"
#include "upc.h"

upc::shared_array<int> a(upc::per_thread(1));

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  const int next = (MYTHREAD + 1) % THREADS;
  a[MYTHREAD] = MYTHREAD;  // race: write
  upc_notify;
  int seen = 0;
  if (!right) seen = a[next];  // race: read
  upc_wait;
  if (right) seen = a[next];
  upc_barrier;
  return seen != next;
}
