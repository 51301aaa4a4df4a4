/* Race (NAS MG's ghost exchange): each thread upc_memputs from its own block,
   read through a local pointer, into its neighbour's block, while the other
   neighbour upc_memputs into that same block: no barrier between them. */
#include <upc.h>
shared [8] double grid[8 * THREADS];
int main(void) {
  double *mine = (double *) &grid[8 * MYTHREAD];
  upc_memput(&grid[8 * ((MYTHREAD + 1) % THREADS) + 4], mine + 4, 4 * sizeof(double));
  upc_barrier;
  return 0;
}
