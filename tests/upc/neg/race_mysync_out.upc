/* Race: UPC_OUT_MYSYNC orders a thread's own data only. Each thread reads its
   own block of the reduction's source right after the call (ordered), then
   thread 0 reads the result, which has affinity to thread 1 (not ordered). */
#include <upc.h>
#include <upc_collective.h>
shared long src[THREADS];
shared long result[THREADS];
int main(void) {
  long mine, total = 0;
  src[MYTHREAD] = MYTHREAD + 1;
  upc_barrier;
  upc_all_reduceL(&result[1], src, UPC_ADD, THREADS, 1, NULL, UPC_IN_NOSYNC | UPC_OUT_MYSYNC);
  mine = src[MYTHREAD];
  if (MYTHREAD == 0) total = result[1];
  upc_barrier;
  return mine != MYTHREAD + 1 || (MYTHREAD == 0 && total != THREADS * (THREADS + 1) / 2);
}
