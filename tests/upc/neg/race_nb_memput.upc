/* Race: a upc_memput_nb into the neighbour's block, synced after the barrier. */
#include <upc.h>
#include <upc_nb.h>
shared [4] int blocks[4 * THREADS];
int main(void) {
  int mine[4] = {1, 2, 3, 4}, i, s = 0;
  upc_handle_t h = upc_memput_nb(&blocks[4 * ((MYTHREAD + 1) % THREADS)], mine, sizeof mine);
  upc_barrier; /* orders the put's start, not the put: it lasts until upc_sync */
  for (i = 0; i < 4; i++) s += blocks[4 * MYTHREAD + i];
  upc_sync(h);
  upc_barrier;
  return s != 10;
}
