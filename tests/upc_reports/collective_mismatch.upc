#include <upc.h>
#include <upc_collective.h>
/* upc_all_broadcast called with a different nbytes on thread 1 */
shared [4] int dst[4 * THREADS];
shared [4] int src[4];
int main(void) {
  upc_barrier;
  upc_all_broadcast(dst, src, MYTHREAD == 1 ? 2 * sizeof(int) : 4 * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  upc_barrier;
  return 0;
}
