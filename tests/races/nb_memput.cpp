// Race kind: a non-blocking put read before its sync. Each thread puts into
// its right neighbour's block with upc_memput_nb, and reads its own after a
// barrier. The put may land at any moment until upc_sync, so the barrier
// orders nothing unless the put is synced before it (right).
#include "mode.hpp"
#include "upc.h"
#include "upc_nb.h"

upc::shared_array<int, 4> blocks(upc::per_thread(4));

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  const int mine[4] = {1, 2, 3, 4};
  upc_handle_t h = upc_memput_nb(&blocks[4 * ((MYTHREAD + 1) % THREADS)], mine, sizeof mine);  // race: write
  if (right) upc_sync(h);
  upc_barrier;
  int sum = 0;
  for (int i = 0; i < 4; ++i) sum += blocks[4 * MYTHREAD + i];  // race: read
  if (!right) upc_sync(h);
  upc_barrier;
  return sum != 10;
}
