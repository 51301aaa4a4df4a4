// Race kind: a non-blocking get whose source is overwritten before its sync.
// Each thread gets its right neighbour's block with upc_memget_nb; after a
// barrier each overwrites its own block. The get may read at any moment until
// upc_sync, so it must be synced before the barrier (right).
#include "mode.hpp"
#include "upc.h"
#include "upc_nb.h"

upc::shared_array<int, 4> blocks(upc::per_thread(4));

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  for (int i = 0; i < 4; ++i) blocks[4 * MYTHREAD + i] = i;
  upc_barrier;
  int got[4];
  upc_handle_t h = upc_memget_nb(got, &blocks[4 * ((MYTHREAD + 1) % THREADS)], sizeof got);  // race: read
  if (right) upc_sync(h);
  upc_barrier;
  for (int i = 0; i < 4; ++i) blocks[4 * MYTHREAD + i] = 10 + i;  // race: write
  if (!right) upc_sync(h);
  upc_barrier;
  return got[3] != 3;
}
