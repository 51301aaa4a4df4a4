/* Race: Berkeley's implicit put in an access region lasts until the region's
   handle is synced, here after the barrier the neighbour's read follows. */
#include <upc.h>
shared [4] int blocks[4 * THREADS];
int main(void) {
  int mine[4] = {1, 2, 3, 4}, i, s = 0;
  bupc_begin_accessregion();
  bupc_memput_asynci(&blocks[4 * ((MYTHREAD + 1) % THREADS)], mine, sizeof mine);
  bupc_handle_t region = bupc_end_accessregion();
  upc_barrier;
  for (i = 0; i < 4; i++) s += blocks[4 * MYTHREAD + i];
  bupc_waitsync(region);
  upc_barrier;
  return s != 10;
}
