/* Race: a UPC_OUT_NOSYNC collective read too early. Every thread reads its
   neighbour's block of the destination right after the call: with OUT_NOSYNC
   the call may still be writing it until the last thread has returned. */
#include <upc.h>
#include <upc_collective.h>
shared [] int src[4];
shared [4] int dst[4 * THREADS];
int main(void) {
  if (MYTHREAD == 0) src[1] = 42;
  upc_barrier;
  upc_all_broadcast(dst, src, 4 * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
  int got = dst[4 * ((MYTHREAD + 1) % THREADS) + 1];
  upc_barrier;
  return got != 42;
}
