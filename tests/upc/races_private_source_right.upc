/* NAS MG's ghost exchange done right: each thread upc_memputs from its own
   block, read through a local pointer, into its neighbour's block, one half
   per phase, so that no thread reads the half another writes in that phase.
   Clean under --check=races; the values arrive. */
#include <upc.h>
shared [8] double grid[8 * THREADS];
int main(void) {
  double *mine = (double *) &grid[8 * MYTHREAD];
  const int next = (MYTHREAD + 1) % THREADS, prev = (MYTHREAD + THREADS - 1) % THREADS;
  for (int i = 0; i < 8; i++) mine[i] = MYTHREAD * 10 + i;
  upc_barrier;
  upc_memput(&grid[8 * next + 4], mine, 4 * sizeof(double));     /* my 0..3 -> next's 4..7 */
  upc_barrier;
  upc_memput(&grid[8 * next], mine + 4, 4 * sizeof(double));     /* my 4..7 (prev's 0..3) -> next's 0..3 */
  upc_barrier;
  const int prev2 = (prev + THREADS - 1) % THREADS;
  for (int i = 0; i < 4; i++)
    if (mine[i] != prev2 * 10 + i || mine[4 + i] != prev * 10 + i) return 1;
  return 0;
}
