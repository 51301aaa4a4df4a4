/* Race: thread 0 writes the source, then every thread broadcasts it with
   UPC_IN_NOSYNC and no barrier in between: the call may read the source as
   soon as the first thread has entered, before thread 0 has written it. */
#include <upc.h>
#include <upc_collective.h>
shared [] int src[4];
shared [4] int dst[4 * THREADS];
int main(void) {
  if (MYTHREAD == 0) src[1] = 42;
  upc_all_broadcast(dst, src, 4 * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
  return dst[4 * MYTHREAD + 1] != 42;
}
