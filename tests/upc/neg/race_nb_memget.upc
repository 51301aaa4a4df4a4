/* Race: a upc_memget_nb of the neighbour's block, which it overwrites after
   the barrier; the get is synced only after that barrier. */
#include <upc.h>
#include <upc_nb.h>
shared [4] int blocks[4 * THREADS];
int main(void) {
  int got[4], i;
  for (i = 0; i < 4; i++) blocks[4 * MYTHREAD + i] = i;
  upc_barrier;
  upc_handle_t h = upc_memget_nb(got, &blocks[4 * ((MYTHREAD + 1) % THREADS)], sizeof got);
  upc_barrier;
  for (i = 0; i < 4; i++) blocks[4 * MYTHREAD + i] = 10 + i;
  upc_sync(h);
  return got[3] != 3;
}
