#include <upc.h>
#include <upc_collective.h>
/* Thread 1 returns from main while the others make a UPC_IN_NOSYNC |
   UPC_OUT_NOSYNC broadcast, which waits for no one (issue 27.1). */
shared [4] int dst[4 * THREADS];
shared [4] int src[4];
int main(void) {
  if (MYTHREAD == 1) return 0;
  upc_all_broadcast(dst, src, 4 * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  return 0;
}
