#include <stdlib.h>
#include <upc.h>
#include <upc_collective.h>
/* Thread 1 calls exit(0), which ends that thread alone, after the others
   have made a UPC_IN_NOSYNC | UPC_OUT_NOSYNC broadcast (issue 27.1). */
shared [4] int dst[4 * THREADS];
shared [4] int src[4];
strict shared int done;
int main(void) {
  if (MYTHREAD == 1) {
    while (!done) upc_poll();
    exit(0);
  }
  upc_all_broadcast(dst, src, 4 * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  if (MYTHREAD == 0) done = 1;
  return 0;
}
