/* Race: a upc_memput into another thread's block while it reads it. */
#include <upc.h>
shared [4] int blocks[4 * THREADS];
int main(void) {
  int mine[4] = {1, 2, 3, 4}, i, s = 0;
  upc_memput(&blocks[4 * ((MYTHREAD + 1) % THREADS)], mine, sizeof mine);
  for (i = 0; i < 4; i++) s += blocks[4 * MYTHREAD + i];
  upc_barrier;
  return s < 0;
}
