#include <upc.h>
#include <upc_collective_ext.h>
/* upc_all_broadcast_in_place called with a different nbytes on thread 1 */
shared [4] int buf[4 * THREADS];
int main(void) {
  upc_barrier;
  upc_all_broadcast_in_place(buf, MYTHREAD == 1 ? 2 * sizeof(int) : 4 * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  upc_barrier;
  return 0;
}
